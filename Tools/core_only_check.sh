#!/usr/bin/env bash
# Proves that NavGraphCore stands alone: builds it and runs its tests (Tests/NavGraphCoreTests) in a package that
# holds only the core's targets, inside a mount namespace where the headers and shared objects of libosmium,
# protozero, METIS, ISA-L, libmicrohttpd, expat, bzip2 and zlib are hidden (bind-mounted over with empty files and
# folders), as on a machine without those -dev packages. Hiding ISA-L's shared object also makes the graph file's
# CRC-32 run on the portable code, which must accept the checksums an ISA-L import wrote.
# Also fails when a core Swift file imports, or a core C file includes, anything outside the allowed lists.
# Needs a release build of `navgraph` (to import the test graph) and root for `unshare --mount`.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
core_c_modules=(CMemoryAccess CFileWriteback CCRC32)

# 1. Static check: the core's imports and includes.
allowed_swift="Foundation Dispatch Glibc Testing NavGraphCore ${core_c_modules[*]}"
allowed_c="stddef.h stdint.h stdio.h string.h fcntl.h dlfcn.h pthread.h stdatomic.h immintrin.h unistd.h"
bad=0
while IFS= read -r line; do
  file="${line%%:*}"; module="${line##*import }"; module="${module%% *}"
  if [[ " $allowed_swift " != *" $module "* ]]; then echo "core_only_check: $file imports $module, outside the core's allowed modules" >&2; bad=1; fi
done < <(grep -rnE '^(@testable )?import [A-Za-z]+' Sources/NavGraphCore Tests/NavGraphCoreTests --include=*.swift | sed -E 's/:[0-9]+:(@testable )?/:/')
for module in "${core_c_modules[@]}"; do
  while IFS= read -r line; do
    header="$(echo "$line" | sed -E 's/.*#include [<"]([^>"]+)[>"].*/\1/')"
    [[ -f "Sources/$module/include/$header" ]] && continue
    if [[ " $allowed_c " != *" $header "* ]]; then echo "core_only_check: ${line%%:*} includes $header, outside the C library" >&2; bad=1; fi
  done < <(grep -rn '#include' "Sources/$module")
done
[[ $bad -eq 0 ]] || exit 1
echo "core_only_check: the core imports only $allowed_swift" >&2

# 2. The test graph, imported by the full build.
mkdir -p "$root/out"
graph="$root/out/core-check-monaco.navgraph"
if [[ ! -f "$graph" ]]; then
  swift build -c release --product navgraph >&2
  "$(swift build -c release --show-bin-path)/navgraph" import Data/monaco.osm.pbf -o "$graph" --profiles car >&2
fi

# 3. A package of the core alone.
work="$(mktemp -d /tmp/navgraph-core-only.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources" "$work/Tests"
for target in NavGraphCore "${core_c_modules[@]}"; do cp -r "Sources/$target" "$work/Sources/"; done
cp -r Tests/NavGraphCoreTests "$work/Tests/"
cat > "$work/Package.swift" <<'EOF'
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "navgraph-core-only",
    targets: [
        .target(name: "CMemoryAccess", path: "Sources/CMemoryAccess"),
        .target(name: "CFileWriteback", path: "Sources/CFileWriteback"),
        .target(name: "CCRC32", path: "Sources/CCRC32", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "NavGraphCore", dependencies: ["CMemoryAccess", "CFileWriteback", "CCRC32"], path: "Sources/NavGraphCore",
                resources: [.copy("Resources/phrasebook")]),
        .testTarget(name: "NavGraphCoreTests", dependencies: ["NavGraphCore", "CCRC32"], path: "Tests/NavGraphCoreTests"),
    ]
)
EOF

# 4. Build and test it with the outside libraries hidden.
hide=(/usr/include/osmium /usr/include/protozero /usr/include/isa-l /usr/include/isa-l.h /usr/include/metis.h
      /usr/include/microhttpd.h /usr/include/zlib.h /usr/include/bzlib.h /usr/include/expat.h)
# The shared objects of ISA-L, METIS and libmicrohttpd (a bind mount over a symbolic link covers its target, so the
# -dev links of expat, bzip2 and zlib, which the base system and the toolchain use, keep their libraries: their
# headers are hidden above).
for library in /usr/lib/*-linux-gnu/lib{isal,metis,microhttpd}.so*; do
  [[ -e "$library" ]] && hide+=("$library")
done
script="set -e; empty=\$(mktemp -d); touch \$empty/file
for path in ${hide[*]}; do
  [ -e \"\$path\" ] || continue
  if [ -d \"\$path\" ]; then mount --bind \$empty \"\$path\"; else mount --bind \$empty/file \"\$path\"; fi
done
echo \"core_only_check: hidden: ${hide[*]}\" >&2
cd '$work'
swift build --build-tests >&2
NAVGRAPH_CORE_ISAL_HIDDEN=1 NAVGRAPH_CORE_TEST_GRAPH='$graph' swift test --skip-build 2>&1"
if unshare --mount --propagation private true 2>/dev/null; then
  unshare --mount --propagation private bash -c "$script"
else
  echo "core_only_check: unshare --mount is not permitted here: building the core-only package WITHOUT hiding the libraries" >&2
  (cd "$work" && swift build --build-tests >&2 && NAVGRAPH_CORE_TEST_GRAPH="$graph" swift test --skip-build 2>&1)
fi
