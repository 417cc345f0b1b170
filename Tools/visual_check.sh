#!/usr/bin/env bash
# Checks the map output as a person would: renders the Monaco route and the output fixture (alternative,
# ferry, toll) with real MapLibre GL JS in headless Chromium and as a plain simplestyle viewer would, validates
# the style against the MapLibre style spec and the Directions JSON against the GeoJSON. PNGs go to out/visual/.
# MapLibre GL JS and glyphs come from PyPI wheels (Tools/maplibre_assets.py); Chromium from Debian.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null; then
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium >&2
fi
Tools/setup.sh
navgraph=.build/release/navgraph
out=out/visual
mkdir -p "$out/fixture"
$navgraph import Data/monaco.osm.pbf -o "$out/monaco.navgraph" >/dev/null
$navgraph traffic "$out/monaco.navgraph" Data/monaco-traffic.csv -o "$out/monaco.traffic" >/dev/null
waypoints=(43.7384,7.4246 43.7402,7.4268 43.7311,7.4197)
$navgraph route "$out/monaco.navgraph" "${waypoints[@]}" --traffic "$out/monaco.traffic" --alternatives 2 \
    --output "$out/route.geojson" --style "$out/style.json" --position 43.7400,7.4262 >/dev/null
$navgraph route "$out/monaco.navgraph" "${waypoints[@]}" --traffic "$out/monaco.traffic" --alternatives 2 \
    --format directions --output "$out/directions.json" >/dev/null
NAVGRAPH_VISUAL_DIR="$PWD/$out/fixture" swift test -c release --filter OutputVisualFixture >/dev/null
status=0
for dir in "$out" "$out/fixture"; do
  python3 Tools/validate_style.py "$dir/style.json" || status=1
  python3 Tools/render_route.py "$dir/style.json" -o "$dir/maplibre.png" || status=1
  python3 Tools/plot_geojson.py "$dir/route.geojson" -o "$dir/plain.png" || status=1
  python3 Tools/check_directions.py "$dir/directions.json" --geojson "$dir/route.geojson" || status=1
done
exit $status
