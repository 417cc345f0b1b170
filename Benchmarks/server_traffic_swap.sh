#!/usr/bin/env bash
# server_traffic_swap.sh - live traffic swaps on a large graph under load: `navgraph serve` on a K x K tiling of an
# extract (Tools/tile_osm.py; milan 5x5 = 6.56M OSM nodes), wrk sending plain routes for 30 s while POST /traffic
# loads a congestion CSV on every main road three times. Prints each swap's customization time and wrk's
# failures (socket errors, timeouts); answers that say NoRoute/NoSegment are counted apart (they are answers).
#
# Usage: Benchmarks/server_traffic_swap.sh [EXTRACT] [K]   (default milan 5; THREADS=2 CONNECTIONS=16)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
EXTRACT="${1:-milan}"; K="${2:-5}"
THREADS="${THREADS:-2}"; CONNECTIONS="${CONNECTIONS:-16}"
DATA="${DATA:-/work/shared/data}"
PY="${PEERS_VENV:-$ROOT/Benchmarks/work/peers-venv}/bin/python"
WORK="$ROOT/Benchmarks/work/server/$EXTRACT-${K}x$K"
mkdir -p "$WORK"
[ -x .build/release/navgraph ] || swift build -c release --product navgraph >&2
[ -f "$WORK/tiled.osm.pbf" ] || "$PY" Tools/tile_osm.py "$DATA/$EXTRACT.osm.pbf" "$K" "$WORK/tiled.osm.pbf" >&2
[ -f "$WORK/tiled.navgraph" ] || .build/release/navgraph import "$WORK/tiled.osm.pbf" -o "$WORK/tiled.navgraph" >&2
if [ ! -f "$WORK/traffic.csv" ]; then
  "$PY" - "$WORK/tiled.osm.pbf" > "$WORK/traffic.csv" <<'PYEOF'
import hashlib, sys, osmium
MAIN = {"motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary"}
print("from_osm_id,to_osm_id,congestion")
for way in osmium.FileProcessor(sys.argv[1], osmium.osm.WAY):
    highway = way.tags.get("highway")
    if highway not in MAIN: continue
    level = int(hashlib.sha256(str(way.id).encode()).hexdigest(), 16) % 100
    refs = [n.ref for n in way.nodes]
    oneway = way.tags.get("oneway") in ("yes", "1", "true") or highway.startswith("motorway")
    for a, b in zip(refs, refs[1:]):
        print(f"{a},{b},{level}")
        if not oneway: print(f"{b},{a},{level}")
PYEOF
fi
# Routes inside the first tile (the extract's own coordinates).
PAIRFILE="$WORK/pairs.csv"
[ -f "$PAIRFILE" ] || "$PY" Tools/make_pairs.py "$DATA/$EXTRACT.osm.pbf" 1000 12 > "$PAIRFILE"
awk -F, '{printf "/route/v1/driving/%s,%s;%s,%s?overview=false\n", $1, $2, $3, $4}' "$PAIRFILE" > "$WORK/plain.txt"

PORT=5621
.build/release/navgraph serve "$WORK/tiled.navgraph" --port "$PORT" --threads "$THREADS" --quiet >"$WORK/serve.log" 2>&1 &
SERVER=$!
trap 'kill -TERM "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.2; done
echo "graph: $(.build/release/navgraph info "$WORK/tiled.navgraph" | head -3 | tr '\n' ' ')"
echo "traffic rows: $(($(wc -l < "$WORK/traffic.csv") - 1))"
REQUESTS="$WORK/plain.txt" wrk -t"$THREADS" -c"$CONNECTIONS" -d30s --latency --timeout 30s -s Benchmarks/server_requests.lua \
  "http://127.0.0.1:$PORT" > "$WORK/wrk-during-swaps.txt" 2>&1 &
WRK=$!
for i in 1 2 3; do
  sleep 6
  curl -s -X POST --data-binary @"$WORK/traffic.csv" "http://127.0.0.1:$PORT/traffic" -w "  (POST took %{time_total} s)\n"
done
wait "$WRK"
grep -E "Requests/sec|Socket errors|Non-2xx|50%|99%|requests in" "$WORK/wrk-during-swaps.txt"
# The same requests once each, to count how many are NoRoute/NoSegment answers rather than failures.
codes=$(head -300 "$WORK/plain.txt" | while read -r p; do curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$PORT$p"; done | sort | uniq -c | tr '\n' ' ')
echo "status codes of the first 300 requests after the swaps: $codes"
