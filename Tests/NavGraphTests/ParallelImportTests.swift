import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The import on several threads: road sets side by side, worker threads, and the phase CPU accounting.
@Suite struct ParallelImportTests {
    /// Name, length and CRC of every section but the metadata (which holds timings and the creation time).
    private func sectionDigest(_ path: String) throws -> [String] {
        try MappedGraphFile(path: path).sectionOrder
            .filter { $0.name != Section.meta && !$0.name.hasSuffix("." + Section.meta) }
            .map { "\($0.name) \($0.length) \($0.crc)" }
    }

    /// The motor road set comes out the same whether it is imported alone or next to the cycling/walking set on
    /// another thread, and two full imports give the same sections in the same order.
    @Test(arguments: ["monaco", "milan"])
    func roadSetsSideBySideGiveTheSameSections(extract: String) throws {
        let directory = Fixtures.workDirectory.appendingPathComponent("parallel-\(extract)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let motor = directory.appendingPathComponent("motor.navgraph").path
        let both = directory.appendingPathComponent("both.navgraph").path
        let again = directory.appendingPathComponent("again.navgraph").path
        try Importer.run(input: Fixtures.pbf(extract), output: motor, log: ProgressLog(quiet: true), roadSets: [.motor])
        try Importer.run(input: Fixtures.pbf(extract), output: both, log: ProgressLog(quiet: true))
        try Importer.run(input: Fixtures.pbf(extract), output: again, log: ProgressLog(quiet: true))
        let motorSections = try sectionDigest(motor), bothSections = try sectionDigest(both)
        #expect(Array(bothSections.prefix(motorSections.count)) == motorSections)
        #expect(bothSections.count > motorSections.count)
        #expect(bothSections.dropFirst(motorSections.count).allSatisfy { $0.hasPrefix("a.") })
        #expect(try sectionDigest(again) == bothSections)
    }

    /// Profiles customized one at a time (a metric budget of 0 bytes), each on two threads, give the sections of the
    /// side-by-side customizations.
    @Test func profilesOneAtATimeGiveTheSameSections() throws {
        let directory = Fixtures.workDirectory.appendingPathComponent("one-at-a-time")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sideBySide = directory.appendingPathComponent("side-by-side.navgraph").path
        let oneAtATime = directory.appendingPathComponent("one-at-a-time.navgraph").path
        try Importer.run(input: Fixtures.pbf("malta"), output: sideBySide, log: ProgressLog(quiet: true), metricBudget: Int.max)
        try Importer.run(input: Fixtures.pbf("malta"), output: oneAtATime, log: ProgressLog(quiet: true), metricBudget: 0)
        #expect(try sectionDigest(oneAtATime) == sectionDigest(sideBySide))
    }

    /// The motor-first schedule (the cycling/walking set orders only once the motor set is done, each network written
    /// and freed before its order or its customizations) and the networks-in-turn one (the road networks built one
    /// after the other first) give the sections of the overlapping schedule, in the same table order.
    @Test(arguments: [RoadSetSchedule.motorFirst, .networksInTurn])
    func schedulesGiveTheSameSections(schedule: RoadSetSchedule) throws {
        let directory = Fixtures.workDirectory.appendingPathComponent("schedule")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let overlap = directory.appendingPathComponent("overlap-\(schedule.rawValue).navgraph").path
        let scheduled = directory.appendingPathComponent("\(schedule.rawValue).navgraph").path
        try Importer.run(input: Fixtures.pbf("malta"), output: overlap, log: ProgressLog(quiet: true), metricBudget: Importer.metricBudget,
                         schedule: .overlap)
        try Importer.run(input: Fixtures.pbf("malta"), output: scheduled, log: ProgressLog(quiet: true), metricBudget: Importer.metricBudget,
                         schedule: schedule)
        let sections = try sectionDigest(scheduled)
        #expect(sections == (try sectionDigest(overlap)))
        #expect(sections.contains { $0.hasPrefix("a.") })
    }

    /// The motor road set listed after the other gets no gate (its thread might never start on one core) and still
    /// imports both.
    @Test func motorListedSecondStillImportsBoth() throws {
        let directory = Fixtures.workDirectory.appendingPathComponent("schedule")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = directory.appendingPathComponent("active-first.navgraph").path
        try Importer.run(input: Fixtures.pbf("monaco"), output: output, log: ProgressLog(quiet: true), roadSets: [.active, .motor],
                         metricBudget: Importer.metricBudget, schedule: .motorFirst)
        #expect(try sectionDigest(output).contains { $0.hasPrefix("a.") })
    }

    /// A customization on two threads gives the one-thread metric arc for arc, on a split
    /// with nodes on both sides and in the top (forced: `find` leaves graphs this small on one thread).
    @Test(arguments: ["malta", "milan"])
    func twoThreadCustomizationIsExact(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let split = try #require(CustomizationSplit.find(graph.cch, topShare: 1, worthwhile: 1))
        #expect([0, 1, CustomizationSplit.top].allSatisfy(split.side.contains))
        let weights = RoutingMetric.freeFlowWeights(graph), costs = ContiguousArray(graph.turnCost)
        let (one, two) = weights.withUnsafeBufferPointer { weights in
            costs.withUnsafeBufferPointer {
                (Customization.customize(graph.cch, nodeWeight: weights, turnCost: $0),
                 Customization.customize(graph.cch, nodeWeight: weights, turnCost: $0, split: split))
            }
        }
        #expect(one.forward.elementsEqual(two.forward) && one.backward.elementsEqual(two.backward))
    }

    /// The file's downward arcs list every hierarchy arc once, under its upper end, lower ends ascending; and every
    /// usable arc's weight is explained the way unpacking reads it: `CCHView.middle` answers nil exactly when the arc's
    /// own input turn gives its weight (the cheapest turn coded with it), and otherwise a lower triangle that does.
    @Test(arguments: ["malta", "milan"])
    func downwardArcsExplainEveryWeight(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let cch = graph.cch, metric = graph.freeFlowMetric, arcs = cch.arcCount, routingMetric = RoutingMetric.freeFlow(graph)
        var listed = [Bool](repeating: false, count: arcs)
        for y in 0..<cch.nodeCount {
            var previous = -1
            for slot in Int(cch.firstDown[y])..<Int(cch.firstDown[y + 1]) {
                let x = Int(cch.downArcs[2 * slot]), arc = Int(cch.downArcs[2 * slot + 1])
                #expect(x > previous && Int(cch.upHead[arc]) == y && cch.arc(from: x, to: y) == arc && !listed[arc])
                listed[arc] = true
                previous = x
            }
        }
        #expect(listed.allSatisfy { $0 })
        // The input weights: per arc and direction, the cheapest turn coded with it.
        let weights = RoutingMetric.freeFlowWeights(graph), infinity = CCHMetric.infinity
        var input = [UInt32](repeating: infinity, count: 2 * arcs)
        for turn in 0..<cch.turnHead.count where cch.inputArc[turn] != UInt32.max {
            let entered = weights[Int(cch.turnHead[turn])]
            guard entered < infinity else { continue }
            let slot = Int(cch.inputArc[turn] >> 1) * 2 + Int(cch.inputArc[turn] & 1)
            input[slot] = min(input[slot], UInt32(min(UInt64(infinity - 1), UInt64(entered) + UInt64(graph.turnCost[turn]))))
        }
        var shortcuts = 0, unexplained = 0
        for low in 0..<cch.nodeCount {
            for arc in Int(cch.firstUp[low])..<Int(cch.firstUp[low + 1]) {
                for up in [true, false] {
                    let weight = up ? metric.forward[arc] : metric.backward[arc]
                    guard weight < infinity else { continue }
                    if let (x, toLow, toHigh) = cch.middle(of: arc, low: low, up: up, metric: routingMetric) {
                        shortcuts += 1
                        let sum = up ? metric.backward[toLow] + metric.forward[toHigh] : metric.backward[toHigh] + metric.forward[toLow]
                        if x >= low || sum != weight || weight == input[2 * arc + (up ? 0 : 1)] { unexplained += 1 }
                    } else if input[2 * arc + (up ? 0 : 1)] != weight {
                        unexplained += 1
                    }
                }
            }
        }
        #expect(shortcuts > arcs / 10, "\(shortcuts) shortcut directions of \(arcs) arcs")
        #expect(unexplained == 0, "\(unexplained) arc directions whose weight neither a triangle nor the input turn gives")
        // The middle hints name the middle the search finds, in the stored metric (customized at import) and in one
        // customized here (avoiding tolls and motorways).
        let avoiding = Router(graph: graph).metric(avoid: [.toll, .highway], mode: .strict, traffic: nil)
        for (label, checked) in [("stored", routingMetric), ("avoiding", avoiding)] {
            #expect(checked.hierarchy.middleHint.count == CCHMetric.hintsPerArc * arcs, "\(label): \(checked.hierarchy.middleHint.count) hints")
            var differing = 0, hinted = 0, usable = 0
            for low in 0..<cch.nodeCount {
                for arc in Int(cch.firstUp[low])..<Int(cch.firstUp[low + 1]) {
                    for up in [true, false] {
                        let weight = up ? checked.hierarchy.forward[arc] : checked.hierarchy.backward[arc]
                        guard weight < infinity else { continue }
                        usable += 1
                        if checked.hierarchy.middleHint[2 * arc + (up ? 0 : 1)] != CCHMetric.searchHint { hinted += 1 }
                        let byHint = cch.middle(of: arc, low: low, up: up, metric: checked)
                        let bySearch = cch.middleBySearch(of: arc, low: low, up: up, metric: checked)
                        if byHint?.node != bySearch?.node || byHint?.toLow != bySearch?.toLow || byHint?.toHigh != bySearch?.toHigh {
                            differing += 1
                        }
                    }
                }
            }
            #expect(differing == 0, "\(label): \(differing) of \(usable) arc directions get another middle from their hint")
            #expect(hinted * 100 >= usable * 99, "\(label): only \(hinted) of \(usable) arc directions have a hint")
        }
    }

    /// Every part runs exactly once, also when worker runs nest (as the nested dissection's halves do).
    @Test func workersRunEveryPartOnce() {
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        counts.initialize(repeating: 0)
        defer { counts.deallocate() }
        let lock = NSLock()
        PhaseWorkers.run(8) { outer in
            PhaseWorkers.run(8) { inner in
                lock.withLock { counts[outer * 8 + inner] += 1 }
            }
        }
        #expect(counts.allSatisfy { $0 == 1 })
    }

    /// Two phases at once are each charged their own thread's CPU time (and their workers'), not the process's.
    @Test func overlappingPhasesAreChargedTheirOwnCPU() {
        let log = ProgressLog(quiet: true)
        let burn: [Double] = [0.2, 0.6]
        PhaseWorkers.run(2) { index in
            log.phase("burn \(index)") {
                // The second phase also hands half its work to two workers, whose CPU time counts for it.
                let share = index == 0 ? burn[0] : burn[1] / 2
                spin(cpuSeconds: share)
                if index == 1 { PhaseWorkers.run(2) { _ in spin(cpuSeconds: burn[1] / 4) } }
                return ((), "")
            }
        }
        let cpu = log.phaseCPUSeconds
        let first = cpu["burn 0"] ?? 0, second = cpu["burn 1"] ?? 0
        #expect(first >= burn[0] * 0.95 && first < burn[0] + 0.5 * burn[1], "burn 0: \(first) s")
        #expect(second >= burn[1] * 0.95 && second < burn[1] + 0.5 * burn[0] + 0.1, "burn 1: \(second) s")
    }
}

/// Keeps the calling thread busy for this much of its own CPU time.
private func spin(cpuSeconds: Double) {
    let start = PhaseCPUAccount.threadCPUSeconds
    var value: UInt64 = 1
    while PhaseCPUAccount.threadCPUSeconds - start < cpuSeconds {
        for _ in 0..<10_000 { value = value &* 6364136223846793005 &+ 1442695040888963407 }
    }
    if value == 0 { print("") }
}
