import TrustBackendKit
import TrustCore
import BaselineLoops
import TrustHarness

/// The raw C loops of `CBaselines` (the libraries called as the back ends call them, with nothing
/// around them) as the `bench` subcommand's baselines.
struct CLoop: BaselineLoop {
    enum Kind { case openssl, gnutls, opensslPlainClient, gnutlsPlainClient, opensslSignatures, swiftCryptoSignatures }

    let kind: Kind

    static let openssl = CLoop(kind: .openssl)
    static let gnutls = CLoop(kind: .gnutls)
    /// OpenSSL as a plain libssl client verifies (no settings of the back end's): `openssl-default`'s
    /// fidelity reference.
    static let opensslPlainClient = CLoop(kind: .opensslPlainClient)
    /// GnuTLS as a plain client verifies (`gnutls_certificate_verify_peers3`): `gnutls-default`'s.
    static let gnutlsPlainClient = CLoop(kind: .gnutlsPlainClient)
    /// OpenSSL verifying the chain's signatures alone: the floor of any verifier.
    static let opensslSignatures = CLoop(kind: .opensslSignatures)
    /// swift-crypto verifying the chain's signatures alone (through swift-certificates' public
    /// keys): the floor of the swift-certificates back end, which has no C loop.
    static let swiftCryptoSignatures = CLoop(kind: .swiftCryptoSignatures)

    var label: String {
        switch kind {
        case .openssl: return "openssl-c"
        case .gnutls: return "gnutls-c"
        case .opensslPlainClient: return "openssl-plain-client-c"
        case .gnutlsPlainClient: return "gnutls-plain-client-c"
        case .opensslSignatures: return "openssl-signatures"
        case .swiftCryptoSignatures: return "swift-crypto-signatures"
        }
    }

    /// The OpenSSL and GnuTLS loops check an address in text as an address, as their back ends do.
    var takesIPAddressText: Bool { kind == .openssl || kind == .gnutls || kind == .opensslPlainClient || kind == .gnutlsPlainClient }

    /// OpenSSL's loops check CRLs in its one mode, hard-fail; GnuTLS's in its one mode, soft-fail
    /// (verified against the anchors in the back end's loop, unverified in the plain client's).
    var revocationFeatures: Set<BackendFeature> {
        switch kind {
        case .openssl, .opensslPlainClient: return [.revocationLists, .hardFailRevocation]
        case .gnutls, .gnutlsPlainClient: return [.revocationLists, .softFailRevocation]
        case .opensslSignatures, .swiftCryptoSignatures: return []
        }
    }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        run(chain: chain, anchors: anchors, revocationLists: nil, host: host, unixTime: unixTime, cold: cold, iterations: iterations)
    }

    func run(chain: [[UInt8]], anchors: [[UInt8]], revocationLists crls: [[UInt8]]?, host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        guard crls == nil || !revocationFeatures.isEmpty else { return nil }
        let run: RawBaseline.Run
        do {
            switch kind {
            case .openssl:
                run = try RawBaseline.evaluate(.openssl, chain: chain, anchors: anchors, host: host, unixTime: unixTime, parseEachTime: cold, iterations: iterations, revocationLists: crls)
            case .gnutls:
                run = try RawBaseline.evaluate(.gnutls, chain: chain, anchors: anchors, host: host, unixTime: unixTime, parseEachTime: cold, iterations: iterations, revocationLists: crls)
            case .opensslPlainClient:
                run = try RawBaseline.plainClient(.openssl, chain: chain, anchors: anchors, host: host, unixTime: unixTime, revocationLists: crls)
            case .gnutlsPlainClient:
                run = try RawBaseline.plainClient(.gnutls, chain: chain, anchors: anchors, host: host, unixTime: unixTime, revocationLists: crls)
            case .opensslSignatures:
                run = try RawBaseline.signatures(chain: chain, anchors: anchors, iterations: iterations)
            case .swiftCryptoSignatures:
                run = try RawBaseline.swiftCryptoSignatures(chain: chain, anchors: anchors, iterations: iterations)
            }
        } catch {
            return nil
        }
        return run.verified ? run.elapsedNanoseconds : nil
    }
}
