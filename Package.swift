// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "navgraph",
    products: [
        .executable(name: "navgraph", targets: ["navgraph"]),
        .executable(name: "navgraph-bench", targets: ["navgraph-bench"]),
        .executable(name: "navgraph-altcheck", targets: ["navgraph-altcheck"]),
        .library(name: "NavGraph", targets: ["NavGraph"]),
        .library(name: "NavGraphC", type: .dynamic, targets: ["NavGraphC"]),
    ],
    targets: [
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
        // libmicrohttpd (Debian's libmicrohttpd-dev) behind a non-variadic C wrapper.
        .target(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
        // Per-thread rand()/srand() so that METIS runs on two threads at once stay deterministic; malloc_trim for Swift.
        .target(name: "CThreadRandom", path: "Sources/CThreadRandom"),
        // The graph file's CRC-32 through Debian's ISA-L (libisal-dev; carry-less multiply, same values as zlib's).
        .target(name: "CChecksum", path: "Sources/CChecksum", linkerSettings: [.linkedLibrary("isal"), .linkedLibrary("z")]),
        .target(
            name: "NavGraph",
            dependencies: ["COsmiumShim", "CMetis", "CThreadRandom", "CChecksum"],
            path: "Sources/NavGraph",
            // Instruction phrasebooks (one JSON per language, found by PhrasebookLocation) and the map page.
            resources: [.copy("Resources/phrasebook"), .copy("Server/Web")],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        // The HTTP server: libmicrohttpd's thread pool in front of NavGraph's RoutingService.
        .target(name: "NavGraphServer", dependencies: ["NavGraph", "CMicroHTTPD"], path: "Sources/NavGraphServer"),
        .executableTarget(name: "navgraph", dependencies: ["NavGraph", "NavGraphServer"], path: "Sources/navgraph"),
        // In-process measurements for Benchmarks/ (latency percentiles, customization times).
        .executableTarget(name: "navgraph-bench", dependencies: ["NavGraph"], path: "Sources/navgraph-bench"),
        // Judges other engines' alternatives (OSRM, Valhalla) by navgraph's admissibility criteria; see Benchmarks/ALTERNATIVES-PEERS.md.
        .target(name: "AltCheck", dependencies: ["NavGraph"], path: "Sources/AltCheck"),
        .executableTarget(name: "navgraph-altcheck", dependencies: ["AltCheck", "NavGraph"], path: "Sources/navgraph-altcheck"),
        // The C ABI (@_cdecl) that the Python package in python/ loads in process.
        .target(name: "NavGraphC", dependencies: ["NavGraph"], path: "Sources/NavGraphC"),
        .testTarget(name: "NavGraphTests", dependencies: ["NavGraph", "AltCheck", "NavGraphServer"], path: "Tests/NavGraphTests"),
    ],
    cxxLanguageStandard: .cxx17
)
