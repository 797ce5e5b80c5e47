import Foundation

extension BenchmarkResult {
    /// The figures as a document of the one model: for each scenario a table of every back end (cold,
    /// warm, its raw loop cold and warm, the ratios to the raw loop and to its floor) and a chart of
    /// the warm figures with each library's own loop as a tick, the back ends not measured on it and
    /// why, each floor's figure, and the second back end against the first; last, the all-cores
    /// throughput on the first scenario. A figure that was not measured is `-`. Counted figures
    /// (``measure`` `instructions`) are instructions per evaluation, and say so in every heading.
    public func document(provenance: Provenance?) -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let counted = measure == .instructions
        func cell(_ value: Double?) -> Cell {
            guard let value else { return "-" }
            return Cell(counted ? DocumentWriter.grouped(value) : String(format: "%.1f (%.0f/s)", value, 1e6 / value))
        }
        func ratio(_ x: Double?, _ y: Double?) -> String {
            guard let x, let y else { return "-" }
            return DocumentWriter.ratio(x, to: y)
        }
        let names = self.names
        var sections: [ReportDocument.Section] = []
        for (index, scenario) in scenarios.enumerated() {
            let rows = names.map { name -> [Cell] in
                let cold = value(backend: name, scenario: scenario, mode: .cold)
                let warm = value(backend: name, scenario: scenario, mode: .warm)
                let loopCold = rawLoopValue(backend: name, scenario: scenario, mode: .cold)
                let loopWarm = rawLoopValue(backend: name, scenario: scenario, mode: .warm)
                return [Cell(name), cell(cold), cell(warm), cell(loopCold), cell(loopWarm),
                        Cell(ratio(cold, loopCold)), Cell(ratio(warm, loopWarm)), Cell(ratio(warm, floorValue(backend: name, scenario: scenario)))]
            }
            var blocks: [ReportDocument.Block] = [
                .table(.init(headers: ["back end", "cold", "warm", "C loop cold", "C loop warm", "cold / C", "warm / C", "warm / floor"], cells: rows)),
            ]
            let bars = names.compactMap { name in
                value(backend: name, scenario: scenario, mode: .warm).map {
                    let loop = rawLoopValue(backend: name, scenario: scenario, mode: .warm)
                    return ReportDocument.BarChart.Bar(label: name, value: $0, reference: loop,
                                                       note: loop.map { counted ? "(own loop \(DocumentWriter.grouped($0)))" : String(format: "(own loop %.1f)", $0) } ?? "")
                }
            }
            if !bars.isEmpty {
                let title = counted
                    ? "\(scenario): instructions per warm evaluation (shorter is fewer); the tick is the library's own loop"
                    : "\(scenario): µs per warm evaluation (shorter is faster); the tick is the library's own loop"
                blocks.append(.bars(.init(title: title, unit: counted ? "instructions" : "µs", bars: bars)))
            }
            var notes: [String] = notMeasured.filter { $0.scenario == scenario }.map { "\($0.backend): not measured, it does not trust this chain (\($0.reason))" }
            for label in Set(floorOf.values).sorted() {
                let users = names.filter { floorOf[$0] == label }.joined(separator: ", ")
                notes.append("the chain's signature verifications alone (\(label), the floor of \(users)): \(cell(floorValue(label: label, scenario: scenario)).text)")
            }
            if names.count >= 2, value(backend: names[0], scenario: scenario, mode: .warm) != nil, value(backend: names[1], scenario: scenario, mode: .warm) != nil {
                for mode in Mode.allCases {
                    notes.append("\(mode.rawValue): \(names[1]) / \(names[0]) = \(ratio(value(backend: names[1], scenario: scenario, mode: mode), value(backend: names[0], scenario: scenario, mode: mode)))")
                }
            }
            blocks += notes.map(ReportDocument.Block.paragraph)
            sections.append(.init(id: "scenario-\(index)", title: scenario, blocks: blocks))
        }
        if let first = scenarios.first, !parallel.isEmpty {
            let rows = parallel.map { p -> [Cell] in
                [Cell(p.backend), Cell(String(format: "%.0f/s", p.singleEvaluationsPerSecond)), Cell("\(p.threads)"),
                 Cell(String(format: "%.0f/s", p.parallelEvaluationsPerSecond)), Cell(String(format: "%.2fx", p.speedup))]
            }
            sections.append(.init(id: "parallel", title: "All cores at once (warm, \(first))", blocks: [
                .table(.init(headers: ["back end", "1 thread", "threads", "all threads", "speedup"], cells: rows, numeric: [1, 2, 3, 4])),
            ]))
        }
        let versions = "Back ends: " + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + "."
        let summary = counted
            ? "Instructions per evaluation, counted by Valgrind's callgrind (every thread's; the same from run to run for the same binary and inputs, "
                + "unlike time): each figure is the median of three estimates, each \(2 * iterations) evaluations counted less \(iterations), divided by \(iterations), after \(iterations) uncounted. \(versions)"
            : "µs per evaluation (evaluations per second), median of \(rounds) round(s) of \(seconds) s, one process, back ends interleaved. \(versions)"
        return ReportDocument(title: counted ? "TrustHarness bench (counted instructions)" : "TrustHarness bench", provenance: provenance, summary: summary, sections: sections)
    }
}
