// swift-tools-version:6.0
// libFuzzer targets for navgraph, kept out of the main package so `swift build -c release --product navgraph`
// never builds them. Built and run by Tools/fuzz.sh (debug, -sanitize=fuzzer,address, -parse-as-library).
import PackageDescription

let fuzzTargets = ["graph-file", "traffic-csv", "pairs-csv", "osm-pbf", "http-request"]

let package = Package(
    name: "navgraph-fuzz",
    dependencies: [.package(name: "navgraph", path: "../..")],
    targets: [
        // The small crafted graph the targets query, scratch files, and the shared query checks.
        .target(name: "FuzzSupport", dependencies: [.product(name: "NavGraphCore", package: "navgraph"), .product(name: "NavGraphImport", package: "navgraph"), .product(name: "NavGraphServer", package: "navgraph")], path: "Sources/FuzzSupport"),
        // Each executable's entry (`<module>_main`), in C: starts libFuzzer's driver.
        .target(name: "FuzzMain", path: "Sources/FuzzMain"),
    ] + fuzzTargets.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzSupport", "FuzzMain", .product(name: "NavGraphCore", package: "navgraph"), .product(name: "NavGraphImport", package: "navgraph"), .product(name: "NavGraphServer", package: "navgraph")],
                          path: "Sources/fuzz-\(name)")
    }
)
