import Foundation

/// Where the phrasebook JSON files are at run time.
///
/// SwiftPM copies `Sources/NavGraphCore/Resources/phrasebook` into the resource bundle `navgraph_NavGraphCore.resources`
/// next to every built executable (`.build/release/navgraph`, the test runner). The generated `Bundle.module`
/// stops the process when that bundle is missing (a binary copied elsewhere), so the directory is looked up here
/// instead, in this order: `$NAVGRAPH_PHRASEBOOK_DIR`; the resource bundle beside the executable (Linux and
/// macOS layouts); the package's source tree (a development build run from anywhere).
enum PhrasebookLocation {
    static let environmentVariable = "NAVGRAPH_PHRASEBOOK_DIR"
    static let bundleName = "navgraph_NavGraphCore"

    /// `directory()` as found once per process.
    package static let found: (url: URL?, searched: [String]) = directory()

    /// The first candidate directory that holds `en.json`, or nil; `searched` lists every place tried.
    package static func directory() -> (url: URL?, searched: [String]) {
        let candidates = candidateDirectories()
        let found = candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("en.json").path) }
        return (found, candidates.map(\.path))
    }

    static func candidateDirectories() -> [URL] {
        var result: [URL] = []
        if let dir = ProcessInfo.processInfo.environment[environmentVariable], !dir.isEmpty {
            result.append(URL(fileURLWithPath: dir, isDirectory: true))
        }
        for executableDir in executableDirectories() {
            result.append(executableDir.appendingPathComponent("\(bundleName).resources/phrasebook", isDirectory: true))
            result.append(executableDir.appendingPathComponent("\(bundleName).bundle/Contents/Resources/phrasebook", isDirectory: true))
            result.append(executableDir.appendingPathComponent("\(bundleName).bundle/phrasebook", isDirectory: true))
        }
        // Sources/NavGraphCore/Guidance/Text/PhrasebookLocation.swift -> Sources/NavGraphCore/Resources/phrasebook
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        result.append(sourceRoot.appendingPathComponent("Resources/phrasebook", isDirectory: true))
        return result
    }

    /// The running executable's directory, as invoked and with symbolic links resolved.
    private static func executableDirectories() -> [URL] {
        var dirs: [URL] = []
        if let executable = Bundle.main.executableURL {
            dirs.append(executable.deletingLastPathComponent())
            dirs.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        dirs.append(Bundle.main.bundleURL)
        var unique: [URL] = []
        for dir in dirs where !unique.contains(where: { $0.standardizedFileURL.path == dir.standardizedFileURL.path }) {
            unique.append(dir)
        }
        return unique
    }
}
