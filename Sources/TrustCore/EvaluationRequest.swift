import Foundation

/// What a certificate is being validated for. Only TLS server authentication today; the enum leaves
/// room for client authentication without breaking back ends that switch over it.
public enum TrustPurpose: String, Sendable, Hashable, Codable {
    /// id-kp-serverAuth (RFC 5280 §4.2.1.12): the certificate of a TLS server.
    case serverAuthentication
}

/// One evaluation: a presented chain, the identity to check, when, and for what.
public struct EvaluationRequest: Sendable, Hashable {
    /// The certificates the peer presented, DER, leaf first. The rest may be in any order and may
    /// include certificates unrelated to the path; back ends build the path themselves.
    public var chain: [[UInt8]]
    /// The host to check the leaf against, or `nil` for no host check.
    public var host: HostIdentity?
    /// The instant at which validity periods are checked. Every back end honours it per request.
    public var time: Date
    public var purpose: TrustPurpose

    public init(chain: [[UInt8]], host: HostIdentity?, time: Date, purpose: TrustPurpose = .serverAuthentication) {
        self.chain = chain
        self.host = host
        self.time = time
        self.purpose = purpose
    }

    /// `time` as whole seconds since 1970, rounded down: the resolution of X.509 times and of both
    /// libraries' clocks.
    public var unixTime: Int64 {
        Int64(time.timeIntervalSince1970.rounded(.down))
    }
}
