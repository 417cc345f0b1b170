#!/usr/bin/env bash
# import_scale.sh NAVGRAPH INPUT.osm.pbf OUT_PREFIX [IMPORT OPTION...] - one `navgraph import` under /usr/bin/time -v,
# with the load average before and after, then the graph's CCH search space (cch_search_space.py). Writes
# OUT_PREFIX.log (the import's phase lines and time -v), OUT_PREFIX.graph, and prints a summary. Options after the
# third argument go to the import (e.g. --road-sets motor). Run big inputs one at a time.
set -euo pipefail
bin=$1 input=$2 out=$3
shift 3
here="$(cd "$(dirname "$0")" && pwd)"
{
    echo "# $(date -u +%FT%TZ) $bin import $input $*; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    /usr/bin/time -v "$bin" import "$input" --output "$out.graph" "$@" 2>&1
    echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    python3 "$here/cch_search_space.py" "$out.graph"
    echo "# file bytes: $(stat -c %s "$out.graph")"
} > "$out.log" 2>&1
grep -E '^\[|^# |Elapsed|Maximum resident|User time|System time|search-space' "$out.log"
