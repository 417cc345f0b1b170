#!/usr/bin/env python3
"""Draws a navgraph route GeoJSON the way a plain GeoJSON viewer would: features in file order, lines with
their simplestyle `stroke` / `stroke-width` / `stroke-opacity`, points as markers with `marker-color`
(no MapLibre, no expressions). Writes an SVG and, with Chromium available, a PNG of it.

It also reports what such a viewer would get wrong: line features without a valid stroke colour or width,
points without a marker colour, coordinates outside [lon, lat] ranges.

Usage: Tools/plot_geojson.py ROUTE.geojson -o OUT.png [--size 1200x900]
"""
from __future__ import annotations

import argparse
import html
import math
import re
import shutil
import subprocess
import sys
import tempfile
import json
from pathlib import Path

COLOR = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("geojson")
    parser.add_argument("-o", "--output", required=True, help="PNG path (the SVG is written beside it)")
    parser.add_argument("--size", default="1200x900")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))
    doc = json.load(open(args.geojson))
    features = doc["features"]
    problems = []

    def mercator(lon, lat):
        return lon, math.degrees(math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))

    points = []
    for f in features:
        g = f["geometry"]
        coords = g["coordinates"] if g["type"] == "LineString" else [g["coordinates"]]
        for lon, lat in coords:
            if not (-180 <= lon <= 180 and -90 <= lat <= 90):
                problems.append(f"coordinate {lon},{lat} is not [lon, lat]")
            points.append(mercator(lon, lat))
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    margin = 60
    scale = min((width - 2 * margin) / max(1e-9, max(xs) - min(xs)), (height - 2 * margin) / max(1e-9, max(ys) - min(ys)))
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2

    def project(lon, lat):
        x, y = mercator(lon, lat)
        return width / 2 + (x - cx) * scale, height / 2 - (y - cy) * scale

    body = []
    counts = {}
    for i, f in enumerate(features):
        p = f.get("properties", {})
        g = f["geometry"]
        kind = p.get("featureType", "?")
        counts[kind] = counts.get(kind, 0) + 1
        if g["type"] == "LineString":
            stroke, stroke_width, opacity = p.get("stroke"), p.get("stroke-width"), p.get("stroke-opacity", 1)
            if not (isinstance(stroke, str) and COLOR.match(stroke)):
                problems.append(f"feature {i} ({kind}): stroke {stroke!r} is not #RGB/#RRGGBB")
                stroke = "#000000"
            if not isinstance(stroke_width, (int, float)) or stroke_width <= 0:
                problems.append(f"feature {i} ({kind}): stroke-width {stroke_width!r}")
                stroke_width = 2
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (project(*c) for c in g["coordinates"]))
            body.append(f'<polyline points="{path}" fill="none" stroke="{stroke}" stroke-width="{stroke_width}" '
                        f'stroke-opacity="{opacity}" stroke-linecap="round" stroke-linejoin="round"/>')
        elif g["type"] == "Point":
            x, y = project(*g["coordinates"])
            if kind == "label":
                body.append(f'<text x="{x:.1f}" y="{y - 10:.1f}" font-family="sans-serif" font-size="13" '
                            f'text-anchor="middle">{html.escape(str(p.get("label", "")))}</text>')
                continue
            color = p.get("marker-color")
            if not (isinstance(color, str) and COLOR.match(color)):
                problems.append(f"feature {i} ({kind}): marker-color {color!r}")
                color = "#7E7E7E"
            # A simplestyle marker: a pin in marker-color, name below.
            body.append(f'<path d="M{x:.1f},{y:.1f} l-7,-16 a8,8 0 1,1 14,0 z" fill="{color}" stroke="#333" stroke-width="1"/>'
                        f'<text x="{x:.1f}" y="{y + 14:.1f}" font-family="sans-serif" font-size="12" '
                        f'text-anchor="middle">{html.escape(str(p.get("name", "")))}</text>')
        else:
            problems.append(f"feature {i}: unexpected geometry {g['type']}")
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
           f'<rect width="100%" height="100%" fill="#FFFFFF"/>' + "".join(body) + "</svg>\n")
    out = Path(args.output).resolve()
    svg_path = out.with_suffix(".svg")
    svg_path.write_text(svg)
    chromium = shutil.which("chromium")
    if chromium:
        profile = tempfile.mkdtemp(prefix="navgraph-chromium-")
        subprocess.run([chromium, "--headless", "--no-sandbox", "--hide-scrollbars", f"--user-data-dir={profile}",
                        f"--window-size={width},{height}", f"--screenshot={out}", svg_path.as_uri()],
                       capture_output=True, timeout=120)
        shutil.rmtree(profile, ignore_errors=True)
    for problem in problems:
        print(f"problem: {problem}")
    print(f"{args.geojson}: {len(features)} features {counts}; wrote {svg_path}" + (f" and {out}" if out.exists() else ""))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
