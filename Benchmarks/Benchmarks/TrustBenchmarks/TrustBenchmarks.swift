import Benchmark
import BenchmarkSupport
import GnuTLSBackend
import OpenSSLBackend
import SwiftCertificatesBackend
import TrustCore
import TrustPolicy

// One evaluation per sample, through the public API a TLS client uses. Evaluators and policies are
// made once, before the measured loop; every request carries DER bytes, as they arrive from a peer.
//
// cold: an evaluator with `BackendConfiguration.uncached`, given a fresh copy of the chain each time,
//       so the library parses every certificate as it would the first time it sees a chain. (With the
//       cache, which is keyed by the bytes, a fresh copy of the same bytes would still hit: only the
//       uncached configuration measures the first time honestly.)
// warm: an evaluator with `BackendConfiguration.default` and the same chain every time: the cache holds
//       the parsed certificates after the warm-up iterations.
//
// Names are `<back end>.<case>.<key type>.<mode>`, without spaces: package-benchmark 1.38 writes a
// threshold file with the spaces of a name turned into "_" but looks it up by the name as it is.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(1),
        maxIterations: 5_000,
        thresholds: [
            // Wall clock on a shared 2-core machine: only a gross regression should fail.
            .wallClock: .init(relative: [.p50: 50, .p90: 50]),
            .throughput: .init(relative: [.p50: 50, .p90: 50]),
            // Allocation counts do not depend on the machine: any change is a change in the code.
            .mallocCountTotal: .init(absolute: [.p50: 0, .p90: 0]),
        ]
    )

    let pkis = loadVectors()
    let host = HostIdentity.dns(VectorPKI.host)
    let wrongHost = HostIdentity.dns(VectorPKI.wrongHost)
    let time = VectorPKI.validationTime

    // Pin matching alone (SecurityPolicy step 6, no back end): the verified path leaf, intermediate,
    // root; `hit` pins the intermediate (two SubjectPublicKeyInfo hashed), `miss` pins a key that is
    // on no certificate (all three hashed: the most a three-certificate path costs). `floor` is an
    // empty path: the cost of one sample itself, to subtract.
    let floorPolicy = required("the pin-match floor policy") {
        try SecurityPolicy(pinningMode: .publicKey, pins: [SPKIPin(certificate: pkis[0].intermediate)])
    }
    Benchmark("pin-match.floor", configuration: .init(timeUnits: .nanoseconds)) { benchmark in
        blackHole(floorPolicy.firstPinnedKey(in: []))
    }
    for pki in pkis {
        let key = pki.keyType.rawValue
        let path = [pki.leaf, pki.intermediate, pki.root]
        let cases: [(name: String, pin: () throws -> SPKIPin, expected: Int?)] = [
            ("hit", { try SPKIPin(certificate: pki.intermediate) }, 1),
            ("miss", { try SPKIPin("sha256/" + String(repeating: "A", count: 43) + "=") }, nil),  // 32 zero bytes
        ]
        for (name, pin, expected) in cases {
            let policy = required("a \(key) pin policy") { try SecurityPolicy(pinningMode: .publicKey, pins: [pin()]) }
            let evaluator = makePolicyEvaluator(policy, .openssl, anchors: pki.anchors)
            // warm: an evaluator's matcher, which remembers the keys it hashed (what every evaluation
            // after the first pays); cold: SecurityPolicy's, which hashes every key every time.
            let matchers: [(mode: String, match: @Sendable ([[UInt8]]) -> (index: Int, pin: SPKIPin)?)] = [
                ("warm", evaluator.firstPinnedKey(in:)), ("cold", policy.firstPinnedKey(in:)),
            ]
            for (mode, match) in matchers {
                Benchmark("pin-match.\(name).\(key).\(mode)", configuration: .init(timeUnits: .nanoseconds)) { benchmark in
                    let found = match(path)
                    benchmark.stopMeasurement()
                    if found?.index != expected {
                        benchmark.error("pin-match \(name) \(key) \(mode): expected index \(String(describing: expected)), got \(String(describing: found?.index))")
                    }
                }
            }
        }
    }

    for backend in BackendUnderTest.allCases {
        for pki in pkis {
            let key = pki.keyType.rawValue
            let cold = makeEvaluator(backend, .uncached, anchors: pki.anchors)
            let warm = makeEvaluator(backend, .default, anchors: pki.anchors)

            Benchmark("\(backend).valid.\(key).cold") { benchmark in
                let request = EvaluationRequest(chain: pki.validChain.freshCopy(), host: host, time: time)
                benchmark.startMeasurement()
                let verdict = cold.evaluate(request)
                benchmark.stopMeasurement()
                expect(verdict.isTrusted, benchmark, verdict)
            }

            let validRequest = EvaluationRequest(chain: pki.validChain, host: host, time: time)
            Benchmark("\(backend).valid.\(key).warm") { benchmark in
                let verdict = warm.evaluate(validRequest)
                benchmark.stopMeasurement()
                expect(verdict.isTrusted, benchmark, verdict)
            }

            let expiredRequest = EvaluationRequest(chain: pki.expiredChain, host: host, time: time)
            Benchmark("\(backend).rejected.expired-leaf.\(key).warm") { benchmark in
                let verdict = warm.evaluate(expiredRequest)
                benchmark.stopMeasurement()
                expect(!verdict.isTrusted, benchmark, verdict)
            }

            let wrongHostRequest = EvaluationRequest(chain: pki.validChain, host: wrongHost, time: time)
            Benchmark("\(backend).rejected.wrong-host.\(key).warm") { benchmark in
                let verdict = warm.evaluate(wrongHostRequest)
                benchmark.stopMeasurement()
                expect(!verdict.isTrusted, benchmark, verdict)
            }

            for (mode, policy) in policies(for: pki) {
                let evaluator = makePolicyEvaluator(policy, backend, anchors: pki.anchors)
                Benchmark("\(backend).policy.\(mode).\(key).warm") { benchmark in
                    let decision = evaluator.evaluate(chain: pki.validChain, forDomain: VectorPKI.host, at: time)
                    benchmark.stopMeasurement()
                    if !decision.trusted {
                        benchmark.error("\(backend) policy \(mode) \(key): expected trusted, got \(decision.reason)")
                    }
                }
            }

            // The back end's parse of the chain alone: makeEvaluator(anchors:) on the uncached
            // configuration decodes each certificate into the library and indexes it, and verifies nothing.
            let parser = backend.make(.uncached)
            Benchmark("\(backend).parse.\(key).cold") { benchmark in
                let chain = pki.validChain.freshCopy()
                benchmark.startMeasurement()
                do {
                    blackHole(try parser.makeEvaluator(anchors: chain))
                } catch {
                    benchmark.error("\(backend) parse \(key): \(error)")
                }
            }
        }
    }
}

/// The back ends measured, by the name they report.
enum BackendUnderTest: String, CaseIterable, CustomStringConvertible {
    case openssl
    case gnutls
    case swiftCertificates = "swift-certificates"

    func make(_ configuration: BackendConfiguration) -> any TrustBackend {
        switch self {
        case .openssl: return OpenSSLBackend(configuration: configuration)
        case .gnutls: return GnuTLSBackend(configuration: configuration)
        case .swiftCertificates: return SwiftCertificatesBackend(configuration: configuration)
        }
    }

    var description: String { rawValue }
}

/// The three pinning modes on a valid chain: none, the intermediate's public key pinned, the root
/// certificate pinned.
func policies(for pki: VectorPKI) -> [(mode: String, policy: SecurityPolicy)] {
    required("the \(pki.keyType.rawValue) policies") {
        [
            ("none", try SecurityPolicy(pinningMode: .none)),
            ("publicKey-intermediate", try SecurityPolicy(pinningMode: .publicKey, pins: [SPKIPin(certificate: pki.intermediate)])),
            ("certificate-root", try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [pki.root])),
        ]
    }
}

func loadVectors() -> [VectorPKI] {
    required("the vectors") { try VectorPKI.loadAll() }
}

func makeEvaluator(_ backend: BackendUnderTest, _ configuration: BackendConfiguration, anchors: [[UInt8]]) -> any TrustEvaluator {
    required("a \(backend) evaluator") { try backend.make(configuration).makeEvaluator(anchors: anchors) }
}

func makePolicyEvaluator(_ policy: SecurityPolicy, _ backend: BackendUnderTest, anchors: [[UInt8]]) -> SecurityPolicyEvaluator {
    required("a \(backend) \(policy.pinningMode) policy evaluator") {
        try policy.evaluator(on: backend.make(.default), anchors: anchors)
    }
}

/// Setup that must succeed for the suite to mean anything: stops the run naming what failed.
func required<Value>(_ what: String, _ make: () throws -> Value) -> Value {
    do {
        return try make()
    } catch {
        fatalError("TrustBenchmarks: cannot make \(what): \(error)")
    }
}

/// Marks the benchmark failed when an evaluation did not give the expected answer: a benchmark of the
/// wrong outcome measures the wrong work.
func expect(_ condition: Bool, _ benchmark: Benchmark, _ verdict: Verdict) {
    if !condition {
        benchmark.error("\(benchmark.name): unexpected verdict \(verdict)")
    }
}
