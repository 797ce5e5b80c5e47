/// RFC 5280 §4.2.1.10 name constraints as the Web PKI profile processes every CA's, the anchor's
/// included (the anchor is a CA of the path there): every name of a constrained type in the
/// certificates below the CA must be within a permitted subtree of its type and within no excluded
/// one (§6.1.3(b)-(c)).
///
/// Forms: dNSName (labels added on the left, case-insensitively; a wildcard name stands for every
/// name it matches: permitted only when all are, excluded when any is), iPAddress (address and
/// mask), rfc822Name (a mailbox, a host, or `.domain`), uniformResourceIdentifier (its host, or
/// `.domain`) and directoryName (the subject's leading RDNs). An emailAddress in the subject is an
/// rfc822Name only when the certificate has no subjectAltName (§4.2.1.10).
enum WebPKINameConstraints {
    enum Name: Equatable {
        case dns(String), ip([UInt8]), email(String), uri(String), directory([[UInt8]]), other

        init(_ element: DERTree) {
            let text = String(decoding: element.content, as: UTF8.self)
            switch element.tag {
            case 0x82: self = .dns(text.lowercased())
            case 0x87: self = .ip(element.content)
            case 0x81: self = .email(text)
            case 0x86: self = .uri(text)
            case 0xA4: self = .directory((element.children?.first?.children ?? []).map(\.encoded))
            default: self = .other
            }
        }

        /// The form's number, to group names and constraints by type.
        var form: Int {
            switch self {
            case .dns: 2
            case .ip: 7
            case .email: 1
            case .uri: 6
            case .directory: 4
            case .other: -1
            }
        }
    }

    struct Subtrees {
        var permitted: [Name]
        var excluded: [Name]

        init?(_ value: DERTree) {
            guard value.tag == 0x30, let parts = value.children else { return nil }
            func bases(_ tag: UInt8) -> [Name] {
                (parts.first { $0.tag == tag }?.children ?? []).compactMap { $0.children?.first.map(Name.init) }
            }
            permitted = bases(0xA0)
            excluded = bases(0xA1)
        }
    }

    /// Whether every certificate below the CA (`below`, leaf first) keeps `constraints`.
    static func allow(_ constraints: Subtrees, _ below: [WebPKIRules.Parsed]) -> Bool {
        for (index, certificate) in below.enumerated() {
            // Self-issued CAs other than the leaf are not checked (§6.1.3(b)).
            if index > 0 && certificate.subject == certificate.issuer { continue }
            var names = certificate.alternativeNames
            if !certificate.subjectRDNs.isEmpty { names.append(.directory(certificate.subjectRDNs)) }
            if !certificate.hasSubjectAltName { names += certificate.subjectEmails.map(Name.email) }
            for name in names where name.form >= 0 {
                let permitted = constraints.permitted.filter { $0.form == name.form }
                if !permitted.isEmpty && !permitted.contains(where: { within(name, $0, all: true) }) { return false }
                if constraints.excluded.contains(where: { $0.form == name.form && within(name, $0, all: false) }) { return false }
            }
        }
        return true
    }

    /// Whether `name` is within the subtree `base`: for a wildcard DNS name, every name it stands
    /// for (`all`) or some (`!all`).
    static func within(_ name: Name, _ base: Name, all: Bool) -> Bool {
        switch (name, base) {
        case (.dns(let dns), .dns(let constraint)):
            let constraint = constraint.lowercased()
            if dns.hasPrefix("*.") {
                // `*.B` stands for every `L.B`: all of them are within C when B is (or C is `.B`);
                // some are when C is one label below B.
                let rest = String(dns.dropFirst(2))
                if dnsWithin(rest, constraint) || constraint == "." + rest { return true }
                return !all && !constraint.hasPrefix(".") && constraint.split(separator: ".").count == rest.split(separator: ".").count + 1 && constraint.hasSuffix("." + rest)
            }
            return dnsWithin(dns, constraint)
        case (.ip(let address), .ip(let range)):
            guard range.count == address.count * 2 else { return false }
            return address.indices.allSatisfy { address[$0] & range[address.count + $0] == range[$0] & range[address.count + $0] }
        case (.email(let mailbox), .email(let constraint)):
            if constraint.contains("@") { return mailbox == constraint }
            let host = mailbox.split(separator: "@").last.map { String($0).lowercased() } ?? ""
            return constraint.hasPrefix(".") ? host.hasSuffix(constraint.lowercased()) : host == constraint.lowercased()
        case (.uri(let uri), .uri(let constraint)):
            let host = uriHost(uri)
            return constraint.hasPrefix(".") ? host.hasSuffix(constraint.lowercased()) : host == constraint.lowercased()
        case (.directory(let rdns), .directory(let prefix)):
            return prefix.count <= rdns.count && Array(rdns.prefix(prefix.count)) == prefix
        default:
            return false
        }
    }

    /// A dNSName constraint that is not a domain name (RFC 5280 §4.2.1.10: "DNS name restrictions
    /// are expressed as host.example.com."): empty, with an empty label, or not letters, digits and
    /// hyphens.
    static func malformedDNS(_ name: Name) -> Bool {
        guard case .dns(let constraint) = name else { return false }
        let labels = constraint.split(separator: ".", omittingEmptySubsequences: false)
        return constraint.isEmpty || labels.contains { label in
            label.isEmpty || label.count > 63 || !label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// A DNS name within a dNSName constraint: the same name or one with labels added on the left;
    /// the empty constraint holds every name.
    static func dnsWithin(_ name: String, _ constraint: String) -> Bool {
        if constraint.isEmpty { return true }
        if constraint.hasPrefix(".") { return name.hasSuffix(constraint) }
        return name == constraint || name.hasSuffix("." + constraint)
    }

    static func uriHost(_ uri: String) -> String {
        guard let scheme = uri.range(of: "://") else { return "" }
        let rest = uri[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last.map(String.init) ?? ""
        return String(host.prefix { $0 != ":" }).lowercased()
    }
}
