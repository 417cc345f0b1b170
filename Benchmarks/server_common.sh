# server_common.sh - sourced by the wrk harnesses (server_bench.sh, server_sdk_bench.sh, server_hardening.sh):
# settings, the navgraph graph and the OSRM dataset of one extract, the pair file, and the wrk helpers.
# Expects EXTRACT set; reads THREADS, CONNECTIONS, PAIRS, SEED, DATA, PEERS_VENV, SECONDS_PER_CASE.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-16}"
PAIRS="${PAIRS:-1000}"
SEED="${SEED:-12}"
DATA="${DATA:-/work/shared/data}"
VENV="${PEERS_VENV:-$ROOT/Benchmarks/work/peers-venv}"
PY="$VENV/bin/python"
OSRM_BIN="$("$PY" -c 'import osrm, pathlib; print(pathlib.Path(osrm.__file__).parent / "bin")')"
PROFILE="$(dirname "$OSRM_BIN")/share/profiles/car.lua"
WORK="$ROOT/Benchmarks/work/server/$EXTRACT"
mkdir -p "$WORK"

[ -x .build/release/navgraph ] || swift build -c release --product navgraph >&2
if [ ! -f "$WORK/$EXTRACT.navgraph" ]; then
  .build/release/navgraph import "$DATA/$EXTRACT.osm.pbf" -o "$WORK/$EXTRACT.navgraph" --quiet >&2
fi
# prepare_osrm: extract, partition, customize and contract once (partition renumbers the graph, so the CH is
# contracted after it and both algorithms share one dataset).
prepare_osrm() {
  [ -f "$WORK/osrm/done" ] && return 0
  mkdir -p "$WORK/osrm"
  cp "$DATA/$EXTRACT.osm.pbf" "$WORK/osrm/"
  (cd "$WORK/osrm" && "$OSRM_BIN/osrm-extract" -p "$PROFILE" "$EXTRACT.osm.pbf" >extract.log 2>&1 \
    && "$OSRM_BIN/osrm-partition" "$EXTRACT.osrm" >partition.log 2>&1 \
    && "$OSRM_BIN/osrm-customize" "$EXTRACT.osrm" >customize.log 2>&1 \
    && "$OSRM_BIN/osrm-contract" "$EXTRACT.osrm" >contract.log 2>&1 && touch done)
}

PAIRFILE="$WORK/pairs-$PAIRS-s$SEED.csv"
[ -f "$PAIRFILE" ] || "$PY" Tools/make_pairs.py "$DATA/$EXTRACT.osm.pbf" "$PAIRS" "$SEED" > "$PAIRFILE"

# write_list NAME PREFIX QUERY: one request path per pair, PREFIX + "lon,lat;lon,lat" + "?" + QUERY, to $WORK/NAME.txt.
write_list() {
  awk -F, -v prefix="$2" -v query="$3" 'NF == 4 { print prefix $1 "," $2 ";" $3 "," $4 (query == "" ? "" : "?" query) }' \
    "$PAIRFILE" > "$WORK/$1.txt"
}

wait_ready() {  # port
  for _ in $(seq 1 300); do
    curl -s -o /dev/null "http://127.0.0.1:$1/nearest/v1/driving/$(head -1 "$PAIRFILE" | cut -d, -f1,2)" && return 0
    sleep 0.2
  done
  echo "server on port $1 did not come up" >&2; return 1
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # user + system clock ticks of all the process's threads

# run_case NAME PORT LIST [PID] -> "qps p50 p99 non2xx [cpu_ms_per_request] [socket errors]" (wrk's output kept in
# $WORK/wrk-NAME-LIST.txt). With the server's PID, also the CPU time it spent per answered request: unlike QPS and
# latency, hardly moved by other processes competing for the cores.
run_case() {
  local out="$WORK/wrk-$1-$3.txt" ticks=""
  [ -n "${4:-}" ] && ticks=$(cpu_ticks "$4")
  REQUESTS="$WORK/$3.txt" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_CASE}s" --latency --timeout 30s -s Benchmarks/server_requests.lua \
    "http://127.0.0.1:$2" > "$out" 2>&1 || true
  [ -n "${4:-}" ] && ticks=$(( $(cpu_ticks "$4") - ticks ))
  "$PY" - "$out" "$ticks" "$(getconf CLK_TCK)" <<'PYEOF'
import re, sys
text = open(sys.argv[1]).read()
done = re.search(r"(\d+) requests in", text)
cpu = f" {1000 * int(sys.argv[2]) / int(sys.argv[3]) / int(done.group(1)):.3f}" if sys.argv[2] and done and int(done.group(1)) else ""
def ms(label):
    m = re.search(r"^\s*" + label + r"%\s+([\d.]+)(us|ms|s)\b", text, re.M)
    if not m: return float("nan")
    v, u = float(m.group(1)), m.group(2)
    return v / 1000 if u == "us" else v * 1000 if u == "s" else v
qps = re.search(r"Requests/sec:\s+([\d.]+)", text)
bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
errors = re.search(r"Socket errors: (.*)", text)
print(f"{float(qps.group(1)) if qps else float('nan'):.1f} {ms('50'):.3f} {ms('99'):.3f} {bad.group(1) if bad else 0}{cpu}"
      + (f" [{errors.group(1)}]" if errors else ""))
PYEOF
}

# body_bytes PORT LIST [N]: mean response body bytes over the list's first N (50) requests, as sent (compressed when
# ACCEPT_ENCODING is set and the server compresses).
body_bytes() {
  head -"${3:-50}" "$WORK/$2.txt" | while read -r path; do
    curl -s -o /dev/null -H "Accept-Encoding: ${ACCEPT_ENCODING:-identity}" -w '%{size_download}\n' "http://127.0.0.1:$1$path"
  done | awk '{ s += $1; n++ } END { printf "%.0f\n", n ? s / n : 0 }'
}

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
pss_kb() { awk '/^Pss:/ {print $2}' "/proc/$1/smaps_rollup"; }
