/// A suite run as one self-contained HTML page: ``SuiteDocument`` rendered by ``DocumentWriter``
/// (a filter shows all cases, the disagreeing ones, or one outcome; `#only=disagreements`,
/// `#only=accepted-expected-failure`, ... preset it).
public enum SuiteHTMLReport {
    public static func render(suite: String, backends: [BackendInfo], results: [SuiteResult], recordChanges: [SuiteRecord.Change]?, title: String = "TrustHarness: x509-limbo", provenance: Provenance? = nil, record: SuiteRecord? = nil) -> String {
        DocumentWriter.html(SuiteDocument.make(suite: suite, backends: backends, results: results, recordChanges: recordChanges, title: title, provenance: provenance, record: record))
    }
}
