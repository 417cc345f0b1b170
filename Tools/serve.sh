#!/usr/bin/env bash
# The server on bundled data: set up, import Data/monaco.osm.pbf with its sample traffic, and serve the OSRM API
# and the map page on http://127.0.0.1:5000/ (Ctrl-C or SIGTERM stops it). Extra arguments go to `navgraph serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
navgraph=.build/release/navgraph
mkdir -p out
[ -f out/monaco.navgraph ] && $navgraph info out/monaco.navgraph >/dev/null 2>&1 || $navgraph import Data/monaco.osm.pbf -o out/monaco.navgraph
$navgraph traffic out/monaco.navgraph Data/monaco-traffic.csv -o out/monaco.traffic
exec $navgraph serve out/monaco.navgraph --traffic out/monaco.traffic "$@"
