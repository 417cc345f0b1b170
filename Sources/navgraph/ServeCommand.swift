import Dispatch
import Foundation
import NavGraph
import NavGraphServer

/// `navgraph serve`: the OSRM-compatible HTTP server with live traffic; SIGTERM/SIGINT drain and exit, SIGHUP
/// reloads `--traffic FILE`.
enum ServeCommand {
    static let allowed: Set<String> = ["host", "port", "threads", "traffic", "max-table-size", "max-alternatives", "quiet", "timeout"]

    static func run(_ arguments: Arguments) throws {
        try arguments.check(allowed: allowed.union(MapPageSetup.options))
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
        limits.maximumAlternatives = try integer(arguments, "max-alternatives", default: limits.maximumAlternatives, range: 0...10)

        let graph = try RoutingGraph(path: graphPath)
        let service = RoutingService(engine: RoutingEngine(graph: graph), limits: limits, mapPage: try MapPageSetup.make(arguments, graph: graph))
        let trafficPath = arguments.options["traffic"]
        if let trafficPath { report(try service.traffic.load(path: trafficPath, engine: service.engine), source: trafficPath) }

        for signalNumber in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { signal(signalNumber, SIG_IGN) }
        let server = try HTTPServer(service: service, settings: settings)
        FileHandle.standardError.write(Data("navgraph serve: \(graphPath) on http://\(settings.host):\(server.port) with \(settings.threads) threads\n".utf8))

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
