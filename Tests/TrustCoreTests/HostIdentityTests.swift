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

    @Test func formatsAddressesCanonically() {
        #expect(HostIdentity("2001:0db8:0:0:0:0:0:0010").description == "2001:db8::10")
        #expect(HostIdentity("192.0.2.1").description == "192.0.2.1")
        #expect(HostIdentity("1:0:1:0:1:0:1:0").description == "1:0:1:0:1:0:1:0")
    }
}
