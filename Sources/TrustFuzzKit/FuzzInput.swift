/// One fuzz input as the target reads it: arbitrary bytes become the presented chain, the host, the
/// anchor set, the validation time and the policy settings.
///
/// Layout:
///
///     byte 0   flags: bit 0 anchor set (0: the three roots; 1: 18 certificates of the vectors)
///                     bits 1-2 pinning mode (0 none, 1 publicKey, 2 certificate, 3 none)
///                     bit 3 allowInvalidCertificates, bit 4 validatesDomainName, bit 5 no host
///                     bits 6-7 validation time (vectors' time, 1970, 9999-12-31, vectors' time + 10 y)
///     byte 1   host length n, then n bytes of host (UTF-8, decoded lossily)
///     then     [UInt16 big-endian length][that many bytes], repeated: a length under 0x8000 is a
///              certificate (at most 8), one with the top bit set is revocation data of the low 15
///              bits' length (at most 4: CRLs for back ends that take CRLs, the first as an OCSP
///              response for those that take OCSP responses); a truncated last record uses what is
///              left.
///
/// Every byte string is an input: a missing byte reads as zero, so an empty input is an empty chain
/// with an empty host, and every execution is one evaluation per back end.
struct FuzzInput: Equatable {
    /// The most certificates an input presents.
    static let maximumChainLength = 8
    /// The most CRLs or OCSP responses an input gives.
    static let maximumRevocationRecords = 4

    var flags: UInt8
    /// The host bytes, decoded; ignored when ``hasHost`` is false.
    var host: String
    var chain: [[UInt8]]
    /// CRLs or OCSP responses given with the chain (see the layout).
    var revocation: [[UInt8]] = []

    /// Which of ``FuzzFixture/anchorSets`` the input is evaluated against.
    var anchorSet: Int { Int(flags & 1) }
    /// The index of the policy settings in ``FuzzSession``'s table: mode * 4 + allowInvalid * 2 + validates.
    var policyIndex: Int { Int((flags >> 1) & 3) % 3 * 4 + Int((flags >> 3) & 1) * 2 + Int((flags >> 4) & 1) }
    var hasHost: Bool { flags & 0x20 == 0 }
    /// Which of ``FuzzFixture/times`` the input is evaluated at.
    var timeIndex: Int { Int(flags >> 6) }

    init(flags: UInt8, host: String?, chain: [[UInt8]], revocation: [[UInt8]] = []) {
        self.flags = flags | (host == nil ? 0x20 : 0)
        self.host = host ?? ""
        self.chain = chain
        self.revocation = revocation
    }

    /// Reads `bytes` in the layout above; never fails.
    init(decoding bytes: UnsafeBufferPointer<UInt8>) {
        flags = bytes.first ?? 0
        var offset = 1
        let hostLength = offset < bytes.count ? min(Int(bytes[offset]), bytes.count - offset - 1) : 0
        offset += 1
        host = hostLength > 0 ? String(decoding: bytes[offset ..< offset + hostLength], as: UTF8.self) : ""
        offset += hostLength
        chain = []
        revocation = []
        while offset < bytes.count && (chain.count < Self.maximumChainLength || revocation.count < Self.maximumRevocationRecords) {
            var length = Int(bytes[offset]) << 8
            offset += 1
            if offset < bytes.count { length |= Int(bytes[offset]); offset += 1 }
            let isRevocation = length & 0x8000 != 0
            let end = min(offset + (length & 0x7FFF), bytes.count)
            let record = Array(bytes[offset ..< end])
            offset = end
            if isRevocation {
                if revocation.count < Self.maximumRevocationRecords { revocation.append(record) }
            } else if chain.count < Self.maximumChainLength {
                chain.append(record)
            }
        }
    }

    /// The input in the layout above: the host cut to 255 bytes, certificates and revocation data
    /// over 32,767 bytes and those past the limits left out.
    var bytes: [UInt8] {
        let hostBytes = Array(host.utf8.prefix(255))
        var out: [UInt8] = [flags, UInt8(hostBytes.count)] + hostBytes
        for der in chain.filter({ $0.count <= 0x7FFF }).prefix(Self.maximumChainLength) {
            out += [UInt8(der.count >> 8), UInt8(der.count & 0xFF)] + der
        }
        for der in revocation.filter({ $0.count <= 0x7FFF }).prefix(Self.maximumRevocationRecords) {
            out += [UInt8(der.count >> 8) | 0x80, UInt8(der.count & 0xFF)] + der
        }
        return out
    }
}
