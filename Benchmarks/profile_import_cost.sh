#!/usr/bin/env bash
# profile_import_cost.sh - import time (wall and CPU) and file size: car-only binary vs this branch (motor road set
# only, and all road sets), interleaved per extract so that load drift hits all three alike.
#
# Usage: Benchmarks/profile_import_cost.sh CAR_ONLY_BINARY BINARY OUTDIR EXTRACT.osm.pbf...
set -euo pipefail
car_only=$1 binary=$2 out=$3
shift 3
mkdir -p "$out"
printf "%-8s %-8s %9s %9s %12s\n" extract import wall_s cpu_s bytes
for pbf in "$@"; do
    name=$(basename "$pbf" .osm.pbf)
    for variant in car-only motor all; do
        case $variant in
            car-only) cmd=("$car_only" import "$pbf" -o "$out/$name-$variant.navgraph" --quiet) ;;
            motor) cmd=("$binary" import "$pbf" -o "$out/$name-$variant.navgraph" --road-sets motor --quiet) ;;
            all) cmd=("$binary" import "$pbf" -o "$out/$name-$variant.navgraph" --quiet) ;;
        esac
        times=$( { /usr/bin/time -f "%e %U %S" "${cmd[@]}" >/dev/null; } 2>&1 | tail -1)
        read -r wall user sys <<<"$times"
        printf "%-8s %-8s %9.2f %9.2f %12d\n" "$name" "$variant" "$wall" "$(echo "$user + $sys" | bc)" "$(stat -c %s "$out/$name-$variant.navgraph")"
    done
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
