#!/usr/bin/env bash
# run.sh - the whole benchmark in one command: installs navgraph's build dependencies
# (Tools/setup.sh) and the peers (Tools/setup_peers.sh), builds the release binaries,
# then runs Benchmarks/run.py with the given arguments (see its docstring), e.g.
#   Benchmarks/run.sh --inputs monaco,milan,milan-2x2,milan-5x5,NY --import-only kotka,helgoland
# Results: Benchmarks/results/{results.json,report.md,scaling.svg}; scratch in Benchmarks/work/.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
Tools/setup.sh
Tools/setup_peers.sh >&2
command -v osmium >/dev/null || apt-get install -y -o DPkg::Lock::Timeout=300 osmium-tool >&2
swift build -c release >&2
exec timeout 5h "${PEERS_VENV:-$ROOT/Benchmarks/work/peers-venv}/bin/python" Benchmarks/run.py "$@"
