#!/usr/bin/env bash
# server_sdk_bench.sh - throughput of `navgraph serve` at the navigation SDK's request (Mapbox Directions v5 with
# steps, voice and banner instructions and annotations) next to osrm-routed CH at the closest request OSRM supports.
# Both servers side by side, the same pairs, the same worker threads; cases interleaved round by round (medians):
#   sdk        navgraph  /directions/v5/mapbox/driving-traffic/...?<the SDK's query>
#   osrm_steps osrm-ch   /route/v1/driving/...?steps=true&annotations=duration,distance,speed  (closest OSRM request)
#   osrm_steps navgraph  the same OSRM request
#   full       both      /route/v1/driving/...?overview=full&geometries=polyline6
#   sdk_gzip, osrm_steps_gzip: sdk and osrm_steps with the header the SDKs' HTTP stacks send (URLSession's
#              `Accept-Encoding: gzip, deflate, br`); each server compresses as it does for such a client
#
# Usage: Benchmarks/server_sdk_bench.sh [EXTRACT] [SECONDS]   (default milan, 5 s per case)
#   THREADS=2 (server workers and wrk threads) CONNECTIONS=4 ROUNDS=5 PAIRS=1000 SEED=12 TAG= (suffix of the result file)
#   BASELINE=path/to/an/older/navgraph adds it as server navgraph-base at the navgraph cases, to measure a change in one run.
# Needs wrk (apt), the peers venv (Tools/setup_peers.sh), a release build. Writes Benchmarks/results/server-sdk-$EXTRACT$TAG.md.
set -euo pipefail
EXTRACT="${1:-milan}"
SECONDS_PER_CASE="${2:-5}"
CONNECTIONS="${CONNECTIONS:-4}"
source "$(dirname "$0")/server_common.sh"
prepare_osrm
RESULT="$WORK/sdk-summary.txt"
: > "$RESULT"
ROUNDS="${ROUNDS:-5}"
declare -A PORTS=([navgraph]=5621 [osrm-ch]=5622) PIDS=()
.build/release/navgraph serve "$WORK/$EXTRACT.navgraph" --port 5621 --threads "$THREADS" --quiet >"$WORK/sdk-navgraph.log" 2>&1 &
PIDS[navgraph]=$!
"$OSRM_BIN/osrm-routed" --algorithm ch -i 127.0.0.1 -p 5622 -t "$THREADS" "$WORK/osrm/$EXTRACT.osrm" >"$WORK/sdk-osrm-ch.log" 2>&1 &
PIDS[osrm-ch]=$!
if [ -n "${BASELINE:-}" ]; then
  PORTS[navgraph-base]=5623
  "$BASELINE" serve "$WORK/$EXTRACT.navgraph" --port 5623 --threads "$THREADS" --quiet >"$WORK/sdk-navgraph-base.log" 2>&1 &
  PIDS[navgraph-base]=$!
fi
trap 'for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done' EXIT
for server in "${!PORTS[@]}"; do wait_ready "${PORTS[$server]}"; done
# Only pairs both servers route (200 at `full`), so no case is sped up by quick error answers.
ROUTED="$WORK/pairs-$PAIRS-s$SEED-routed.csv"
while IFS=, read -r a b c d; do
  path="/route/v1/driving/$a,$b;$c,$d?overview=false"
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:5621$path")" = 200 ] \
    && [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:5622$path")" = 200 ] && echo "$a,$b,$c,$d" || true
done < "$PAIRFILE" > "$ROUTED"
echo "$(wc -l < "$ROUTED") of $PAIRS pairs routed by both" >&2
PAIRFILE="$ROUTED"
SDK_QUERY="alternatives=false&continue_straight=true&geometries=polyline6&overview=full&steps=true&language=en&voice_instructions=true&voice_units=metric&banner_instructions=true&annotations=distance,duration,speed,congestion,maxspeed&access_token=pk.test"
write_list sdk /directions/v5/mapbox/driving-traffic/ "$SDK_QUERY"
write_list osrm_steps /route/v1/driving/ "steps=true&annotations=duration,distance,speed"
write_list full /route/v1/driving/ "overview=full&geometries=polyline6"
cp "$WORK/sdk.txt" "$WORK/sdk_gzip.txt"
cp "$WORK/osrm_steps.txt" "$WORK/osrm_steps_gzip.txt"
SDK_ENCODING="gzip, deflate, br"

CASES=("navgraph sdk" "osrm-ch osrm_steps" "navgraph osrm_steps" "navgraph full" "osrm-ch full"
       "navgraph sdk_gzip" "osrm-ch osrm_steps_gzip" "navgraph osrm_steps_gzip")
[ -n "${BASELINE:-}" ] && CASES=("navgraph sdk" "navgraph-base sdk" "osrm-ch osrm_steps" "navgraph osrm_steps" "navgraph-base osrm_steps"
                                 "navgraph full" "navgraph-base full" "osrm-ch full"
                                 "navgraph sdk_gzip" "navgraph-base sdk_gzip" "osrm-ch osrm_steps_gzip" "navgraph osrm_steps_gzip")
encoding_of() { case "$1" in *_gzip) echo "$SDK_ENCODING" ;; *) echo "" ;; esac; }
for case in "${CASES[@]}"; do
  set -- $case
  echo "$1 $2 bytes $(ACCEPT_ENCODING="$(encoding_of "$2")" body_bytes "${PORTS[$1]}" "$2")" | tee -a "$RESULT" >&2
done
for round in $(seq 1 "$ROUNDS"); do
  for case in "${CASES[@]}"; do
    set -- $case
    echo "$1 $2 $(ACCEPT_ENCODING="$(encoding_of "$2")" run_case "$1" "${PORTS[$1]}" "$2" "${PIDS[$1]}")" | tee -a "$RESULT" >&2
  done
done

"$PY" - "$RESULT" "$EXTRACT" "$THREADS" "$CONNECTIONS" "$SECONDS_PER_CASE" "$PAIRS" <<'PYEOF' | tee "Benchmarks/results/server-sdk-$EXTRACT${TAG:-}.md"
import statistics, sys
extract, threads, connections, seconds, pairs = sys.argv[2:7]
runs, size = {}, {}
for l in (l.split() for l in open(sys.argv[1])):
    if l[2] == "bytes": size[(l[0], l[1])] = int(l[3])
    else: runs.setdefault((l[0], l[1]), []).append(l[2:7])
med = {k: [statistics.median(float(r[i]) for r in v) for i in range(3)] + [sum(int(r[3]) for r in v), len(v),
           statistics.median(float(r[4]) for r in v)] for k, v in runs.items()}
rounds = max(v[4] for v in med.values())
print(f"# navgraph serve at the navigation SDK's request vs osrm-routed CH on {extract}\n")
print(f"wrk {threads} threads, {connections} connections, {seconds} s per case, {rounds} interleaved rounds (medians); both servers "
      f"side by side with {threads} worker threads; the pairs of {pairs} from Tools/make_pairs.py that both servers route; bytes: mean body of the first 50 requests. "
      "Ratios are navgraph / osrm-routed CH: for `sdk` and `osrm_steps` against CH at `osrm_steps` (the closest request OSRM "
      "supports), for `full` against CH at `full`, and for the `_gzip` cases (each request with `Accept-Encoding: gzip, deflate, br`, "
      "the header the SDKs' HTTP stacks send; bytes are then as sent) against CH at `osrm_steps_gzip`. CPU ms/req: the server process's user + system CPU time per answered "
      "request (all its threads; wrk's excluded), which other processes on the machine hardly move, unlike QPS and p99. "
      "One run of Benchmarks/server_sdk_bench.sh.\n")
print("| case | server | request | QPS | p50 ms | p99 ms | CPU ms/req | bytes | non-2xx | QPS / CH | p99 / CH | CPU/req / CH |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
requests = {"sdk": "Mapbox v5, the SDK's full query", "osrm_steps": "steps=true&annotations=duration,distance,speed",
            "full": "overview=full&geometries=polyline6", "sdk_gzip": "the SDK's full query, Accept-Encoding gzip",
            "osrm_steps_gzip": "osrm_steps, Accept-Encoding gzip"}
def reference(case):
    return med.get(("osrm-ch", "full" if case == "full" else "osrm_steps_gzip" if case.endswith("_gzip") else "osrm_steps"))
labels = {("navgraph", "sdk"): "(a)", ("osrm-ch", "osrm_steps"): "(b)", ("navgraph", "osrm_steps"): "(c)",
          ("navgraph", "full"): "(d)", ("osrm-ch", "full"): "(d)"}
for (server, case), (qps, p50, p99, bad, _, cpu) in med.items():
    ref = reference(case)
    ratio = f"{qps / ref[0]:.2f}x" if ref and ref[0] > 0 else "-"
    pr = f"{p99 / ref[2]:.2f}x" if ref and ref[2] > 0 else "-"
    cr = f"{cpu / ref[5]:.2f}x" if ref and ref[5] > 0 else "-"
    print(f"| {labels.get((server, case), '')} {case} | {server} | {requests[case]} | {qps:.0f} | {p50:.2f} | {p99:.2f} | {cpu:.3f} | "
          f"{size.get((server, case), 0)} | {bad} | {ratio} | {pr} | {cr} |")
for case in requests:
    new, base = med.get(("navgraph", case)), med.get(("navgraph-base", case))
    if new and base: print(f"\n{case}: navgraph / navgraph-base (BASELINE) QPS {new[0] / base[0]:.3f}x, p50 {new[1] / base[1]:.3f}x, "
                           f"p99 {new[2] / base[2]:.3f}x, CPU ms/req {new[5] / base[5]:.3f}x", end="")
print()
def target(case, qps_goal, p99_goal):
    r, ref = med.get(("navgraph", case)), reference(case)
    if not r or not ref: return "-"
    ok = r[0] / ref[0] >= qps_goal and (p99_goal is None or r[2] / ref[2] <= p99_goal)
    return ("met" if ok else "not met") + f" (QPS {r[0] / ref[0]:.2f}x" + (f", p99 {r[2] / ref[2]:.2f}x)" if p99_goal else ")")
print("\nTargets (issue #41): full SDK request >= 2x CH's QPS at the closest request with p99 <= 0.5x: "
      f"{target('sdk', 2, 0.5)}; OSRM's own request, same: {target('osrm_steps', 2, 0.5)}; plain overview=full >= 2x: {target('full', 2, None)}. "
      f"With the SDKs' Accept-Encoding (both servers compressing): SDK request {target('sdk_gzip', 2, 0.5)}; "
      f"OSRM's own request {target('osrm_steps_gzip', 2, 0.5)}.")
PYEOF
