#!/usr/bin/env bash
# truck_dimensions.sh - time of a truck dimension customization and of the whole `navgraph route` process.
#
# Usage: Benchmarks/truck_dimensions.sh GRAPH FROM TO [BINARY]
#   GRAPH   a graph file with the motor road set (e.g. milan-5x5 imported with --road-sets motor)
#   FROM TO lat,lon waypoints
# For each dimension set, runs one `navgraph route --profile truck --vehicle-...` process under /usr/bin/time and
# prints the engine's customization line (edges closed, arcs recomputed, wall and CPU seconds) and the process's
# wall and CPU seconds, next to a plain truck route (no dimensions: no customization) in the same run.
set -euo pipefail
graph=$1 from=$2 to=$3
binary=${4:-.build/release/navgraph}
sets=(
    ""
    "--vehicle-height 4.0"
    "--vehicle-height 4.0 --vehicle-weight 40"
    "--vehicle-height 4.2 --vehicle-width 2.55 --vehicle-length 18.75 --vehicle-weight 44 --vehicle-axle-load 11.5 --hazmat"
    "--vehicle-weight 7.5"
)
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for set in "${sets[@]}"; do
    # shellcheck disable=SC2086
    out=$( { /usr/bin/time -f "process: wall %e s, user %U s, sys %S s, max RSS %M KB" \
        "$binary" route "$graph" "$from" "$to" --profile truck $set --format summary >/dev/null; } 2>&1 )
    echo "[${set:-no dimensions}]"
    grep -E "^truck dimensions|^process:" <<<"$out" | sed 's/^/  /'
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
