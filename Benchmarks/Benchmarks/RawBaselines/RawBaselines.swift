import Benchmark
import BenchmarkSupport

// The C loops of CBaselines: OpenSSL and GnuTLS doing what the back ends ask of them for one
// evaluation, with no Swift around it. Each sample is one C loop of 1,000 evaluations (the scaling
// factor), so the setup of the loop (the anchors' store or trust list, and for warm loops the one
// parse of the chain) costs under 1% of a sample, and figures are per evaluation like those of
// TrustBenchmarks.
//
// cold: the chain's DER is decoded in every iteration; warm: once, before the loop.
// signatures: leaf-by-intermediate and intermediate-by-root with OpenSSL, parsed once: the floor.
// parse: the chain's DER decoded and freed, nothing verified: the parse share of a cold evaluation.
// Names match TrustBenchmarks' with `c-loop` after the library, so each back end figure has its loop.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, loopTime],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 100,
        thresholds: [
            // Wall clock on a shared 2-core machine: only a gross regression should fail.
            .wallClock: .init(relative: [.p50: 50, .p90: 50]),
            .throughput: .init(relative: [.p50: 50, .p90: 50]),
            loopTime: .init(relative: [.p50: 50, .p90: 50]),
            // Allocation counts do not depend on the machine: any change is a change in the code.
            .mallocCountTotal: .init(absolute: [.p50: 0, .p90: 0]),
        ]
    )

    let pkis: [VectorPKI]
    do {
        pkis = try VectorPKI.loadAll()
    } catch {
        fatalError("RawBaselines: cannot load the vectors: \(error)")
    }

    for library in RawBaseline.Library.allCases {
        for pki in pkis {
            let key = pki.keyType.rawValue
            for (mode, parseEachTime) in [("cold", true), ("warm", false)] {
                Benchmark("\(library.rawValue).c-loop.valid.\(key).\(mode)") { benchmark in
                    record(benchmark, expectVerified: true) {
                        try RawBaseline.evaluate(
                            library, chain: pki.validChain, anchors: pki.anchors, host: VectorPKI.host,
                            parseEachTime: parseEachTime, iterations: $0
                        )
                    }
                }
            }
            Benchmark("\(library.rawValue).c-loop.rejected.expired-leaf.\(key).warm") { benchmark in
                record(benchmark, expectVerified: false) {
                    try RawBaseline.evaluate(
                        library, chain: pki.expiredChain, anchors: pki.anchors, host: VectorPKI.host,
                        parseEachTime: false, iterations: $0
                    )
                }
            }
            Benchmark("\(library.rawValue).c-loop.parse.\(key).cold") { benchmark in
                record(benchmark, expectVerified: true) {
                    try RawBaseline.parse(library, chain: pki.validChain, iterations: $0)
                }
            }
        }
    }

    for pki in pkis {
        Benchmark("openssl.c-loop.signatures.\(pki.keyType.rawValue)") { benchmark in
            record(benchmark, expectVerified: true) {
                try RawBaseline.signatures(chain: pki.validChain, anchors: pki.anchors, iterations: $0)
            }
        }
        // The floor of the swift-certificates back end: swift-crypto's verifications of the same
        // two signatures (it has no C loop).
        Benchmark("swift-crypto.signatures.\(pki.keyType.rawValue)") { benchmark in
            record(benchmark, expectVerified: true) {
                try RawBaseline.swiftCryptoSignatures(chain: pki.validChain, anchors: pki.anchors, iterations: $0)
            }
        }
    }
}

/// The C loop's own measurement of the loop alone, in nanoseconds per evaluation (wall clock also
/// counts the loop's setup, amortised over the scaling factor).
let loopTime = BenchmarkMetric.custom("Loop time (ns/eval)", polarity: .prefersSmaller, useScalingFactor: false)

/// Runs one C loop of `benchmark.scaledIterations.count` evaluations, records its own loop time, and
/// fails the benchmark when the loop could not run or the last evaluation gave the wrong answer.
func record(_ benchmark: Benchmark, expectVerified: Bool, _ loop: (UInt64) throws -> RawBaseline.Run) {
    let iterations = benchmark.scaledIterations.count
    do {
        let run = try loop(UInt64(iterations))
        benchmark.stopMeasurement()
        benchmark.measurement(loopTime, Int(run.elapsedNanoseconds) / max(iterations, 1))
        if run.verified != expectVerified {
            benchmark.error("\(benchmark.name): the C loop \(run.verified ? "verified" : "rejected") the chain, expected \(expectVerified ? "verified" : "rejected")")
        }
    } catch {
        benchmark.error("\(benchmark.name): \(error)")
    }
}
