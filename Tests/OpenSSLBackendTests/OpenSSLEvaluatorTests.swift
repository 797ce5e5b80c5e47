import Foundation
import OpenSSLBackend
import TestPKI
import Testing
import TrustCore
import TrustHarnessTestKit
import X509

/// What OpenSSL's evaluator does of its own: the names and depths of its rejections, and where it
/// goes beyond RFC 5280 or needs the back end's help (pinned certificates and what lies beyond them).
/// What every back end must do is the catalogue's (Vectors/manifest.json, TrustHarnessTests'
/// TestKitTests.conformance) and the contract suite's (TestKitTests.contract).
@Suite struct OpenSSLEvaluatorTests {
    let leaf = TestPKI.leaf, intermediate = TestPKI.intermediate, root = TestPKI.root

    // MARK: Diagnostics

    /// The catalogue's chain vectors, read once.
    static let catalogue = Result { try BackendTestKit.vectors(includingExplored: false) }

    /// The rejection of a catalogue vector, whose class the conformance suite checks, under
    /// OpenSSL's own name (X509_verify_cert_error_string's code) and at the depth OpenSSL blames.
    @Test(arguments: [
        ("missing-intermediate/p256", "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY", 0),
        ("untrusted-root/p256", "X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN", 2),
        ("self-signed-leaf-untrusted/p256", "X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT", 0),
        ("bad-signature-leaf/p256", "X509_V_ERR_CERT_SIGNATURE_FAILURE", 0),
        ("expired-leaf/p256", "X509_V_ERR_CERT_HAS_EXPIRED", 0),
        ("expired-intermediate/p256", "X509_V_ERR_CERT_HAS_EXPIRED", 1),
        // The recorded deviation: OpenSSL's X509_cmp_time treats the notAfter second itself as expired.
        ("leaf-not-after-equals-time/p256", "X509_V_ERR_CERT_HAS_EXPIRED", 0),
        ("not-yet-valid-leaf/p256", "X509_V_ERR_CERT_NOT_YET_VALID", 0),
        ("hostname-mismatch/p256", "X509_V_ERR_HOSTNAME_MISMATCH", 0),
        ("partial-wildcard/p256", "X509_V_ERR_HOSTNAME_MISMATCH", 0),
        ("cn-only-no-san/p256", "X509_V_ERR_HOSTNAME_MISMATCH", 0),
        ("ip-san-mismatch/p256", "X509_V_ERR_IP_ADDRESS_MISMATCH", 0),
        ("ipv6-san-mismatch/p256", "X509_V_ERR_IP_ADDRESS_MISMATCH", 0),
        ("ip-host-in-dns-name-san/p256", "X509_V_ERR_IP_ADDRESS_MISMATCH", 0),
        ("pathlen-zero-exceeded/p256", "X509_V_ERR_PATH_LENGTH_EXCEEDED", 2),
        ("issuer-not-ca/p256", "X509_V_ERR_INVALID_CA", 1),
        ("issuer-without-basic-constraints/p256", "X509_V_ERR_INVALID_CA", 1),
        ("issuer-without-keycertsign/p256", "X509_V_ERR_INVALID_CA", 1),
        ("client-auth-only-leaf/p256", "X509_V_ERR_INVALID_PURPOSE", 0),
    ])
    func rejectionsCarryOpenSSLsNameAndDepth(vector id: String, name: String, depth: Int) throws {
        let vector = try #require(try Self.catalogue.get().first { $0.id == id })
        let verdict = try OpenSSLBackend().makeEvaluator(anchors: vector.anchors).evaluate(vector.request)
        #expect(!verdict.isTrusted)
        #expect(verdict.diagnostics.map(\.name) == [name], "\(verdict.diagnostics)")
        #expect(verdict.diagnostics.first?.depth == depth, "\(verdict.diagnostics)")
    }

    // MARK: Pinned certificates

    @Test func leafIsItsOwnAnchor() throws {
        let evaluator = try makeEvaluator([leaf])
        expectTrusted(evaluator.evaluate(request([leaf])), path: [leaf])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate, root])), path: [leaf])
        // The pinned leaf is still checked itself.
        expectRejected(evaluator.evaluate(request([leaf], at: leaf.certificate.notValidAfter + 1)), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 0)
        expectRejected(evaluator.evaluate(request([leaf], host: .dns("mail.example.com"))), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH", depth: 0)
    }

    /// OpenSSL matches a pinned leaf only after building as far as the other presented
    /// certificates reach, and then rejects for them (here CERT_HAS_EXPIRED at depth 2): the
    /// library's verdict, which the back end reports as it is (RFC 5280 would end the path at the
    /// leaf: a recorded deviation, `leaf-as-anchor-beside-*`). Presented alone, the leaf is trusted.
    @Test func certificatesBeyondAPinnedLeafAreCheckedByOpenSSL() throws {
        let shortRoot = TestPKI.ca("Short-lived Root", issuer: nil, notBefore: TestPKI.start - TestPKI.days(10), notAfter: TestPKI.start + TestPKI.days(10))
        let intermediate = TestPKI.ca("Intermediate under short root", issuer: shortRoot)
        let leaf = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([leaf])
        expectRejected(evaluator.evaluate(request([leaf, intermediate, shortRoot], at: TestPKI.start + TestPKI.days(20))), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 2)
        expectTrusted(evaluator.evaluate(request([leaf], at: TestPKI.start + TestPKI.days(20))), path: [leaf])
    }

    /// A pinned intermediate (partial chains) ends the path, whatever is presented beyond it, and
    /// stands in for itself when the peer does not send it.
    @Test func pinnedIntermediateIgnoresCertificatesBeyondIt() throws {
        let shortRoot = TestPKI.ca("Short-lived Root", issuer: nil, notBefore: TestPKI.start - TestPKI.days(10), notAfter: TestPKI.start + TestPKI.days(10))
        let intermediate = TestPKI.ca("Intermediate under short root", issuer: shortRoot)
        let leaf = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([intermediate])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate, shortRoot], at: TestPKI.start + TestPKI.days(20))), path: [leaf, intermediate])
        expectTrusted(evaluator.evaluate(request([leaf], at: TestPKI.start + TestPKI.days(20))), path: [leaf, intermediate])
    }

    // MARK: Beyond RFC 5280

    /// RFC 5280 §6.1 takes the anchor as input and does not check its validity; OpenSSL does.
    @Test func openSSLChecksTheAnchorsValidity() throws {
        let shortRoot = TestPKI.ca("Short-lived Root", issuer: nil, notBefore: TestPKI.start - TestPKI.days(10), notAfter: TestPKI.start + TestPKI.days(10))
        let intermediate = TestPKI.ca("Intermediate under short root", issuer: shortRoot)
        let leaf = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")], notAfter: TestPKI.start + TestPKI.days(60))
        let evaluator = try makeEvaluator([shortRoot])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate])), path: [leaf, intermediate, shortRoot])
        expectRejected(evaluator.evaluate(request([leaf, intermediate], at: TestPKI.start + TestPKI.days(20))), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 2)
    }

    /// RFC 5280 §6.1 takes the anchor as input without checking its extensions; OpenSSL in strict
    /// mode requires the top of the path to be a CA (basicConstraints cA), anchor or not.
    @Test func openSSLRequiresAnAnchorIssuerToBeACA() throws {
        let rootWithoutBC = TestPKI.mint("Root without basicConstraints", issuer: nil, notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(30)) { ski, _ in
            try Certificate.Extensions {
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                ski
            }
        }
        let intermediate = TestPKI.ca("Intermediate under root without basicConstraints", issuer: rootWithoutBC)
        let leaf = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([rootWithoutBC])
        expectRejected(evaluator.evaluate(request([leaf, intermediate])), .notCA, name: "X509_V_ERR_INVALID_CA", depth: 2)
    }

    /// RFC 5280 does not apply an intermediate's extendedKeyUsage to the path; OpenSSL does
    /// (as the CA/Browser Forum's practice does).
    @Test func openSSLAppliesAnIntermediatesExtendedKeyUsage() throws {
        let clientCA = TestPKI.mint("Client-only intermediate", issuer: root, notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(30)) { ski, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                try ExtendedKeyUsage([.clientAuth])
                ski
                if let aki { aki }
            }
        }
        let leaf = TestPKI.leaf("www.example.com", issuer: clientCA, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf, clientCA])), .purposeMismatch, name: "X509_V_ERR_INVALID_PURPOSE", depth: 1)
    }
}
