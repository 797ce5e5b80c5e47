/// A suite run's checks (JUnit), framed as the conformance matrix frames it: a result equal to the committed
/// record is a pass when it is what the suite expects and `<skipped>` (a recorded departure, with its
/// direction) when it is not; a result that differs from the record is a `<failure>` (the run's exit
/// status is 1 for it). A back end the record does not cover is judged against the suite alone.
/// A case the back end cannot honour is `<skipped>` with the reason.
extension SuiteDocument {
    static func checks(kind: String, backends: [BackendInfo], results: [SuiteResult], record: SuiteRecord?) -> ReportDocument.Checks {
        ReportDocument.Checks(suite: kind, backends: backends) { backend in
            let recorded = record?.backends[backend]
            return results.filter { $0.backend == backend }.map { result in
                let seconds = result.milliseconds / 1000
                let why = result.context.map { ": \($0)" } ?? ""
                if result.outcome == .skipped {
                    return ReportDocument.Check(name: result.id, status: .skipped, message: "skipped\(why)")
                }
                if let recorded, let before = recorded.results[result.id], before != result.actual.rawValue || result.outcome != .passed {
                    if before != result.actual.rawValue {
                        return ReportDocument.Check(name: result.id, status: .failed, type: "changed-from-record",
                                                message: "recorded \(before), observed \(result.actual.rawValue); the suite expects \(result.expected)",
                                                body: "observed \(result.actual.rawValue)\(why)", seconds: seconds)
                    }
                    return ReportDocument.Check(name: result.id, status: .skipped, message: "recorded departure (\(result.outcome.rawValue)): \(result.actual.rawValue) although the suite expects \(result.expected)\(why)", seconds: seconds)
                }
                if result.outcome == .passed {
                    return ReportDocument.Check(name: result.id, status: .passed, seconds: seconds)
                }
                return ReportDocument.Check(name: result.id, status: .failed, type: result.outcome.rawValue,
                                        message: "\(result.actual.rawValue) although the suite expects \(result.expected)\(recorded == nil ? " (no record to compare with)" : " (not in the record)")",
                                        body: "observed \(result.actual.rawValue)\(why)", seconds: seconds)
            }
        }
    }
}

