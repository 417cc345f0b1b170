#!/usr/bin/env bash
# checked_cost.sh - what keeping the checks in the core's release build costs a route query (Benchmarks/IMPORT.md,
# "Checked builds"). Builds this checkout's code a second time with NavGraphCore -Ounchecked (a git worktree under
# Benchmarks/work/unchecked, Package.swift patched there only), then compares the two navgraph-bench binaries on the
# same graph and pairs:
#   time          --guidance-rounds R in ALTERNATIONS processes per build, alternating (the order flips each time);
#                 the median over all rounds of the per-round p50 of plain and plain + steps queries
#   instructions  callgrind's instruction count of the queries alone (a run on PAIRS_CALLGRIND pairs minus a run on
#                 one pair, so loading and customization cancel out): exact, whatever else the machine runs
# Usage: Benchmarks/checked_cost.sh GRAPH PAIRS.csv [ALTERNATIONS=6] [ROUNDS=8]
#   EXTRA_BUILDS="dir ..." adds other checkouts' release navgraph-bench (built already) to the time comparison.
#   PAIRS_CALLGRIND=300 (0 skips the instruction count; needs valgrind).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
GRAPH="$(realpath "$1")" PAIRS="$(realpath "$2")" ALTERNATIONS="${3:-6}" ROUNDS="${4:-8}"
WORK="$ROOT/Benchmarks/work/checked-cost"
UNCHECKED="$ROOT/Benchmarks/work/unchecked"
mkdir -p "$WORK"
cd "$ROOT"
swift build -c release --product navgraph-bench >&2
[ -e "$UNCHECKED/.git" ] || git worktree add -q --detach "$UNCHECKED" HEAD >&2
git -C "$UNCHECKED" reset -q --hard "$(git rev-parse HEAD)"
git diff HEAD > "$WORK/uncommitted.patch"  # uncommitted changes of tracked files go along
if [ -s "$WORK/uncommitted.patch" ]; then git -C "$UNCHECKED" apply "$WORK/uncommitted.patch"; fi
python3 - "$UNCHECKED/Package.swift" <<'PYEOF'
import sys
path = sys.argv[1]
text = open(path).read()
anchor = 'resources: [.copy("Resources/phrasebook")]\n        ),'
if "NAVGRAPH_CHECKED_COST" not in text:
    assert anchor in text, "Package.swift: NavGraphCore's resources line not found"
    text = text.replace(anchor, 'resources: [.copy("Resources/phrasebook")],\n            // NAVGRAPH_CHECKED_COST\n'
                        '            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]\n        ),', 1)
    open(path, "w").write(text)
PYEOF
(cd "$UNCHECKED" && swift build -c release --product navgraph-bench >&2)
BUILDS=("$ROOT" "$UNCHECKED" ${EXTRA_BUILDS:-})
python3 - "$GRAPH" "$PAIRS" "$ALTERNATIONS" "$ROUNDS" "${BUILDS[@]}" <<'PYEOF'
import json, statistics, subprocess, sys
graph, pairs, alternations, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
builds = sys.argv[5:]
plain = {b: [] for b in builds}; steps = {b: [] for b in builds}
for a in range(alternations):
    for b in (builds if a % 2 == 0 else builds[::-1]):
        out = subprocess.run([b + "/.build/release/navgraph-bench", graph, pairs, "--guidance-rounds", rounds],
                             capture_output=True, text=True, check=True).stdout
        r = json.loads(out)
        plain[b] += r["plainP50"]; steps[b] += r["stepsP50"]
        print(f"alternation {a + 1}/{alternations} {b}: plain p50 {statistics.median(r['plainP50']):.4f} ms", file=sys.stderr)
base = builds[0]
print(f"time: median of {len(plain[base])} per-round p50s per build")
for b in builds:
    p, s = statistics.median(plain[b]), statistics.median(steps[b])
    print(f"  {b}: plain {p:.4f} ms, plain + steps {s:.4f} ms"
          + ("" if b == base else f"; checked / this: plain {statistics.median(plain[base]) / p:.3f}, "
                                  f"steps {statistics.median(steps[base]) / s:.3f}"))
PYEOF
PAIRS_CALLGRIND="${PAIRS_CALLGRIND:-300}"
[ "$PAIRS_CALLGRIND" -gt 0 ] || exit 0
command -v valgrind >/dev/null || { echo "instructions: skipped (no valgrind)"; exit 0; }
head -1 "$PAIRS" > "$WORK/pairs-1.csv"
head -"$PAIRS_CALLGRIND" "$PAIRS" > "$WORK/pairs-n.csv"
count() {  # BUILD_DIR PAIRFILE -> instructions (the binary without debug info: valgrind cannot read Swift's)
  local dir="$WORK/$(echo "$1" | md5sum | cut -c1-8)"
  mkdir -p "$dir"
  strip --strip-debug -o "$dir/navgraph-bench" "$1/.build/release/navgraph-bench"
  cp -r "$1"/.build/release/*.resources "$dir/"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$dir/navgraph-bench" "$GRAPH" "$2" 2>&1 >/dev/null \
    | awk '/Collected/ { print $4 }'
}
echo "instructions of $((PAIRS_CALLGRIND - 1)) pairs' queries (plain, plain + steps, avoid), callgrind"
declare -A QUERY
for b in "${BUILDS[@]}"; do
  QUERY[$b]=$(( $(count "$b" "$WORK/pairs-n.csv") - $(count "$b" "$WORK/pairs-1.csv") ))
  echo "  $b: ${QUERY[$b]}"
done
for b in "${BUILDS[@]:1}"; do
  python3 -c "import sys; print(f'  checked / {sys.argv[1]}: {int(sys.argv[2]) / int(sys.argv[3]):.4f}')" "$b" "${QUERY[$ROOT]}" "${QUERY[$b]}"
done
