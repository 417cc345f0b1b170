#!/usr/bin/env bash
# server_hardening.sh - does `navgraph serve` keep its throughput and memory under hostile clients?
#   (i)   QPS at a plain request before and after three garbage connections (binary junk, a 100 KB URL, a POST
#         announcing a 100 MB body that then goes quiet)
#   (ii)  QPS while 100 slow clients trickle a byte a second, and while clients hang up mid-body; the hang-ups are also
#         compared with a control of the same connections, bytes and rate whose requests complete, since the hostile
#         client's own CPU comes out of the same two cores as the server's and wrk's
#   (iii) with --timeout 3: how long idle, slow and quiet-POST connections stay open (all should close by ~3 s + slack)
#   (iv)  RSS after 10k requests vs after MANY more (mixed plain/full/Mapbox SDK requests)
# QPS and server CPU per request are medians of ROUNDS runs, baseline and hostile runs interleaved; the CPU figure
# (which other processes on a shared machine hardly move) includes whatever the hostile clients cost the server.
#
# Usage: Benchmarks/server_hardening.sh [EXTRACT] [SECONDS]   (default milan, 5 s per QPS run)
#   THREADS=2 CONNECTIONS=4 ROUNDS=3 MANY=1000000 (stops earlier at MANY_SECONDS=360) TAG=
# Needs wrk (apt), the peers venv's python, a release build. Writes Benchmarks/results/server-hardening-$EXTRACT$TAG.md.
set -euo pipefail
EXTRACT="${1:-milan}"
SECONDS_PER_CASE="${2:-5}"
CONNECTIONS="${CONNECTIONS:-4}"
source "$(dirname "$0")/server_common.sh"
ROUNDS="${ROUNDS:-3}"
MANY="${MANY:-1000000}"
MANY_SECONDS="${MANY_SECONDS:-360}"
HOSTILE=("$PY" Benchmarks/server_hostile.py)
write_list plain /route/v1/driving/ overview=false
write_list full /route/v1/driving/ "overview=full&geometries=polyline6"
write_list sdk /directions/v5/mapbox/driving-traffic/ "alternatives=false&geometries=polyline6&overview=full&steps=true&voice_instructions=true&banner_instructions=true&annotations=distance,duration,speed,congestion,maxspeed"
paste -d '\n' "$WORK/plain.txt" "$WORK/full.txt" "$WORK/plain.txt" "$WORK/sdk.txt" > "$WORK/mixed.txt"

PORT=5631 SHORT_PORT=5632
PIDS=()
.build/release/navgraph serve "$WORK/$EXTRACT.navgraph" --port $PORT --threads "$THREADS" --quiet >"$WORK/hardening.log" 2>&1 &
SERVER=$!
PIDS+=($SERVER)
trap 'for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done' EXIT
wait_ready $PORT
RESULT="$WORK/hardening-summary.txt"
: > "$RESULT"
note() { echo "$*" | tee -a "$RESULT" >&2; }

# (i) garbage: each round a baseline run, then the three garbage connections, then a run while the quiet POST is open.
for round in $(seq 1 "$ROUNDS"); do
  note "garbage before $(run_case garbage-before $PORT plain $SERVER)"
  "${HOSTILE[@]}" garbage $PORT & PIDS+=($!)
  sleep 0.5
  note "garbage after $(run_case garbage-after $PORT plain $SERVER)"
done
# (ii) 100 slow clients trickling, and clients hanging up mid-body, during the run.
for round in $(seq 1 "$ROUNDS"); do
  note "slow before $(run_case slow-before $PORT plain $SERVER)"
  "${HOSTILE[@]}" slow $PORT 100 $((SECONDS_PER_CASE + 3)) & PIDS+=($!)
  sleep 1.5
  note "slow during $(run_case slow-during $PORT plain $SERVER)"
  wait "${PIDS[-1]}" || true
  note "hangup before $(run_case hangup-before $PORT plain $SERVER)"
  "${HOSTILE[@]}" hangup $PORT $((SECONDS_PER_CASE + 1)) & PIDS+=($!)
  sleep 0.5
  note "hangup during $(run_case hangup-during $PORT plain $SERVER)"
  wait "${PIDS[-1]}" || true
  "${HOSTILE[@]}" completing $PORT $((SECONDS_PER_CASE + 1)) & PIDS+=($!)
  sleep 0.5
  note "hangup control $(run_case hangup-control $PORT plain $SERVER)"
  wait "${PIDS[-1]}" || true
done
note "health after $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/health")"

# (iii) connection lifetimes with --timeout 3.
.build/release/navgraph serve "$WORK/$EXTRACT.navgraph" --port $SHORT_PORT --threads "$THREADS" --quiet --timeout 3 >"$WORK/hardening-short.log" 2>&1 &
PIDS+=($!)
wait_ready $SHORT_PORT
note "closetimes timeout3 $("${HOSTILE[@]}" closetimes $SHORT_PORT 15)"
kill -TERM "${PIDS[-1]}"

# (iv) RSS after 10k requests, then after MANY (bounded by MANY_SECONDS).
count_run() {  # N SECONDS -> requests wrk completed
  MAX_REQUESTS=$1 WRK_THREADS=$THREADS REQUESTS="$WORK/mixed.txt" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2s" --timeout 30s \
    -s Benchmarks/server_requests.lua "http://127.0.0.1:$PORT" > "$WORK/wrk-rss-$1.txt" 2>&1 || true
  awk '/requests in/ { print $1 }' "$WORK/wrk-rss-$1.txt"
}
kill -TERM "$SERVER"; wait "$SERVER" 2>/dev/null || true
.build/release/navgraph serve "$WORK/$EXTRACT.navgraph" --port $PORT --threads "$THREADS" --quiet >"$WORK/hardening.log" 2>&1 &
SERVER=$!
PIDS+=($SERVER)
wait_ready $PORT
first=$(count_run 10000 60)
note "rss first $first $(rss_kb $SERVER)"
more=$(count_run "$MANY" "$MANY_SECONDS")
note "rss many $((first + more)) $(rss_kb $SERVER)"

"$PY" - "$RESULT" "$EXTRACT" "$THREADS" "$CONNECTIONS" "$SECONDS_PER_CASE" <<'PYEOF' | tee "Benchmarks/results/server-hardening-$EXTRACT${TAG:-}.md"
import statistics, sys
extract, threads, connections, seconds = sys.argv[2:6]
qps, other = {}, {}
for l in (l.split() for l in open(sys.argv[1])):
    if l[0] in ("garbage", "slow", "hangup"): qps.setdefault((l[0], l[1]), []).append((float(l[2]), float(l[6])))
    else: other[(l[0], l[1])] = l[2:]
rows = []
def check(ok): return "yes" if ok else "NO"
print(f"# navgraph serve under hostile clients on {extract}\n")
print(f"`navgraph serve --threads {threads}`; wrk {threads} threads, {connections} connections, {seconds} s per run at "
      f"`/route/v1/driving/...?overview=false` (unfiltered pairs: a few answer NoRoute alike in every run); QPS and server CPU per answered "
      f"request (user + system time of all its threads, which other load on the machine hardly moves) are medians of "
      f"{len(qps.get(('garbage', 'before'), []))} interleaved rounds. "
      "One run of Benchmarks/server_hardening.sh.\n")
print("| check | before | with hostile clients | ratio | within 10 % |\n|---|---|---|---|---|")
for name, label, during in [("garbage", "(i) QPS after 3 garbage connections (junk, 100 KB URL, quiet 100 MB POST)", "after"),
                            ("slow", "(ii) QPS with 100 clients trickling a byte a second", "during"),
                            ("hangup", "(ii) QPS with clients hanging up mid-body (50/s)", "during"),
                            ("hangup", "(ii) QPS with clients hanging up mid-body, against the control (50/s of the same POSTs completed)", "control")]:
    # The control row compares the hang-ups (its "with" column) with the completing clients (its "before" column).
    base, hostile = ("control", "during") if during == "control" else ("before", during)
    b, d = statistics.median(r[0] for r in qps[(name, base)]), statistics.median(r[0] for r in qps[(name, hostile)])
    print(f"| {label} | {b:.0f} | {d:.0f} | {d / b:.2f} | {check(d >= 0.9 * b)} |")
    b, d = statistics.median(r[1] for r in qps[(name, base)]), statistics.median(r[1] for r in qps[(name, hostile)])
    print(f"| {label.split(' ', 1)[0]} server CPU µs per answered request, same runs | {1000 * b:.0f} | {1000 * d:.0f} | {d / b:.2f} | {check(d <= 1.1 * b)} |")
health = other.get(("health", "after"), ["-"])[0]
times = dict(kv.split("=") for kv in other.get(("closetimes", "timeout3"), []))
for kind, t in times.items():
    ok = t != "open" and float(t) <= 3 + 2
    print(f"| (iii) --timeout 3: {kind.replace('_', ' ')} connections (10), latest close | - | {t} s | - | {check(ok)} (<= 3 s + 2 s slack) |")
f, m = other[("rss", "first")], other[("rss", "many")]
print(f"| (iv) RSS after {int(f[0]):,} vs after {int(m[0]):,} requests (mixed plain/full/SDK) | {int(f[1]) / 1024:.1f} MB | {int(m[1]) / 1024:.1f} MB | "
      f"{int(m[1]) / int(f[1]):.2f} | {check(int(m[1]) <= 1.1 * int(f[1]))} |")
print(f"\n/health after the hostile rounds: {health}.")
PYEOF
