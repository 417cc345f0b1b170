#!/usr/bin/env bash
# Installs the Debian packages navgraph builds against (idempotent) and builds the release binary.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libosmium2-dev libprotozero-dev libexpat1-dev libbz2-dev zlib1g-dev libmetis-dev libmicrohttpd-dev libisal-dev chromium)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}" >&2
fi
# The map page's MapLibre GL JS and glyphs (PyPI wheels, copied into .build/web; see Tools/web_assets.py).
python3 Tools/web_assets.py || echo "setup: map page assets not fetched (no PyPI?); the map page says so and its browser test is skipped" >&2
echo "setup: building navgraph (release)" >&2
swift build -c release --product navgraph >&2
