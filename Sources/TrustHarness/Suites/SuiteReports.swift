/// A limbo run as JUnit, framed as the conformance matrix frames it: a result equal to the committed
/// record is a pass when it is what the suite expects and `<skipped>` (a recorded departure, with its
/// direction) when it is not; a result that differs from the record is a `<failure>` (the run's exit
/// status is 1 for it). A back end the record does not cover is judged against the suite alone.
/// A case the back end cannot honour is `<skipped>` with the reason.
public enum SuiteJUnitReport {
    public static func render(suite: String = "x509-limbo", backends: [BackendInfo], results: [SuiteResult], record: SuiteRecord?, provenance: Provenance?) -> String {
        JUnitReport.render(suite: suite, backends: backends, provenance: provenance) { backend in
            let recorded = record?.backends[backend]
            return results.filter { $0.backend == backend }.map { result in
                let seconds = result.milliseconds / 1000
                let why = result.context.map { ": \($0)" } ?? ""
                if result.outcome == .skipped {
                    return JUnitReport.Case(name: result.id, status: .skipped, message: "skipped\(why)")
                }
                if let recorded, let before = recorded.results[result.id], before != result.actual.rawValue || result.outcome != .passed {
                    if before != result.actual.rawValue {
                        return JUnitReport.Case(name: result.id, status: .failed, type: "changed-from-record",
                                                message: "recorded \(before), observed \(result.actual.rawValue); the suite expects \(result.expected)",
                                                body: "observed \(result.actual.rawValue)\(why)", seconds: seconds)
                    }
                    return JUnitReport.Case(name: result.id, status: .skipped, message: "recorded departure (\(result.outcome.rawValue)): \(result.actual.rawValue) although the suite expects \(result.expected)\(why)", seconds: seconds)
                }
                if result.outcome == .passed {
                    return JUnitReport.Case(name: result.id, status: .passed, seconds: seconds)
                }
                return JUnitReport.Case(name: result.id, status: .failed, type: result.outcome.rawValue,
                                        message: "\(result.actual.rawValue) although the suite expects \(result.expected)\(recorded == nil ? " (no record to compare with)" : " (not in the record)")",
                                        body: "observed \(result.actual.rawValue)\(why)", seconds: seconds)
            }
        }
    }
}

/// A limbo run as Markdown (for pull requests and wikis): the provenance, the summary with back ends
/// side by side per id namespace, the differences from the record, and every case on which some back
/// end departs from the suite, with each back end's result and reason.
public enum SuiteMarkdownReport {
    public static func render(suite: String, backends: [BackendInfo], results: [SuiteResult], recordChanges: [SuiteRecord.Change]?, provenance: Provenance?, title: String = "TrustHarness: x509-limbo", record: SuiteRecord? = nil) -> String {
        DocumentWriter.markdown(SuiteDocument.make(suite: suite, backends: backends, results: results, recordChanges: recordChanges, title: title, provenance: provenance, record: record))
    }
}
