import Foundation
import Testing
import TrustCore

/// The reasons `trust-harness evaluate --host` gives for a host it cannot check: each names the
/// actual problem (a port, an octet above 255, a hyphen at a label's edge).
@Suite struct HostNameReasonTests {
    /// What the CLI does with `--host`: classify, drop one trailing dot, then ask for a reason.
    func reasonFor(_ host: String) -> String? {
        guard case .dns(let name) = HostIdentity(host).forComparison else { return nil }
        return HostIdentity.unusableDNSNameReason(name)
    }

    @Test(arguments: ["256.1.1.1", "1.2.3.256", "192.0.2.1000", "999.999.999.999"])
    func aDottedQuadWithAnOctetAbove255SaysSo(host: String) throws {
        let reason = try #require(reasonFor(host))
        #expect(reason.contains("an IPv4 octet is above 255"), "\(reason)")
        #expect(!reason.contains("write the address as a dotted quad"), "\(reason)")
    }

    /// Spellings with leading zeros, or other than four numbers, keep the "numeric label" reason.
    @Test(arguments: ["010.0.0.1", "0300.0.2.10", "127.1", "192.0.2", "1.2.3.4.5", "0x7f.0.0.1"])
    func otherNumericSpellingsKeepTheirReason(host: String) throws {
        let reason = try #require(reasonFor(host))
        #expect(reason.contains("numeric label"), "\(reason)")
        #expect(!reason.contains("255"), "\(reason)")
    }

    @Test(arguments: [
        ("www.example.com:443", "www.example.com"), ("[::1]:443", "[::1]"), ("127.0.0.1:443", "127.0.0.1"),
        ("[2001:db8::1]:8443", "[2001:db8::1]"), ("www.example.com:443.", "www.example.com"),
    ])
    func aPortIsNamedAsAPort(host: String, bare: String) throws {
        let reason = try #require(reasonFor(host))
        #expect(reason.contains("a port is not part of a host"), "\(reason)")
        #expect(reason.contains("give \"\(bare)\" alone and the port elsewhere"), "\(reason)")
        #expect(!reason.contains("zone"), "\(reason)")
    }

    /// Colons that are not a port keep the general message.
    @Test(arguments: ["www.example.com:", "www.example.com:https", "fe80::1%lo", "2001:db8::g", "a:b:443"])
    func otherColonsAreNotCalledAPort(host: String) throws {
        let reason = try #require(reasonFor(host))
        #expect(!reason.contains("port"), "\(reason)")
    }

    @Test(arguments: [
        ("www.-example.com", "\"-example\" starts with \"-\""), ("www.example-.com", "\"example-\" ends with \"-\""),
        ("-www.example.com", "\"-www\" starts with"), ("www.example.com-", "\"com-\" ends with"),
        ("www.example.com-.", "\"com-\" ends with"), ("www.-.com", "\"-\" starts with"),
    ])
    func aHyphenAtALabelsEdgeIsRefused(host: String, problem: String) throws {
        let reason = try #require(reasonFor(host))
        #expect(reason.contains(problem), "\(reason)")
        #expect(reason.contains("RFC 1123"), "\(reason)")
    }

    /// The forms that worked keep working exactly as before.
    @Test(arguments: [
        "www.example.com", "WWW.EXAMPLE.COM", "www.example.com.", "xn--bcher-kva.example", "a-b.example", "a--b.example",
        "_acme-challenge.example.com", "x_.example", "3com.example", "1.2.3.example",
    ])
    func usableNamesStillPass(host: String) {
        #expect(reasonFor(host) == nil)
    }

    @Test(arguments: [
        ("[::1]", [UInt8](repeating: 0, count: 15) + [1]), ("::1", [UInt8](repeating: 0, count: 15) + [1]),
        ("127.0.0.1", [127, 0, 0, 1]),
    ] as [(String, [UInt8])])
    func addressesStayAddresses(host: String, bytes: [UInt8]) {
        #expect(HostIdentity(host).forComparison == .ipAddress(bytes))
    }

    /// A request with such a host reaches the library as given: refusing it is the checks layer's.
    @Test func requestsLeaveItToTheLibrary() throws {
        let request = EvaluationRequest(chain: [[0x30]], host: .dns("www.example.com:443"), time: Date(timeIntervalSince1970: 0))
        #expect(request.inputRejection == nil)
        #expect(HostIdentity.unusableDNSNameReason("www.example.com:443")?.contains("a port is not part of a host") == true)
    }
}
