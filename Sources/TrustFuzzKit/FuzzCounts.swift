/// What the fuzz target has done, per back end: how many inputs each evaluated and trusted, directly
/// and through the SecurityPolicy.
struct FuzzCounts: Sendable {
    struct Backend: Sendable {
        var name: String
        var evaluations = 0
        var trusted = 0
        var policyEvaluations = 0
        var policyTrusted = 0
    }

    /// Inputs the target was given (libFuzzer's `stat::number_of_executed_units` when it drove them).
    var inputs = 0
    var backends: [Backend]

    init(names: [String]) {
        backends = names.map { Backend(name: $0) }
    }

    /// One line for the inputs, then one per back end.
    var lines: [String] {
        ["\(inputs) input(s) executed, each on \(backends.count) back end(s):"] + backends.map {
            "  \($0.name): \($0.evaluations) evaluations (\($0.trusted) trusted), \($0.policyEvaluations) policy evaluations (\($0.policyTrusted) trusted)"
        }
    }
}
