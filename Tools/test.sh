#!/usr/bin/env bash
# The whole test suite: set up, run the checked tier (crafted-map tests in a debug build under AddressSanitizer),
# the TSan tier (the concurrent tests in a debug build under ThreadSanitizer, own build directory), then every test
# in release mode (real extracts are too slow in debug).
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
Tools/checked_tier.sh
Tools/tsan_tier.sh
swift test -c release 2>&1
