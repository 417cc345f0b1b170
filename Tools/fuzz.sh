#!/usr/bin/env bash
# Tools/fuzz.sh TARGET SECONDS [libFuzzer flags...]
# Builds one libFuzzer target of Tools/fuzz (debug: bounds and overflow checks; -sanitize=fuzzer,address for the
# Swift code, ASan and coverage for the libosmium shim) and runs it for SECONDS. Seeds: Tools/fuzz/corpus/TARGET
# (small, in the repo); inputs it finds go to Tools/fuzz/.build/corpus/TARGET, crashes to Tools/fuzz/.build/findings/TARGET.
# Exits non-zero when the target crashes, leaks or times out. Targets: graph-file traffic-csv pairs-csv osm-pbf http-request.
set -euo pipefail
cd "$(dirname "$0")/fuzz"
targets="graph-file traffic-csv pairs-csv osm-pbf http-request"
target=${1:-}
seconds=${2:-}
if [[ -z "$target" || -z "$seconds" || " $targets " != *" $target "* ]]; then
  echo "usage: Tools/fuzz.sh TARGET SECONDS [libFuzzer flags]   (TARGET: $targets)" >&2
  exit 2
fi
shift 2
echo "fuzz: building fuzz-$target" >&2
# FUZZ_CONFIGURATION=release fuzzes the release build (optimized, with the checks the release keeps) instead.
configuration="${FUZZ_CONFIGURATION:-debug}"
swift build -c "$configuration" --product "fuzz-$target" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
  -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address >&2
binary="$(swift build -c "$configuration" --show-bin-path)/fuzz-$target"
work=".build/corpus/$target"
findings=".build/findings/$target"
mkdir -p "$work" "$findings"
echo "fuzz: running fuzz-$target for $seconds s (seeds corpus/$target, new inputs $work, crashes $findings)" >&2
# detect_leaks=0: the graph and router caches live for the whole process by design. No Swift backtracer: its
# memory reader trips ASan; ASan and libFuzzer report the crash.
# A target's dictionary (dict/TARGET.dict: its request words), when it has one.
dictionary=()
if [[ -f "dict/$target.dict" ]]; then dictionary=(-dict="dict/$target.dict"); fi
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" SWIFT_BACKTRACE="enable=no" "$binary" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
  -print_final_stats=1 -artifact_prefix="$findings/" "${dictionary[@]}" "$@" "$work" "corpus/$target"
