#!/usr/bin/env bash
# nginx_replicas.sh - two `navgraph serve` replicas on the same graph file behind Debian's nginx (loopback),
# checks that both answer through the balancer, and measures what the second replica costs in memory
# (/proc/PID/smaps_rollup: the mapped graph is shared page cache, so its private memory is small).
#
# Usage: Tools/nginx_replicas.sh [GRAPH.navgraph]   (default: imports /work/shared/data/milan.osm.pbf, else Data/monaco.osm.pbf)
# Ports: nginx 5700, replicas 5701 and 5702. Everything it starts is stopped before it exits.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
command -v nginx >/dev/null 2>&1 || apt-get -o DPkg::Lock::Timeout=300 install -y -qq nginx-light >&2
[ -x .build/release/navgraph ] || swift build -c release --product navgraph >&2
WORK="$ROOT/out/replicas"
mkdir -p "$WORK"
GRAPH="${1:-}"
if [ -z "$GRAPH" ]; then
  SOURCE=/work/shared/data/milan.osm.pbf
  [ -f "$SOURCE" ] || SOURCE=Data/monaco.osm.pbf
  GRAPH="$WORK/$(basename "$SOURCE" .osm.pbf).navgraph"
  [ -f "$GRAPH" ] || .build/release/navgraph import "$SOURCE" -o "$GRAPH" --quiet >&2
fi
pids=()
cleanup() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

for port in 5701 5702; do
  .build/release/navgraph serve "$GRAPH" --port "$port" --threads 2 >"$WORK/replica-$port.log" 2>&1 &
  pids+=($!)
done
cp Tools/nginx-replicas.conf "$WORK/"
nginx -p "$WORK" -c nginx-replicas.conf &
pids+=($!)
for _ in $(seq 1 100); do curl -sf -o /dev/null http://127.0.0.1:5700/health && break; sleep 0.1; done

# Requests through nginx at points spread over the graph's bounding box (the routing answers or says NoSegment).
read -r minlat minlon maxlat maxlon < <(.build/release/navgraph info "$GRAPH" --json | python3 -c '
import json, sys; b = json.load(sys.stdin)["metadata"]["bbox"]; print(b["minLat"], b["minLon"], b["maxLat"], b["maxLon"])')
ok=0; total=200
for i in $(seq 1 $total); do
  a=$(python3 -c "import random; r=random.Random($i); print(f'{r.uniform($minlon,$maxlon):.6f},{r.uniform($minlat,$maxlat):.6f};{r.uniform($minlon,$maxlon):.6f},{r.uniform($minlat,$maxlat):.6f}')")
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:5700/route/v1/driving/$a?overview=false")
  [ "$code" = 200 ] || [ "$code" = 400 ] && ok=$((ok + 1))
done
first=$(grep -c '^GET /route' "$WORK/replica-5701.log" || true)
second=$(grep -c '^GET /route' "$WORK/replica-5702.log" || true)
echo "through nginx: $ok/$total answered; replica 5701 served $first, replica 5702 served $second"
[ "$first" -gt 0 ] && [ "$second" -gt 0 ] || { echo "a replica served nothing" >&2; exit 1; }

size_mb=$(du -m "$GRAPH" | cut -f1)
echo "graph file: $GRAPH ($size_mb MB)"
for i in 0 1; do
  pid=${pids[$i]}
  awk -v pid="$pid" -v port=$((5701 + i)) '/^(Rss|Pss|Shared_Clean|Private_Clean|Private_Dirty|Anonymous):/ {v[$1]=$2}
    END {printf "replica %d (pid %d): Rss %.1f MB, Pss %.1f MB, Shared_Clean %.1f MB, Private_Clean %.1f MB, Private_Dirty %.1f MB\n",
         port, pid, v["Rss:"]/1024, v["Pss:"]/1024, v["Shared_Clean:"]/1024, v["Private_Clean:"]/1024, v["Private_Dirty:"]/1024}' \
    "/proc/$pid/smaps_rollup"
done
