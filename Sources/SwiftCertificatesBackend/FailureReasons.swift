import Foundation
import SwiftASN1
import TrustCore
import X509

/// swift-certificates' reasons for not trusting a chain, in the failure taxonomy.
///
/// A `PolicyFailureReason` is text only, so each is classified by the words its policy writes (the
/// table cites the file of swift-certificates 1.x that writes them); the text itself is kept as the
/// native diagnostic's message. When no candidate chain reached an anchor, the library's result holds
/// no reason at all (`couldNotValidate([])`); ``noChain(_:)`` then takes the reasons from the
/// Verifier's own diagnostics of the same search.
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
        // OCSP/OCSPPolicy.swift (OCSPVerifierPolicy)
        ("revoked through OCSP", "OCSP_REVOKED", .revoked),
        ("no OCSP response was given", "OCSP_NO_RESPONSE", .other),
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
            // Our ServerAuthenticationPolicy's reasons are a layer's, not the library's (it has none).
            let ours = entry.map { ServerAuthenticationPolicy.reasonNames.contains($0.name) } ?? false
            diagnostics.append(NativeDiagnostic(
                code: 0, name: entry?.name ?? "POLICY_FAILURE", message: shortened(text), depth: depth, failure: entry?.failure ?? .other,
                origin: ours ? .layer : .library, layer: ours ? "serverauth" : nil
            ))
        }
        return diagnostics
    }

    /// The Verifier's own words on why no candidate chain reached an anchor, from the texts of its
    /// diagnostic callback (`VerificationDiagnostic`, Sources/X509/Verifier/VerificationDiagnostic.swift
    /// of swift-certificates 1.x, a public struct whose cases are read only through its text): a
    /// leaf or a candidate issuer with critical extensions no policy handles (the Verifier refuses
    /// to build through it), a candidate issuer that has not signed, and otherwise its last word,
    /// "Could not validate leaf certificate". Search notes (issuers tried, an issuer already in the
    /// chain) are not reasons. Each reason once, in the order the Verifier gave them.
    static func noChain(_ texts: [String]) -> [NativeDiagnostic] {
        // (opening words, native name, class, blames the certificate after the partial chain)
        let reasons: [(words: String, name: String, failure: FailureClass, issuer: Bool)] = [
            ("The leaf certificate has critical extensions that the policy does not understand", "UNHANDLED_CRITICAL_EXTENSION", .other, false),
            ("A candidate issuer of a certificate in the (partial) chain has critical extensions", "UNHANDLED_CRITICAL_EXTENSION", .other, true),
            ("A candidate issuer of a certificate in the (partial) chain has not signed", "ISSUER_HAS_NOT_SIGNED", .badSignature, true),
        ]
        var diagnostics: [NativeDiagnostic] = []
        var seen = Set<String>()
        for text in texts {
            guard let reason = reasons.first(where: { text.hasPrefix($0.words) }) else { continue }
            // The candidate issuer is the last certificate the text lists, after the partial chain
            // from the leaf: its depth is the number of certificates before it.
            let depth = reason.issuer ? max(0, text.components(separatedBy: "Certificate(version:").count - 2) : 0
            let message = shortened(text)
            guard seen.insert("\(reason.name) \(depth)").inserted else { continue }
            diagnostics.append(NativeDiagnostic(code: 0, name: reason.name, message: message, depth: depth, failure: reason.failure))
        }
        if diagnostics.isEmpty {
            let last = texts.last { $0.hasPrefix("Could not validate leaf certificate") }
            diagnostics.append(NativeDiagnostic(
                code: 0, name: "NO_CHAIN_TO_ANCHOR",
                message: last.map(shortened) ?? "couldNotValidate with no reason and no diagnostic: no candidate chain reached an anchor",
                failure: .untrusted, inferred: last == nil
            ))
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
