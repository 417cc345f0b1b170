#!/usr/bin/env bash
# Alternative routes benchmark: share of queries with >=1 / >=2 admissible alternatives, mean stretch and sharing,
# and latency p50/p95 of a query with alternatives next to a plain query, on 2000 fixed random pairs per extract.
#
# Usage: Benchmarks/alternatives.sh [extract ...]        (default: milan monaco)
# Env:   ALTERNATIVES=2  PASSES=3  PAIRS=2000  SEED=1  PYTHON=python3  DATA=../shared/data
#
# Pairs (one lon,lat,lon,lat line each) are read from Benchmarks/work/<extract>-<PAIRS>-s<SEED>.csv. If that file
# is missing they are made with Tools/make_pairs.py (needs pyosmium in $PYTHON; the pairs the peer benchmarks use),
# or else with Benchmarks/random_pairs.py (uniform in the graph's bounding box, deterministic by seed).
# Each mode runs PASSES times, interleaved; a query's latency is its fastest pass, which filters out moments when
# other processes hold the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$ROOT/Benchmarks/work
DATA=${DATA:-$ROOT/../shared/data}
ALTERNATIVES=${ALTERNATIVES:-2}
PASSES=${PASSES:-3}
PAIRS=${PAIRS:-2000}
SEED=${SEED:-1}
PYTHON=${PYTHON:-python3}
mkdir -p "$WORK"
swift build -c release >/dev/null
NAVGRAPH=$ROOT/.build/release/navgraph

EXTRACTS=("$@")
[ ${#EXTRACTS[@]} -gt 0 ] || EXTRACTS=(milan monaco)
for name in "${EXTRACTS[@]}"; do
  graph=$WORK/$name.navgraph
  [ -f "$graph" ] || "$NAVGRAPH" import "$DATA/$name.osm.pbf" -o "$graph" --quiet >/dev/null
  pairs=$WORK/$name-$PAIRS-s$SEED.csv
  if [ ! -f "$pairs" ]; then
    if [ -f Tools/make_pairs.py ] && "$PYTHON" -c 'import osmium' 2>/dev/null; then
      "$PYTHON" Tools/make_pairs.py "$DATA/$name.osm.pbf" "$PAIRS" "$SEED" > "$pairs"
    else
      bbox=$("$NAVGRAPH" info "$graph" | awk '/^bbox/ {gsub(",", "", $3); print $3, $5}')
      "$PYTHON" Benchmarks/random_pairs.py $bbox "$PAIRS" "$SEED" > "$pairs"
    fi
  fi
  echo "== $name: $(wc -l < "$pairs") pairs from $pairs, --alternatives $ALTERNATIVES, $PASSES passes"
  for pass in $(seq 1 "$PASSES"); do
    "$NAVGRAPH" route "$graph" --pairs "$pairs" --alternatives 0 -o "$WORK/$name-plain-$pass.csv" 2>/dev/null
    "$NAVGRAPH" route "$graph" --pairs "$pairs" --alternatives "$ALTERNATIVES" -o "$WORK/$name-alt-$pass.csv" 2> "$WORK/$name-alt.log"
  done
  cat "$WORK/$name-alt.log"
  "$PYTHON" - "$WORK" "$name" "$PASSES" <<'PY'
import csv, sys
work, name, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
def fastest(mode):
    best = {}
    for p in range(1, passes + 1):
        for row in csv.DictReader(open(f"{work}/{name}-{mode}-{p}.csv")):
            if row["latency_ms"]:
                best[row["index"]] = min(best.get(row["index"], float("inf")), float(row["latency_ms"]))
    return sorted(best.values())
def pct(values, q): return values[min(len(values) - 1, int(len(values) * q))]
plain, alt = fastest("plain"), fastest("alt")
print(f"latency ms (fastest of {passes} passes): plain p50 {pct(plain, .5):.3f} p95 {pct(plain, .95):.3f}; "
      f"with alternatives p50 {pct(alt, .5):.3f} p95 {pct(alt, .95):.3f}; "
      f"ratio p50 {pct(alt, .5) / pct(plain, .5):.2f}x p95 {pct(alt, .95) / pct(plain, .95):.2f}x")
PY
done
