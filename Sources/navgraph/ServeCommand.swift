import Dispatch
import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer
import NavGraphServer

/// `navgraph serve`: the OSRM-compatible HTTP server with live traffic; SIGTERM/SIGINT drain and exit, SIGHUP
/// reloads `--traffic FILE`.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve",
        synopsis: ["REGION.navgraph [--host 127.0.0.1] [--port 5000] [--threads N] [--traffic FILE] [options]"],
        summary: "Serves the OSRM v5 HTTP API (route, table, nearest), Mapbox Directions v5 with route refresh, NextBillion's navigation, directions, distance matrix and isochrone APIs, plus GeoJSON, style, health, metrics and live traffic (POST /traffic).",
        options: [
            OptionSpec(name: "host", kind: .value, placeholder: "ADDRESS", help: "address to listen on", defaultValue: "127.0.0.1"),
            OptionSpec(name: "port", kind: .value, placeholder: "PORT", help: "port to listen on (0 picks a free one)", defaultValue: "5000",
                       check: .integer(0...65535, what: "a port")),
            OptionSpec(name: "threads", kind: .value, placeholder: "N", help: "worker threads", defaultValue: "the number of cores",
                       check: .integer(1...512, what: "a thread count")),
            OptionSpec(name: "traffic", kind: .value, placeholder: "FILE", help: "traffic (.traffic or CSV) applied at start and reloaded on SIGHUP"),
            OptionSpec(name: "max-table-size", kind: .value, placeholder: "N", help: "largest sources x destinations of /table",
                       defaultValue: "\(ServiceLimits().maximumTableSize)", check: .integer(1...100_000, what: "a size")),
            OptionSpec(name: "max-matching-size", kind: .value, placeholder: "N", help: "most trace points of one /match",
                       defaultValue: "\(ServiceLimits().maximumMatchingSize)", check: .integer(2...10_000, what: "a size")),
            OptionSpec(name: "max-trip-size", kind: .value, placeholder: "N", help: "most stops of one /trip",
                       defaultValue: "\(ServiceLimits().maximumTripSize)", check: .integer(2...10_000, what: "a size")),
            OptionSpec(name: "max-alternatives", kind: .value, placeholder: "N", help: "most alternatives one /route may ask for",
                       defaultValue: "\(ServiceLimits().maximumAlternatives)", check: .integer(0...10, what: "a count")),
            OptionSpec(name: "timeout", kind: .value, placeholder: "SECONDS", help: "idle connection timeout, and each request's limit from its first byte to its response",
                       defaultValue: "\(HTTPServer.Settings().connectionTimeoutSeconds)", check: .integer(1...3600, what: "a number of seconds")),
            OptionSpec(name: "access-tokens", kind: .value, placeholder: "FILE",
                       help: "require a listed token (one a line) as access_token= or key= on every API request (HTTP 401 otherwise)"),
            OptionSpec(name: "refresh-cache", kind: .value, placeholder: "N", help: "responses kept for /directions-refresh (enable_refresh=true); 0 turns refresh off",
                       defaultValue: "\(ServiceLimits().maximumRefreshableResponses)", check: .integer(0...1_000_000, what: "a count")),
            OptionSpec(name: "refresh-ttl", kind: .value, placeholder: "SECONDS", help: "how long a refreshable response is kept",
                       defaultValue: "\(Int(ServiceLimits().refreshSeconds))", check: .integer(1...604_800, what: "a number of seconds")),
            OptionSpec(name: "quiet", kind: .flag, help: "no per-request log lines on stderr"),
        ] + MapPageSetup.options,
        run: run)

    static func run(_ arguments: Arguments) throws {
        guard let graphPath = arguments.positionals.first else { throw NavGraphError("serve needs a graph file") }
        guard arguments.positionals.count == 1 else { throw NavGraphError("serve takes one graph file, got \(arguments.positionals.count) arguments") }
        var settings = HTTPServer.Settings()
        settings.host = arguments.options["host"] ?? settings.host
        settings.port = try integer(arguments, "port", default: 5000, range: 0...65535)
        settings.threads = try integer(arguments, "threads", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...512)
        settings.connectionTimeoutSeconds = try integer(arguments, "timeout", default: settings.connectionTimeoutSeconds, range: 1...3600)
        settings.logRequests = !arguments.flags.contains("quiet")
        var limits = ServiceLimits()
        limits.maximumTableSize = try integer(arguments, "max-table-size", default: limits.maximumTableSize, range: 1...100_000)
        limits.maximumMatchingSize = try integer(arguments, "max-matching-size", default: limits.maximumMatchingSize, range: 2...10_000)
        limits.maximumTripSize = try integer(arguments, "max-trip-size", default: limits.maximumTripSize, range: 2...10_000)
        limits.maximumAlternatives = try integer(arguments, "max-alternatives", default: limits.maximumAlternatives, range: 0...10)
        limits.maximumRefreshableResponses = try integer(arguments, "refresh-cache", default: limits.maximumRefreshableResponses, range: 0...1_000_000)
        limits.refreshSeconds = TimeInterval(try integer(arguments, "refresh-ttl", default: Int(limits.refreshSeconds), range: 1...604_800))
        let accessTokens = try arguments.options["access-tokens"].map { try AccessTokens(file: $0) }

        let graph = try RoutingGraph(path: graphPath)
        let service = RoutingService(engine: RoutingEngine(graph: graph), limits: limits, mapPage: try MapPageSetup.make(arguments, graph: graph),
                                     accessTokens: accessTokens)
        let trafficPath = arguments.options["traffic"]
        if let trafficPath { report(try service.traffic.load(path: trafficPath, engine: service.engine), source: trafficPath) }

        // A parent may have started us with these blocked (Foundation's Process does): unblock, then route them to Dispatch.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblocked, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { signal(signalNumber, SIG_IGN) }
        let server = try HTTPServer(service: service, settings: settings)

        let queue = DispatchQueue(label: "navgraph.serve.signals")
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                FileHandle.standardError.write(Data("navgraph serve: signal \(signalNumber), draining\n".utf8))
                server.stop(drainSeconds: 3)
                exit(0)
            }
            source.resume()
            sources.append(source)
        }
        let reload = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        reload.setEventHandler {
            guard let trafficPath else {
                FileHandle.standardError.write(Data("navgraph serve: SIGHUP ignored (no --traffic file)\n".utf8))
                return
            }
            do {
                report(try service.traffic.load(path: trafficPath, engine: service.engine), source: trafficPath)
            } catch {
                FileHandle.standardError.write(Data("navgraph serve: reloading \(trafficPath) failed, keeping the previous traffic: \(error)\n".utf8))
            }
        }
        reload.resume()
        sources.append(reload)
        // Announced only now: a signal sent on seeing this line finds its handler installed (they are ignored before).
        let tokens = accessTokens.map { ", \($0.count) access tokens required" } ?? ""
        FileHandle.standardError.write(Data("navgraph serve: \(graphPath) on http://\(settings.host):\(server.port) with \(settings.threads) threads\(tokens)\n".utf8))
        withExtendedLifetime(sources) { dispatchMain() }
    }

    static func report(_ report: LiveTraffic.LoadReport, source: String) {
        FileHandle.standardError.write(Data(String(format: "navgraph serve: traffic %@: %d rows, %d segments, read %.0f ms, customized in %.0f ms (generation %llu)\n",
                                                   source, report.segmentRows, report.segmentsWithTraffic, report.readSeconds * 1000,
                                                   report.customizationSeconds * 1000, report.generation).utf8))
    }

    static func integer(_ arguments: Arguments, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let raw = arguments.options[name] else { return value }
        guard let parsed = Int(raw), range.contains(parsed) else {
            throw NavGraphError("--\(name): '\(raw)' is not an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return parsed
    }
}
