import TrustBackendKit
import BuiltInBackends
import Foundation
import Testing
import TrustCore
@testable import TrustHarness
import TrustVectors

/// The x509-limbo suite (vendored in Vectors/limbo) on every back end, pinned to the committed record
/// (Vectors/limbo/observed.json): any change of behaviour, better or worse, fails here until the
/// record is deliberately updated with `trust-harness limbo --record`.
@Suite struct LimboTests {
    static func suite() throws -> LimboSuite {
        let url = try #require(LimboSuite.locateVendored(), "Vectors/limbo/limbo.json is missing")
        return try LimboSuite.load(from: url)
    }

    /// Every registered back end, the variants too: the record shows what the hardening buys.
    static let backends = BuiltInBackends.registry.entries.map { GuardedBackend($0.make(.uncached)) as any TrustBackend }

    /// The whole suite on every back end, run once for the tests that read it.
    static let wholeSuite = Task { () throws -> [SuiteResult] in
        try await SuiteRunner(backends: backends).run(suite().testcases)
    }

    @Test func everyCaseOnEveryBackEndEqualsTheRecord() async throws {
        let suite = try Self.suite()
        #expect(suite.testcases.count == 208)
        let record = try SuiteRecord.read(try #require(SuiteRecord.locate()))
        #expect(record.suite == suite.digest, "the record was made from another limbo.json: run trust-harness limbo --record")
        let results = try await Self.wholeSuite.value
        let backends = Self.backends.map(\.name)
        #expect(results.count == suite.testcases.count * backends.count)
        #expect(Set(backends).isSubset(of: record.backends.keys), "every built-in back end must be recorded (columns of the Backends/ packages are kept beside them)")
        let changes = record.changes(results)
        #expect(changes.isEmpty, "results differ from Vectors/limbo/observed.json:\n\(changes.map(\.description).joined(separator: "\n"))")
        for result in results where result.actual != .success {
            #expect(result.context?.isEmpty == false, "\(result.backend) \(result.id): a SKIPPED or FAILURE result says why")
        }
    }

    /// The files `--output` writes: x509-limbo's result format, exactly.
    @Test func resultFilesFollowTheLimboFormat() async throws {
        let suite = try Self.suite()
        let results = try await Self.wholeSuite.value
        for backend in Self.backends.map(BackendInfo.init) {
            let data = try SuiteResultFile(backend: backend, results: results).encoded()
            let object = try #require(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any])
            #expect(Set(object.keys) == ["version", "harness", "results"])
            #expect(object["version"] as? Int == 1)
            let harness = try #require(object["harness"] as? String)
            #expect(harness.hasPrefix("trustharness-\(backend.name)-") && harness.wholeMatch(of: /trustharness-[a-z0-9+-]+-[0-9]+\.[0-9]+\.[0-9]+/) != nil, "harness \(harness)")
            let entries = try #require(object["results"] as? [[String: Any]])
            #expect(entries.map { $0["id"] as? String } == suite.testcases.map(\.id))
            for entry in entries {
                #expect(Set(entry.keys) == ["id", "actual_result", "context"])
                let actual = try #require(entry["actual_result"] as? String)
                #expect(["SUCCESS", "FAILURE", "SKIPPED"].contains(actual))
                #expect(entry["context"] is String || entry["context"] is NSNull)
                if actual == "SKIPPED" { #expect(entry["context"] is String) }
            }
        }
    }

    /// A case is skipped when a back end cannot honour one of its constraints, never evaluated
    /// without it.
    @Test func constraintsThatCannotBeHonouredAreSkipped() throws {
        let base = try #require(try Self.suite().testcases.first { $0.id == "pathlen::max-chain-depth-0" })
        let runner = SuiteRunner(backends: BuiltInBackends.registry.all(configuration: .uncached))
        let openssl = try #require(runner.backends.first { $0.name == "openssl" })
        let gnutls = try #require(runner.backends.first { $0.name == "gnutls" })
        #expect(runner.skipReason(base, backend: openssl) == nil)
        #expect(runner.skipReason(base, backend: gnutls)?.hasPrefix("maximum chain depth") == true)

        var plain = base
        plain.maxChainDepth = nil
        var client = plain; client.validationKind = "CLIENT"
        var keyUsage = plain; keyUsage.keyUsage = ["digitalSignature"]
        var clientAuth = plain; clientAuth.extendedKeyUsage = ["serverAuth", "clientAuth"]
        var serverAuth = plain; serverAuth.extendedKeyUsage = ["serverAuth"]
        var crl = plain; crl.crls = ["-----BEGIN X509 CRL-----\n-----END X509 CRL-----\n"]
        var email = plain; email.expectedPeerName = .init(kind: "RFC822", value: "a@example.com")
        var algorithms = plain; algorithms.signatureAlgorithms = ["RSA_PKCS1_SHA256"]
        for backend in runner.backends {
            #expect(runner.skipReason(plain, backend: backend) == nil)
            #expect(runner.skipReason(serverAuth, backend: backend) == nil)
            if backend.features.contains(.revocationLists) {
                #expect(runner.skipReason(crl, backend: backend) == nil)
            } else {
                #expect(runner.skipReason(crl, backend: backend)?.hasPrefix("CRLs") == true)
            }
            for (testcase, prefix) in [(client, "CLIENT"), (keyUsage, "key usage"), (clientAuth, "extended key usage clientAuth"),
                                       (email, "peer name of kind RFC822"), (algorithms, "signature algorithm")] {
                let reason = runner.skipReason(testcase, backend: backend)
                #expect(reason?.hasPrefix(prefix) == true, "\(backend.name): \(String(describing: reason))")
                #expect(runner.evaluate(testcase, on: backend).actual == .skipped)
            }
        }
    }

    /// A back end without the feature refuses a request with a depth limit instead of ignoring it.
    @Test func aDepthLimitIsNeverIgnored() throws {
        let testcase = try #require(try Self.suite().testcases.first { $0.id == "pathlen::max-chain-depth-0-exhausted" })
        let runner = SuiteRunner(backends: BuiltInBackends.registry.all(configuration: .uncached))
        let input = try runner.prepare(testcase)
        for backend in runner.backends {
            let evaluator = try backend.makeEvaluator(anchors: input.anchors)
            let unlimited = evaluator.evaluate(EvaluationRequest(chain: input.chain, host: input.host, time: Date()))
            #expect(unlimited.isTrusted, "\(backend.name): the chain is valid without a depth limit")
            let limited = evaluator.evaluate(EvaluationRequest(chain: input.chain, host: input.host, time: Date(), maximumChainDepth: 0))
            #expect(!limited.isTrusted, "\(backend.name): one intermediate is too many for depth 0")
            if !backend.features.contains(.maximumChainDepth) {
                #expect(limited.diagnostics.map(\.name) == ["UNSUPPORTED_CONSTRAINT"])
            }
            let negative = evaluator.evaluate(EvaluationRequest(chain: input.chain, host: input.host, time: Date(), maximumChainDepth: -1))
            #expect(negative.failures == [.malformed])
        }
    }

    /// CRLs are checked where a back end honours them, and a request with CRLs is refused, never
    /// evaluated without them, where it does not.
    @Test func revocationListsAreCheckedOrRefused() throws {
        let suite = try Self.suite()
        let runner = SuiteRunner(backends: BuiltInBackends.registry.all(configuration: .uncached))
        for (id, revoked) in [("crl::revoked-certificate-with-crl", true), ("crl::certificate-not-on-crl", false)] {
            let testcase = try #require(suite.testcases.first { $0.id == id })
            let input = try runner.prepare(testcase)
            #expect(!input.crls.isEmpty)
            for backend in runner.backends {
                var request = EvaluationRequest(chain: input.chain, host: input.host, time: try #require(testcase.validationTime))
                request.revocationLists = input.crls
                let verdict = try backend.makeEvaluator(anchors: input.anchors).evaluate(request)
                if backend.features.contains(.revocationLists) {
                    #expect(verdict.isTrusted == !revoked, "\(backend.name) \(id): \(verdict.diagnostics)")
                    if revoked { #expect(verdict.failures == [.revoked]) }
                } else {
                    #expect(verdict.diagnostics.map(\.name) == ["UNSUPPORTED_CONSTRAINT"], "\(backend.name) \(id)")
                }
                // A CRL that is not one is malformed, never ignored.
                request.revocationLists = [[0x30, 0x03, 0x02, 0x01, 0x00]]
                #expect(!(try backend.makeEvaluator(anchors: input.anchors).evaluate(request)).isTrusted)
            }
        }
    }

    /// Input no back end can use is a FAILURE that says what was wrong, never a crash or a success.
    @Test func unusableInputFailsClosed() throws {
        var testcase = try #require(try Self.suite().testcases.first { $0.id == "pathlen::max-chain-depth-0" })
        testcase.maxChainDepth = nil
        var brokenPeer = testcase; brokenPeer.peerCertificate = "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n"
        var garbagePeer = testcase; garbagePeer.peerCertificate = "\u{1}\u{2}\u{3}"
        var badAnchor = testcase; badAnchor.trustedCerts = ["-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n"]
        var badAddress = testcase; badAddress.expectedPeerName = .init(kind: "IP", value: "1.2.3")
        var noAnchor = testcase; noAnchor.trustedCerts = []
        for backend in BuiltInBackends.registry.all(configuration: .uncached) {
            for broken in [brokenPeer, garbagePeer, badAnchor, badAddress, noAnchor] {
                let result = SuiteRunner(backends: [backend]).evaluate(broken, on: backend)
                #expect(result.actual == .failure, "\(backend.name): \(result)")
                #expect(result.context?.isEmpty == false)
            }
        }
    }

    @Test(arguments: [
        (#"{"version":1,"testcases":[{"id":"a"}]}"#, "missing key \"validation_kind\" at testcases[0]"),
        (#"{"version":1}"#, "missing key \"testcases\" at the top level"),
        ("[1, 2", "is not an x509-limbo suite"),
        ("", "is not an x509-limbo suite"),
    ])
    func brokenSuitesAreRefusedWithTheProblem(json: String, problem: String) {
        #expect {
            try LimboSuite.decode(Data(json.utf8), file: "limbo.json")
        } throws: { error in
            "\(error)".hasPrefix("limbo.json: ") && "\(error)".contains(problem)
        }
    }

    @Test func duplicateIdsAndBadTimesAreRefused() throws {
        let data = try FileProblem.contents(of: try #require(LimboSuite.locateVendored()))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var cases = try #require(object["testcases"] as? [[String: Any]])
        object["testcases"] = [cases[0], cases[0]]
        #expect(throws: FileProblem.self) { try LimboSuite.decode(try JSONSerialization.data(withJSONObject: object), file: "dup.json") }
        cases[0]["validation_time"] = "yesterday"
        object["testcases"] = [cases[0]]
        #expect {
            try LimboSuite.decode(try JSONSerialization.data(withJSONObject: object), file: "time.json")
        } throws: { "\($0)".contains("not an RFC 3339 date-time") }
        #expect(LimboTestcase.parseTime("2024-01-01T00:00:00+00:00") == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(LimboTestcase.parseTime("2024-01-01T00:00:00.5Z") == Date(timeIntervalSince1970: 1_704_067_200.5))
    }
}

/// In the limbo HTML report a skip is no answer: back ends that answered alike do not disagree
/// because a third skipped.
@Suite struct LimboHTMLDisagreementTests {
    @Test func skipsAreNotDisagreements() {
        let backends = [BackendInfo(name: "a", version: "1"), BackendInfo(name: "b", version: "1"), BackendInfo(name: "c", version: "1")]
        func row(_ id: String, _ answers: [SuiteResult.Actual]) -> [SuiteResult] {
            zip(backends, answers).map { SuiteResult(id: id, backend: $0.name, expected: "SUCCESS", actual: $1, context: $1 == .skipped ? "cannot" : nil) }
        }
        let page = DocumentWriter.html(SuiteDocument.make(
            suite: "x", backends: backends,
            results: row("same-or-skipped", [.success, .success, .skipped]) + row("different", [.success, .failure, .skipped]),
            recordChanges: nil, title: "TrustHarness: x509-limbo", provenance: nil, record: nil
        ))
        let rows = page.components(separatedBy: "<tr data-tags=").dropFirst()
        #expect(rows.count == 2)
        #expect(rows.filter { $0.prefix(80).contains("disagreements") }.count == 1)
        #expect(rows.first { $0.contains("different") }?.prefix(80).contains("disagreements") == true)
    }
}

/// Every suite command frames results alike in JUnit: as stated passes, a recorded departure is
/// skipped with its direction, a change from the record (or, without a record, a departure from the
/// suite) fails; and the limbo and bad-input reports carry the provenance.
@Suite struct SuiteFormatTests {
    static let backends = [BackendInfo(name: "a", version: "1"), BackendInfo(name: "b", version: "2")]

    static func junitCases(_ xml: String) throws -> JUnitCounter {
        let counter = JUnitCounter()
        #expect(counter.parse(xml), "JUnit XML does not parse")
        return counter
    }

    @Test func limboJUnitFramesRecordedDeparturesAsSkippedAndChangesAsFailures() throws {
        let results = [
            SuiteResult(id: "ok", backend: "a", expected: "FAILURE", actual: .failure, context: "rejected"),
            SuiteResult(id: "departs", backend: "a", expected: "FAILURE", actual: .success, context: nil),
            SuiteResult(id: "changed", backend: "a", expected: "SUCCESS", actual: .failure, context: "X509_V_ERR"),
            SuiteResult(id: "cannot", backend: "a", expected: "SUCCESS", actual: .skipped, context: "no CRLs"),
            SuiteResult(id: "departs", backend: "b", expected: "FAILURE", actual: .success, context: nil),
        ]
        var record = SuiteRecord(suite: "s", backends: [Self.backends[0]], results: results)
        record.backends["a"]?.results["changed"] = "SUCCESS"
        let provenance = Provenance(tool: "trust-harness 9.9.9", command: ["trust-harness", "limbo"])
        let document = SuiteDocument.make(suite: "s", backends: Self.backends, results: results, recordChanges: record.changes(results), title: "TrustHarness: x509-limbo", provenance: provenance, record: record)
        let xml = DocumentWriter.junit(document)
        let counter = try Self.junitCases(xml)
        #expect(counter.counts["testcase"] == 5)
        // a: "departs" recorded (skipped), "cannot" skipped, "changed" a failure; b has no record:
        // its departure from the suite is a failure.
        #expect(counter.counts["skipped"] == 2)
        #expect(counter.counts["failure"] == 2)
        #expect(xml.contains("type=\"changed-from-record\""))
        #expect(xml.contains("type=\"accepted-expected-failure\""))
        #expect(xml.contains("trust-harness 9.9.9"))

        let markdown = DocumentWriter.markdown(document)
        #expect(markdown.contains("trust-harness 9.9.9"))
        // With the record, a's departure is the recorded one; b has no record.
        #expect(markdown.contains("| `departs` | FAILURE | 🟨 SUCCESS (accepts!) | 🟥 SUCCESS |"), "\(markdown)")
        #expect(markdown.contains("1 result(s) differ from the committed record"))
        #expect(!markdown.contains("| `ok` |"), "only departing cases are listed")
    }

    /// The limbo summary frames departures as the run summary frames deviations: counted in their
    /// direction, with how many the record holds; what differs from the record is unexpected.
    @Test func limboSummaryCountsRecordedDepartures() {
        let results = [
            SuiteResult(id: "rfc5280::a", backend: "a", expected: "FAILURE", actual: .success, context: nil),
            SuiteResult(id: "rfc5280::b", backend: "a", expected: "FAILURE", actual: .success, context: nil),
            SuiteResult(id: "rfc5280::c", backend: "a", expected: "SUCCESS", actual: .failure, context: "x"),
            SuiteResult(id: "rfc5280::a", backend: "b", expected: "FAILURE", actual: .success, context: nil),
        ]
        var record = SuiteRecord(suite: "s", backends: [Self.backends[0]], results: results)
        record.backends["a"]?.results["rfc5280::b"] = "FAILURE"
        let summary = SuiteSummary(results, record: record).backends
        let a = summary[0].all, b = summary[1].all
        #expect(a.acceptedExpectedFailure == 2 && a.acceptedRecorded == 1)
        #expect(a.rejectedExpectedSuccess == 1 && a.rejectedRecorded == 1)
        #expect(a.unexpected == 1, "rfc5280::b changed from the record")
        #expect(b.acceptedExpectedFailure == 1 && b.acceptedRecorded == 0 && b.unexpected == 1, "no record covers b")
        let text = DocumentWriter.text(SuiteDocument.make(suite: "s", backends: Self.backends, results: results, recordChanges: record.changes(results), title: "x509-limbo", provenance: nil, record: record))
        #expect(text.contains("2 (1 recorded)"))
    }

    @Test func badInputReportsFrameDeviationsAndFailures() throws {
        func result(_ id: String, _ backend: String, conforms: Bool, deviation: String? = nil) -> BadInputRunner.Result {
            BadInputRunner.Result(id: id, backend: backend, expected: "rejected [\"malformed\"]", observed: conforms ? "rejected [\"malformed\"]" : "trusted",
                                  message: "<native>", conforms: conforms, problems: conforms ? [] : ["trusted, expected rejected"], milliseconds: 1.5, deviation: deviation)
        }
        let results = [result("x", "a", conforms: true), result("x", "b", conforms: true, deviation: "known"), result("y", "a", conforms: false), result("y", "b", conforms: true)]
        let provenance = Provenance(tool: "trust-harness 9.9.9", command: ["trust-harness", "bad-input"])
        let counter = try Self.junitCases(DocumentWriter.junit(BadInputReports.document(backends: Self.backends, results: results, descriptions: ["x": "about x"], provenance: provenance)))
        #expect(counter.counts["testcase"] == 4 && counter.counts["skipped"] == 1 && counter.counts["failure"] == 1)
        #expect(counter.skippedMessages.first?.contains("known") == true)
        let markdown = DocumentWriter.markdown(BadInputReports.document(backends: Self.backends, results: results, descriptions: ["x": "about x"], provenance: provenance))
        #expect(markdown.contains("| `y` | rejected [\"malformed\"] | ❌ trusted | ✅ rejected [\"malformed\"] |"), "\(markdown)")
        #expect(markdown.contains("about x") && markdown.contains("trust-harness 9.9.9"))
        let html = DocumentWriter.html(BadInputReports.document(backends: Self.backends, results: results, descriptions: [:], provenance: provenance))
        #expect(html.contains("&lt;native&gt;") && !html.contains("<native>"))
        #expect(html.contains("1 answer(s) differ from the corpus"))
    }
}
