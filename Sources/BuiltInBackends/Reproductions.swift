import TrustBackendKit

/// How to reproduce a finding of each built-in back end with its library alone: OpenSSL's and
/// GnuTLS's own command-line tools with the settings the column sets (where the tool has them), and
/// swift-certificates' `Verifier` in a few lines.
enum Reproductions {
    static let all: [String: Reproduction] = [
        "openssl": openssl(strict: true, partialChain: true, neverCheckSubject: true),
        "openssl-default": openssl(strict: false, partialChain: false, neverCheckSubject: false),
        "gnutls": gnutls,
        "gnutls-default": gnutls,
        "swift-certificates": swiftCertificates(serverAuth: false),
        "swift-certificates+serverauth": swiftCertificates(serverAuth: true),
    ]

    /// `openssl verify` at the finding's time, with the column's flags; the host check of the
    /// column's host flags where the command has them.
    static func openssl(strict: Bool, partialChain: Bool, neverCheckSubject: Bool) -> Reproduction {
        Reproduction(fileName: "reproduce.sh", howToRun: "sh reproduce.sh (Debian: apt-get install openssl)") { input in
            var words = ["openssl", "verify", "-attime", "\(input.unixTime)", "-purpose", "sslserver", "-auth_level", "2", "-trusted_first"]
            if strict { words.append("-x509_strict") }
            if partialChain { words.append("-partial_chain") }
            if let host = input.host { words += [input.hostIsIPAddress ? "-verify_ip" : "-verify_hostname", Reproduction.quoted(host)] }
            words += ["-CAfile", input.anchors, "-untrusted", input.intermediates, input.leaf]
            return """
            #!/bin/sh
            # OpenSSL's own verifier at the finding's time (\(input.isoTime)), with the column's settings.
            \(neverCheckSubject && input.host != nil && !input.hostIsIPAddress ? "# The column also sets X509_CHECK_FLAG_NEVER_CHECK_SUBJECT and NO_PARTIAL_WILDCARDS, which `openssl verify` cannot set.\n" : "")\
            # Prints "leaf.pem: OK" when OpenSSL trusts the chain.
            cd "$(dirname "$0")"
            \(words.joined(separator: " "))

            """
        }
    }

    /// `certtool --verify` under faketime (certtool has no verification-time option).
    static let gnutls = Reproduction(fileName: "reproduce.sh", howToRun: "sh reproduce.sh (Debian: apt-get install gnutls-bin faketime)") { input in
        var words = ["faketime", Reproduction.quoted("@\(input.unixTime)"), "certtool", "--verify", "--verify-purpose", "1.3.6.1.5.5.7.3.1",
                     "--load-ca-certificate", input.anchors, "--infile", input.chain]
        if let host = input.host { words += ["--verify-hostname", Reproduction.quoted(host)] }
        return """
        #!/bin/sh
        # GnuTLS's own verifier (gnutls_x509_trust_list_verify_crt2 behind certtool) at the finding's
        # time (\(input.isoTime)): certtool has no time option, so faketime sets the clock.
        # Prints "Chain verification output: Verified." when GnuTLS trusts the chain.
        cd "$(dirname "$0")"
        \(words.joined(separator: " "))

        """
    }

    /// swift-certificates' `Verifier` with the column's policies.
    static func swiftCertificates(serverAuth: Bool) -> Reproduction {
        Reproduction(fileName: "Reproduce.swift", howToRun: "add to an executable target depending on swift-certificates 1.21 (product X509) and run it from this folder") { input in
            let identity: String
            switch (input.host, input.hostIsIPAddress) {
            case (let host?, false): identity = "ServerIdentityPolicy(serverHostname: \(Reproduction.swiftLiteral(host)), serverIP: nil)"
            case (let host?, true): identity = "ServerIdentityPolicy(serverHostname: nil, serverIP: \(Reproduction.swiftLiteral(host)))"
            default: identity = ""
            }
            return """
            // swift-certificates' Verifier on the finding's chain at \(input.isoTime), with the policies
            // the column uses. Prints "trusted" or the policy failures.
            import Foundation
            @_spi(FixedExpiryValidationTime) import X509  // the validation time, as the column sets it

            func certificates(_ file: String) throws -> [Certificate] {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                return try text.components(separatedBy: "-----END CERTIFICATE-----").compactMap { part in
                    guard let start = part.range(of: "-----BEGIN CERTIFICATE-----") else { return nil }
                    return try Certificate(pemEncoded: String(part[start.lowerBound...]) + "-----END CERTIFICATE-----")
                }
            }

            func verify() async throws {
                let leaf = try certificates(\(Reproduction.swiftLiteral(input.leaf)))[0]
                var verifier = Verifier(rootCertificates: CertificateStore(try certificates(\(Reproduction.swiftLiteral(input.anchors))))) {
                    RFC5280Policy(fixedExpiryValidationTime: Date(timeIntervalSince1970: \(input.unixTime)))
                    \(identity)\(serverAuth ? "\n        // and TrustHarness's ServerAuthenticationPolicy (SwiftCertificatesBackend): swift-certificates has no EKU policy" : "")
                }
                switch await verifier.validate(leafCertificate: leaf, intermediates: CertificateStore(try certificates(\(Reproduction.swiftLiteral(input.intermediates))))) {
                case .validCertificate: print("trusted")
                case .couldNotValidate(let failures): print("rejected:", failures)
                }
            }
            try await verify()

            """
        }
    }
}
