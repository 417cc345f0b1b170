#!/usr/bin/env bash
# The checked tier: the crafted-map tests (small hand-made maps and inputs, no real extract) in a debug build,
# so bounds and overflow checks are on, under AddressSanitizer. Run by .ci/run before the release suite.
# Which tests: suites whose names match $filter; tests whose names start with `real` (real extracts) are skipped.
# A new crafted suite joins by being named Crafted...; a real-extract test in a listed suite is named real...
set -euo pipefail
cd "$(dirname "$0")/.."
filter='NavGraphCoreTests\.|NavGraphTests\.(Crafted[A-Za-z]*|Output[A-Za-z]*|RestrictionAndSnappingTests|TrafficTests|AvoidanceTests|DimacsTests|TurnCostTests)/'
skip='/real'
start=$(date +%s)
# Leaks are not this tier's subject (XCTest's own allocations are reported); the Swift backtracer's memory reader
# trips ASan, so crashes are reported by ASan alone.
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" SWIFT_BACKTRACE="enable=no" \
  swift test --sanitize=address --filter "$filter" --skip "$skip" 2>&1
echo "checked tier (debug, AddressSanitizer): $(( $(date +%s) - start )) s" >&2
