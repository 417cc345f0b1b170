import Foundation
@testable import NavGraph
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

    /// A customization on two threads gives the one-thread metric arc for arc (weights and middle nodes), on a split
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
        #expect(one.forwardVia.elementsEqual(two.forwardVia) && one.backwardVia.elementsEqual(two.backwardVia))
    }

    /// The customization in two passes (one middle array at a time) gives the one-pass metric arc for arc, on one
    /// thread and on a forced two-thread split, and hands each array over once.
    @Test(arguments: ["malta", "milan"])
    func customizationInPassesIsExact(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let split = try #require(CustomizationSplit.find(graph.cch, topShare: 1, worthwhile: 1))
        let weights = RoutingMetric.freeFlowWeights(graph), costs = ContiguousArray(graph.turnCost)
        let turnArcs = graph.cch.turnFirstOut.last.map { Int($0) } ?? 0
        let one = weights.withUnsafeBufferPointer { weights in
            costs.withUnsafeBufferPointer { Customization.customize(graph.cch, nodeWeight: weights, turnCost: $0) }
        }
        for passSplit in [nil, split] {
            var arrays: [String: [Int64]] = [:]
            try costs.withUnsafeBufferPointer { costs in
                try Customization.customizeInPasses(hierarchy: graph.cch, nodeWeight: { weights }, split: passSplit, inputArcs: { add in
                    add(UnsafeBufferPointer(rebasing: graph.cch.turnHead[0..<turnArcs]), UnsafeBufferPointer(rebasing: graph.cch.inputArc[0..<turnArcs]),
                        UnsafeBufferPointer(rebasing: costs[0..<turnArcs]))
                }) { array in
                    switch array {
                    case .forward(let values): arrays["forward", default: []] += values.map(Int64.init)
                    case .backward(let values): arrays["backward", default: []] += values.map(Int64.init)
                    case .forwardVia(let values): arrays["forwardVia", default: []] += values.map(Int64.init)
                    case .backwardVia(let values): arrays["backwardVia", default: []] += values.map(Int64.init)
                    }
                }
            }
            #expect(arrays["forward"] == one.forward.map(Int64.init) && arrays["backward"] == one.backward.map(Int64.init))
            #expect(arrays["forwardVia"] == one.forwardVia.map(Int64.init) && arrays["backwardVia"] == one.backwardVia.map(Int64.init))
            #expect(one.backwardVia.contains { $0 >= 0 })
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
