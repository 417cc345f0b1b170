#!/usr/bin/env python3
"""Checks a navgraph MapLibre style.json against the MapLibre style-spec reference.

The reference is the v8 spec embedded in a PyPI-bundled maplibre-gl.js (see maplibre_assets.py). Checks:
root keys, sources, layer keys and types, per-type layout/paint property names, literal value types
(colour, number ranges, enums, arrays), and every expression operator name. MapLibre's own validator
(which render_route.py runs in the browser) remains the final word; this catches the same classes of
mistakes without a browser.

Usage: Tools/validate_style.py STYLE.json [--maplibre maplibre|roadstyle]
Exit status 1 when there are errors.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import maplibre_assets  # noqa: E402

COLOR = re.compile(r"^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|rgba?\([^)]*\)|hsla?\([^)]*\)|[a-z]+)$")


class Validator:
    def __init__(self, spec: dict):
        self.spec = spec
        self.errors: list[str] = []
        self.expressions = set(spec["expression_name"]["values"])

    def error(self, where: str, message: str):
        self.errors.append(f"{where}: {message}")

    # Expressions ------------------------------------------------------------------------------------
    def is_expression(self, value) -> bool:
        return isinstance(value, list) and bool(value) and isinstance(value[0], str)

    def expression(self, where: str, value):
        """Walks an expression, checking operator names (literal arrays are skipped)."""
        if not self.is_expression(value):
            return
        op = value[0]
        if op == "literal":
            return
        if op not in self.expressions:
            self.error(where, f"unknown expression operator {op!r}")
            return
        args = value[1:]
        if op in ("interpolate", "interpolate-hcl", "interpolate-lab"):
            if not args or not self.is_expression(args[0]) or args[0][0] not in ("linear", "exponential", "cubic-bezier"):
                self.error(where, f"{op}: first argument must be an interpolation type, got {args[:1]}")
            args = args[1:]
            stops = args[1:]
            inputs = stops[0::2]
            if len(stops) % 2 or not stops:
                self.error(where, f"{op}: expects input/output pairs after the input")
            if any(not isinstance(x, (int, float)) for x in inputs) or inputs != sorted(inputs) or len(set(inputs)) != len(inputs):
                self.error(where, f"{op}: stop inputs must be strictly ascending numbers: {inputs}")
        elif op == "match":
            # labels are literals (or arrays of literals), not expressions
            body = args[1:]
            for i, item in enumerate(body):
                if i % 2 == 0 and i != len(body) - 1:
                    continue
                self.expression(where, item)
            self.expression(where, args[0] if args else None)
            if len(body) < 3 or len(body) % 2 == 0:
                self.error(where, "match: expects label/output pairs and a fallback")
            return
        for arg in args:
            self.expression(where, arg)

    # Values -----------------------------------------------------------------------------------------
    def value(self, where: str, prop: dict, value):
        if self.is_expression(value) and (value[0] in self.expressions or prop.get("type") != "array"):
            if "expression" not in prop:
                self.error(where, "does not support expressions")
            params = prop.get("expression", {}).get("parameters", [])
            text = json.dumps(value)
            if '["zoom"]' in text and "zoom" not in params:
                self.error(where, "zoom expressions not supported")
            if ('["get"' in text or '["has"' in text) and "feature" not in params:
                self.error(where, "data expressions (get/has) not supported: property is not data-driven")
            self.expression(where, value)
            return
        kind = prop.get("type")
        if kind == "color":
            if not (isinstance(value, str) and COLOR.match(value)):
                self.error(where, f"{value!r} is not a colour")
        elif kind == "number":
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                self.error(where, f"{value!r} is not a number")
            else:
                if "minimum" in prop and value < prop["minimum"]:
                    self.error(where, f"{value} is below the minimum {prop['minimum']}")
                if "maximum" in prop and value > prop["maximum"]:
                    self.error(where, f"{value} is above the maximum {prop['maximum']}")
        elif kind == "boolean":
            if not isinstance(value, bool):
                self.error(where, f"{value!r} is not a boolean")
        elif kind == "string" or kind == "formatted" or kind == "resolvedImage":
            if not isinstance(value, str):
                self.error(where, f"{value!r} is not a string")
        elif kind == "enum":
            values = prop.get("values", {})
            if value not in values:
                self.error(where, f"{value!r} is not one of {sorted(values)}")
        elif kind == "array":
            if not isinstance(value, list):
                self.error(where, f"{value!r} is not an array")
                return
            if "length" in prop and len(value) != prop["length"]:
                self.error(where, f"expected {prop['length']} items, got {len(value)}")
            item = {"type": prop.get("value"), **({"minimum": prop["minimum"]} if "minimum" in prop else {})}
            if isinstance(prop.get("value"), str) and prop["value"] in ("number", "string", "boolean", "color"):
                for i, x in enumerate(value):
                    self.value(f"{where}[{i}]", item, x)

    # Style ------------------------------------------------------------------------------------------
    def style(self, style: dict):
        root = self.spec["$root"]
        for key in style:
            if key not in root:
                self.error("root", f"unknown property {key!r}")
        for key, prop in root.items():
            if prop.get("required") and key not in style:
                self.error("root", f"missing required property {key!r}")
        if style.get("version") != 8:
            self.error("version", "must be 8")
        glyphs = style.get("glyphs", "")
        if glyphs and ("{fontstack}" not in glyphs or "{range}" not in glyphs):
            self.error("glyphs", "must contain {fontstack} and {range}")
        for name, source in style.get("sources", {}).items():
            kind = source.get("type")
            spec = self.spec.get(f"source_{kind}")
            if spec is None:
                self.error(f"sources.{name}", f"unknown source type {kind!r}")
                continue
            for key in source:
                if key not in spec:
                    self.error(f"sources.{name}", f"unknown property {key!r}")
            if kind == "geojson":
                data = source.get("data")
                if isinstance(data, dict) and data.get("type") not in ("FeatureCollection", "Feature", "LineString", "Point",
                                                                        "Polygon", "MultiLineString", "MultiPoint",
                                                                        "MultiPolygon", "GeometryCollection"):
                    self.error(f"sources.{name}.data", "not GeoJSON")
        ids = set()
        layer_spec = self.spec["layer"]
        for i, layer in enumerate(style.get("layers", [])):
            lid = layer.get("id", f"#{i}")
            where = f"layers[{lid}]"
            if lid in ids:
                self.error(where, "duplicate layer id")
            ids.add(lid)
            for key in layer:
                if key not in layer_spec:
                    self.error(where, f"unknown layer property {key!r}")
            kind = layer.get("type")
            if kind not in layer_spec["type"]["values"]:
                self.error(where, f"unknown layer type {kind!r}")
                continue
            if kind != "background" and layer.get("source") not in style.get("sources", {}):
                self.error(where, f"source {layer.get('source')!r} is not defined")
            if "filter" in layer:
                self.expression(f"{where}.filter", layer["filter"])
            for section in ("layout", "paint"):
                props = self.spec.get(f"{section}_{kind}", {})
                for key, value in layer.get(section, {}).items():
                    if key not in props:
                        other = [k for k in ("layout", "paint") if key in self.spec.get(f"{k}_{kind}", {})]
                        hint = f" (it is a {other[0]} property)" if other else ""
                        self.error(f"{where}.{section}", f"unknown {kind} property {key!r}{hint}")
                        continue
                    self.value(f"{where}.{section}.{key}", props[key], value)
        return self.errors


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("style")
    parser.add_argument("--maplibre", default="maplibre", choices=sorted(maplibre_assets.MAPLIBRE_WHEELS))
    args = parser.parse_args()
    js, _, version = maplibre_assets.maplibre_js(args.maplibre)
    style = json.loads(Path(args.style).read_text())
    errors = Validator(maplibre_assets.style_spec(js)).style(style)
    for e in errors:
        print(f"error: {e}")
    layers = len(style.get("layers", []))
    print(f"{args.style}: {layers} layers checked against the MapLibre GL JS {version} style spec: "
          f"{len(errors)} error(s)")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
