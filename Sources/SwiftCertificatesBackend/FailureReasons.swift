import Foundation
import SwiftASN1
import TrustCore
import X509

/// swift-certificates' reasons for not trusting a chain, in the failure taxonomy.
///
/// A `PolicyFailureReason` is text only, so each is classified by the words its policy writes (the
/// table cites the file of swift-certificates 1.x that writes them); the text itself is kept as the
/// native diagnostic's message. When no candidate chain reached an anchor, the library reports no
/// reason at all (`couldNotValidate([])`); ``noChain(leaf:presented:roots:handled:)`` then says why,
/// from the same facts the library's chain builder looks at.
enum FailureReasons {
    /// (words in the reason, native name, class): first match wins.
    static let table: [(words: String, name: String, failure: FailureClass)] = [
        // RFC5280/ExpiryPolicy.swift
        ("has expired", "EXPIRED", .expired),
        ("is not yet valid", "NOT_YET_VALID", .notYetValid),
        // RFC5280/BasicConstraintsPolicy.swift
        ("has maximum path length", "PATH_LENGTH_EXCEEDED", .pathLengthExceeded),
        ("is not marked as a CA", "NOT_A_CA", .notCA),
        ("Error processing basic constraints", "BASIC_CONSTRAINTS_UNREADABLE", .malformed),
        ("Empty certificate chain", "EMPTY_CHAIN", .malformed),
        // RFC5280/VersionPolicy.swift
        ("version 1 certificate contains extensions", "V1_WITH_EXTENSIONS", .malformed),
        // RFC5280/NameConstraintsPolicy.swift
        ("Unable to decode name constraints", "NAME_CONSTRAINTS_UNREADABLE", .malformed),
        ("Unable to decode SAN field", "SAN_UNREADABLE", .malformed),
        ("name constraints are not supported", "UNSUPPORTED_NAME_CONSTRAINT", .other),
        ("unsupported constraint", "UNSUPPORTED_NAME_CONSTRAINT", .other),
        ("in name constraints", "NAME_CONSTRAINTS_VIOLATION", .other),
        ("permitted subtree", "NAME_CONSTRAINTS_VIOLATION", .other),
        // ServerIdentityPolicy.swift (via Certificate.hasValidIdentityForService)
        ("Error parsing SAN field", "SAN_UNREADABLE", .malformed),
        ("None of the names in SAN extension matched", "HOSTNAME_MISMATCH", .hostnameMismatch),
        ("No SAN extension and no common name", "HOSTNAME_MISMATCH", .hostnameMismatch),
        ("does not match expected hostname", "HOSTNAME_MISMATCH", .hostnameMismatch),
        // This back end's ServerAuthenticationPolicy.
        ("allows no TLS server authentication", "EKU_NOT_SERVER_AUTH", .purposeMismatch),
        ("extendedKeyUsage cannot be decoded", "EKU_UNREADABLE", .malformed),
    ]

    /// One diagnostic per distinct reason, in the order the library met them. The candidate chains
    /// the library tried all failed; each reason belongs to one of them.
    static func diagnostics(for failures: [CertificateValidationResult.PolicyFailure], time: Date) -> [NativeDiagnostic] {
        var seen = Set<String>()
        var diagnostics: [NativeDiagnostic] = []
        for failure in failures {
            let text = failure.policyFailureReason.description
            guard seen.insert(text).inserted else { continue }
            let entry = table.first { text.contains($0.words) }
            let certificates = Array(failure.chain)
            var depth: Int?
            switch entry?.failure {
            case .expired?: depth = certificates.firstIndex { $0.notValidAfter < time }
            case .notYetValid?: depth = certificates.firstIndex { $0.notValidBefore > time }
            case .notCA? where text.contains("Self-signed cert"): depth = 0
            default: depth = nil
            }
            diagnostics.append(NativeDiagnostic(
                code: 0, name: entry?.name ?? "POLICY_FAILURE", message: shortened(text), depth: depth, failure: entry?.failure ?? .other
            ))
        }
        return diagnostics
    }

    /// Why no candidate chain reached an anchor: the leaf or a candidate issuer has a critical
    /// extension the policies do not handle (the `Verifier` refuses to build through it), a
    /// certificate named as an issuer did not sign, or no issuer is known at all.
    static func noChain(leaf: Certificate, presented: [Certificate], roots: [Certificate], handled: Set<ASN1ObjectIdentifier>) -> [NativeDiagnostic] {
        func unhandled(_ certificate: Certificate) -> [ASN1ObjectIdentifier] {
            certificate.extensions.filter { $0.critical && !handled.contains($0.oid) }.map(\.oid)
        }
        let leafUnhandled = unhandled(leaf)
        if !leafUnhandled.isEmpty {
            return [NativeDiagnostic(code: 0, name: "UNHANDLED_CRITICAL_EXTENSION", message: "the leaf has critical extensions no policy handles: \(leafUnhandled.map(\.description).joined(separator: ", "))", depth: 0, failure: .other)]
        }
        // Walk the names as the chain builder does, from the leaf, and note what stops each step.
        var diagnostics: [NativeDiagnostic] = []
        var current = leaf
        var depth = 0
        var visited: [Certificate] = [leaf]
        while depth < 32 {
            let candidates = (roots + presented).filter { $0.subject == current.issuer && !visited.contains($0) }
            if candidates.isEmpty { break }
            let signers = candidates.filter { $0.publicKey.isValidSignature(current.signature, for: current) }
            if signers.isEmpty {
                diagnostics.append(NativeDiagnostic(code: 0, name: "ISSUER_HAS_NOT_SIGNED", message: "a certificate named as the issuer of certificate \(depth) has not signed it", depth: depth, failure: .badSignature))
                break
            }
            if let blocked = signers.lazy.map(unhandled).first(where: { !$0.isEmpty }), signers.allSatisfy({ !unhandled($0).isEmpty }) {
                diagnostics.append(NativeDiagnostic(code: 0, name: "UNHANDLED_CRITICAL_EXTENSION", message: "the issuer of certificate \(depth) has critical extensions no policy handles: \(blocked.map(\.description).joined(separator: ", "))", depth: depth + 1, failure: .other))
                break
            }
            current = signers[0]
            visited.append(current)
            depth += 1
            if roots.contains(current) { break }
        }
        if diagnostics.isEmpty {
            diagnostics.append(NativeDiagnostic(code: 0, name: "NO_CHAIN_TO_ANCHOR", message: "swift-certificates found no chain from the leaf to an anchor (couldNotValidate with no candidate chain)", depth: depth, failure: .untrusted))
        }
        return diagnostics
    }

    /// A reason's text with each certificate dump (`Certificate(version: ..., subject: "...", ...)`,
    /// hundreds of characters) replaced by its quoted subject, and at most 400 characters.
    static func shortened(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "Certificate(version:") {
            out += rest[..<start.lowerBound]
            var depth = 0
            var end = start.lowerBound
            for index in rest[start.lowerBound...].indices {
                if rest[index] == "(" { depth += 1 }
                if rest[index] == ")" { depth -= 1; if depth == 0 { end = index; break } }
            }
            guard end > start.lowerBound else { out += rest[start.lowerBound...]; rest = ""; break }
            let dump = rest[start.lowerBound...end]
            if let subject = dump.range(of: "subject: \""), let close = dump[subject.upperBound...].firstIndex(of: "\"") {
                out += "\"" + dump[subject.upperBound..<close] + "\""
            } else {
                out += "a certificate"
            }
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        return out.count > 400 ? String(out.prefix(397)) + "..." : out
    }
}
