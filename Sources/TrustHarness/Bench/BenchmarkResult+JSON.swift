extension BenchmarkResult {
    /// One figure of the JSON report: a back end's (in `results`), or a raw loop's or a floor's (in
    /// `baselines`, where `backend` is `<back end>-c` or the floor's label and `mode` is `cold`,
    /// `warm` or `floor`). The `results` part is what ``BenchmarkReport`` reads.
    public struct JSONEntry: Sendable, Hashable, Codable {
        /// The back end's name, `<back end>-c` for its raw loop, or the floor loop's label.
        public var backend: String
        /// The scenario's name.
        public var scenario: String
        /// `cold`, `warm` or `floor`.
        public var mode: String
        /// The median of the rounds.
        public var microsecondsPerEvaluation: Double
        /// `1e6 / microsecondsPerEvaluation`.
        public var evaluationsPerSecond: Double
        /// The raw C loop of the same library and mode, and this entry's ratio to it.
        public var baselineMicroseconds: Double?
        public var ratioToBaseline: Double?
        /// The back end's floor (its library's signature verifications alone), and the ratio to it.
        public var floor: String? = nil
        public var floorMicroseconds: Double? = nil
        public var ratioToFloor: Double? = nil
    }

    /// The JSON report's own keys; the caller adds `schemaVersion`, `provenance` and `backends`
    /// around them.
    public struct JSONBody: Sendable, Hashable, Codable {
        /// Every back end's figures: by scenario, back end (report order), then cold and warm.
        public var results: [JSONEntry]
        /// The raw loops' figures (`<back end>-c`, cold and warm) and the floors' (by label), by scenario.
        public var baselines: [JSONEntry]
        /// All cores at once on the first scenario.
        public var parallel: [Parallel]
        /// Back ends not measured on a scenario they do not trust, with the verdict.
        public var notMeasured: [NotMeasured]
    }

    /// The figures as `trust-harness bench --format json` writes them; a figure that was not
    /// measured has no entry.
    public var json: JSONBody {
        var results: [JSONEntry] = []
        var baselines: [JSONEntry] = []
        let names = self.names
        for scenario in scenarios {
            for name in names {
                for mode in Mode.allCases {
                    guard let value = microseconds(backend: name, scenario: scenario, mode: mode) else { continue }
                    let base = rawLoopMicroseconds(backend: name, scenario: scenario, mode: mode)
                    let floor = floorMicroseconds(backend: name, scenario: scenario)
                    results.append(JSONEntry(
                        backend: name, scenario: scenario, mode: mode.rawValue, microsecondsPerEvaluation: value, evaluationsPerSecond: 1e6 / value,
                        baselineMicroseconds: base, ratioToBaseline: base.map { value / $0 },
                        floor: floorOf[name], floorMicroseconds: floor, ratioToFloor: floor.map { value / $0 }
                    ))
                }
            }
            for name in names {
                for mode in Mode.allCases {
                    guard let value = rawLoopMicroseconds(backend: name, scenario: scenario, mode: mode) else { continue }
                    baselines.append(JSONEntry(backend: name + "-c", scenario: scenario, mode: mode.rawValue, microsecondsPerEvaluation: value, evaluationsPerSecond: 1e6 / value))
                }
            }
            for label in Set(floorOf.values).sorted() {
                guard let value = floorMicroseconds(label: label, scenario: scenario) else { continue }
                baselines.append(JSONEntry(backend: label, scenario: scenario, mode: "floor", microsecondsPerEvaluation: value, evaluationsPerSecond: 1e6 / value))
            }
        }
        return JSONBody(results: results, baselines: baselines, parallel: parallel, notMeasured: notMeasured)
    }
}
