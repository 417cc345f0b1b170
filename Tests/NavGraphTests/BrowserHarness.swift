import Foundation

/// Starts `navgraph serve` on the bundled Monaco extract and drives Debian's headless chromium against it through
/// Tools/map_page_check.py, for the map page tests. Everything started here is stopped here; chromium resolves no
/// host name but 127.0.0.1.
enum BrowserHarness {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
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
        if python == nil { return "map page browser tests skipped: no python3 to drive chromium (Tools/map_page_check.py)" }
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
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
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

        /// SIGTERM (the server drains and exits), then SIGKILL after 10 s should it still run.
        func stop() {
            if process.isRunning { process.terminate() }
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// What the page showed once routed (or failed) and idle, from Tools/map_page_check.py (DevTools protocol).
    struct Page {
        /// The data attributes of <body>.
        let attributes: [String: String]
        /// The text of the page's error box.
        let alert: String
        /// Every URL the page requested.
        let requests: [String]
        /// Uncaught exceptions and console errors.
        let exceptions: [String]
        let timedOut: Bool
        /// The page's address at the end (its share URL).
        let url: String
    }

    /// Loads `/?query` in headless chromium, performs the mouse `actions` (map_page_check.py's `--click X,Y`,
    /// `--drag-last DX,DY`) (at most 90 s of waiting, then 60 s more before it is killed) and
    /// saves a screenshot under `outputDirectory` (the path is printed).
    static func open(_ server: Server, query: String, screenshot: String, actions: [String] = []) throws -> Page {
        let url = "http://127.0.0.1:\(server.port)/?\(query)"
        let shot = outputDirectory.appendingPathComponent(screenshot)
        try? FileManager.default.removeItem(at: shot)
        guard let python else { throw HarnessError("no python3") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Fixtures.packageRoot.appendingPathComponent("Tools/map_page_check.py").path,
                             url, "--screenshot", shot.path, "--timeout", "90"] + actions
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 150, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        print("map page screenshot: \(shot.path)")
        guard process.terminationStatus == 0, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HarnessError("map_page_check.py failed (status \(process.terminationStatus)): \(String(decoding: data, as: UTF8.self).prefix(500))")
        }
        return Page(attributes: object["attributes"] as? [String: String] ?? [:], alert: object["alert"] as? String ?? "",
                    requests: object["requests"] as? [String] ?? [], exceptions: object["exceptions"] as? [String] ?? [],
                    timedOut: object["timed_out"] as? Bool ?? true, url: object["url"] as? String ?? "")
    }

    /// Requests that went anywhere but this server (inline data: URLs and this page's blob: workers are local).
    static func foreignRequests(_ page: Page, server: Server) -> [String] {
        let origin = "http://127.0.0.1:\(server.port)/"
        return page.requests.filter { !$0.hasPrefix(origin) && !$0.hasPrefix("data:") && !$0.hasPrefix("blob:\(origin)") }
    }
}
