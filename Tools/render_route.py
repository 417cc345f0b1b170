#!/usr/bin/env python3
"""Renders a navgraph MapLibre style.json with real MapLibre GL JS in headless Chromium and saves a PNG.

Offline: MapLibre GL JS comes from a PyPI wheel (maplibre_assets.py), the style's public `glyphs` URL is
replaced by glyph PBFs from another wheel, served with the page from a tiny http.server on 127.0.0.1
(file:// blocks fetch). The page forwards MapLibre's console errors/warnings, map `error` events and, once
the map is idle, the number of rendered features per layer to the server; they are printed, and the exit
status is 1 when MapLibre reported an error or a layer with features in the source drew nothing.

Usage: Tools/render_route.py STYLE.json -o OUT.png [--maplibre maplibre|roadstyle] [--size 1200x900]
                             [--no-glyphs] [--zoom Z] [--center LAT,LON]
Needs Debian's chromium (apt-get install chromium).
"""
from __future__ import annotations

import argparse
import http.server
import json
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import maplibre_assets  # noqa: E402

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>navgraph route</title>
<link rel="stylesheet" href="maplibre-gl.css">
<style>html,body,#map{margin:0;width:100%;height:100%}</style></head>
<body><div id="map"></div>
<script>
const CONFIG = __CONFIG__;
function report(kind, message) {
  const xhr = new XMLHttpRequest();            // synchronous so nothing is lost when the screenshot ends the page
  xhr.open('POST', '/log', false);
  xhr.send(JSON.stringify({kind, message: String(message)}));
}
for (const level of ['error', 'warn']) {
  const original = console[level].bind(console);
  console[level] = (...args) => { report('console.' + level, args.map(a => a && a.message ? a.message : a).join(' ')); original(...args); };
}
window.addEventListener('error', e => report('window.error', e.message));
</script>
<script src="maplibre-gl.js"></script>
<script>
fetch('style.json').then(r => r.json()).then(style => {
  if (CONFIG.glyphs) style.glyphs = CONFIG.glyphs;
  if (CONFIG.zoom !== null) style.zoom = CONFIG.zoom;
  if (CONFIG.center !== null) style.center = CONFIG.center;
  const map = new maplibregl.Map({container: 'map', style, attributionControl: false, fadeDuration: 0,
                                  canvasContextAttributes: {preserveDrawingBuffer: true}, preserveDrawingBuffer: true});
  map.on('error', e => report('map.error', e.error && e.error.message ? e.error.message : JSON.stringify(e)));
  map.once('idle', () => {
    const counts = {};
    for (const layer of map.getStyle().layers) {
      counts[layer.id] = layer.type === 'background' ? null : map.queryRenderedFeatures({layers: [layer.id]}).length;
    }
    report('idle', JSON.stringify({version: maplibregl.getVersion ? maplibregl.getVersion() : maplibregl.version,
                                   zoom: map.getZoom(), rendered: counts}));
  });
}).catch(e => report('page.error', e));
</script>
<img src="/wait" alt="" style="display:none">
</body></html>
"""


# A 1x1 transparent GIF: the page's hidden <img src="/wait"> gets it once the map is idle, which holds back the
# page's load event, and so Chromium's --screenshot, until MapLibre has drawn everything.
PIXEL = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


class Handler(http.server.SimpleHTTPRequestHandler):
    log: list = []
    idle = threading.Event()
    wait_seconds = 30.0

    def do_GET(self):
        if self.path.startswith("/wait"):
            Handler.idle.wait(Handler.wait_seconds)
            self.send_response(200)
            self.send_header("Content-Type", "image/gif")
            self.send_header("Content-Length", str(len(PIXEL)))
            self.end_headers()
            self.wfile.write(PIXEL)
            return
        super().do_GET()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        entry = json.loads(body)
        Handler.log.append(entry)
        if entry["kind"] in ("idle", "page.error", "window.error"):
            Handler.idle.set()
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def source_feature_counts(style: dict) -> dict:
    """Per layer, how many source features its filter would select if every feature were visible: a rough
    upper bound used to flag layers that rendered nothing although their data exists."""
    features = {}
    for name, source in style.get("sources", {}).items():
        data = source.get("data")
        features[name] = data.get("features", []) if isinstance(data, dict) else []

    def evaluate(expr, props):
        if not isinstance(expr, list) or not expr or not isinstance(expr[0], str):
            return expr
        op, args = expr[0], expr[1:]
        if op == "get":
            return props.get(args[0])
        if op == "all":
            return all(evaluate(a, props) for a in args)
        if op == "any":
            return any(evaluate(a, props) for a in args)
        if op == "==":
            return evaluate(args[0], props) == evaluate(args[1], props)
        if op == "!=":
            return evaluate(args[0], props) != evaluate(args[1], props)
        return True

    counts = {}
    for layer in style.get("layers", []):
        if layer["type"] == "background":
            continue
        counts[layer["id"]] = sum(1 for f in features.get(layer.get("source"), []) if evaluate(layer.get("filter", True), f.get("properties", {})))
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("style")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--maplibre", default="maplibre", choices=sorted(maplibre_assets.MAPLIBRE_WHEELS))
    parser.add_argument("--size", default="1200x900")
    parser.add_argument("--no-glyphs", action="store_true", help="keep the style's glyphs URL (labels fail offline)")
    parser.add_argument("--zoom", type=float)
    parser.add_argument("--center", help="LAT,LON")
    parser.add_argument("--wait", type=float, default=60, help="seconds to wait for the map to become idle")
    parser.add_argument("--keep", action="store_true", help="keep the served directory and print its path")
    args = parser.parse_args()

    js, css, version = maplibre_assets.maplibre_js(args.maplibre)
    style = json.loads(Path(args.style).read_text())
    work = Path(tempfile.mkdtemp(prefix="navgraph-render-"))
    shutil.copy(js, work / "maplibre-gl.js")
    shutil.copy(css, work / "maplibre-gl.css")
    (work / "style.json").write_text(json.dumps(style))
    glyphs = None
    if not args.no_glyphs:
        (work / "fonts").symlink_to(maplibre_assets.glyphs_dir())
    center = None
    if args.center:
        lat, lon = (float(x) for x in args.center.split(","))
        center = [lon, lat]

    Handler.wait_seconds = args.wait
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a, **k: Handler(*a, directory=str(work), **k))
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    if not args.no_glyphs:
        glyphs = f"http://127.0.0.1:{port}/fonts/{{fontstack}}/{{range}}.pbf"
    config = {"glyphs": glyphs, "zoom": args.zoom, "center": center}
    (work / "index.html").write_text(PAGE.replace("__CONFIG__", json.dumps(config)))

    width, height = args.size.split("x")
    out = Path(args.output).resolve()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    profile = tempfile.mkdtemp(prefix="navgraph-chromium-")
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu-sandbox", "--hide-scrollbars",
               "--enable-logging=stderr", "--v=0", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
               f"--user-data-dir={profile}", f"--window-size={width},{height}",
               f"--screenshot={out}", f"http://127.0.0.1:{port}/index.html"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180)
    server.shutdown()
    if args.keep:
        print(result.stderr[-6000:])
    shutil.rmtree(profile, ignore_errors=True)
    if args.keep:
        print(f"served from {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)

    problems = 0
    idle = None
    for entry in Handler.log:
        if entry["kind"] == "idle":
            idle = json.loads(entry["message"])
            continue
        problems += 1
        print(f"{entry['kind']}: {entry['message']}")
    if result.returncode != 0 or not out.exists():
        print(result.stderr[-3000:])
        print("render_route: chromium failed")
        sys.exit(1)
    if idle is None:
        print("render_route: the map never became idle (raise --wait?; with --no-glyphs, GL JS 5.3 keeps failing tiles)")
        problems += 1
    else:
        expected = source_feature_counts(style)
        print(f"MapLibre GL JS {idle['version']} ({args.maplibre} wheel), zoom {idle['zoom']:.2f}; rendered features per layer:")
        for layer, count in idle["rendered"].items():
            if count is None:
                continue
            flag = ""
            if count == 0 and expected.get(layer, 0) > 0 and args.zoom is None and args.center is None:
                flag = f"  <-- nothing drawn, {expected[layer]} feature(s) in the source"
                if not (args.no_glyphs and any(l["id"] == layer and l["type"] == "symbol" for l in style["layers"])):
                    problems += 1
            print(f"  {layer:24} {count:4} (source {expected.get(layer, 0)}){flag}")
    print(f"wrote {out}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
