/// JUnit XML, the format CI systems read: one `<testsuite>` per back end, one `<testcase>` per case.
/// Every suite command writes it the same way: a recorded deviation is `<skipped>` with its reason,
/// a failure `<failure>`, a back end that could not evaluate `<error>`, and the provenance is a set of
/// properties on each suite.
public enum JUnitReport {
    /// One case on one back end, as JUnit says it.
    public struct Case: Sendable {
        public enum Status: Sendable { case passed, skipped, failed, error }
        public var name: String
        public var status: Status
        /// The `type` of a `<failure>` (a failure class such as `acceptedShouldReject`).
        public var type: String?
        /// The one-line message of a skip, failure or error.
        public var message: String
        /// The body of a failure or error: what was expected and observed.
        public var body: String
        public var seconds: Double

        public init(name: String, status: Status, type: String? = nil, message: String = "", body: String = "", seconds: Double = 0) {
            self.name = name
            self.status = status
            self.type = type
            self.message = message
            self.body = body
            self.seconds = seconds
        }
    }

    /// The conformance matrix: a recorded deviation and a skipped vector are `<skipped>`.
    /// - Parameter suite: the name of `<testsuites>` (`TrustHarness` for run, `TrustHarness compare`
    ///   for compare's selection), so two reports in one CI job are told apart.
    public static func render(backends: [BackendInfo], results: [ConformanceResult], provenance: Provenance? = nil, suite: String = "TrustHarness") -> String {
        render(suite: suite, backends: backends, provenance: provenance) { backend in
            results.filter { $0.backend == backend }.map { result in
                let observed = TextReport.observed(result)
                switch result.outcome {
                case .pass: return Case(name: result.id, status: .passed, seconds: result.seconds)
                case .deviation, .skipped, .open: return Case(name: result.id, status: .skipped, message: result.judgement.detail, seconds: result.seconds)
                case .fail:
                    return Case(name: result.id, status: .failed, type: result.judgement.failureKind?.rawValue ?? "fail", message: result.judgement.detail,
                                body: "expected \(TextReport.expectation(result.expected))\nobserved \(observed)", seconds: result.seconds)
                case .error: return Case(name: result.id, status: .error, message: result.judgement.detail, body: observed, seconds: result.seconds)
                case .unstable:
                    return Case(name: result.id, status: .failed, type: "unstable", message: result.judgement.detail,
                                body: result.variants.map { "\($0.count) x \($0.verdict)" }.joined(separator: "\n"), seconds: result.seconds)
                }
            }
        }
    }

    /// Any suite: `cases(backend)` gives the back end's cases in order.
    public static func render(suite: String, backends: [BackendInfo], provenance: Provenance?, cases: (String) -> [Case]) -> String {
        let suites = backends.map { ($0, cases($0.name)) }
        let all = suites.flatMap(\.1)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // <testsuites> takes name, time, tests, failures, disabled and errors in the JUnit schema
        // Jenkins' xunit plugin validates against: the skipped count is on each <testsuite>.
        out += "<testsuites name=\"\(xml(suite))\" tests=\"\(all.count)\" failures=\"\(count(all, .failed))\" errors=\"\(count(all, .error))\" time=\"\(time(all))\">\n"
        let prefix = suite.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" }
        for (backend, own) in suites {
            out += "  <testsuite name=\"\(xml(backend.name))\" tests=\"\(own.count)\" failures=\"\(count(own, .failed))\" errors=\"\(count(own, .error))\" skipped=\"\(count(own, .skipped))\" time=\"\(time(own))\">\n"
            var properties = "<property name=\"library\" value=\"\(xml(backend.version))\"/>"
            if let provenance {
                properties += "<property name=\"tool\" value=\"\(xml(provenance.tool))\"/><property name=\"generatedAt\" value=\"\(xml(provenance.generatedAt))\"/><property name=\"command\" value=\"\(xml(provenance.command.map(Provenance.quoted).joined(separator: " ")))\"/>"
            }
            out += "    <properties>\(properties)</properties>\n"
            for testcase in own {
                out += "    <testcase classname=\"\(xml(prefix)).\(xml(backend.name))\" name=\"\(xml(testcase.name))\" time=\"\(time([testcase]))\">"
                switch testcase.status {
                case .passed:
                    out += "</testcase>\n"
                    continue
                case .skipped:
                    out += "\n      <skipped message=\"\(xml(testcase.message))\"/>\n"
                case .failed:
                    out += "\n      <failure type=\"\(xml(testcase.type ?? "fail"))\" message=\"\(xml(testcase.message))\">\(xml(testcase.body))</failure>\n"
                case .error:
                    out += "\n      <error message=\"\(xml(testcase.message))\">\(xml(testcase.body))</error>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    static func count(_ cases: [Case], _ status: Case.Status) -> Int {
        cases.filter { $0.status == status }.count
    }

    static func xml(_ text: String) -> String { Markup.escape(text) }

    /// Seconds, as JUnit writes them.
    static func time(_ cases: [Case]) -> String {
        String(format: "%.6f", cases.reduce(0) { $0 + $1.seconds })
    }
}
