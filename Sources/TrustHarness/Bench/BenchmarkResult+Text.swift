import Foundation

extension BenchmarkResult {
    /// The text report below its header (the tool's provenance line and the back ends' versions,
    /// which the caller writes): a line saying what the figures are, then for each scenario a table
    /// of every back end (cold, warm, its raw loop cold and warm, the ratios to the raw loop and to
    /// its floor), the back ends not measured on it and why, each floor's figure, and the second
    /// back end against the first; last, the all-cores throughput on the first scenario.
    /// A figure that was not measured is `-`. Ends with a newline.
    public func text() -> String {
        var out = "µs per evaluation (evaluations per second), median of \(rounds) round(s) of \(seconds) s, one process, back ends interleaved\n"
        func cell(_ value: Double?) -> String {
            guard let value else { return "-" }
            return String(format: "%.1f (%.0f/s)", value, 1e6 / value)
        }
        func ratio(_ x: Double?, _ y: Double?) -> String {
            guard let x, let y else { return "-" }
            return String(format: "%.2fx", x / y)
        }
        let names = self.names
        for scenario in scenarios {
            out += "\n\(scenario)\n"
            let columns = ["back end", "cold", "warm", "C loop cold", "C loop warm", "cold / C", "warm / C", "warm / floor"]
            let rows = names.map { name -> [String] in
                let cold = microseconds(backend: name, scenario: scenario, mode: .cold)
                let warm = microseconds(backend: name, scenario: scenario, mode: .warm)
                let loopCold = rawLoopMicroseconds(backend: name, scenario: scenario, mode: .cold)
                let loopWarm = rawLoopMicroseconds(backend: name, scenario: scenario, mode: .warm)
                return [
                    name, cell(cold), cell(warm), cell(loopCold), cell(loopWarm),
                    ratio(cold, loopCold), ratio(warm, loopWarm), ratio(warm, floorMicroseconds(backend: name, scenario: scenario)),
                ]
            }
            out += Self.table(columns, rows)
            for skip in notMeasured where skip.scenario == scenario {
                out += "  \(skip.backend): not measured, it does not trust this chain (\(skip.reason))\n"
            }
            for label in Set(floorOf.values).sorted() {
                let users = names.filter { floorOf[$0] == label }.joined(separator: ", ")
                out += "  the chain's signature verifications alone (\(label), the floor of \(users)): \(cell(floorMicroseconds(label: label, scenario: scenario)))\n"
            }
            if names.count >= 2, microseconds(backend: names[0], scenario: scenario, mode: .warm) != nil, microseconds(backend: names[1], scenario: scenario, mode: .warm) != nil {
                for mode in Mode.allCases {
                    out += "  \(mode.rawValue): \(names[1]) / \(names[0]) = \(ratio(microseconds(backend: names[1], scenario: scenario, mode: mode), microseconds(backend: names[0], scenario: scenario, mode: mode)))\n"
                }
            }
        }
        out += "\nAll cores at once (warm, \(scenarios[0])):\n"
        for p in parallel {
            out += String(format: "  %@: %.0f/s on 1 thread, %.0f/s on %d threads: %.2fx\n", p.backend, p.singleEvaluationsPerSecond, p.parallelEvaluationsPerSecond, p.threads, p.speedup)
        }
        return out
    }

    /// `rows` under `columns`, each column as wide as its widest cell, indented by two spaces.
    private static func table(_ columns: [String], _ rows: [[String]]) -> String {
        TextTable.render(headers: columns, rows: rows)
    }
}
