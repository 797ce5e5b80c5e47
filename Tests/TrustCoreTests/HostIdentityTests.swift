import Foundation
import Testing
import TrustCore

@Suite struct HostIdentityTests {
    @Test(arguments: [
        ("192.0.2.10", [192, 0, 2, 10]),
        ("0.0.0.0", [0, 0, 0, 0]),
        ("255.255.255.255", [255, 255, 255, 255]),
    ] as [(String, [UInt8])])
    func ipv4LiteralsAreAddresses(text: String, bytes: [UInt8]) {
        #expect(HostIdentity(text) == .ipAddress(bytes))
    }

    @Test(arguments: [
        ("2001:db8::10", [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [0x10]),
        ("[2001:db8::10]", [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [0x10]),
        ("::1", [UInt8](repeating: 0, count: 15) + [1]),
        ("::", [UInt8](repeating: 0, count: 16)),
        ("::ffff:192.0.2.1", [UInt8](repeating: 0, count: 10) + [0xff, 0xff, 192, 0, 2, 1]),
        ("1:2:3:4:5:6:7:8", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]),
    ] as [(String, [UInt8])])
    func ipv6LiteralsAreAddresses(text: String, bytes: [UInt8]) {
        #expect(HostIdentity(text) == .ipAddress(bytes))
    }

    /// Unusual spellings that `inet_pton` refuses stay DNS names, so they can never match an IP SAN
    /// by accident (a lenient parser reading 0300.0.2.10 as octal would).
    @Test(arguments: [
        "www.example.test", "192.0.2", "192.0.2.10.1", "192.0.2.256", "0300.0.2.10", "192.0.2.010",
        "0x7f.0.0.1", "1:2:3:4:5:6:7:8:9", "1::2::3", ":::", "2001:db8::g", "", " 192.0.2.10", "12345::",
    ])
    func nonAddressesAreDNSNames(text: String) {
        #expect(HostIdentity(text) == .dns(text))
    }

    /// Names the libraries would check less strictly than they read, or differently from each other,
    /// are refused before any library sees them: a `malformed` rejection naming the problem.
    @Test(arguments: [
        ("", "empty"), ("www.exa\u{0}mple.test", "NUL"), (".example.test", "starts with"), ("*.example.test", "*"),
        ("bücher.example.test", "A-label"), ("www example.test", "space"), ("www.example.test\n", "control"),
        ("www..example.test", "empty label"), ("www.example.test..", "empty label"),
        (String(repeating: "a", count: 64) + ".example.test", "63 bytes"),
        (Array(repeating: String(repeating: "a", count: 60), count: 5).joined(separator: "."), "253 bytes"),
        ("127.1", "numeric label"), ("0x7f.0.0.1", "numeric label"), ("010.0.0.1", "numeric label"), ("192.0.2", "numeric label"),
        // A dotted quad given as a DNS name: an address is an .ipAddress, matched against iPAddress entries only.
        ("192.0.2.10", "numeric label"),
        ("host.0XFF", "numeric label"),
    ])
    func unusableNamesAreRefused(name: String, problem: String) throws {
        // The reason the checks layer (TrustBackendKit's HarnessChecks) refuses the name with.
        let reason = try #require(HostIdentity.unusableDNSNameReason(name))
        #expect(reason.contains(problem), "\(reason)")
    }

    @Test(arguments: ["www.example.test", "WWW.Example.TEST", "xn--bcher-kva.example.test", "_acme.example.test", "a.b-c.d1", "www.example.test."])
    func usableNamesPass(name: String) {
        #expect(HostIdentity.unusableDNSNameReason(HostIdentity.dns(name).forComparison.description) == nil)
    }

    /// An absolute name (one trailing dot) is the same host: the checks layer compares it without
    /// the dot; a request carries it as given, for the library.
    @Test func aTrailingDotIsDroppedForComparison() {
        var request = EvaluationRequest(chain: [], host: .dns("www.example.test."), time: Date(timeIntervalSince1970: 0))
        #expect(request.host == .dns("www.example.test."))
        #expect(request.host?.forComparison == .dns("www.example.test"))
        request.host = .dns("other.example.test.")
        #expect(request.host == .dns("other.example.test."))
        #expect(HostIdentity.dns(".").forComparison == .dns("."))
        #expect(HostIdentity.ipAddress([1, 2, 3, 4]).forComparison == .ipAddress([1, 2, 3, 4]))
    }

    @Test func formatsAddressesCanonically() {
        #expect(HostIdentity("2001:0db8:0:0:0:0:0:0010").description == "2001:db8::10")
        #expect(HostIdentity("192.0.2.1").description == "192.0.2.1")
        #expect(HostIdentity("1:0:1:0:1:0:1:0").description == "1:0:1:0:1:0:1:0")
    }
}
