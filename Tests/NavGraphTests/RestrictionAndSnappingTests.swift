import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Turn restrictions and snapping edge cases on a crafted town and on real extracts.
@Suite struct RestrictionAndSnappingTests {
    let westPoint = Coordinate(lat: 45.0, lon: 6.999)
    let northPoint = Coordinate(lat: 45.001, lon: 7.0)

    /// Directed edges of the route as (way id) transitions.
    func wayTransitions(_ response: RouteResponse, graph: RoutingGraph) -> [(Int64, Int64)] {
        let ways = response.routes[0].legs.flatMap(\.directedEdges).map { graph.edgeWay[$0 >> 1] }
        return Array(zip(ways, ways.dropFirst()))
    }

    @Test func noLeftTurnIsHonoured() throws {
        let restricted = try CraftedOSM.testTown(restriction: "no_left_turn").importGraph(named: "town-no-left")
        let open = try CraftedOSM.testTown(restriction: "no_left_turn").importGraph(named: "town-open", honourTurnRestrictions: false)
        #expect(restricted.restrictionCount == 1)
        let detour = try Router(graph: restricted).route([westPoint, northPoint])
        let direct = try Router(graph: open).route([westPoint, northPoint])
        #expect(!wayTransitions(detour, graph: restricted).contains { $0 == (10, 12) })
        #expect(wayTransitions(direct, graph: open).contains { $0 == (10, 12) })
        // The only legal way: straight on to the east dead end, turn there, come back and turn right.
        #expect(abs(direct.routes[0].distance - 78.6 - 111.2) < 3)
        #expect(detour.routes[0].distance > direct.routes[0].distance + 300)
        #expect(wayTransitions(detour, graph: restricted).contains { $0 == (10, 11) })
        let dijkstra = Router(graph: restricted)
        var options = RouteOptions()
        options.algorithm = .dijkstra
        #expect(try dijkstra.route([westPoint, northPoint], options: options).routes[0].weight == detour.routes[0].weight)
    }

    @Test func onlyStraightOnIsHonoured() throws {
        let graph = try CraftedOSM.testTown(restriction: "only_straight_on").importGraph(named: "town-only")
        let southPoint = Coordinate(lat: 44.999, lon: 7.0)
        for destination in [northPoint, southPoint] {
            let response = try Router(graph: graph).route([westPoint, destination])
            let transitions = wayTransitions(response, graph: graph)
            #expect(transitions.first.map { $0 == (10, 11) } == true, "left the west arm via \(String(describing: transitions.first))")
        }
    }

    /// Whether `sequence` holds `run` as consecutive elements.
    func containsRun<Element: Equatable>(_ sequence: [Element], _ run: [Element]) -> Bool {
        sequence.indices.contains { sequence[$0...].starts(with: run) }
    }

    /// A no_u_turn via way: blocked when entered from the from way, open when entered from anywhere else.
    @Test func viaWayRestrictionBlocksOnlyItsSequence() throws {
        let restricted = try CraftedOSM.viaWayTown(restriction: "no_u_turn").importGraph(named: "viaway-no")
        let open = try CraftedOSM.viaWayTown(restriction: "no_u_turn").importGraph(named: "viaway-open", honourTurnRestrictions: false)
        #expect(restricted.metadata.report.viaWayRestrictionsKept == 1)
        #expect(restricted.routingNodeCount > open.routingNodeCount, "no copies of the via path were made")
        let onFrom = Coordinate(lat: 45.0, lon: 7.001), onTo = Coordinate(lat: 45.001, lon: 7.001)
        let onVia = Coordinate(lat: 45.0005, lon: 7.002), onOther = Coordinate(lat: 45.0, lon: 7.003)
        var dijkstra = RouteOptions()
        dijkstra.algorithm = .dijkstra
        for (start, mustDetour) in [(onFrom, true), (onVia, false), (onOther, false)] {
            let route = try Router(graph: restricted).route([start, onTo])
            let free = try Router(graph: open).route([start, onTo])
            let ways = route.routes[0].legs[0].directedEdges.map { restricted.edgeWay[$0 >> 1] }
            #expect(!containsRun(ways, [10, 20, 30]), "via-way restriction violated: \(ways)")
            if mustDetour {
                #expect(ways.contains(50), "expected the detour east, got \(ways)")
                #expect(route.routes[0].distance > free.routes[0].distance + 250)
            } else {
                #expect(abs(route.routes[0].distance - free.routes[0].distance) < 1, "entry not from way 10 was blocked: \(ways)")
            }
            #expect(try Router(graph: restricted).route([start, onTo], options: dijkstra).routes[0].weight == route.routes[0].weight)
        }
    }

    /// A via-way restriction whose from way is another one's via way holds on that one's copied path too.
    @Test func chainedViaWayRestrictionsBothHold() throws {
        // A straight street of ways 10, 20, 60, 70 with the oneway side street 30 north at 3 and the detour 40, 50, 55
        // south; no_straight_on from 20 via 60 to 70 and, when chained, from 10 via 20 to 30. On the degree grid.
        let origin = Coordinate(lat: 45.0, lon: 7.0), road = ["highway": "residential"]
        var drawing = try MapDrawing("""
                    4
                    ^
            1---2---3---6---7
                |           |
                8-----------9
            """, gridMetres: DegreeGrid.gridMetres(at: origin), lineMetres: DegreeGrid.lineMetres, origin: origin, anchor: "1",
            ways: [("12", road), ("23", road), ("36", road), ("67", road), ("34", ["highway": "residential", "oneway": "yes"]),
                   ("28", road), ("89", road), ("97", road)])
            .numbered(nodes: CraftedOSM.digitIDs("12346789"), ways: [10, 20, 60, 70, 30, 40, 50, 55])
        let restriction = ["type": "restriction", "restriction": "no_straight_on"]
        var dijkstra = RouteOptions()
        dijkstra.algorithm = .dijkstra
        for chained in [false, true] {
            drawing.osm.relations = [(301, [("way", 20, "from"), ("way", 60, "via"), ("way", 70, "to")], restriction)]
            if chained {
                drawing.osm.relations.append((300, [("way", 10, "from"), ("way", 20, "via"), ("way", 30, "to")], restriction))
            }
            let map = try drawing.importGraph(named: "viaway-chain-\(chained)"), graph = map.graph
            // Midway along ways 10 and 70.
            let onFirst = map.cell("1", columns: 2), onLast = map.cell("6", columns: 2)
            #expect(graph.metadata.report.viaWayRestrictionsKept == (chained ? 2 : 1))
            let route = try Router(graph: graph).route([onFirst, onLast])
            let ways = route.routes[0].legs[0].directedEdges.map { graph.edgeWay[$0 >> 1] }
            #expect(!containsRun(ways, [20, 60, 70]), "chained \(chained): restriction 301 violated by \(ways)")
            #expect(ways.contains(50), "chained \(chained): expected the southern detour, got \(ways)")
            #expect(try Router(graph: graph).route([onFirst, onLast], options: dijkstra).routes[0].weight == route.routes[0].weight)
        }
    }

    /// only_u_turn via way: from the from way, the via way and then the to way are the only way on.
    @Test func mandatoryViaWayIsFollowed() throws {
        let graph = try CraftedOSM.viaWayTown(restriction: "only_u_turn").importGraph(named: "viaway-only")
        let onFrom = Coordinate(lat: 45.0, lon: 7.001), onEastSide = Coordinate(lat: 45.0005, lon: 7.004)
        let route = try Router(graph: graph).route([onFrom, onEastSide])
        let ways = route.routes[0].legs[0].directedEdges.map { graph.edgeWay[$0 >> 1] }
        #expect(Array(ways.prefix(3)) == [10, 20, 30], "left the from way by \(ways)")
        var dijkstra = RouteOptions()
        dijkstra.algorithm = .dijkstra
        #expect(try Router(graph: graph).route([onFrom, onEastSide], options: dijkstra).routes[0].weight == route.routes[0].weight)
    }

    /// Milan's via-way restrictions are kept, and no route from a from way to its to way drives the banned sequence.
    @Test func realViaWayRestrictionsHold() throws {
        let graph = try Fixtures.graph("milan")
        #expect(graph.metadata.report.viaWayRestrictionsKept >= 1)
        let restrictions = try graph.storedRestrictions()
        var dijkstra = RouteOptions()
        dijkstra.algorithm = .dijkstra
        var checked = 0
        for restriction in restrictions where !restriction.viaDirectedEdges.isEmpty {
            let via = restriction.viaDirectedEdges.map(Int.init)
            for fromEdge in restriction.fromDirectedEdges.map(Int.init) {
                for toEdge in restriction.toDirectedEdges.map(Int.init) {
                    let points = [Fixtures.midpoint(of: fromEdge >> 1, in: graph), Fixtures.midpoint(of: toEdge >> 1, in: graph)]
                    guard let route = try? Router(graph: graph).route(points) else { continue }
                    let edges = route.routes[0].legs[0].directedEdges
                    let banned = [fromEdge] + via + [toEdge]
                    if !restriction.isMandatory {
                        #expect(!containsRun(edges, banned), "relation \(restriction.relationID) violated")
                    } else if let start = edges.firstIndex(of: fromEdge), start + 1 < edges.count {
                        #expect(edges[start...].starts(with: banned) || banned.starts(with: edges[start...]), "mandatory relation \(restriction.relationID) not followed")
                    }
                    #expect(try Router(graph: graph).route(points, options: dijkstra).routes[0].weight == route.routes[0].weight)
                    checked += 1
                }
            }
        }
        #expect(checked >= 1)
    }

    @Test func onewayEdgeAgainstTheDirectionGoesAround() throws {
        let graph = try CraftedOSM.testTown(restriction: nil).importGraph(named: "town-oneway")
        let router = Router(graph: graph)
        let upstream = Coordinate(lat: 45.0100, lon: 7.001), downstream = Coordinate(lat: 45.0100, lon: 7.003)
        let along = try router.route([upstream, downstream])
        #expect(abs(along.routes[0].distance - Geo.haversine(upstream, downstream)) < 1, "same-edge route should be the direct stretch")
        #expect(along.routes[0].legs[0].directedEdges.count == 1)
        let against = try router.route([downstream, upstream])
        #expect(against.routes[0].distance > 3 * Geo.haversine(upstream, downstream), "must go round the loop")
    }

    @Test func islandsAreAvoidedUnlessMuchCloser() throws {
        let graph = try CraftedOSM.testTown(restriction: nil).importGraph(named: "town-islands")
        let router = Router(graph: graph)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        func component(of point: Coordinate) throws -> UInt32 {
            let snap = try router.snap(point, index: 0, options: RouteOptions(), metric: metric)
            let node = max(graph.routingNodeOfEdge[2 * snap.edge], graph.routingNodeOfEdge[2 * snap.edge + 1])
            return graph.routingComponent[Int(node)]
        }
        // 28 m from the near island, 39 m from the main network: the main network wins.
        #expect(try component(of: Coordinate(lat: 45.01235, lon: 7.00125)) == 0)
        // 5 m from the far island, almost 2 km from anything else: the island wins.
        #expect(try component(of: Coordinate(lat: 45.03005, lon: 7.00125)) != 0)
        let error = #expect(throws: NavGraphError.self) {
            try router.route([Coordinate(lat: 45.03005, lon: 7.00125), westPoint])
        }
        #expect(error?.message.contains("from waypoint 1 to 2") == true)
    }

    @Test func realSeaPointAndSwappedCoordinates() throws {
        let router = Router(graph: try Fixtures.graph("monaco"))
        let sea = #expect(throws: NavGraphError.self) {
            try router.route([Coordinate(lat: 43.69, lon: 7.43), Coordinate(lat: 43.7384, lon: 7.4246)])
        }
        #expect(sea?.message.contains("waypoint 1") == true)
        #expect(sea?.message.contains("m from the nearest road") == true)
        let swapped = #expect(throws: NavGraphError.self) {
            try router.route([Coordinate(lat: 43.7384, lon: 7.4246), Coordinate(lat: 7.4197, lon: 43.7311)])
        }
        #expect(swapped?.message.contains("waypoint 2") == true)
        #expect(swapped?.message.contains("swapped") == true)
    }

    /// A real no_* restriction from Monaco that changes the route, and is never violated.
    @Test func realRestrictionChangesARoute() throws {
        let graph = try Fixtures.graph("monaco")
        let openPath = Fixtures.workDirectory.appendingPathComponent("monaco-open.navgraph").path
        try Importer.run(input: Fixtures.pbf("monaco"), output: openPath, honourTurnRestrictions: false, log: ProgressLog(quiet: true))
        let open = try RoutingGraph(path: openPath)
        let restrictions = try graph.storedRestrictions()
        var changed = 0
        for restriction in restrictions where !restriction.isMandatory {
            let fromEdge = Int(restriction.fromDirectedEdges[0]), toEdge = Int(restriction.toDirectedEdges[0])
            let points = [Fixtures.midpoint(of: fromEdge >> 1, in: graph), Fixtures.midpoint(of: toEdge >> 1, in: graph)]
            guard let restricted = try? Router(graph: graph).route(points), let free = try? Router(graph: open).route(points) else { continue }
            let edges = restricted.routes[0].legs[0].directedEdges
            let forbidden = Set(restriction.fromDirectedEdges.map(Int.init)), forbiddenTo = Set(restriction.toDirectedEdges.map(Int.init))
            let via = restriction.viaDirectedEdges.map(Int.init)
            #expect(!edges.indices.contains { start in
                forbidden.contains(edges[start]) && edges[(start + 1)...].starts(with: via) && start + via.count + 1 < edges.count
                    && forbiddenTo.contains(edges[start + via.count + 1])
            }, "relation \(restriction.relationID) violated")
            if restricted.routes[0].weight > free.routes[0].weight + 0.5 { changed += 1 }
        }
        #expect(changed >= 1, "no Monaco restriction changed a route")
    }
}
