import Foundation
import OpenSSLBackend
import SwiftASN1
import TestPKI
import Testing
import TrustCore
import X509

/// What each of ``OpenSSLBackend/Settings`` changes, and what the two presets do differently.
@Suite struct OpenSSLBackendSettingsTests {
    let leaf = TestPKI.leaf, intermediate = TestPKI.intermediate, root = TestPKI.root

    func evaluator(_ settings: OpenSSLBackend.Settings, anchors: [TestPKI.Node]) throws -> any TrustEvaluator {
        try OpenSSLBackend(settings: settings).makeEvaluator(anchors: anchors.map(\.der))
    }

    /// `settings` with `change` applied.
    func adjusted(_ settings: OpenSSLBackend.Settings = .hardened, _ change: (inout OpenSSLBackend.Settings) -> Void) -> OpenSSLBackend.Settings {
        var settings = settings
        change(&settings)
        return settings
    }

    @Test func theNameComesFromTheSettings() {
        #expect(OpenSSLBackend().settings == .hardened)
        #expect(OpenSSLBackend().name == "openssl")
        #expect(OpenSSLBackend(settings: .clientDefault).name == "openssl-default")
        #expect(OpenSSLBackend(settings: adjusted { $0.name = "openssl-lenient" }).name == "openssl-lenient")
    }

    @Test func theClientDefaultFallsBackToTheSubjectCN() throws {
        let cnOnly = TestPKI.leaf("www.example.com", issuer: intermediate, names: nil)
        let chain = request([cnOnly, intermediate])
        expectRejected(try evaluator(.hardened, anchors: [root]).evaluate(chain), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH", depth: 0)
        expectTrusted(try evaluator(.clientDefault, anchors: [root]).evaluate(chain), path: [cnOnly, intermediate, root])
    }

    @Test func theClientDefaultAcceptsPartialWildcards() throws {
        let partial = TestPKI.leaf("partial", issuer: intermediate, names: [.dnsName("w*.example.com")])
        let chain = request([partial, intermediate])
        expectRejected(try evaluator(.hardened, anchors: [root]).evaluate(chain), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH", depth: 0)
        expectTrusted(try evaluator(.clientDefault, anchors: [root]).evaluate(chain), path: [partial, intermediate, root])
    }

    @Test func withoutPartialChainsOnlyASelfSignedAnchorEndsAPath() throws {
        let pinnedIntermediate = try evaluator(.clientDefault, anchors: [intermediate])
        expectRejected(pinnedIntermediate.evaluate(request([leaf, intermediate, root])), .untrusted, name: "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT", depth: 1)
        let pinnedLeaf = try evaluator(.clientDefault, anchors: [leaf])
        expectRejected(pinnedLeaf.evaluate(request([leaf])), .untrusted, name: "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY", depth: 0)
        // The root still ends a path that runs through an anchored intermediate.
        expectTrusted(try evaluator(.clientDefault, anchors: [root, intermediate]).evaluate(request([leaf])), path: [leaf, intermediate, root])

        let partial = try evaluator(adjusted(.clientDefault) { $0.partialChains = true }, anchors: [leaf])
        expectTrusted(partial.evaluate(request([leaf, intermediate, root])), path: [leaf])
    }

    @Test func withoutTrustedFirstThePresentedChainIsFollowedFirst() throws {
        let chain = request([leaf, intermediate, root])
        expectTrusted(try evaluator(.hardened, anchors: [root, intermediate]).evaluate(chain), path: [leaf, intermediate])
        let untrustedFirst = try evaluator(adjusted { $0.trustedFirst = false }, anchors: [root, intermediate])
        expectTrusted(untrustedFirst.evaluate(chain), path: [leaf, intermediate, root])
    }

    /// Strict mode requires an authority key identifier in every certificate that is not self-signed.
    @Test func strictModeRequiresAnAuthorityKeyIdentifier() throws {
        let withoutAKI = TestPKI.mint("www.example.com", issuer: intermediate, notBefore: TestPKI.start - TestPKI.days(1), notAfter: TestPKI.start + TestPKI.days(1)) { ski, _ in
            try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("www.example.com")])
                ski
            }
        }
        let chain = request([withoutAKI, intermediate])
        expectRejected(try evaluator(.hardened, anchors: [root]).evaluate(chain), .other, name: "X509_V_ERR_MISSING_AUTHORITY_KEY_IDENTIFIER", depth: 0)
        expectTrusted(try evaluator(adjusted { $0.strict = false }, anchors: [root]).evaluate(chain), path: [withoutAKI, intermediate, root])
    }

    /// P-256 keys give 128-bit security: enough for levels 2 and 3, too little for 4 (192 bits).
    @Test func theSecurityLevelBoundsKeySizes() throws {
        let chain = request([leaf, intermediate])
        expectTrusted(try evaluator(adjusted { $0.securityLevel = 3 }, anchors: [root]).evaluate(chain), path: [leaf, intermediate, root])
        let level4 = try evaluator(adjusted { $0.securityLevel = 4 }, anchors: [root]).evaluate(chain)
        #expect(!level4.isTrusted)
        #expect(level4.diagnostics.first?.name == "X509_V_ERR_EE_KEY_TOO_SMALL", "\(level4.diagnostics)")
    }

    @Test func theAnyPurposeAcceptsAClientOnlyLeaf() throws {
        let clientOnly = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")], usages: [.clientAuth])
        let chain = request([clientOnly, intermediate])
        expectRejected(try evaluator(.hardened, anchors: [root]).evaluate(chain), .purposeMismatch, name: "X509_V_ERR_INVALID_PURPOSE", depth: 0)
        expectTrusted(try evaluator(adjusted { $0.purpose = .any }, anchors: [root]).evaluate(chain), path: [clientOnly, intermediate, root])
    }

    /// An intermediate requiring an explicit policy, in a path that asserts none, fails only with
    /// policy checking.
    @Test func policyCheckingEnforcesRequireExplicitPolicy() throws {
        // policyConstraints (2.5.29.36), critical: SEQUENCE { [0] requireExplicitPolicy 0 }.
        let requireExplicitPolicy = Certificate.Extension(oid: [2, 5, 29, 36], critical: true, value: [0x30, 0x03, 0x80, 0x01, 0x00])
        let constrained = TestPKI.mint("Constrained Intermediate", issuer: root, notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(30)) { ski, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                requireExplicitPolicy
                ski
                if let aki { aki }
            }
        }
        let leaf = TestPKI.leaf("www.example.com", issuer: constrained, names: [.dnsName("www.example.com")])
        let chain = request([leaf, constrained])
        expectTrusted(try evaluator(.hardened, anchors: [root]).evaluate(chain), path: [leaf, constrained, root])
        let checked = try evaluator(adjusted { $0.policyChecking = true }, anchors: [root]).evaluate(chain)
        #expect(!checked.isTrusted)
        #expect(checked.diagnostics.first?.name == "X509_V_ERR_NO_EXPLICIT_POLICY", "\(checked.diagnostics)")
    }

    @Test func hostChecksCanRefuseEveryWildcard() throws {
        let wildcard = request([leaf, intermediate], host: .dns("a.wild.example.com"))
        expectTrusted(try evaluator(.hardened, anchors: [root]).evaluate(wildcard), path: [leaf, intermediate, root])
        let noWildcards = try evaluator(adjusted { $0.hostChecks.insert(.noWildcards) }, anchors: [root])
        expectRejected(noWildcards.evaluate(wildcard), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH", depth: 0)
    }
}
