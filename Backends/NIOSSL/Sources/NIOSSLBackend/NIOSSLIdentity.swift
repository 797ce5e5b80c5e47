//===----------------------------------------------------------------------===//
//
// The matching below is swift-nio-ssl 2.37.6's, Sources/NIOSSL/IdentityVerification.swift
// (`validIdentityForService`, `matchHostname`, `AnalysedCertificateHostname`), copied because
// NIOSSL keeps it internal: it runs only inside `NIOSSLHandler` after a completed handshake.
// Copyright (c) 2017-2021 Apple Inc. and the SwiftNIO project authors, Apache License v2.0.
// Changed only where it met NIOSSL's internals: the socket address is the request's IP address
// (4 or 16 bytes), and the subjectAltNames and commonName are read by
// ``BoringSSLCertificate/subjectAltNames()`` and ``BoringSSLCertificate/commonName()`` with the calls
// NIOSSL's `_subjectAlternativeNames()` and internal `commonName()` make.
//
//===----------------------------------------------------------------------===//

internal import CNIOBoringSSL

/// NIOSSL's host check: what `NIOSSLHandler.validateHostname` (Sources/NIOSSL/NIOSSLHandler.swift)
/// answers after the handshake under `.fullVerification`, through `SSLConnection.validateHostname`
/// and `validIdentityForService`.
///
/// How an application reaches it decides the inputs: a DNS name is given as `serverHostname`
/// (`NIOSSLClientHandler(context:serverHostname:)`, also the SNI), while an IP address may not be
/// (`validateSNIServerName` throws `cannotUseIPAddressInSNI`), so the application passes nil and
/// NIOSSL compares the iPAddress entries with the socket's remote address, which is then the
/// request's address. For a DNS name the remote address is whatever the name resolved to: the
/// request's `connectedAddress` when it models a connection (nil: none, and iPAddress entries
/// match no DNS host). NIOSSL accepts a certificate naming only that address for the DNS name, which
/// RFC 9525 forbids (the `connected-address-*` vectors; see the README).
enum NIOSSLIdentity {
    /// Why the leaf does not identify the host, or nil when NIOSSL accepts it.
    enum Mismatch: Error {
        /// `NIOSSLExtraError.failedToValidateHostname`.
        case failedToValidateHostname
        /// `NIOSSLExtraError.serverHostnameImpossibleToMatch`: the host has a byte outside
        /// letters, digits, "-" and "." (`withLowercaseASCIIBuffer`).
        case serverHostnameImpossibleToMatch
    }

    /// Checks `leaf` for `serverHostname` (a DNS name, or nil for an IP host) and `remoteAddress`
    /// (4 or 16 bytes, or nil when unknown).
    static func check(leaf: BoringSSLCertificate, serverHostname: String?, remoteAddress: [UInt8]?) -> Mismatch? {
        var lowercased: [UInt8]? = nil
        if let serverHostname {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(serverHostname.utf8.count)
            for codeUnit in serverHostname.utf8 {
                guard codeUnit.isValidDNSCharacter else { return .serverHostnameImpossibleToMatch }
                // Only ASCII letters, digits, "-" and "." remain: setting bit 5 lowercases.
                bytes.append(codeUnit | 0x20)
            }
            lowercased = bytes
        }
        return validIdentityForService(serverHostname: lowercased, remoteAddress: remoteAddress, subjectAltNames: leaf.subjectAltNames(), commonName: { leaf.commonName() })
            ? nil : .failedToValidateHostname
    }

    private static func validIdentityForService(serverHostname: [UInt8]?, remoteAddress: [UInt8]?, subjectAltNames: [(type: Int32, contents: [UInt8])], commonName: () -> [UInt8]?) -> Bool {
        var serverHostnameSlice: ArraySlice<UInt8>? = nil
        var firstPeriodIndex: ArraySlice<UInt8>.Index? = nil
        if let serverHostname {
            var slice = serverHostname[...]
            if slice.last == asciiPeriod { slice = slice.dropLast() }
            firstPeriodIndex = slice.firstIndex(of: asciiPeriod)
            serverHostnameSlice = slice
        }
        // subjectAltName entries first; any entry at all (of any type) turns the commonName off.
        var checkedMatch = false
        for name in subjectAltNames {
            checkedMatch = true
            switch name.type {
            case GEN_DNS:
                if matchHostname(ourHostname: serverHostnameSlice, firstPeriodIndex: firstPeriodIndex, dnsName: name.contents) { return true }
            case GEN_IPADD:
                // `_SubjectAlternativeName.IPAddress(name)`: 4 bytes IPv4, 16 IPv6, else no address;
                // `matchIpAddress` compares it with the socket address of the same family.
                let bytes = name.contents
                if (bytes.count == 4 || bytes.count == 16), let remoteAddress, remoteAddress == bytes { return true }
            default:
                continue
            }
        }
        guard !checkedMatch else { return false }
        guard let commonName = commonName() else { return false }
        return matchHostname(ourHostname: serverHostnameSlice, firstPeriodIndex: firstPeriodIndex, dnsName: commonName)
    }

    private static func matchHostname(ourHostname: ArraySlice<UInt8>?, firstPeriodIndex: ArraySlice<UInt8>.Index?, dnsName: [UInt8]) -> Bool {
        guard let ourHostname else { return false }
        var dnsName = ArraySlice(dnsName)
        guard let validated = AnalysedCertificateHostname(baseName: &dnsName) else { return false }
        return validated.validMatchForName(ourHostname, firstPeriodIndexForName: firstPeriodIndex)
    }
}

private let asciiIDNAIdentifier: ArraySlice<UInt8> = Array("xn--".utf8)[...]
private let asciiCapitals: ClosedRange<UInt8> = UInt8(ascii: "A")...UInt8(ascii: "Z")
private let asciiLowercase: ClosedRange<UInt8> = UInt8(ascii: "a")...UInt8(ascii: "z")
private let asciiNumbers: ClosedRange<UInt8> = UInt8(ascii: "0")...UInt8(ascii: "9")
private let asciiHyphen: UInt8 = UInt8(ascii: "-")
private let asciiPeriod: UInt8 = UInt8(ascii: ".")
private let asciiAsterisk: UInt8 = UInt8(ascii: "*")

extension Collection {
    /// Splits around `index` (nil: at the end).
    fileprivate func splitAroundIndex(_ index: Index?) -> (SubSequence, SubSequence) {
        guard let index else { return (self[...], self[self.endIndex...]) }
        return (self[..<index], self[self.index(after: index)...])
    }
}

extension Sequence<UInt8> {
    fileprivate func caseInsensitiveElementsEqual(_ other: some Sequence<UInt8>) -> Bool {
        elementsEqual(other) { $0.lowercasedASCII() == $1.lowercasedASCII() }
    }
}

extension UInt8 {
    fileprivate var isValidDNSCharacter: Bool {
        switch self {
        case asciiCapitals, asciiLowercase, asciiNumbers, asciiHyphen, asciiPeriod: true
        default: false
        }
    }

    fileprivate func lowercasedASCII() -> UInt8 {
        asciiCapitals.contains(self) ? self | 0x20 : self
    }
}

/// A certificate's DNS name prepared for matching: only DNS characters and at most one "*", in the
/// first label, which must then not be an A-label.
private struct AnalysedCertificateHostname {
    private enum NameType {
        case wildcard(ArraySlice<UInt8>, asteriskIndex: ArraySlice<UInt8>.Index, firstPeriodIndex: ArraySlice<UInt8>.Index?)
        case singleName(ArraySlice<UInt8>)
    }

    private var name: NameType

    init?(baseName: inout ArraySlice<UInt8>) {
        if baseName.last == asciiPeriod { baseName = baseName.dropLast() }
        var index = baseName.startIndex
        var firstPeriodIndex: ArraySlice<UInt8>.Index? = nil
        var asteriskIndex: ArraySlice<UInt8>.Index? = nil
        while index < baseName.endIndex {
            switch baseName[index] {
            case asciiPeriod where firstPeriodIndex == nil:
                firstPeriodIndex = index
            case asciiCapitals, asciiLowercase, asciiNumbers, asciiHyphen, asciiPeriod:
                break
            case asciiAsterisk where asteriskIndex == nil && firstPeriodIndex == nil:
                asteriskIndex = index
            case asciiAsterisk:
                return nil
            default:
                return nil
            }
            baseName.formIndex(after: &index)
        }
        if let asteriskIndex {
            if baseName.prefix(4).caseInsensitiveElementsEqual(asciiIDNAIdentifier) { return nil }
            name = .wildcard(baseName, asteriskIndex: asteriskIndex, firstPeriodIndex: firstPeriodIndex)
        } else {
            name = .singleName(baseName)
        }
    }

    func validMatchForName(_ target: ArraySlice<UInt8>, firstPeriodIndexForName: ArraySlice<UInt8>.Index?) -> Bool {
        switch name {
        case .singleName(let baseName):
            return baseName.caseInsensitiveElementsEqual(target)
        case .wildcard(let baseName, let asteriskIndex, let firstPeriodIndex):
            let (wildcardLabel, remainingComponents) = baseName.splitAroundIndex(firstPeriodIndex)
            let (targetFirstLabel, targetRemainingComponents) = target.splitAroundIndex(firstPeriodIndexForName)
            guard !targetFirstLabel.prefix(4).caseInsensitiveElementsEqual(asciiIDNAIdentifier) else { return false }
            guard remainingComponents.caseInsensitiveElementsEqual(targetRemainingComponents) else { return false }
            guard targetFirstLabel.count >= wildcardLabel.count else { return false }
            let (prefix, suffix) = wildcardLabel.splitAroundIndex(asteriskIndex)
            return targetFirstLabel.prefix(prefix.count).caseInsensitiveElementsEqual(prefix)
                && targetFirstLabel.suffix(suffix.count).caseInsensitiveElementsEqual(suffix)
        }
    }
}
