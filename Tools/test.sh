#!/usr/bin/env bash
# The whole test suite: set up, run the checked tier (crafted-map tests in a debug build under AddressSanitizer),
# the TSan tier (the concurrent tests in a debug build under ThreadSanitizer, own build directory), then every test
# in release mode (real extracts are too slow in debug), then the Python package's pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
# The release suite's real-extract tests read the shared OSM extracts beside the clone (or NAVGRAPH_DATA): say so
# now rather than after the build.
data="${NAVGRAPH_DATA:-$(cd .. && pwd)/shared/data}"
if [ ! -f "$data/monaco.osm.pbf" ]; then
  echo "test: the shared extracts are not at $data (no monaco.osm.pbf); set NAVGRAPH_DATA to the folder that holds them" >&2
  exit 2
fi
# The core alone, with the outside libraries hidden (NavGraphCore's independence; Tests/NavGraphCoreTests).
Tools/core_only_check.sh
Tools/checked_tier.sh
Tools/tsan_tier.sh
swift test -c release 2>&1
Tools/python_tests.sh
