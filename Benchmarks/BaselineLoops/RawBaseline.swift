import CBaselines
import Dispatch
import X509
import GnuTLSBackend

/// The C loops of the `CBaselines` target, called with Swift arrays: the libraries doing what the back
/// ends ask of them, with nothing around it. Shared by `trust-harness bench` (through the composition
/// root's `CLoop`) and the package-benchmark suites, so both measure the same loops fed the same way.
///
/// Each call copies the certificates into C buffers, runs the loop and returns the time the C code
/// measured around the loop alone. GnuTLS loops run inside ``GnuTLSBackend/withValidationTime(_:_:)``,
/// so that they verify at the requested time through the same process-wide time hook the back end
/// uses.
public enum RawBaseline {
    /// The library a loop calls.
    public enum Library: String, CaseIterable, Sendable {
        case openssl
        case gnutls
    }

    /// What one loop reported.
    public struct Run: Sendable, Hashable {
        /// Whether the last evaluation of the loop verified the chain (parse loops: always true).
        public var verified: Bool
        /// The wall time of the loop alone, CLOCK_MONOTONIC.
        public var elapsedNanoseconds: UInt64
    }

    /// Runs `iterations` evaluations of `chain` against `anchors` for `host` at `unixTime`, as the
    /// back end for `library` configures the library; `parseEachTime` decodes the chain's DER in every
    /// iteration (cold), otherwise once before the loop (warm). `revocationLists` (DER; nil: no
    /// revocation checking, empty: checking with no CRL) are loaded once before the loop and checked
    /// as the back end checks them (see `th_baseline_input`).
    /// - Throws: ``RawBaselineError`` when the loop could not be set up (a certificate or CRL the
    ///   library cannot parse, an allocation failure, an empty chain).
    public static func evaluate(
        _ library: Library,
        chain: [[UInt8]],
        anchors: [[UInt8]],
        host: String?,
        unixTime: Int64,
        parseEachTime: Bool,
        iterations: UInt64,
        revocationLists: [[UInt8]]? = nil
    ) throws(RawBaselineError) -> Run {
        var elapsed: UInt64 = 0
        let result = withInput(chain: chain, anchors: anchors, host: host, unixTime: unixTime, crls: revocationLists) { input in
            switch library {
            case .openssl:
                return th_openssl_baseline_run(input, parseEachTime ? 1 : 0, iterations, &elapsed)
            case .gnutls:
                return GnuTLSBackend.withValidationTime(unixTime) {
                    th_gnutls_baseline_run(input, parseEachTime ? 1 : 0, iterations, &elapsed)
                }
            }
        }
        return try run(result, elapsed, "th_\(library.rawValue)_baseline_run")
    }

    /// One cold verification as a plain TLS client of `library` verifies a server's chain (OpenSSL's
    /// `ssl_verify_cert_chain` with `SSL_set1_host`, GnuTLS's `gnutls_certificate_verify_peers3`),
    /// none of the back end's settings: the reference of the `-default` columns.
    /// - Throws: ``RawBaselineError`` when the loop could not be set up.
    public static func plainClient(_ library: Library, chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, revocationLists: [[UInt8]]? = nil) throws(RawBaselineError) -> Run {
        var elapsed: UInt64 = 0
        let result = withInput(chain: chain, anchors: anchors, host: host, unixTime: unixTime, crls: revocationLists) { input in
            switch library {
            case .openssl: return th_openssl_plain_client_run(input, &elapsed)
            case .gnutls: return GnuTLSBackend.withValidationTime(unixTime) { th_gnutls_plain_client_run(input, &elapsed) }
            }
        }
        return try run(result, elapsed, "th_\(library.rawValue)_plain_client_run")
    }

    /// Runs `iterations` decodings of `chain`'s DER by `library`, freeing each: the parse share of a
    /// cold evaluation.
    /// - Throws: ``RawBaselineError`` when the library refuses a certificate or cannot allocate.
    public static func parse(_ library: Library, chain: [[UInt8]], iterations: UInt64) throws(RawBaselineError) -> Run {
        var elapsed: UInt64 = 0
        let result = withInput(chain: chain, anchors: [], host: nil, unixTime: 0) { input in
            switch library {
            case .openssl: return th_openssl_parse_run(input, iterations, &elapsed)
            case .gnutls: return th_gnutls_parse_run(input, iterations, &elapsed)
            }
        }
        return try run(result, elapsed, "th_\(library.rawValue)_parse_run")
    }

    /// Runs `iterations` times the two signature verifications of the chain (leaf by intermediate,
    /// intermediate by the first anchor) with OpenSSL, certificates parsed once: the floor under any
    /// evaluation of a two-certificate chain.
    /// - Throws: ``RawBaselineError`` when a certificate cannot be parsed or there are fewer than two
    ///   chain certificates or no anchor.
    public static func signatures(chain: [[UInt8]], anchors: [[UInt8]], iterations: UInt64) throws(RawBaselineError) -> Run {
        var elapsed: UInt64 = 0
        let result = withInput(chain: chain, anchors: anchors, host: nil, unixTime: 0) { input in
            th_openssl_signatures_run(input, iterations, &elapsed)
        }
        return try run(result, elapsed, "th_openssl_signatures_run")
    }

    private static func run(_ result: Int32, _ elapsed: UInt64, _ function: String) throws(RawBaselineError) -> Run {
        guard result >= 0 else { throw RawBaselineError(function: function, code: result) }
        return Run(verified: result == 1, elapsedNanoseconds: elapsed)
    }

    /// Lends `body` a `th_baseline_input` over C copies of the certificates, valid only during the call.
    private static func withInput<Result>(
        chain: [[UInt8]],
        anchors: [[UInt8]],
        host: String?,
        unixTime: Int64,
        crls: [[UInt8]]? = nil,
        _ body: (UnsafePointer<th_baseline_input>) -> Result
    ) -> Result {
        let certificates = chain + anchors + (crls ?? [])
        let buffers = certificates.map { der -> UnsafeMutableBufferPointer<UInt8> in
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(der.count, 1))
            _ = buffer.initialize(from: der)
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        let pointers: [UnsafePointer<UInt8>?] = buffers.map { UnsafePointer($0.baseAddress) }
        let lengths: [Int] = certificates.map(\.count)
        return pointers.withUnsafeBufferPointer { pointers in
            lengths.withUnsafeBufferPointer { lengths in
                withOptionalCString(host) { host in
                    var input = th_baseline_input(
                        chain: pointers.baseAddress,
                        chain_lengths: lengths.baseAddress,
                        chain_count: chain.count,
                        anchors: pointers.baseAddress.map { $0 + chain.count },
                        anchor_lengths: lengths.baseAddress.map { $0 + chain.count },
                        anchor_count: anchors.count,
                        host: host,
                        unix_time: unixTime,
                        crls: crls == nil ? nil : pointers.baseAddress.map { $0 + chain.count + anchors.count },
                        crl_lengths: crls == nil ? nil : lengths.baseAddress.map { $0 + chain.count + anchors.count },
                        crl_count: crls?.count ?? 0
                    )
                    return body(&input)
                }
            }
        }
    }

    private static func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}

/// A C baseline loop refused to start.
public struct RawBaselineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed.
    public var function: String
    /// Its negative result (`TH_BASELINE_*`).
    public var code: Int32

    public var description: String {
        let meaning: String
        switch code {
        case Int32(TH_BASELINE_BAD_INPUT): meaning = "bad input (an empty chain, or too few certificates for this loop)"
        case Int32(TH_BASELINE_UNPARSEABLE): meaning = "a certificate is not exactly one DER certificate the library accepts"
        case Int32(TH_BASELINE_LIBRARY_FAILED): meaning = "the library could not allocate or initialise what the loop needs"
        default: meaning = "unknown error"
        }
        return "\(function) returned \(code): \(meaning)"
    }
}

extension RawBaseline {
    /// Runs `iterations` times the two signature verifications of the chain (leaf by intermediate,
    /// intermediate by the first anchor) with swift-certificates' `Certificate.PublicKey`, that is
    /// swift-crypto, certificates parsed once: the floor under the swift-certificates back end, which
    /// has no C loop to compare with. Returns the wall time of the loop alone.
    /// - Throws: ``RawBaselineError`` when a certificate cannot be parsed or there are fewer than two
    ///   chain certificates or no anchor.
    public static func swiftCryptoSignatures(chain: [[UInt8]], anchors: [[UInt8]], iterations: UInt64) throws(RawBaselineError) -> Run {
        let function = "RawBaseline.swiftCryptoSignatures"
        guard chain.count >= 2, let anchor = anchors.first else {
            throw RawBaselineError(function: function, code: Int32(TH_BASELINE_BAD_INPUT))
        }
        let leaf: Certificate, intermediate: Certificate, root: Certificate
        do {
            leaf = try Certificate(derEncoded: chain[0])
            intermediate = try Certificate(derEncoded: chain[1])
            root = try Certificate(derEncoded: anchor)
        } catch {
            throw RawBaselineError(function: function, code: Int32(TH_BASELINE_UNPARSEABLE))
        }
        var verified = true
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations {
            verified = intermediate.publicKey.isValidSignature(leaf.signature, for: leaf)
                && root.publicKey.isValidSignature(intermediate.signature, for: intermediate)
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        return Run(verified: verified, elapsedNanoseconds: elapsed)
    }
}
