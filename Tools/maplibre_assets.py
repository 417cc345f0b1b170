"""Offline MapLibre GL JS assets from PyPI wheels, for checking navgraph's map output by eye.

No CDN or npm is reachable here, so the assets come from wheels that bundle them:
  - MapLibre GL JS (maplibre-gl.js / .css): the `maplibre` wheel (py-maplibregl) ships srcjs/maplibre-gl.js;
    `roadstyle` ships a newer build under vendor/.
  - Glyph PBFs (Open Sans ...): the `django-tiles-gl` wheel ships static/django-tiles-gl/fonts/<stack>/<range>.pbf.
  - The style-spec reference (v8.json from @maplibre/maplibre-gl-style-spec) ships in no wheel on its own, but
    every maplibre-gl.js embeds it (docs stripped) as a `{$version:8,$root:...}` object literal: `style_spec()`
    extracts it from there.

Wheels are fetched with `pip download --no-deps` into a cache directory (default .build/visual-assets) and
unpacked there; nothing is installed into the Python environment.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("NAVGRAPH_VISUAL_CACHE", ROOT / ".build" / "visual-assets"))

# package==version -> path of maplibre-gl.js inside the wheel
MAPLIBRE_WHEELS = {
    "maplibre": ("0.3.6", "maplibre/srcjs"),
    "roadstyle": ("0.25.0", "roadstyle/vendor"),
}
GLYPH_WHEEL = ("django-tiles-gl", "0.3.9", "django_tiles_gl/static/django-tiles-gl/fonts")


def _wheel_dir(package: str, version: str) -> Path:
    """Downloads package==version (no dependencies) and unpacks it once; returns the unpacked directory."""
    target = CACHE / f"{package}-{version}"
    done = target / ".unpacked"
    if done.exists():
        return target
    download = CACHE / "wheels"
    download.mkdir(parents=True, exist_ok=True)
    wheels = list(download.glob(f"{package.replace('-', '_')}-{version}-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q",
                        "-d", str(download), f"{package}=={version}"], check=True)
        wheels = list(download.glob(f"{package.replace('-', '_')}-{version}-*.whl"))
    if not wheels:
        raise SystemExit(f"maplibre_assets: no wheel for {package}=={version} in {download}")
    with zipfile.ZipFile(wheels[0]) as archive:
        archive.extractall(target)
    done.touch()
    return target


def maplibre_js(package: str = "maplibre") -> tuple[Path, Path, str]:
    """(maplibre-gl.js, maplibre-gl.css, GL JS version) from the given wheel."""
    version, inner = MAPLIBRE_WHEELS[package]
    folder = _wheel_dir(package, version) / inner
    js, css = folder / "maplibre-gl.js", folder / "maplibre-gl.css"
    head = js.read_text(encoding="utf-8", errors="replace")[:400]
    match = re.search(r"maplibre-gl-js/blob/v([0-9.]+)/", head)
    return js, css, match.group(1) if match else "unknown"


def glyphs_dir() -> Path:
    """Directory with one folder of <range>.pbf files per font stack."""
    package, version, inner = GLYPH_WHEEL
    return _wheel_dir(package, version) / inner


# --- style spec extraction -------------------------------------------------------------------------------

def _literal_end(text: str, start: int) -> int:
    """Index just past the bracketed JS literal starting at text[start] ('{' or '[')."""
    depth, i, quote = 0, start, None
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "\"'`":
            quote = c
        elif c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unterminated literal")


_TOKEN = re.compile(r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')|(?P<bang>![01])|'
                    r'(?P<num>-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(?P<ident>[A-Za-z_$][\w$]*)|(?P<punct>[{}\[\]:,]))')


def _js_literal_to_json(text: str):
    """Parses a minified JS object/array literal of plain data (unquoted keys, !0/!1, numbers, strings)."""
    tokens = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"unexpected JS at {pos}: {text[pos:pos + 40]!r}")
        pos = m.end()
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "str":
            if value[0] == "'":
                value = '"' + value[1:-1].replace('\\\'', "'").replace('"', '\\"') + '"'
            tokens.append(("val", json.loads(value)))
        elif kind == "bang":
            tokens.append(("val", value == "!0"))
        elif kind == "num":
            tokens.append(("val", float(value) if re.search(r"[.eE]", value) else int(value)))
        elif kind == "ident":
            tokens.append(("val", {"null": None, "true": True, "false": False}.get(value, value))
                          if value in ("null", "true", "false") else ("ident", value))
        else:
            tokens.append(("punct", value))
    index = 0

    def parse():
        nonlocal index
        kind, value = tokens[index]
        index += 1
        if kind == "punct" and value == "{":
            obj = {}
            while tokens[index] != ("punct", "}"):
                key = tokens[index][1]
                index += 1
                assert tokens[index] == ("punct", ":"), tokens[index]
                index += 1
                obj[key] = parse()
                if tokens[index] == ("punct", ","):
                    index += 1
            index += 1
            return obj
        if kind == "punct" and value == "[":
            arr = []
            while tokens[index] != ("punct", "]"):
                arr.append(parse())
                if tokens[index] == ("punct", ","):
                    index += 1
            index += 1
            return arr
        if kind == "val":
            return value
        raise ValueError(f"unexpected token {value!r}")

    return parse()


def _top_level_keys(literal: str) -> list[str]:
    """Keys at depth 1 of a JS object literal (values may be arbitrary code)."""
    keys, depth, i, quote = [], 0, 0, None
    expect_key = False
    while i < len(literal):
        c = literal[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
            i += 1
            continue
        if depth == 1 and expect_key:
            m = re.compile(r'\s*("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*)\s*:').match(literal, i)
            if m:
                key = m.group(1)
                keys.append(json.loads(key) if key.startswith('"') else key)
                i = m.end()
                expect_key = False
                continue
            expect_key = False
        if c in "\"'`":
            quote = c
        elif c in "{[(":
            depth += 1
            if depth == 1:
                expect_key = True
        elif c in "}])":
            depth -= 1
        elif c == "," and depth == 1:
            expect_key = True
        i += 1
    return keys


def style_spec(js_path: Path) -> dict:
    """The style-spec reference embedded in maplibre-gl.js, plus `expression_name` rebuilt from the expression
    registry (the bundle strips it from the spec): {"values": {name: {}}} like v8.json."""
    text = js_path.read_text(encoding="utf-8")
    start = text.find("{$version:8,$root:")
    if start < 0:
        raise SystemExit(f"maplibre_assets: no style spec found in {js_path}")
    spec = _js_literal_to_json(text[start:_literal_end(text, start)])
    names: set[str] = set()
    # Class-based expressions: const X={"==":A,"!=":B,...,within:C}; compound ones: Y.register(X,{error:[...],...}).
    reg = re.search(r"\.register\((\w+),\{", text)
    if reg:
        table = re.search(r"(?:const|let|var)\s+" + re.escape(reg.group(1)) + r"=\{", text)
        if table:
            brace = table.end() - 1
            names.update(_top_level_keys(text[brace:_literal_end(text, brace)]))
        brace = reg.end() - 1
        names.update(_top_level_keys(text[brace:_literal_end(text, brace)]))
    if not names:
        raise SystemExit(f"maplibre_assets: no expression registry found in {js_path}")
    spec["expression_name"] = {"type": "enum", "values": {name: {} for name in sorted(names)}}
    return spec


if __name__ == "__main__":
    package = sys.argv[1] if len(sys.argv) > 1 else "maplibre"
    js, css, version = maplibre_js(package)
    print(f"{package}: MapLibre GL JS {version}\n  {js}\n  {css}")
    print(f"glyphs: {glyphs_dir()}")
    spec = style_spec(js)
    print(f"style spec: {len(spec)} sections, {len(spec['expression_name']['values'])} expression names")
