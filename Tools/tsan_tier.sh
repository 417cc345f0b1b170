#!/usr/bin/env bash
# The ThreadSanitizer tier: the tests that run code on several threads at once, in a debug build under TSan, with
# their own build directory (.build/tsan) so the ASan and release builds stay intact. Run by Tools/test.sh.
# Which tests: a RoutingService on four threads (crafted town), the server suites (libmicrohttpd's worker threads,
# traffic swaps under concurrent requests, the serve command), the map page through RoutingService, the nested
# dissection computed on two threads at once, a matrix on all cores (BucketManyToMany's workers), and narrators on
# eight threads (each with its per-thread TextArena). The monaco import these tests share is itself parallel (nested
# dissection).
set -euo pipefail
cd "$(dirname "$0")/.."
filter='NavGraphTests\.(ServerTests|ServerIsochroneTests|MapPageTests|CraftedServerConcurrencyTests)/'
filter+='|NavGraphTests\.NestedDissectionOrderTests/splitOrderIsAPermutationAndDeterministicAcrossThreads'
filter+='|NavGraphTests\.MatrixTests/diagonalIsZero'
filter+='|NavGraphTests\.CraftedGuidanceTextTests/concurrentNarratorsAgree'
# One client at a time on andorra (a second, bigger import in a TSan build) adds no concurrency.
skip='ServerTests/routeTableAndNearestAgreeWithTheLibrary'
start=$(date +%s)
# halt_on_error: the first race fails the run with TSan's report; no Swift backtracer (TSan reports).
TSAN_OPTIONS="halt_on_error=1:${TSAN_OPTIONS:-}" SWIFT_BACKTRACE="enable=no" \
  swift test --sanitize=thread --scratch-path .build/tsan --filter "$filter" --skip "$skip" 2>&1
echo "TSan tier (debug, ThreadSanitizer): $(( $(date +%s) - start )) s" >&2
