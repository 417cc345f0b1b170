import Foundation

/// Starts `navgraph serve` on the bundled Monaco extract and drives Debian's headless chromium against it, for
/// the map page tests. Everything started here is stopped here; chromium resolves no host name but 127.0.0.1.
enum BrowserHarness {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let assets = Fixtures.packageRoot.appendingPathComponent(".build/web")
    /// Where screenshots go (printed by the tests).
    static let outputDirectory: URL = {
        let directory = ProcessInfo.processInfo.environment["NAVGRAPH_TEST_OUTPUT"].map { URL(fileURLWithPath: $0) }
            ?? Fixtures.packageRoot.appendingPathComponent("out/map-page")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    /// A destination on a motorway link west of Monaco that only the motorway reaches: `avoid=highway` has no route.
    static let impossibleQuery = "loc=43.7384,7.4246&loc=43.74642,7.37918&avoid=highway"

    /// Why the browser tests cannot run here, or nil.
    static var skipReason: String? {
        if chromium == nil { return "map page browser tests skipped: Debian's chromium is not installed (Tools/setup.sh installs it where apt has it)" }
        if !FileManager.default.fileExists(atPath: assets.appendingPathComponent("maplibre-gl.js").path) {
            return "map page browser tests skipped: no MapLibre GL JS in \(assets.path) (Tools/setup.sh runs Tools/web_assets.py)"
        }
        if !FileManager.default.isExecutableFile(atPath: Fixtures.executable.path) {
            return "map page browser tests skipped: no navgraph executable at \(Fixtures.executable.path) (swift build -c release)"
        }
        return nil
    }

    /// The bundled extract imported once per test run, with its sample traffic.
    static let graph: Result<(graph: String, traffic: String), Error> = Result {
        let directory = Fixtures.workDirectory.appendingPathComponent("map-page")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let graph = directory.appendingPathComponent("monaco.navgraph").path
        let traffic = directory.appendingPathComponent("monaco.traffic").path
        let data = Fixtures.packageRoot.appendingPathComponent("Data")
        let imported = try Fixtures.run(["import", data.appendingPathComponent("monaco.osm.pbf").path, "-o", graph, "--quiet"])
        guard imported.status == 0 else { throw HarnessError("import failed: \(imported.stderr)") }
        let loaded = try Fixtures.run(["traffic", graph, data.appendingPathComponent("monaco-traffic.csv").path, "-o", traffic])
        guard loaded.status == 0 else { throw HarnessError("traffic failed: \(loaded.stderr)") }
        return (graph, traffic)
    }

    struct HarnessError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A running `navgraph serve` on 127.0.0.1 and an ephemeral port, its stderr (the request log) in a file.
    final class Server {
        let process: Process
        let logURL: URL
        let port: Int

        private init(process: Process, logURL: URL, port: Int) {
            self.process = process; self.logURL = logURL; self.port = port
        }

        static func start() throws -> Server {
            let files = try BrowserHarness.graph.get()
            let logURL = Fixtures.workDirectory.appendingPathComponent("map-page/serve-\(UUID().uuidString).log")
            FileManager.default.createFile(atPath: logURL.path, contents: nil)
            let log = try FileHandle(forWritingTo: logURL)
            let process = Process()
            process.executableURL = Fixtures.executable
            process.arguments = ["serve", files.graph, "--host", "127.0.0.1", "--port", "0", "--traffic", files.traffic,
                                 "--assets", BrowserHarness.assets.path, "--threads", "4"]
            process.standardError = log
            process.standardOutput = log
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                if let range = text.range(of: "on http://127.0.0.1:"),
                   let port = Int(text[range.upperBound...].prefix { $0.isNumber }) {
                    return Server(process: process, logURL: logURL, port: port)
                }
                if !process.isRunning { throw HarnessError("navgraph serve exited: \(text)") }
                Thread.sleep(forTimeInterval: 0.1)
            }
            process.terminate()
            throw HarnessError("navgraph serve did not start within 30 s")
        }

        func log() -> String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// What chromium saw: the serialized DOM after the virtual time budget and the attributes of <body>.
    struct Page {
        let dom: String
        let attributes: [String: String]
    }

    /// Loads `/?query` in headless chromium twice: once for the DOM, once for a screenshot saved under
    /// `outputDirectory` (the path is printed).
    static func open(_ server: Server, query: String, screenshot: String) throws -> Page {
        let url = "http://127.0.0.1:\(server.port)/?\(query)"
        let dom = try runChromium(["--dump-dom", url])
        let shot = outputDirectory.appendingPathComponent(screenshot)
        try? FileManager.default.removeItem(at: shot)
        _ = try runChromium(["--screenshot=\(shot.path)", url])
        print("map page screenshot: \(shot.path)")
        guard let bodyStart = dom.range(of: "<body"), let bodyEnd = dom[bodyStart.upperBound...].range(of: ">") else {
            throw HarnessError("chromium returned no <body>: \(dom.prefix(500))")
        }
        return Page(dom: dom, attributes: attributes(String(dom[bodyStart.upperBound..<bodyEnd.lowerBound])))
    }

    private static func runChromium(_ arguments: [String]) throws -> String {
        guard let chromium else { throw HarnessError("no chromium") }
        let profile = Fixtures.workDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu-sandbox", "--hide-scrollbars", "--no-first-run",
            "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--user-data-dir=\(profile.path)", "--window-size=1280,800", "--virtual-time-budget=20000",
        ] + arguments
        let out = Pipe()
        let err = FileHandle(forWritingAtPath: "/dev/null")
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Bounded: chromium is killed after 120 s.
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return String(decoding: data, as: UTF8.self)
    }

    /// `name="value"` pairs of a start tag, entities decoded.
    static func attributes(_ tag: String) -> [String: String] {
        var result: [String: String] = [:]
        let pattern = /([a-zA-Z0-9_-]+)="([^"]*)"/
        for match in tag.matches(of: pattern) {
            result[String(match.1)] = unescapeHTML(String(match.2))
        }
        return result
    }

    static func unescapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
