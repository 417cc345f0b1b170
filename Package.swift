// swift-tools-version:6.0
import PackageDescription

// Layers, each depending only on the ones above it:
//   NavGraphCore    the graph file reader, queries, many-to-many, guidance, output and the in-process directions API
//                   (Foundation and three small C helpers with no outside library: builds for an app on a device)
//   NavGraphOrder   the node order (inertial flow, METIS): the import's hot loops, built -Ounchecked
//   NavGraphImport  extract (libosmium), contract, write: `navgraph import`
//   NavGraphServer  HTTP (libmicrohttpd) and the API dialects beyond OSRM's (Mapbox, NextBillion), tokens, map page
//   navgraph        the command line; NavGraphC, the C ABI the Python package loads (core only)
let package = Package(
    name: "navgraph",
    products: [
        .executable(name: "navgraph", targets: ["navgraph"]),
        .executable(name: "navgraph-bench", targets: ["navgraph-bench"]),
        .library(name: "NavGraphCore", targets: ["NavGraphCore"]),
        .library(name: "NavGraphImport", targets: ["NavGraphImport", "NavGraphOrder"]),
        .library(name: "NavGraphServer", targets: ["NavGraphServer"]),
        .library(name: "NavGraphC", type: .dynamic, targets: ["NavGraphC"]),
    ],
    targets: [
        // --- Core: no outside library.
        // Cache prefetch hints and relaxed 32-bit atomics.
        .target(name: "CMemoryAccess", path: "Sources/CMemoryAccess"),
        // Early writeback and O_DIRECT reopening of output files (sync_file_range, /proc/self/fd).
        .target(name: "CFileWriteback", path: "Sources/CFileWriteback"),
        // The graph file's CRC-32: portable slice-by-8, or ISA-L's folding through dlopen where libisal is installed.
        .target(name: "CCRC32", path: "Sources/CCRC32", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "NavGraphCore",
            dependencies: ["CMemoryAccess", "CFileWriteback", "CCRC32"],
            path: "Sources/NavGraphCore",
            // Instruction phrasebooks (one JSON per language, found by PhrasebookLocation).
            resources: [.copy("Resources/phrasebook")]
        ),
        // --- Import: libosmium, METIS.
        // Plain extern "C" shim over libosmium (C++17); every C++ exception becomes an error string.
        .target(
            name: "COsmiumShim",
            path: "Sources/COsmiumShim",
            cxxSettings: [.unsafeFlags(["-std=c++17", "-O2"])],
            linkerSettings: [
                .linkedLibrary("expat"), .linkedLibrary("bz2"), .linkedLibrary("z"),
                .linkedLibrary("pthread"), .linkedLibrary("stdc++"),
            ]
        ),
        // METIS nested-dissection orders, from Debian's libmetis-dev.
        .systemLibrary(name: "CMetis", path: "Sources/CMetis"),
        // Per-thread rand()/srand(), so that METIS runs on two threads at once stay deterministic.
        .target(name: "CMetisRandom", path: "Sources/CMetisRandom"),
        // malloc_trim and the mmap threshold, which Swift's Glibc module does not expose.
        .target(name: "CHeapTrim", path: "Sources/CHeapTrim"),
        // The node order (inertial-flow cuts, METIS nested dissection): the import's hot loops, the one module built
        // -Ounchecked in release (it reads no outside input, only the checked road network; Benchmarks/IMPORT.md).
        .target(
            name: "NavGraphOrder",
            dependencies: ["NavGraphCore", "CMetis", "CMetisRandom", "CHeapTrim", "CMemoryAccess"],
            path: "Sources/NavGraphOrder",
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        // Extract, contract, write and the import's orchestration, with every check on (it reads the OSM input).
        .target(
            name: "NavGraphImport",
            dependencies: ["NavGraphCore", "NavGraphOrder", "COsmiumShim", "CHeapTrim", "CFileWriteback", "CCRC32"],
            path: "Sources/NavGraphImport"
        ),
        // --- Server: libmicrohttpd.
        // libmicrohttpd (Debian's libmicrohttpd-dev) behind a non-variadic C wrapper, with gzip responses by ISA-L's igzip
        // (Debian's libisal-dev) for clients that accept them.
        .target(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD",
                linkerSettings: [.linkedLibrary("microhttpd"), .linkedLibrary("isal")]),
        .target(
            name: "NavGraphServer",
            dependencies: ["NavGraphCore", "CMicroHTTPD"],
            path: "Sources/NavGraphServer",
            // The map page's HTML, JS and CSS.
            resources: [.copy("Web")]
        ),
        // --- Programs.
        .executableTarget(name: "navgraph", dependencies: ["NavGraphCore", "NavGraphImport", "NavGraphServer"], path: "Sources/navgraph"),
        // The C ABI (@_cdecl) that the Python package in python/ loads in process.
        .target(name: "NavGraphC", dependencies: ["NavGraphCore"], path: "Sources/NavGraphC"),
        // In-process measurements for Benchmarks/ (latency percentiles, customization times).
        .executableTarget(name: "navgraph-bench", dependencies: ["NavGraphCore", "NavGraphImport", "NavGraphServer"], path: "Sources/navgraph-bench"),
        // Evaluation, not shipped: judges other engines' alternatives by navgraph's admissibility criteria
        // (Benchmarks/ALTERNATIVES-PEERS.md).
        .target(name: "AltCheck", dependencies: ["NavGraphCore"], path: "Benchmarks/altcheck/AltCheck"),
        .executableTarget(name: "navgraph-altcheck", dependencies: ["AltCheck", "NavGraphCore"], path: "Benchmarks/altcheck/navgraph-altcheck"),
        // On-device routing with the core alone (README "Embedding"): the example an app follows.
        .executableTarget(name: "offline-directions", dependencies: ["NavGraphCore"], path: "Examples/OfflineDirections"),
        // The core's own tests: they import nothing else (Tools/core_only_check.sh runs them without the -dev packages).
        .testTarget(name: "NavGraphCoreTests", dependencies: ["NavGraphCore", "CCRC32"], path: "Tests/NavGraphCoreTests"),
        .testTarget(name: "NavGraphTests", dependencies: ["NavGraphCore", "NavGraphOrder", "NavGraphImport", "NavGraphServer", "AltCheck"], path: "Tests/NavGraphTests"),
    ],
    cxxLanguageStandard: .cxx17
)
