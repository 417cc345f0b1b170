import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// The map page options of `navgraph serve` (`--assets DIR`, `--glyphs URL`, `--theme FILE`) and where the
/// assets are found by default: `.build/web` of the checkout the binary was built in (Tools/setup.sh fills it).
enum MapPageSetup {
    /// The map page's options of `navgraph serve`.
    static let options: [OptionSpec] = [
        OptionSpec(name: "assets", kind: .value, placeholder: "DIR", help: "MapLibre GL JS files for the map page at /",
                   defaultValue: "the folder Tools/setup.sh fills"),
        OptionSpec(name: "glyphs", kind: .value, placeholder: "URL", help: "glyph URL template of the map page's style",
                   defaultValue: "glyphs served locally when installed"),
        OptionSpec(name: "theme", kind: .value, placeholder: "FILE", help: "route colours and widths (JSON) of the map page and /style"),
    ]

    static func make(_ arguments: Arguments, graph: RoutingGraph) throws -> MapPage {
        let assets = arguments.options["assets"].map { URL(fileURLWithPath: $0) } ?? defaultAssetsDirectory()
        let theme = try arguments.options["theme"].map { try RouteTheme.load(path: $0) } ?? .default
        let glyphs = try arguments.options["glyphs"].map(glyphsURL)
        let page = MapPage(graph: graph, assetsDirectory: assets, theme: theme, glyphsURL: glyphs)
        let missing = page.missingFiles
        if missing.isEmpty {
            FileHandle.standardError.write(Data("navgraph serve: map page at / (assets \(assets.path), glyphs \(page.hasGlyphs ? page.glyphsURL : "none: labels hidden"))\n".utf8))
        } else {
            FileHandle.standardError.write(Data("navgraph serve: the map page lacks \(missing.joined(separator: ", ")); run Tools/setup.sh or pass --assets DIR (the page says so too)\n".utf8))
        }
        return page
    }

    /// A glyph URL template must hold {fontstack} and {range}.
    static func glyphsURL(_ text: String) throws -> String {
        guard text.contains("{fontstack}"), text.contains("{range}") else {
            throw NavGraphError("--glyphs: '\(text)' lacks {fontstack} or {range} (e.g. http://127.0.0.1:5000/fonts/{fontstack}/{range}.pbf)")
        }
        return text
    }

    /// `.build/web` next to the Package.swift above the executable, else under the working directory.
    static func defaultAssetsDirectory() -> URL {
        var directory = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? ".")).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.appendingPathComponent(".build/web")
            }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/web")
    }
}
