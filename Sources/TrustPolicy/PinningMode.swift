import TrustDER
import TrustCore
/// What a ``SecurityPolicy`` pins, as AFNetworking's `AFSSLPinningMode`.
public enum PinningMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// No pinning: the chain's validity against the anchors decides.
    case none
    /// A certificate of the path must have the public key of a pinned certificate or a `sha256/` pin.
    case publicKey
    /// The pinned certificates become the only anchors and one of them must be on the verified path.
    case certificate
}
