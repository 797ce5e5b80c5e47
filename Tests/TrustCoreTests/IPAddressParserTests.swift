import Foundation
import Testing
import TrustCore

/// `IPAddressParser` is pure Swift because TrustCore has no C; the C library's `inet_pton` is the
/// reference it claims to follow ("the forms `inet_pton` takes"). Asked the same strings, the two must
/// agree on every one: valid addresses of every shape, and random and mutated strings over the bytes
/// an address literal has (a fixed seed, so a failure can be replayed).
@Suite struct IPAddressParserTests {
    /// What glibc's `inet_pton` reads from `text` (IPv4, then IPv6; brackets around IPv6 removed
    /// first, as the parser takes `[::1]`), or nil.
    static func reference(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var body = text
        if body.hasPrefix("["), body.hasSuffix("]"), body.count >= 2 { body = String(body.dropFirst().dropLast()) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, body, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    static let seeds = [
        "0.0.0.0", "255.255.255.255", "192.0.2.1", "10.0.0.1", "1.2.3.4",
        "::", "::1", "1::", "2001:db8::1", "2001:DB8:0:0:8:800:200C:417A", "fe80::1:2:3:4",
        "::ffff:192.0.2.1", "64:ff9b::192.0.2.33", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4", "[::1]", "[2001:db8::]",
    ]

    @Test func theParserReadsWhatInetPtonReads() {
        var state: UInt64 = 0x1D_AD_D2
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("0123456789abcdefABCDEF.:[]")
        var inputs = Self.seeds
        for _ in 0..<20_000 {
            if next(2) == 0 {
                inputs.append(String((0..<next(46)).map { _ in alphabet[next(alphabet.count)] }))
            } else {
                var text = Array(Self.seeds[next(Self.seeds.count)])
                for _ in 0..<(1 + next(3)) {
                    let at = next(text.count + 1)
                    switch next(3) {
                    case 0: text.insert(alphabet[next(alphabet.count)], at: at)
                    case 1 where at < text.count: text.remove(at: at)
                    default: if at < text.count { text[at] = alphabet[next(alphabet.count)] }
                    }
                }
                inputs.append(String(text))
            }
        }
        var disagreements: [String] = []
        for text in inputs where IPAddressParser.parse(text) != Self.reference(text) {
            disagreements.append("\(text): ours \(IPAddressParser.parse(text).map(IPAddressParser.format) ?? "nil"), inet_pton \(Self.reference(text).map(IPAddressParser.format) ?? "nil")")
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(inputs.count) strings read differently: \(disagreements.prefix(10))")
        #expect(inputs.filter { Self.reference($0) != nil }.count > 2_000, "too few valid addresses among the inputs to compare")
    }
}
