#!/usr/bin/env bash
# The main job on bundled data: set up, import Data/monaco.osm.pbf, show what is inside, and route on it.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
navgraph=.build/release/navgraph
mkdir -p out
$navgraph import Data/monaco.osm.pbf -o out/monaco.navgraph
$navgraph info out/monaco.navgraph
echo "--- route across Monaco (3 waypoints), GeoJSON in out/route.geojson"
$navgraph route out/monaco.navgraph 43.7384,7.4246 43.7402,7.4268 43.7311,7.4197 --output out/route.geojson
