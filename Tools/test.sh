#!/usr/bin/env bash
# The whole test suite: set up, then run every test in release mode (real extracts are too slow in debug).
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
swift test -c release 2>&1
