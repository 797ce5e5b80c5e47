/// JUnit XML, the format CI systems read: one `<testsuite>` per back end, one `<testcase>` per vector;
/// a recorded deviation is `<skipped>` with its reason, a failure `<failure>`, a back end that could
/// not evaluate `<error>`.
public enum JUnitReport {
    public static func render(backends: [BackendInfo], results: [ConformanceResult], provenance: Provenance? = nil) -> String {
        let summaries = ConformanceSummary.of(results, backends: backends.map(\.name))
        let failures = results.filter { $0.outcome == .fail }.count
        let errors = results.filter { $0.outcome == .error }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // <testsuites> takes name, time, tests, failures, disabled and errors in the JUnit schema
        // Jenkins' xunit plugin validates against: the skipped count is on each <testsuite>.
        out += "<testsuites name=\"TrustHarness\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(time(results))\">\n"
        for (backend, summary) in zip(backends, summaries) {
            let own = results.filter { $0.backend == backend.name }
            out += "  <testsuite name=\"\(xml(backend.name))\" tests=\"\(own.count)\" failures=\"\(own.filter { $0.outcome == .fail }.count)\" errors=\"\(summary.errors)\" skipped=\"\(summary.deviations + summary.skipped)\" time=\"\(time(own))\">\n"
            var properties = "<property name=\"library\" value=\"\(xml(backend.version))\"/>"
            if let provenance {
                properties += "<property name=\"tool\" value=\"\(xml(provenance.tool))\"/><property name=\"generatedAt\" value=\"\(xml(provenance.generatedAt))\"/><property name=\"command\" value=\"\(xml(provenance.command.map(Provenance.quoted).joined(separator: " ")))\"/>"
            }
            out += "    <properties>\(properties)</properties>\n"
            for result in own {
                out += "    <testcase classname=\"trustharness.\(xml(backend.name))\" name=\"\(xml(result.id))\" time=\"\(time([result]))\">"
                let observed = TextReport.observed(result)
                switch result.outcome {
                case .pass:
                    out += "</testcase>\n"
                    continue
                case .deviation, .skipped:
                    out += "\n      <skipped message=\"\(xml(result.judgement.detail))\"/>\n"
                case .fail:
                    let kind = result.judgement.failureKind?.rawValue ?? "fail"
                    out += "\n      <failure type=\"\(kind)\" message=\"\(xml(result.judgement.detail))\">expected \(xml(TextReport.expectation(result.expected)))\nobserved \(xml(observed))</failure>\n"
                case .error:
                    out += "\n      <error message=\"\(xml(result.judgement.detail))\">\(xml(observed))</error>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    static func xml(_ text: String) -> String { Markup.escape(text) }

    /// Seconds, as JUnit writes them.
    static func time(_ results: [ConformanceResult]) -> String {
        String(format: "%.6f", results.reduce(0) { $0 + $1.seconds })
    }
}
