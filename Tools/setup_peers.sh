#!/usr/bin/env bash
# setup_peers.sh - idempotent install of the peer routers used by Benchmarks/peers/.
#
# Installs, from PyPI wheels, into a Python >= 3.12 virtualenv (the OSRM and
# Valhalla wheels are cp312-abi3 only, so the machine's Python 3.11 cannot load them):
#   osrm-bindings  OSRM binaries in site-packages/osrm/bin/ (osrm-extract, -contract,
#                  -partition, -customize, -routed), profiles in osrm/share/profiles/,
#                  plus the in-process `osrm` Python module
#   pyvalhalla     valhalla_build_tiles / valhalla_service in site-packages/valhalla/bin/,
#                  valhalla_build_config (Python) and the in-process `valhalla.Actor`
#   osmium         pyosmium, used by Tools/make_pairs.py and Tools/tile_osm.py
# and GNU time (/usr/bin/time -v) via apt if missing.
#
# Usage: Tools/setup_peers.sh            (venv: Benchmarks/work/peers-venv)
#        PEERS_VENV=/some/dir Tools/setup_peers.sh
# Prints the venv python and the binary folders at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${PEERS_VENV:-$ROOT/Benchmarks/work/peers-venv}"
PKGS="${PEERS_PKGS:-osrm-bindings==26.10.0 pyvalhalla==3.9.1 osmium==4.3.2}"

if [ ! -x /usr/bin/time ]; then
    apt-get update -o DPkg::Lock::Timeout=300 >/dev/null
    apt-get install -y -o DPkg::Lock::Timeout=300 time
fi

# Find a Python >= 3.12: PEERS_PYTHON, then PATH, then pyenv installs.
find_python() {
    local c
    for c in "${PEERS_PYTHON:-}" python3.12 python3.13 \
             "$HOME"/.pyenv/versions/3.12*/bin/python3 "$HOME"/.pyenv/versions/3.13*/bin/python3; do
        [ -n "$c" ] || continue
        if command -v "$c" >/dev/null 2>&1 && \
           "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
            command -v "$c"; return 0
        fi
    done
    return 1
}

if [ ! -x "$VENV/bin/python" ]; then
    PY="$(find_python)" || { echo "setup_peers: need Python >= 3.12 (set PEERS_PYTHON)" >&2; exit 1; }
    echo "setup_peers: creating venv $VENV with $PY" >&2
    "$PY" -m venv "$VENV"
fi

# shellcheck disable=SC2086
if ! "$VENV/bin/python" -c 'import osrm, valhalla, osmium' 2>/dev/null; then
    "$VENV/bin/pip" install -q --only-binary=:all: $PKGS
fi

"$VENV/bin/python" - <<'EOF'
import importlib.metadata as md, pathlib, osrm, valhalla, osmium
o = pathlib.Path(osrm.__file__).parent
v = pathlib.Path(valhalla.__file__).parent
print("osrm-bindings", md.version("osrm-bindings"), "bin:", o / "bin")
print("  profiles:", o / "share" / "profiles" / "car.lua")
print("pyvalhalla", md.version("pyvalhalla"), "bin:", v / "bin")
print("osmium (pyosmium)", md.version("osmium"))
for exe in [o / "bin" / n for n in ("osrm-extract", "osrm-contract", "osrm-partition",
                                     "osrm-customize", "osrm-routed")] + \
           [v / "bin" / n for n in ("valhalla_build_tiles", "valhalla_service")]:
    assert exe.is_file(), f"missing {exe}"
EOF
echo "PEERS_PY=$VENV/bin/python"
echo "/usr/bin/time: $(/usr/bin/time --version 2>&1 | head -1)"
