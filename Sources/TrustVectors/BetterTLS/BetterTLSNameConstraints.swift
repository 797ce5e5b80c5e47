/// The cases of Netflix BetterTLS's name-constraints suite, in BetterTLS's order, with its expected
/// results: the facts of the suite, written here from its design
/// (`test-suites/nameconstraints/provider.go` and `test_cases.go` of github.com/Netflix/bettertls,
/// Apache-2.0), so that they can be generated and checked here. A case's index is its id in
/// BetterTLS (and in x509-limbo, `bettertls::nameconstraints::<index>`).
///
/// Each case is an intermediate with name constraints (permitted and excluded DNS and IP subtrees,
/// each absent, matching the client's host or not) over a leaf whose common name, DNS and IP
/// subjectAltNames each are absent, the client's host or another, asked for a DNS name or an IP
/// address; and cases that smuggle the host in a subjectAltName of another type.
public enum BetterTLSNameConstraints {
    /// The client's host when it asks for a DNS name, and the other DNS name.
    public static let validDNSName = "test.localhost", invalidDNSName = "bad.example.com"
    /// The client's host when it asks for an IP address, and the other address.
    public static let validIP = "127.0.0.1", invalidIP = "1.1.1.1"
    /// The DNS subtrees and IP ranges of the constraints: the host's and another.
    public static let validDNSTree = "localhost", invalidDNSTree = "example.com"
    public static let validIPRange = "127.0.0.0/24", invalidIPRange = "1.1.1.0/24"

    /// A part of the certificate that is absent, holds the client's host (or a subtree holding
    /// it), or holds the other name.
    public enum Value: String, Sendable, Hashable, CaseIterable, Codable {
        case none = "NONE", valid = "VALID", invalid = "INVALID"
    }

    /// What the client asks for, and what the common name holds.
    public enum NameType: String, Sendable, Hashable, Codable {
        case dns = "DNS", ip = "IP"
    }

    /// BetterTLS's expected results: a soft result is what the suite's authors judge better, not
    /// what every conforming client must do (reported as a warning, as BetterTLS does).
    public enum Expected: String, Sendable, Hashable, Codable {
        case pass = "PASS", fail = "FAIL", softPass = "SOFT_PASS", softFail = "SOFT_FAIL"
    }

    /// The checks a case needs a client to make to get its expected result (BetterTLS's features).
    public enum Feature: String, Sendable, Hashable, Codable {
        case nameConstraints = "NAME_CONSTRAINTS", validateDNS = "VALIDATE_DNS", validateIP = "VALIDATE_IP"
    }

    /// A subjectAltName of any GeneralName tag (0-15) with the given bytes, beside the others.
    public struct ExtraSAN: Sendable, Hashable, Codable {
        public var tag: Int
        public var value: [UInt8]
    }

    /// One case.
    public struct Case: Sendable, Hashable, Codable {
        public var clientHost: NameType
        public var commonNameType: NameType = .dns
        public var commonName: Value = .none
        public var dnsSAN: Value = .none
        public var ipSAN: Value = .none
        public var permittedIP: Value = .none
        public var permittedDNS: Value = .none
        public var excludedIP: Value = .none
        public var excludedDNS: Value = .none
        public var extraSAN: ExtraSAN? = nil

        /// The host the client asks for.
        public var host: String { clientHost == .dns ? BetterTLSNameConstraints.validDNSName : BetterTLSNameConstraints.validIP }

        /// BetterTLS's expected result (`ExpectedResult()` of test_cases.go), rule for rule.
        public var expected: Expected {
            var softFail = false
            var softPass = false
            // The client's host must be in the certificate; a common name alone is a soft failure
            // (clients should no longer read host names from common names).
            let san = clientHost == .dns ? dnsSAN : ipSAN
            if san != .valid {
                guard commonNameType == clientHost && commonName == .valid else { return .fail }
                softFail = true
            }
            // A constraint that excludes the client's host is a hard failure.
            let (permitted, excluded) = clientHost == .dns ? (permittedDNS, excludedDNS) : (permittedIP, excludedIP)
            if permitted == .invalid || excluded == .valid { return .fail }
            // Any other name the constraints deny: in a subjectAltName, a soft failure (clients differ
            // on enforcing constraints on names other than the one checked); in the common name, a soft pass.
            func denies(_ value: Value, permitted: Value, excluded: Value) -> Bool {
                (value == .valid && (permitted == .invalid || excluded == .valid))
                    || (value == .invalid && (permitted == .valid || excluded == .invalid))
            }
            let sanViolation = denies(dnsSAN, permitted: permittedDNS, excluded: excludedDNS)
                || denies(ipSAN, permitted: permittedIP, excluded: excludedIP)
            let cnViolation = commonNameType == .dns
                ? denies(commonName, permitted: permittedDNS, excluded: excludedDNS)
                : denies(commonName, permitted: permittedIP, excluded: excludedIP)
            if sanViolation {
                softFail = true
            } else if cnViolation {
                softPass = true
            }
            if softFail { return .softFail }
            if softPass { return .softPass }
            return .pass
        }

        /// The summary row the case counts in: the client's host type crossed with the kinds of
        /// constraint the intermediate holds, or the smuggled names apart.
        public var group: String {
            let host = clientHost == .dns ? "DNS host" : "IP host"
            if extraSAN != nil { return "\(host), host smuggled in another name type" }
            let dns = permittedDNS != .none || excludedDNS != .none
            let ip = permittedIP != .none || excludedIP != .none
            let constraints = dns && ip ? "DNS and IP constraints" : dns ? "DNS constraints" : ip ? "IP constraints" : "no constraints"
            return "\(host), \(constraints)"
        }

        /// The case in one line, every part named: what a reader needs to see why a library
        /// answered as it did.
        public var summary: String {
            var parts = ["host \(clientHost.rawValue) \(host)", "CN \(commonName == .none ? "NONE" : "\(commonNameType.rawValue) \(commonName.rawValue)")",
                         "DNS SAN \(dnsSAN.rawValue)", "IP SAN \(ipSAN.rawValue)",
                         "permitted DNS \(permittedDNS.rawValue) IP \(permittedIP.rawValue)", "excluded DNS \(excludedDNS.rawValue) IP \(excludedIP.rawValue)"]
            if let extraSAN {
                let text = String(decoding: extraSAN.value, as: UTF8.self)
                let shown = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } ? "\"\(text)\"" : extraSAN.value.map { String($0) }.joined(separator: ".")
                parts.append("extra SAN [\(extraSAN.tag)] \(shown)")
            }
            return parts.joined(separator: "; ")
        }

        /// The checks the case needs (`RequiredFeatures()`).
        public var requiredFeatures: [Feature] {
            var features: [Feature] = []
            if permittedIP != .none || permittedDNS != .none || excludedIP != .none || excludedDNS != .none {
                features.append(.nameConstraints)
            }
            if clientHost == .dns && dnsSAN != .valid { features.append(.validateDNS) }
            if clientHost == .ip && ipSAN != .valid { features.append(.validateIP) }
            return features
        }
    }

    /// The revisions of the suite whose cases differ: ``current`` (9,491 cases, BetterTLS since
    /// 2022-01, manifest 081fb7c) and ``december2021`` (8,754 cases, a738c20, the revision its authors'
    /// published December 2021 results were made with, before the smuggled-name cases).
    public enum Revision: String, Sendable, CaseIterable {
        case current = "081fb7c5e11591f4a6ab5acf080dc1338eed2616"
        case december2021 = "a738c208791588ed8ec0d93148da60401379738f"
    }

    /// Every case of `revision`, in BetterTLS's order (a case's index is its id).
    public static func cases(_ revision: Revision = .current) -> [Case] {
        var cases: [Case] = [
            // The sanity check, then one case per feature (provider.go's first six).
            Case(clientHost: .dns, commonName: .valid, dnsSAN: .valid),
            Case(clientHost: .dns, commonName: .valid, dnsSAN: .valid, permittedDNS: .valid),
            Case(clientHost: .dns, dnsSAN: .valid),
            Case(clientHost: .dns, dnsSAN: .invalid),
            Case(clientHost: .ip, commonNameType: .ip, ipSAN: .valid),
            Case(clientHost: .ip, commonNameType: .ip, ipSAN: .invalid),
        ]
        let validDNSBytes = Array(validDNSName.utf8)
        if revision == .current {
            cases.append(Case(clientHost: .dns, dnsSAN: .invalid, excludedDNS: .valid, extraSAN: ExtraSAN(tag: 6, value: Array("http://foo.bar, DNS:".utf8) + validDNSBytes)))
        }
        for clientHost in [NameType.dns, .ip] {
            for commonNameType in [NameType.dns, .ip] {
                for commonName in Value.allCases {
                    for dnsSAN in Value.allCases {
                        for ipSAN in Value.allCases {
                            for permittedDNS in Value.allCases {
                                for permittedIP in Value.allCases {
                                    for excludedDNS in Value.allCases {
                                        for excludedIP in Value.allCases {
                                            cases.append(Case(
                                                clientHost: clientHost, commonNameType: commonNameType, commonName: commonName,
                                                dnsSAN: dnsSAN, ipSAN: ipSAN, permittedIP: permittedIP, permittedDNS: permittedDNS,
                                                excludedIP: excludedIP, excludedDNS: excludedDNS
                                            ))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard revision == .current else { return cases }
        // The client's host in a subjectAltName of every other tag, raw and as URIs, under a
        // constraint denying it (permitted and excluded); the address as bytes and as text.
        for tag in 0..<16 {
            for encoding in ["", "http://", "https://", "spiffe://", "unspec://"] {
                let value = Array(encoding.utf8) + validDNSBytes
                cases.append(Case(clientHost: .dns, dnsSAN: .invalid, permittedDNS: .invalid, extraSAN: ExtraSAN(tag: tag, value: value)))
                cases.append(Case(clientHost: .dns, dnsSAN: .invalid, excludedDNS: .valid, extraSAN: ExtraSAN(tag: tag, value: value)))
            }
            for value in [[127, 0, 0, 1] as [UInt8], Array(validIP.utf8)] {
                cases.append(Case(clientHost: .ip, ipSAN: .invalid, permittedIP: .invalid, extraSAN: ExtraSAN(tag: tag, value: value)))
                cases.append(Case(clientHost: .ip, ipSAN: .invalid, excludedIP: .valid, extraSAN: ExtraSAN(tag: tag, value: value)))
            }
        }
        // Names smuggled after a separator (old Node split subjectAltNames on ", ").
        for separator in [", ", ",", ";", ":"] {
            for prefix in ["", "DNS:"] {
                for leading in [invalidDNSName, "http://" + invalidDNSName] {
                    let value = Array((leading + separator + prefix).utf8) + validDNSBytes
                    for tag in 0..<16 {
                        cases.append(Case(clientHost: .dns, dnsSAN: .invalid, permittedDNS: .invalid, extraSAN: ExtraSAN(tag: tag, value: value)))
                        cases.append(Case(clientHost: .dns, dnsSAN: .invalid, excludedDNS: .valid, extraSAN: ExtraSAN(tag: tag, value: value)))
                    }
                }
            }
        }
        return cases
    }
}
