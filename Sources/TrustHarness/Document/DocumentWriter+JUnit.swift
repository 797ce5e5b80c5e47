import Foundation

extension DocumentWriter {
    /// JUnit XML, the format CI systems read, from a document's ``ReportDocument/checks``: one
    /// `<testsuite>` per back end (its library and the provenance as properties), one `<testcase>`
    /// per check; a skipped check is `<skipped>` with its reason, a failed one `<failure>`, an error
    /// `<error>`. A document without checks is an empty `<testsuites>`.
    public static func junit(_ document: ReportDocument) -> String {
        let checks = document.checks ?? .init(suite: document.title, groups: [])
        let all = checks.groups.flatMap(\.checks)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // <testsuites> takes name, time, tests, failures, disabled and errors in the JUnit schema
        // Jenkins' xunit plugin validates against: the skipped count is on each <testsuite>.
        out += "<testsuites name=\"\(xml(checks.suite))\" tests=\"\(all.count)\" failures=\"\(count(all, .failed))\" errors=\"\(count(all, .error))\" time=\"\(time(all))\">\n"
        let prefix = checks.suite.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" }
        for group in checks.groups {
            let own = group.checks
            out += "  <testsuite name=\"\(xml(group.name))\" tests=\"\(own.count)\" failures=\"\(count(own, .failed))\" errors=\"\(count(own, .error))\" skipped=\"\(count(own, .skipped))\" time=\"\(time(own))\">\n"
            var properties = "<property name=\"library\" value=\"\(xml(group.library))\"/>"
            if let provenance = document.provenance {
                properties += "<property name=\"tool\" value=\"\(xml(provenance.tool))\"/><property name=\"generatedAt\" value=\"\(xml(provenance.generatedAt))\"/><property name=\"command\" value=\"\(xml(provenance.command.map(Provenance.quoted).joined(separator: " ")))\"/>"
            }
            out += "    <properties>\(properties)</properties>\n"
            for check in own {
                out += "    <testcase classname=\"\(xml(prefix)).\(xml(group.name))\" name=\"\(xml(check.name))\" time=\"\(time([check]))\">"
                switch check.status {
                case .passed:
                    out += "</testcase>\n"
                    continue
                case .skipped:
                    out += "\n      <skipped message=\"\(xml(check.message))\"/>\n"
                case .failed:
                    out += "\n      <failure type=\"\(xml(check.type ?? "fail"))\" message=\"\(xml(check.message))\">\(xml(check.body))</failure>\n"
                case .error:
                    out += "\n      <error message=\"\(xml(check.message))\">\(xml(check.body))</error>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    static func count(_ checks: [ReportDocument.Check], _ status: ReportDocument.Check.Status) -> Int {
        checks.filter { $0.status == status }.count
    }

    /// Text safe in XML content and attribute values.
    static func xml(_ text: String) -> String { Markup.escape(text) }

    /// Seconds, as JUnit writes them.
    static func time(_ checks: [ReportDocument.Check]) -> String {
        String(format: "%.6f", checks.reduce(0) { $0 + $1.seconds })
    }
}
