"""Fills the map page's asset directory (default .build/web) for `navgraph serve`, offline afterwards.

  maplibre-gl.js, maplibre-gl.css   MapLibre GL JS from the PyPI wheel `maplibre` (see maplibre_assets.py)
  fonts/<stack>/<range>.pbf         glyph PBFs from the PyPI wheel `django-tiles-gl`

Idempotent: files already present with the same size are left alone. `navgraph serve --assets DIR` reads them.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import maplibre_assets  # noqa: E402


def copy_if_changed(source: Path, target: Path) -> bool:
    """Copies source to target unless target already has the same size; returns whether it copied."""
    if target.exists() and target.stat().st_size == source.stat().st_size:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".tmp")
    shutil.copyfile(source, temporary)
    temporary.replace(target)
    return True


def main() -> None:
    destination = Path(sys.argv[1]) if len(sys.argv) > 1 else maplibre_assets.ROOT / ".build" / "web"
    js, css, version = maplibre_assets.maplibre_js("maplibre")
    copied = copy_if_changed(js, destination / "maplibre-gl.js") + copy_if_changed(css, destination / "maplibre-gl.css")
    fonts = maplibre_assets.glyphs_dir()
    stacks = 0
    for stack in sorted(p for p in fonts.iterdir() if p.is_dir()):
        stacks += 1
        for pbf in stack.glob("*.pbf"):
            copied += copy_if_changed(pbf, destination / "fonts" / stack.name / pbf.name)
    print(f"web assets: MapLibre GL JS {version} and {stacks} font stacks in {destination} ({copied} files copied)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
