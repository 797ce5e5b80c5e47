import Foundation
import Testing

/// One run of the tool and what it must answer: the exit status (0 success, 1 a rejection or a
/// failure, 2 bad input or usage) and a pattern its output or messages must match.
struct Case: Sendable, CustomTestStringConvertible {
    var status: Int32
    var pattern: String
    var arguments: [String]

    init(_ status: Int32, _ pattern: String, _ arguments: String...) {
        self.status = status
        self.pattern = pattern
        self.arguments = arguments
    }

    var testDescription: String { "[\(status)] trust-harness \(arguments.joined(separator: " "))" }
}

let v = Files.vectors, leaf = Files.leaf, intermediate = Files.intermediate, root = Files.root
let at = "2025-06-01T00:00:00Z", host = "www.example.test"

/// Every subcommand, parsed and run in this process: statuses and messages.
@Suite struct SubcommandTests {
    static let evaluate: [Case] = [
        Case(0, "TRUSTED", "evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--host", host, "--at", at),
        Case(0, "TRUSTED", "evaluate", "--chain", Files.scratch("leaf.der"), "--chain", intermediate, "--anchors", root, "--host", host, "--at", at, "--backend", "gnutls"),
        Case(1, "REJECTED at invalidChain \\[hostnameMismatch\\]\n  reason  rejected: wrong host: the certificate is not for other.example.test \\(", "evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--host", "other.example.test", "--at", at),
        Case(1, "\"reason\" : \"rejected: a certificate of the chain had expired by 2099-01-01T00:00:00Z; wrong host: the certificate is not for other.example.test \\(", "evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--host", "other.example.test", "--at", "2099-01-01T00:00:00Z", "--backend", "gnutls", "--format", "json"),
        Case(1, "reason  rejected: a certificate of the chain had expired by 2099-01-01T00:00:00Z \\(", "evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--host", host, "--at", "2099-01-01T00:00:00Z", "--backend", "openssl"),
        Case(1, "REJECTED", "evaluate", "--chain", leaf, "--chain", intermediate, "--system-anchors", "--host", host, "--at", at),
        Case(0, "\"trusted\" : true", "evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--host", host, "--at", at, "--format", "json"),
        Case(0, "TRUSTED", "evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--host", host, "--at", "2025-06-01T02:00:00.5+02:00"),
        Case(0, "TRUSTED", "evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", v, "--host", host, "--at", at),
        Case(1, "is the bundle in the wrong order", "evaluate", "--chain", intermediate, "--chain", leaf, "--anchors", root, "--host", host, "--at", at),
        Case(1, "at 2017-01-01T00:00:00Z", "evaluate", "--chain", leaf, "--anchors", root, "--at", "2016-12-31T23:59:60Z", "--backend", "gnutls"),
        Case(2, "garbage.der", "evaluate", "--chain", Files.scratch("garbage.der"), "--anchors", root),
        Case(2, "broken.pem.*malformed PEM", "evaluate", "--chain", Files.scratch("broken.pem"), "--anchors", root),
        Case(2, "key.pem.*no CERTIFICATE block", "evaluate", "--chain", Files.scratch("key.pem"), "--anchors", root),
        Case(2, "nonexistent.pem.*cannot be read", "evaluate", "--chain", Files.scratch("nonexistent.pem"), "--anchors", root),
        Case(2, "unknown back end \"boringssl\"", "evaluate", "--chain", leaf, "--anchors", root, "--backend", "boringssl"),
        Case(2, "--at", "evaluate", "--chain", leaf, "--anchors", root, "--at", "yesterday"),
        Case(2, "--at \"2026-02-30T00:00:00Z\" is not an RFC 3339", "evaluate", "--chain", leaf, "--anchors", root, "--at", "2026-02-30T00:00:00Z"),
        Case(2, "not an RFC 3339 date-time in the years 1583 to 9999", "evaluate", "--chain", leaf, "--anchors", root, "--at", "0000-01-01T00:00:00Z"),
        Case(2, "is a folder; give the certificates as a PEM bundle", "evaluate", "--chain", v, "--anchors", root),
        Case(2, "--host \"127.1\" cannot be checked", "evaluate", "--chain", leaf, "--anchors", root, "--host", "127.1"),
        Case(2, "--host \"::1%lo\" cannot be checked", "evaluate", "--chain", leaf, "--anchors", root, "--host", "::1%lo"),
        Case(2, "--host \"a/b\" cannot be checked", "evaluate", "--chain", leaf, "--anchors", root, "--host", "a/b"),
        Case(2, "anchors", "evaluate", "--chain", leaf),
        Case(2, "pinning", "evaluate", "--chain", leaf, "--anchors", root, "--pinning", "sideways"),
        Case(2, "line 1", "evaluate", "--chain", leaf, "--anchors", root, "--pinning", "public-key", "--pin", Files.scratch("bad-pins.txt")),
        Case(2, "needs --pin FILE", "evaluate", "--chain", leaf, "--anchors", root, "--pinning", "public-key"),
        Case(2, "--host is given twice", "evaluate", "--chain", leaf, "--anchors", root, "--host", host, "--host", "evil.test"),
        Case(2, "--format junit: this command writes text, json", "evaluate", "--chain", leaf, "--anchors", root, "--format", "junit"),
    ]

    static let suites: [Case] = [
        Case(0, "<testsuites", "run", "--vector", "valid-chain/*", "--format", "junit"),
        Case(0, "\\| vector \\|", "run", "--vector", "expired-*", "--backend", "openssl", "--format", "markdown"),
        Case(0, "valid-chain/p256", "run", "--id", "valid-chain/p256", "--repeat", "0"),
        Case(2, "unknown back end \"boringssl\"", "run", "--backend", "boringssl"),
        Case(2, "no vector id matches", "run", "--vector", "no-such-vector*"),
        Case(2, "Unknown option", "run", "--no-such-flag"),
        Case(2, "Usage: trust-harness run", "run", "--backend", "nope"),
        Case(2, "--benchmarks charts figures in the HTML report", "run", "--benchmarks", "x.json"),
        Case(2, "it is a folder", "run", "--vector", "valid-chain/*", "--report", NSTemporaryDirectory()),
        Case(0, "where the back ends disagree(.|\n)*cn-only-no-san/p256 \\(≠\\)  expected(.|\n)*DEVIATION", "compare", "--repeat", "0", "--id", "cn-only-no-san/*"),
        Case(0, "Every result equals the committed record", "limbo", "--id", "pathlen::*"),
        Case(0, "\"recordChanges\" : \\[", "limbo", "--id", "cve::*", "--format", "json"),
        Case(0, "<!DOCTYPE html>", "limbo", "--id", "webpki::san::*", "--format", "html"),
        Case(0, "failures=\"0\"", "limbo", "--id", "cve::*", "--format", "junit"),
        Case(0, "x509-limbo", "limbo", "--suite", "Vectors/limbo/limbo.json", "--id", "cve::*"),
        Case(1, "openssl rfc5280::ca-as-leaf: recorded SUCCESS, observed FAILURE", "limbo", "--id", "rfc5280::ca-as-leaf", "--record-file", Files.scratch("tampered.json")),
        Case(1, "changed-from-record", "limbo", "--id", "rfc5280::ca-as-leaf", "--record-file", Files.scratch("tampered.json"), "--format", "junit"),
        Case(2, "garbage.der: is not an x509-limbo suite", "limbo", Files.scratch("garbage.der")),
        Case(2, "cannot be read", "limbo", Files.scratch("no-such-limbo.json")),
        Case(2, "no case id matches", "limbo", "--id", "no-such-case::*"),
        Case(2, "every case of the suite: drop --id", "limbo", "--record", "--id", "cve::*"),
        Case(2, "empty-limbo.json holds no test cases: nothing to run", "limbo", Files.scratch("empty-limbo.json")),
        Case(0, "declares x509-limbo format version 2", "limbo", Files.scratch("newer-limbo.json"), "--id", "cve::*"),
        Case(2, "folder for x509-limbo result files", "limbo", "--id", "cve::*", "--results-dir", "-"),
        Case(2, "Unknown option '--output'", "limbo", "--output", "limbo-results"),
        Case(0, "Every result equals the committed record", "pkits", "--id", "pkits::4.2.*"),
        Case(2, "--results-dir names the folder", "bettertls", "--results-dir", "-"),
        Case(0, "Every result equals the committed record", "bettertls", "--suite", "pathbuilding", "--backend", "gnutls"),
        Case(0, "Every result equals the committed record", "bettertls", "--test-suite", "pathbuilding", "--backend", "gnutls", "--id", "bettertls::pathbuilding::tc1?"),
        Case(2, "--suite pathbuilding and --test-suite nameconstraints name two suites: give --suite once", "bettertls", "--suite", "pathbuilding", "--test-suite", "nameconstraints"),
        Case(2, "give the limbo.json once: as the path or as --suite, not both", "limbo", "Vectors/limbo/limbo.json", "--suite", "other.json"),
        Case(0, "BRIDGE_CA_PKI, DEPRECATED_CRYPTO edges", "bettertls", "--suite", "pathbuilding", "--id", "bettertls::pathbuilding::tc7?", "--backend", "openssl"),
        Case(0, "wrote .*BetterTLS pathbuilding its cases at 081fb7c, its certificates as BetterTLS.s master", "bettertls", "--suite", "pathbuilding", "--export", Files.scratch("pathbuilding.json")),
        Case(2, "--published-file pairs a back end for --published", "bettertls", "--published-file", "nss=x.json"),
        Case(2, "--published compares on the revision the published files name", "bettertls", "--published", "--revision", "december2021"),
        Case(2, "takes BACKEND=FILE", "bettertls", "--published", "--published-file", "nss"),
        Case(2, "no published results paired with botan", "bettertls", "--published", "--backend", "botan"),
        Case(0, "Every difference is explained(.|\n)*gnutls +pathbuilding +dec_2021/gnutls_3.7.2.json [^\n]* 20 +20 +0 +0 +0 +61 +0", "bettertls", "--published", "--suite", "pathbuilding", "--backend", "gnutls"),
        Case(0, "<table class=\"cells\"", "bettertls", "--published", "--suite", "pathbuilding", "--backend", "gnutls", "--format", "html"),
        Case(2, "--published writes text, json, markdown or html, not junit", "bettertls", "--published", "--format", "junit"),
        Case(2, "the files are of BetterTLS 081fb7c.*, a738c20", "bettertls", "--published", "--published-file", "gnutls=dec_2021/node_16.13.1.json", "--backend", "gnutls", "--backend", "openssl"),
        Case(0, "4.8 certificate policies", "pkits", "--id", "pkits::4.8.*", "--backend", "openssl"),
        Case(2, "--id: no case id matches", "pkits", "--id", "nothing"),
        Case(0, "answers as stated", "bad-input", "--id", "host-*", "--id", "truncated-*"),
    ]

    static let others: [Case] = [
        Case(0, "sha256/", "pins", "/etc/ssl/certs/ca-certificates.crt"),
        Case(0, "\"pin\" : \"sha256/", "pins", root, "--format", "json"),
        Case(2, "README.md", "pins", "README.md"),
        Case(2, "no pins written", "pins", root, Files.scratch("no-such.pem")),
        Case(0, "TrustHarness stress\n  by trust-harness(.|\n)*wrong verdicts: 0", "stress", "--seconds", "0.1", "--tasks", "4", "--backend", "gnutls"),
        Case(2, "seconds", "stress", "--seconds", "0"),
        Case(2, "^error: Missing value for '--seconds", "stress", "--seconds"),
        Case(0, "TrustHarness bench\n  by trust-harness(.|\n)*your-chain\n=+\n  back end +cold", "bench", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--host", host, "--at", at, "--seconds", "0.05", "--rounds", "1", "--backend", "gnutls"),
        Case(2, "describe your own chain", "bench", "--host", host),
        Case(2, "--keep-counts keeps the counts of --instructions", "bench", "--keep-counts", Files.scratch("counts")),
        Case(2, "--count-iterations must be in 1...1000", "bench", "--instructions", "--count-iterations", "0"),
        Case(0, "handshake verdict: TRUSTED", "probe", "--vector", "valid-chain/p256"),
        Case(1, "FINDING: the handshake's verdict", "probe", "--vector", "leaf-key-usage-without-digital-signature/p256", "--backend", "gnutls"),
        Case(2, "Connection refused", "probe", "127.0.0.1:1", "--anchors", root),
        Case(2, "is not HOST:PORT", "probe", "www.example.test", "--anchors", root),
        Case(0, "Handshake against chain .* 0 differ|differ, [0-9]+ of them recorded", "run", "--handshake", "--id", "valid-chain/*", "--backend", "openssl", "--backend", "gnutls"),
        Case(2, "at least two", "explore", "--backend", "openssl"),
        Case(2, "give at least one JSON report", "report"),
        Case(2, "README.md: not a JSON report of run, limbo, pkits, bettertls, explore or bench", "report", "README.md"),
        Case(2, "no-such-report.json: cannot be read", "report", Files.scratch("no-such-report.json")),
        Case(2, "--cases must be at least 1", "explore", "--cases", "0"),
        Case(2, "^error: --shard shard 9 of 8: give K/N with 1 <= K <= N", "explore", "--shard", "9/8"),
        Case(2, "^error: --shard \"3\" is not K/N", "explore", "--shard", "3"),
        Case(2, "a sharded run has no --seconds", "explore", "--shard", "1/2", "--seconds", "5"),
        Case(2, "give --format html to the --merge", "explore", "--shard", "1/2", "--format", "html"),
        Case(2, "--page-classes must be 0 \\(every class\\) or more", "explore", "--page-classes=-1"),
        Case(2, "--jobs must be at least 1", "explore", "--jobs", "0"),
        Case(2, "^error: --merge .*no-such-shard.json: cannot be read", "explore", "--merge", Files.scratch("no-such-shard.json")),
        Case(2, "--adopt", "explore", "--adopt", Files.scratch("no-such-candidates.json")),
    ]

    static let tool: [Case] = [
        Case(0, "trust-harness [0-9]+\\.[0-9]+\\.[0-9]+", "--version"),
        Case(0, "swift-certificates +swift-certificates [0-9]", "-V"),
        Case(2, "^error: --version \\(-V\\) takes no other arguments", "--version", "run"),
        Case(2, "unknown subcommand 'evalute'.*subcommands: run, compare, evaluate", "evalute", "--chain", "x"),
        Case(2, "unknown subcommand 'nosuch'", "help", "nosuch"),
        Case(2, "trust-harness --version", "version"),
        Case(0, "OVERVIEW: Evaluate every vector", "help", "run"),
        Case(0, "USAGE: trust-harness run", "run", "--help"),
        Case(0, "SUBCOMMANDS:", "--help"),
    ]

    /// A BetterTLS suite written out is an x509-limbo file `limbo` runs like any other.
    @Test func anExportedBetterTLSSuiteRunsThroughLimbo() async throws {
        let file = Files.scratch("exported-pathbuilding.json")
        let export = try await ToolRun.of(["bettertls", "--suite", "pathbuilding", "--export", file])
        #expect(export.status == 0, "\(export)")
        let run = try await ToolRun.of(["limbo", file, "--backend", "gnutls", "--format", "json"])
        #expect(run.status == 0, "\(run)")
        #expect(run.text.contains("bettertls::pathbuilding::tc80") && run.text.contains("\"cases\" : 81"), "\(run)")
    }

    /// `report` over a run's JSON: the heat map in every format.
    @Test func aRunReportBecomesTheComparisonPage() async throws {
        let file = Files.scratch("report-run.json")
        let run = try await ToolRun.of(["run", "--id", "valid-chain/*", "--id", "explored/keyUsage-*", "--format", "json", "--report", file])
        #expect(run.status == 0, "\(run)")
        let html = try await ToolRun.of(["report", file, "--format", "html"])
        #expect(html.status == 0 && html.output.contains("<table class=\"heat\">") && html.output.contains("<th class=\"row\">gnutls</th>"), "\(html)")
        let text = try await ToolRun.of(["report", file])
        #expect(text.status == 0 && text.output.contains("Departures by family of the standards (profile rfc5280"), "\(text)")
    }

    @Test(arguments: evaluate + suites + others + tool)
    func answers(_ test: Case) async throws {
        let run = try await ToolRun.of(test.arguments)
        #expect(run.status == test.status, "\(run)")
        let pattern = try Regex(test.pattern).anchorsMatchLineEndings()
        #expect(run.text.contains(pattern), "no match for \(test.pattern): \(run)")
    }
}
