#!/usr/bin/env bash
# The main job on bundled data: set up, import Data/monaco.osm.pbf, show what is inside, and route on it.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
navgraph=.build/release/navgraph
mkdir -p out
$navgraph import Data/monaco.osm.pbf -o out/monaco.navgraph
$navgraph info out/monaco.navgraph
$navgraph traffic out/monaco.navgraph Data/monaco-traffic.csv -o out/monaco.traffic
echo "--- three waypoints across Monaco with traffic and alternatives:"
echo "    out/route.geojson (styled GeoJSON), out/style.json (MapLibre), out/directions.json (Directions API)"
waypoints=(43.7384,7.4246 43.7402,7.4268 43.7311,7.4197)
$navgraph route out/monaco.navgraph "${waypoints[@]}" --traffic out/monaco.traffic --alternatives 2 \
    --output out/route.geojson --style out/style.json
$navgraph route out/monaco.navgraph "${waypoints[@]}" --traffic out/monaco.traffic --alternatives 2 \
    --format directions --output out/directions.json > /dev/null
