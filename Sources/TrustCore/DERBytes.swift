import Foundation

/// Exact DER bytes as a dictionary key, hashed once: the key of a back end's certificate cache
/// (``BoundedCache``).
///
/// `[UInt8]`'s own hash feeds the hasher one byte at a time (about 6 µs for a 1 KB certificate);
/// this hashes the bytes as one buffer (about 0.3 µs) when made, so every later lookup with the same
/// value costs one word. Equality is always on the exact bytes, never just the digest.
public struct DERBytes: Hashable, Sendable {
    /// The DER, exactly as given.
    public let bytes: [UInt8]
    private let digest: Int

    /// The key of `bytes`, hashed now, once.
    public init(_ bytes: [UInt8]) {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        self.bytes = bytes
        self.digest = hasher.finalize()
    }

    /// Feeds the digest made by ``init(_:)``: one word, whatever the length of the DER.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    /// Whether the bytes are exactly the same (the digests first, so that most unequal keys differ
    /// at once).
    public static func == (lhs: DERBytes, rhs: DERBytes) -> Bool {
        lhs.digest == rhs.digest && lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in Self.equal(left, right) }
        }
    }

    /// Byte-wise equality by the C library's `memcmp` (vectorised by glibc), at once when both share
    /// storage. Also what ``PinMatcher`` compares public keys with.
    package static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftStart = left.baseAddress, let rightStart = right.baseAddress else { return left.count == 0 }
        return leftStart == rightStart || memcmp(leftStart, rightStart, left.count) == 0
    }
}
