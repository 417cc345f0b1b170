#!/usr/bin/env bash
# server_bench.sh - HTTP throughput of `navgraph serve` next to osrm-routed (CH and MLD) on the same extract,
# the same request lists built from the same pairs, the same worker threads, driven by Debian's wrk in one run.
#
# Usage: Benchmarks/server_bench.sh [EXTRACT] [SECONDS]     (default milan, 10 s per case)
#   THREADS=2 CONNECTIONS=16 TABLE_CONNECTIONS=2 PAIRS=1000 SEED=12 ROUNDS=3
# Needs: wrk (apt), the peers venv (Tools/setup_peers.sh: osrm-bindings, pyosmium), a release build.
# Scratch goes to Benchmarks/work/server/; the summary table to stdout and Benchmarks/results/server-$EXTRACT.md.
set -euo pipefail
EXTRACT="${1:-milan}"
SECONDS_PER_CASE="${2:-10}"
source "$(dirname "$0")/server_common.sh"
prepare_osrm
write_list plain /route/v1/driving/ overview=false
write_list steps_alt3 /route/v1/driving/ "steps=true&alternatives=3"
"$PY" - "$PAIRFILE" "$WORK" <<'PYEOF'
import random, sys
pairs = [l.strip().split(",") for l in open(sys.argv[1]) if l.strip()]
work = sys.argv[2]
rng = random.Random(12)
points = [f"{p[0]},{p[1]}" for p in pairs] + [f"{p[2]},{p[3]}" for p in pairs]
with open(f"{work}/table100.txt", "w") as f:
    for _ in range(20): f.write("/table/v1/driving/" + ";".join(rng.sample(points, 100)) + "\n")
PYEOF

RESULT="$WORK/summary.txt"
: > "$RESULT"
ROUNDS="${ROUNDS:-3}"
# All three servers run side by side and the cases are interleaved round by round, so load from other
# processes on the machine hits them alike; the summary takes each figure's median over the rounds.
declare -A PORTS=([navgraph]=5611 [osrm-ch]=5612 [osrm-mld]=5613) PIDS=()
.build/release/navgraph serve "$WORK/$EXTRACT.navgraph" --port 5611 --threads "$THREADS" --quiet --max-alternatives 3 >"$WORK/navgraph.log" 2>&1 &
PIDS[navgraph]=$!
"$OSRM_BIN/osrm-routed" --algorithm ch -i 127.0.0.1 -p 5612 -t "$THREADS" "$WORK/osrm/$EXTRACT.osrm" >"$WORK/osrm-ch.log" 2>&1 &
PIDS[osrm-ch]=$!
"$OSRM_BIN/osrm-routed" --algorithm mld -i 127.0.0.1 -p 5613 -t "$THREADS" "$WORK/osrm/$EXTRACT.osrm" >"$WORK/osrm-mld.log" 2>&1 &
PIDS[osrm-mld]=$!
trap 'for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done' EXIT
for server in navgraph osrm-ch osrm-mld; do wait_ready "${PORTS[$server]}"; done
for round in $(seq 1 "$ROUNDS"); do
  for list in plain steps_alt3; do
    for server in navgraph osrm-ch osrm-mld; do
      echo "$server $list $(run_case "$server" "${PORTS[$server]}" "$list")" | tee -a "$RESULT" >&2
    done
  done
done
# Tables last, on fewer connections: a server keeps computing the tables it has read after wrk stops, which
# would otherwise slow whatever case runs next.
ROUTE_CONNECTIONS="$CONNECTIONS"
CONNECTIONS="${TABLE_CONNECTIONS:-2}"
for server in navgraph osrm-ch osrm-mld; do
  echo "$server table100 $(run_case "$server" "${PORTS[$server]}" table100)" | tee -a "$RESULT" >&2
  sleep 10
done
CONNECTIONS="$ROUTE_CONNECTIONS"
for server in navgraph osrm-ch osrm-mld; do
  echo "$server rss_kb $(rss_kb "${PIDS[$server]}") pss_kb $(pss_kb "${PIDS[$server]}")" | tee -a "$RESULT" >&2
done

"$PY" - "$RESULT" "$EXTRACT" "$THREADS" "$CONNECTIONS" "$SECONDS_PER_CASE" "$PAIRS" <<'PYEOF' | tee "Benchmarks/results/server-$EXTRACT.md"
import sys
lines = [l.split() for l in open(sys.argv[1])]
extract, threads, connections, seconds, pairs = sys.argv[2:7]
import os, statistics
grouped = {}
for l in lines:
    if l[1] != "rss_kb": grouped.setdefault((l[0], l[1]), []).append(l[2:6])
# Median of each figure over the rounds; non-2xx summed.
runs = {k: [statistics.median(float(r[0]) for r in v), statistics.median(float(r[1]) for r in v),
            statistics.median(float(r[2]) for r in v), sum(int(r[3]) for r in v)] for k, v in grouped.items()}
mem = {l[0]: (int(l[2]), int(l[4])) for l in lines if l[1] == "rss_kb"}
print(f"# navgraph serve vs osrm-routed on {extract}\n")
rounds = max(len(v) for v in grouped.values())
print(f"wrk {threads} threads, {connections} connections ({os.environ.get('TABLE_CONNECTIONS', '2')} for tables, run once after the rounds), {seconds} s per case, {rounds} interleaved rounds of the route cases (medians); "
      f"servers with {threads} worker threads side by side; {pairs} pairs from Tools/make_pairs.py; one run of Benchmarks/server_bench.sh.\n")
print("| case | server | QPS | p50 ms | p99 ms | non-2xx | QPS vs OSRM CH | p99 vs OSRM CH |")
print("|---|---|---|---|---|---|---|---|")
for case in ["plain", "steps_alt3", "table100"]:
    ref = runs.get(("osrm-ch", case))
    for server in ["navgraph", "osrm-ch", "osrm-mld"]:
        r = runs.get((server, case))
        if not r: continue
        qps, p50, p99, bad = float(r[0]), float(r[1]), float(r[2]), r[3]
        ratio = f"{qps / float(ref[0]):.2f}x" if ref and float(ref[0]) > 0 else "-"
        pr = f"{p99 / float(ref[2]):.2f}x" if ref and float(ref[2]) > 0 else "-"
        print(f"| {case} | {server} | {qps:.0f} | {p50:.2f} | {p99:.2f} | {bad} | {ratio} | {pr} |")
print("\n| server | RSS MB | PSS MB |\n|---|---|---|")
for server, (rss, pss) in mem.items():
    print(f"| {server} | {rss / 1024:.1f} | {pss / 1024:.1f} |")
PYEOF
