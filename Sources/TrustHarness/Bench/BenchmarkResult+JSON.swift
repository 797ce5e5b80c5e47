extension BenchmarkResult {
    /// One figure of the JSON report: a back end's (in `results`), or a raw loop's or a floor's (in
    /// `baselines`, where `backend` is `<back end>-c` or the floor's label and `mode` is `cold`,
    /// `warm` or `floor`). The `results` part is what ``BenchmarkReport`` reads. A timed report has
    /// the `microseconds` fields, a counted one (`measure: instructions`) the `instructions` fields;
    /// the ratios are of whichever the report has.
    public struct JSONEntry: Sendable, Hashable, Codable {
        /// The back end's name, `<back end>-c` for its raw loop, or the floor loop's label.
        public var backend: String
        /// The scenario's name.
        public var scenario: String
        /// `cold`, `warm` or `floor`.
        public var mode: String
        /// The median of the rounds (timed).
        public var microsecondsPerEvaluation: Double?
        /// `1e6 / microsecondsPerEvaluation` (timed).
        public var evaluationsPerSecond: Double?
        /// The instructions of one evaluation (counted).
        public var instructionsPerEvaluation: Double? = nil
        /// The raw C loop of the same library and mode, and this entry's ratio to it.
        public var baselineMicroseconds: Double? = nil
        public var baselineInstructions: Double? = nil
        public var ratioToBaseline: Double? = nil
        /// The back end's floor (its library's signature verifications alone), and the ratio to it.
        public var floor: String? = nil
        public var floorMicroseconds: Double? = nil
        public var floorInstructions: Double? = nil
        public var ratioToFloor: Double? = nil

        /// An entry of `value` in `measure`'s unit, with its loop's and floor's figures when there are.
        init(measure: Measure, backend: String, scenario: String, mode: String, value: Double, baseline: Double? = nil, floor: String? = nil, floorValue: Double? = nil) {
            self.backend = backend
            self.scenario = scenario
            self.mode = mode
            switch measure {
            case .time:
                microsecondsPerEvaluation = value
                evaluationsPerSecond = 1e6 / value
                baselineMicroseconds = baseline
                floorMicroseconds = floorValue
            case .instructions:
                instructionsPerEvaluation = value
                baselineInstructions = baseline
                floorInstructions = floorValue
            }
            ratioToBaseline = baseline.map { value / $0 }
            self.floor = floor
            ratioToFloor = floorValue.map { value / $0 }
        }
    }

    /// The JSON report's own keys; the caller adds `schemaVersion`, `provenance` and `backends`
    /// around them.
    public struct JSONBody: Sendable, Hashable, Codable {
        /// `time` (microseconds, medians of rounds) or `instructions` (counted by callgrind).
        public var measure: Measure
        /// For counted figures, the evaluations each pair of counts differed by.
        public var countedIterations: Int?
        /// Every back end's figures: by scenario, back end (report order), then cold and warm.
        public var results: [JSONEntry]
        /// The raw loops' figures (`<back end>-c`, cold and warm) and the floors' (by label), by scenario.
        public var baselines: [JSONEntry]
        /// All cores at once on the first scenario (timed only).
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
                    guard let value = value(backend: name, scenario: scenario, mode: mode) else { continue }
                    results.append(JSONEntry(
                        measure: measure, backend: name, scenario: scenario, mode: mode.rawValue, value: value,
                        baseline: rawLoopValue(backend: name, scenario: scenario, mode: mode),
                        floor: floorOf[name], floorValue: floorValue(backend: name, scenario: scenario)
                    ))
                }
            }
            for name in names {
                for mode in Mode.allCases {
                    guard let value = rawLoopValue(backend: name, scenario: scenario, mode: mode) else { continue }
                    baselines.append(JSONEntry(measure: measure, backend: name + "-c", scenario: scenario, mode: mode.rawValue, value: value))
                }
            }
            for label in Set(floorOf.values).sorted() {
                guard let value = floorValue(label: label, scenario: scenario) else { continue }
                baselines.append(JSONEntry(measure: measure, backend: label, scenario: scenario, mode: "floor", value: value))
            }
        }
        return JSONBody(measure: measure, countedIterations: measure == .instructions ? iterations : nil, results: results, baselines: baselines, parallel: parallel, notMeasured: notMeasured)
    }
}
