#!/usr/bin/env bash
# run_all.sh - the peer benchmark run recorded in Benchmarks/peers/RESULTS.md.
#
# Installs the peers, makes 2000 pairs (seed 1) for each extract, runs OSRM (CH + MLD,
# alternatives 3) and Valhalla (alternates 3) on them, one after the other.
# Scratch and full per-query results go to Benchmarks/work/ (gitignored); logs to
# Benchmarks/work/results/*.log. Usage: Benchmarks/peers/run_all.sh [extract names...]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
DATA="${DATA:-/work/shared/data}"
N="${N:-2000}"
SEED="${SEED:-1}"
Tools/setup_peers.sh
PY="${PEERS_VENV:-$ROOT/Benchmarks/work/peers-venv}/bin/python"
mkdir -p Benchmarks/work/pairs Benchmarks/work/results
for name in "${@:-milan monaco}"; do
  for x in $name; do
    pairs="Benchmarks/work/pairs/$x-$N-s$SEED.csv"
    "$PY" Tools/make_pairs.py "$DATA/$x.osm.pbf" "$N" "$SEED" > "$pairs"
    "$PY" Benchmarks/peers/osrm_bench.py --pbf "$DATA/$x.osm.pbf" --pairs "$pairs" \
        --out "Benchmarks/work/results/osrm-$x.json.gz" --alternatives 3 --algorithms ch,mld \
        2> "Benchmarks/work/results/osrm-$x.log"
    "$PY" Benchmarks/peers/valhalla_bench.py --pbf "$DATA/$x.osm.pbf" --pairs "$pairs" \
        --out "Benchmarks/work/results/valhalla-$x.json.gz" --alternatives 3 \
        2> "Benchmarks/work/results/valhalla-$x.log"
  done
done
