import TrustBackendKit
import BuiltInBackends
import Foundation
import OpenSSLBackend
import Testing
import TrustCore
import TrustHarness
import TrustHarnessTestKit
import TrustVectors

/// Same request, same verdict: repetitions find a back end whose answers change, and report it as
/// `unstable` in every format (that the built-in back ends never are is TestKitTests' conformance run,
/// which repeats every request).
@Suite struct StabilityTests {
    /// The run's one load of the vectors (Fixtures): each load parses every file again.
    static func suite() throws -> VectorSuite {
        try Fixtures.suite()
    }

    @Test func anUnstableBackEndIsReportedUnstableInEveryFormat() async throws {
        let suite = try Self.suite()
        let backend = UnstableBackend(base: OpenSSLBackend(), period: 3)
        let runner = ConformanceRunner(backends: [backend], suite: suite)
        let subjects = Array(runner.allSubjects.filter { $0.id.hasPrefix("valid-chain/") || $0.id.hasPrefix("expired-") }.prefix(12))
        let results = await runner.run(subjects, repetitions: 2)
        let unstable = results.filter { $0.outcome == .unstable }
        #expect(!unstable.isEmpty, "one evaluation in three flips, so some of 12 vectors asked 5 times each must differ")
        for result in unstable {
            #expect(result.variants.count == 2)
            #expect(result.variants.map(\.count).reduce(0, +) == 5, "the first answer and 2 repetitions of 2")
            #expect(result.judgement.detail.contains("×"))
        }
        // Without repetitions the same back end passes or fails by luck: nothing is unstable.
        #expect(await runner.run(subjects).allSatisfy { $0.outcome != .unstable })

        let infos = [BackendInfo(backend)]
        let summary = try #require(ConformanceSummary.of(results, backends: [backend.name]).first)
        #expect(summary.unstable == unstable.count)
        #expect(summary.unexpected >= unstable.count, "an unstable verdict fails the run")
        let id = unstable[0].id
        #expect(DocumentWriter.text(ConformanceDocument.make(backends: infos, results: results, provenance: nil)).contains("UNSTABLE"))
        #expect(DocumentWriter.markdown(ConformanceDocument.make(backends: infos, results: results, provenance: nil)).contains("🔀"))
        #expect(HTMLReportTests.page(infos, results).contains("<td class=\"tone unstable\">"))
        #expect(DocumentWriter.junit(ConformanceDocument.make(backends: infos, results: results, provenance: nil)).contains("type=\"unstable\""))
        let json = try JSONReport(backends: infos, results: results).encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let entries = try #require(object["results"] as? [[String: Any]])
        let entry = try #require(entries.first { $0["vector"] as? String == id })
        #expect(entry["outcome"] as? String == "unstable")
        #expect((entry["variants"] as? [[String: Any]])?.count == 2)
    }

    /// A deviation limited to some library builds holds for them alone.
    @Test func aDeviationCanBeLimitedToLibraryBuilds() throws {
        let deviation = Deviation(
            backend: "gnutls", vector: "v", observed: ObservedOutcome(trusted: false, failures: [.other]), reason: "r",
            libraries: #"^GnuTLS (3\.7\.9 \(Debian libgnutls30 3\.7\.9-2\+deb12u[0-6]\)$|3\.7\.9$)"#
        )
        #expect(deviation.holds(for: "GnuTLS 3.7.9 (Debian libgnutls30 3.7.9-2+deb12u6)"))
        #expect(deviation.holds(for: "GnuTLS 3.7.9"))
        #expect(!deviation.holds(for: "GnuTLS 3.7.9 (Debian libgnutls30 3.7.9-2+deb12u7)"))
        #expect(!deviation.holds(for: "GnuTLS 3.8.13"))
        #expect(Deviation(backend: "b", vector: "v", observed: ObservedOutcome(trusted: true, failures: []), reason: "r").holds(for: "anything"))
    }

    /// Beside a deviation for every build, one for some builds is the one those builds are judged
    /// by (GnuTLS before Debian's deb12u7 trusts a vector the current build rejects, both recorded).
    @Test func aDeviationForSomeBuildsComesBeforeOneForEvery() throws {
        let id = "valid-chain/rsa2048"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("builds-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let list = DeviationList(deviations: [
            Deviation(backend: "gnutls-test", vector: id, observed: ObservedOutcome(trusted: true, failures: []), reason: "an older build", libraries: #"deb12u[0-6]\)$"#),
            Deviation(backend: "gnutls-test", vector: id, observed: ObservedOutcome(trusted: false, failures: [.other]), reason: "every build"),
        ])
        try JSONEncoder().encode(list).write(to: file)
        let suite = try Fixtures.suite().adding(deviationsFrom: file)
        let old = try #require(suite.deviation(backend: "gnutls-test", vector: id, library: "GnuTLS 3.7.9 (Debian libgnutls30 3.7.9-2+deb12u6)"))
        #expect(old.libraries != nil && old.observed.trusted)
        let current = try #require(suite.deviation(backend: "gnutls-test", vector: id, library: "GnuTLS 3.7.9 (Debian libgnutls30 3.7.9-2+deb12u7)"))
        #expect(current.libraries == nil && !current.observed.trusted)
    }

    /// The GnuTLS and OpenSSL back ends name the Debian build they loaded: on a Debian machine whose
    /// libraries come from packages (no LD_LIBRARY_PATH), the package must be found and named.
    @Test func theLibraryVersionNamesTheDebianBuild() throws {
        let debian = FileManager.default.fileExists(atPath: "/var/lib/dpkg/status")
            && ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] == nil
        for backend in BuiltInBackends.registry.all() where backend.name == "gnutls" || backend.name == "openssl" {
            let package = InstalledLibrary.debianPackage(providing: backend.name == "gnutls" ? "gnutls_check_version" : "OpenSSL_version")
            if debian {
                let named = try #require(package, "\(backend.name): the loaded library is a Debian package's file")
                #expect(backend.libraryVersion.hasSuffix("(Debian \(named))"))
                #expect(named.hasPrefix(backend.name == "gnutls" ? "libgnutls30 " : "libssl3 "))
            } else {
                #expect(package == nil || backend.libraryVersion.hasSuffix("(Debian \(package!))"))
            }
        }
    }

    /// `stress` lists a request whose verdicts differ under load, with its single-task verdict and
    /// every other one, counted over every task's evaluations of it.
    @Test func stressListsUnstableRequests() async throws {
        let suite = try Self.suite()
        let runner = try LoadRunner(
            backends: [UnstableBackend(base: OpenSSLBackend(), period: 3)], references: [OpenSSLBackend(configuration: .uncached)],
            suite: suite, corpus: nil
        )
        let report = await runner.run(tasks: 2, seconds: 0.4)
        #expect(report.wrongVerdicts > 0)
        #expect(!report.unstable.isEmpty)
        for request in report.unstable {
            #expect(request.variants.count >= 2)
            #expect(request.variants.dropFirst().map(\.count).reduce(0, +) <= report.wrongVerdicts)
            #expect(request.variants[0].count >= 1, "the single-task reference counts once at least")
        }
        #expect(report.unstable.flatMap(\.variants).map(\.count).reduce(0, +) <= report.evaluations + report.unstable.count)
    }

}
