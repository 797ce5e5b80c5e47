/// The conformance matrix as a Markdown document (for pull requests and wikis):
/// ``ConformanceDocument`` rendered by ``DocumentWriter``.
public enum MarkdownReport {
    public static func render(backends: [BackendInfo], results: [ConformanceResult], provenance: Provenance? = nil, title: String = "TrustHarness conformance") -> String {
        DocumentWriter.markdown(ConformanceDocument.make(backends: backends, results: results, provenance: provenance, title: title))
    }
}
