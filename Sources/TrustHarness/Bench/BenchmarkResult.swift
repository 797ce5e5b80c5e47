/// The figures of one ``BenchmarkRunner`` run: for every back end and scenario the median
/// microseconds per evaluation cold and warm, the raw loops' and floors' medians on the same
/// scenarios, the all-cores throughput on the first scenario, and the back ends not measured on a
/// scenario because they do not trust it. ``text()`` and ``json`` render it as `trust-harness bench`
/// reports it.
public struct BenchmarkResult: Sendable {
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
    /// The medians, in microseconds per evaluation.
    let medians: [Key: Double]

    init(backends: [BackendInfo], scenarios: [String], seconds: Double, rounds: Int, floorOf: [String: String], parallel: [Parallel], notMeasured: [NotMeasured], medians: [Key: Double]) {
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
    /// not measured there (it does not trust the scenario, or no such back end or scenario).
    public func microseconds(backend: String, scenario: String, mode: Mode) -> Double? {
        medians[Key(subject: .backend(backend), scenario: scenario, mode: mode)]
    }

    /// The median microseconds per verification of `backend`'s raw loop on `scenario` in `mode`; nil
    /// when the back end has no raw loop or was not measured there.
    public func rawLoopMicroseconds(backend: String, scenario: String, mode: Mode) -> Double? {
        medians[Key(subject: .rawLoop(backend), scenario: scenario, mode: mode)]
    }

    /// The median microseconds of `backend`'s floor (its library's signature verifications for the
    /// chain alone) on `scenario`; nil when the back end has no floor loop.
    public func floorMicroseconds(backend: String, scenario: String) -> Double? {
        floorOf[backend].flatMap { floorMicroseconds(label: $0, scenario: scenario) }
    }

    /// The median microseconds of the floor loop labelled `label` on `scenario`.
    func floorMicroseconds(label: String, scenario: String) -> Double? {
        medians[Key(subject: .floor(label), scenario: scenario, mode: nil)]
    }
}
