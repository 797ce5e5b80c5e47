/// The figures of one ``BenchmarkRunner`` run: for every back end and scenario the median
/// microseconds per evaluation cold and warm (timed, ``BenchmarkRunner/run(progress:)``) or the
/// instructions of one evaluation (counted, ``BenchmarkRunner/count(with:iterations:progress:)``),
/// the raw loops' and floors' figures on the same scenarios, the all-cores throughput on the first
/// scenario (timed only), and the back ends not measured on a scenario because they do not trust it.
/// ``document(provenance:)`` and ``json`` render it as `trust-harness bench` reports it.
public struct BenchmarkResult: Sendable {
    /// What the figures are: time (microseconds per evaluation, the median of rounds; it moves with
    /// the machine's load and frequency) or counted instructions per evaluation (callgrind's; the
    /// same from run to run for the same binary and inputs).
    public enum Measure: String, Sendable, Hashable, Codable {
        case time, instructions
    }

    /// How an evaluator meets the chain: `cold` parses its DER anew every time (no certificate
    /// cache), `warm` sees the same chain again and again through a caching evaluator.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case cold, warm
    }

    /// Throughput of one thread against all cores evaluating the same warm chain at once.
    public struct Parallel: Sendable, Hashable, Codable {
        /// The back end's name.
        public var backend: String
        /// How many threads evaluated at once: the active processor count.
        public var threads: Int
        /// Evaluations per second of one thread alone.
        public var singleEvaluationsPerSecond: Double
        /// The threads' evaluations per second, added.
        public var parallelEvaluationsPerSecond: Double
        /// `parallelEvaluationsPerSecond / singleEvaluationsPerSecond`.
        public var speedup: Double
    }

    /// A back end not measured on a scenario because it does not trust it, with its verdict.
    public struct NotMeasured: Sendable, Hashable, Codable {
        /// The back end's name.
        public var backend: String
        /// The scenario's name.
        public var scenario: String
        /// The verdict, as `rejected <failure classes>: <first diagnostic>`.
        public var reason: String
    }

    /// What a figure measures: a back end, a back end's raw loop (by the back end's name), or a
    /// floor loop (by its label).
    enum Subject: Hashable, Sendable {
        case backend(String)
        case rawLoop(String)
        case floor(String)
    }

    /// A figure's place: what, on which scenario, in which mode (none for a floor).
    struct Key: Hashable, Sendable {
        var subject: Subject
        var scenario: String
        var mode: Mode?
    }

    /// Whether the figures are times or counted instructions.
    public let measure: Measure
    /// The back ends measured, in report order, with their library versions.
    public let backends: [BackendInfo]
    /// The scenarios' names, in the order measured; the first is the one measured on all cores.
    public let scenarios: [String]
    /// The time budget of each measurement, in seconds.
    public let seconds: Double
    /// How many rounds each figure is the median of.
    public let rounds: Int
    /// The label of each back end's floor loop, by back-end name; a back end with no floor is absent.
    public let floorOf: [String: String]
    /// All cores at once on the first scenario, warm, for each back end that trusts it, in report order.
    public let parallel: [Parallel]
    /// The back ends not measured on a scenario they do not trust, by scenario, then in report order.
    public let notMeasured: [NotMeasured]
    /// The figures: median microseconds per evaluation, or instructions per evaluation.
    let medians: [Key: Double]
    /// For counted figures, the evaluations each count differs by (see
    /// ``BenchmarkRunner/count(with:iterations:progress:)``); 0 for timed ones.
    public let iterations: Int

    init(measure: Measure, backends: [BackendInfo], scenarios: [String], seconds: Double, rounds: Int, floorOf: [String: String], parallel: [Parallel],
         notMeasured: [NotMeasured], medians: [Key: Double], iterations: Int = 0) {
        self.measure = measure
        self.iterations = iterations
        self.backends = backends
        self.scenarios = scenarios
        self.seconds = seconds
        self.rounds = rounds
        self.floorOf = floorOf
        self.parallel = parallel
        self.notMeasured = notMeasured
        self.medians = medians
    }

    /// The back ends' names, in report order.
    var names: [String] { backends.map(\.name) }

    /// Whether anything was measured at all (a back end, a raw loop or a floor). False only when no
    /// back end trusts any scenario and there is no floor loop.
    public var hasFigures: Bool { !medians.isEmpty }

    /// The median microseconds per evaluation of `backend` on `scenario` in `mode`; nil when it was
    /// not measured there (it does not trust the scenario, or no such back end or scenario) or the
    /// figures are counted instructions.
    public func microseconds(backend: String, scenario: String, mode: Mode) -> Double? {
        measure == .time ? value(backend: backend, scenario: scenario, mode: mode) : nil
    }

    /// The instructions of one evaluation of `backend` on `scenario` in `mode`; nil when it was not
    /// counted there or the figures are times.
    public func instructions(backend: String, scenario: String, mode: Mode) -> Double? {
        measure == .instructions ? value(backend: backend, scenario: scenario, mode: mode) : nil
    }

    /// The median microseconds per verification of `backend`'s raw loop on `scenario` in `mode`; nil
    /// when the back end has no raw loop, was not measured there, or the figures are counted.
    public func rawLoopMicroseconds(backend: String, scenario: String, mode: Mode) -> Double? {
        measure == .time ? rawLoopValue(backend: backend, scenario: scenario, mode: mode) : nil
    }

    /// The instructions of one verification of `backend`'s raw loop on `scenario` in `mode`; nil
    /// when the back end has no raw loop, was not counted there, or the figures are times.
    public func rawLoopInstructions(backend: String, scenario: String, mode: Mode) -> Double? {
        measure == .instructions ? rawLoopValue(backend: backend, scenario: scenario, mode: mode) : nil
    }

    /// The median microseconds of `backend`'s floor (its library's signature verifications for the
    /// chain alone) on `scenario`; nil when the back end has no floor loop or the figures are counted.
    public func floorMicroseconds(backend: String, scenario: String) -> Double? {
        measure == .time ? floorValue(backend: backend, scenario: scenario) : nil
    }

    /// The figure, in the result's measure, of `backend` on `scenario` in `mode`.
    func value(backend: String, scenario: String, mode: Mode) -> Double? {
        medians[Key(subject: .backend(backend), scenario: scenario, mode: mode)]
    }

    /// The figure, in the result's measure, of `backend`'s raw loop on `scenario` in `mode`.
    func rawLoopValue(backend: String, scenario: String, mode: Mode) -> Double? {
        medians[Key(subject: .rawLoop(backend), scenario: scenario, mode: mode)]
    }

    /// The figure, in the result's measure, of `backend`'s floor on `scenario`.
    func floorValue(backend: String, scenario: String) -> Double? {
        floorOf[backend].flatMap { floorValue(label: $0, scenario: scenario) }
    }

    /// The figure, in the result's measure, of the floor loop labelled `label` on `scenario`.
    func floorValue(label: String, scenario: String) -> Double? {
        medians[Key(subject: .floor(label), scenario: scenario, mode: nil)]
    }
}
