import Foundation
import Testing
import TrustCore
import X509
import OpenSSLBackend

@Suite struct OpenSSLEvaluatorTests {
    let leaf = TestPKI.leaf, intermediate = TestPKI.intermediate, root = TestPKI.root

    // MARK: Paths

    @Test func validChainIsTrustedWithTheExactPath() throws {
        let evaluator = try makeEvaluator([root])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate])), path: [leaf, intermediate, root])
    }

    @Test func presentedRootIsNotRepeated() throws {
        let evaluator = try makeEvaluator([root])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate, root])), path: [leaf, intermediate, root])
    }

    @Test func outOfOrderChainWithExtrasIsTrusted() throws {
        let evaluator = try makeEvaluator([root])
        let verdict = evaluator.evaluate(request([leaf, TestPKI.unrelatedRoot, root, intermediate]))
        expectTrusted(verdict, path: [leaf, intermediate, root])
    }

    @Test func pinnedIntermediateEndsThePath() throws {
        let evaluator = try makeEvaluator([intermediate])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate, root])), path: [leaf, intermediate])
        expectTrusted(evaluator.evaluate(request([leaf])), path: [leaf, intermediate])
    }

    @Test func leafIsItsOwnAnchor() throws {
        let evaluator = try makeEvaluator([leaf])
        expectTrusted(evaluator.evaluate(request([leaf])), path: [leaf])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate, root])), path: [leaf])
        // The pinned leaf is still checked itself.
        expectRejected(evaluator.evaluate(request([leaf], at: leaf.certificate.notValidAfter + 1)), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 0)
        expectRejected(evaluator.evaluate(request([leaf], host: .dns("mail.example.com"))), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH", depth: 0)
    }

    /// Left to itself, OpenSSL matches a pinned leaf only after building as far as the other
    /// presented certificates reach, and then rejects for them (here CERT_HAS_EXPIRED at depth 2).
    /// The path ends at the first anchor, so they play no part.
    @Test func certificatesBeyondAPinnedLeafAreIgnored() throws {
        let shortRoot = TestPKI.ca("Short-lived Root", issuer: nil, notBefore: TestPKI.start - TestPKI.days(10), notAfter: TestPKI.start + TestPKI.days(10))
        let intermediate = TestPKI.ca("Intermediate under short root", issuer: shortRoot)
        let leaf = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([leaf])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate, shortRoot], at: TestPKI.start + TestPKI.days(20))), path: [leaf])
    }

    @Test func pinnedIntermediateIgnoresCertificatesBeyondIt() throws {
        let shortRoot = TestPKI.ca("Short-lived Root", issuer: nil, notBefore: TestPKI.start - TestPKI.days(10), notAfter: TestPKI.start + TestPKI.days(10))
        let intermediate = TestPKI.ca("Intermediate under short root", issuer: shortRoot)
        let leaf = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([intermediate])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate, shortRoot], at: TestPKI.start + TestPKI.days(20))), path: [leaf, intermediate])
    }

    /// Trusted-first: with both the root and the intermediate as anchors, the path stops at the
    /// intermediate.
    @Test func pathEndsAtTheFirstAnchor() throws {
        let evaluator = try makeEvaluator([root, intermediate])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate, root])), path: [leaf, intermediate])
    }

    @Test func missingIntermediateIsUntrusted() throws {
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf])), .untrusted, name: "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY", depth: 0)
    }

    @Test func foreignRootIsUntrusted() throws {
        let evaluator = try makeEvaluator([TestPKI.unrelatedRoot])
        expectRejected(evaluator.evaluate(request([leaf, intermediate, root])), .untrusted, name: "X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN", depth: 2)
    }

    @Test func selfSignedLeafIsUntrusted() throws {
        let selfSigned = TestPKI.mint("www.example.com", issuer: nil, notBefore: TestPKI.start - TestPKI.days(1), notAfter: TestPKI.start + TestPKI.days(1)) { ski, _ in
            try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.dnsName("www.example.com")])
                ski
            }
        }
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([selfSigned])), .untrusted, name: "X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT", depth: 0)
    }

    // MARK: Time

    @Test func timeIsHonouredPerRequest() throws {
        let evaluator = try makeEvaluator([root])
        let notBefore = leaf.certificate.notValidBefore, notAfter = leaf.certificate.notValidAfter
        expectTrusted(evaluator.evaluate(request([leaf, intermediate], at: TestPKI.start)), path: [leaf, intermediate, root])
        expectRejected(evaluator.evaluate(request([leaf, intermediate], at: notAfter + 1)), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 0)
        expectRejected(evaluator.evaluate(request([leaf, intermediate], at: notBefore - 1)), .notYetValid, name: "X509_V_ERR_CERT_NOT_YET_VALID", depth: 0)
        // Nothing of an earlier request sticks to the evaluator.
        expectTrusted(evaluator.evaluate(request([leaf, intermediate], at: notAfter - 1)), path: [leaf, intermediate, root])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate], at: notBefore)), path: [leaf, intermediate, root])
    }

    /// RFC 5280 §4.1.2.5 makes notAfter inclusive; OpenSSL's `X509_cmp_time` treats the notAfter
    /// second itself as expired. Recorded here so that a change in OpenSSL shows.
    @Test func openSSLTreatsTheNotAfterSecondAsExpired() throws {
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf, intermediate], at: leaf.certificate.notValidAfter)), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 0)
    }

    @Test func expiredIntermediateIsBlamedAtItsDepth() throws {
        let shortLived = TestPKI.ca("Short-lived Intermediate", issuer: root, pathLength: 0, notBefore: TestPKI.start - TestPKI.days(10), notAfter: TestPKI.start + TestPKI.days(10))
        let leaf = TestPKI.leaf("www.example.com", issuer: shortLived, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf, shortLived], at: TestPKI.start + TestPKI.days(20))), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 1)
    }

    /// RFC 5280 §6.1 takes the anchor as input and does not check its validity; OpenSSL does.
    @Test func openSSLChecksTheAnchorsValidity() throws {
        let shortRoot = TestPKI.ca("Short-lived Root", issuer: nil, notBefore: TestPKI.start - TestPKI.days(10), notAfter: TestPKI.start + TestPKI.days(10))
        let intermediate = TestPKI.ca("Intermediate under short root", issuer: shortRoot)
        let leaf = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")], notAfter: TestPKI.start + TestPKI.days(60))
        let evaluator = try makeEvaluator([shortRoot])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate])), path: [leaf, intermediate, shortRoot])
        expectRejected(evaluator.evaluate(request([leaf, intermediate], at: TestPKI.start + TestPKI.days(20))), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 2)
    }

    // MARK: Hosts

    @Test func wrongHostIsAMismatch() throws {
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf, intermediate], host: .dns("mail.example.com"))), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH", depth: 0)
    }

    @Test func noHostMeansNoHostCheck() throws {
        let evaluator = try makeEvaluator([root])
        expectTrusted(evaluator.evaluate(request([leaf, intermediate], host: nil)), path: [leaf, intermediate, root])
    }

    @Test func dnsNamesCompareCaseInsensitively() throws {
        let evaluator = try makeEvaluator([root])
        #expect(evaluator.evaluate(request([leaf, intermediate], host: .dns("WWW.Example.COM"))).isTrusted)
    }

    @Test(arguments: [
        ("a.wild.example.com", true),
        ("A.WILD.example.com", true),
        ("a.b.wild.example.com", false),
        ("wild.example.com", false),
        ("x.example.com", false),
    ])
    func wildcardMatchesExactlyOneLeftmostLabel(host: String, matches: Bool) throws {
        let evaluator = try makeEvaluator([root])
        let verdict = evaluator.evaluate(request([leaf, intermediate], host: .dns(host)))
        if matches {
            #expect(verdict.isTrusted, "\(verdict.diagnostics)")
        } else {
            expectRejected(verdict, .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH")
        }
    }

    @Test func partialWildcardIsNotHonoured() throws {
        let partial = TestPKI.leaf("partial", issuer: intermediate, names: [.dnsName("w*.example.org")])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([partial, intermediate], host: .dns("www.example.org"))), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH")
    }

    /// RFC 9525 §6.3: the subject CN is never a fallback, with or without a subjectAltName.
    @Test func commonNameIsNeverUsed() throws {
        let cnOnly = TestPKI.leaf("cn-only.example.com", issuer: intermediate, names: nil)
        let ipOnly = TestPKI.leaf("ip-only.example.com", issuer: intermediate, names: [.ipAddress(TestPKI.ip([192, 0, 2, 9]))])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([cnOnly, intermediate], host: .dns("cn-only.example.com"))), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH")
        expectRejected(evaluator.evaluate(request([ipOnly, intermediate], host: .dns("ip-only.example.com"))), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH")
        // Without a host check the same certificates are fine: the rejection above is the name.
        #expect(evaluator.evaluate(request([cnOnly, intermediate], host: nil)).isTrusted)
    }

    @Test(arguments: ["192.0.2.1", "2001:db8::1", "[2001:DB8::1]"])
    func ipAddressMatchesAnIPSAN(host: String) throws {
        let evaluator = try makeEvaluator([root])
        let identity = HostIdentity(host)
        guard case .ipAddress = identity else {
            Issue.record("\(host) should be an IP address")
            return
        }
        expectTrusted(evaluator.evaluate(request([leaf, intermediate], host: identity)), path: [leaf, intermediate, root])
    }

    @Test(arguments: ["192.0.2.2", "2001:db8::2", "::ffff:192.0.2.1"])
    func otherIPAddressIsAMismatch(host: String) throws {
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf, intermediate], host: HostIdentity(host))), .hostnameMismatch, name: "X509_V_ERR_IP_ADDRESS_MISMATCH", depth: 0)
    }

    /// An IP address is never matched against dNSName entries, even one spelling the address.
    @Test func ipAddressIsNotMatchedAgainstDNSNames() throws {
        let dnsSpelled = TestPKI.leaf("dns-spelled", issuer: intermediate, names: [.dnsName("192.0.2.7")])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([dnsSpelled, intermediate], host: .ipAddress([192, 0, 2, 7]))), .hostnameMismatch, name: "X509_V_ERR_IP_ADDRESS_MISMATCH")
    }

    @Test(arguments: [
        HostIdentity.dns("www.example.com\u{0}"),
        HostIdentity.dns("www.example.com\u{0}.evil.test"),
        HostIdentity.dns(""),
        // OpenSSL would match any subdomain of wild.example.com, including the SAN *.wild.example.com.
        HostIdentity.dns(".wild.example.com"),
        // OpenSSL would compare it literally with the SAN *.wild.example.com and match.
        HostIdentity.dns("*.wild.example.com"),
        HostIdentity.ipAddress([192, 0, 2]),
        HostIdentity.ipAddress([]),
    ])
    func unusableHostFailsClosed(host: HostIdentity) throws {
        let evaluator = try makeEvaluator([root])
        let verdict = evaluator.evaluate(request([leaf, intermediate], host: host))
        expectRejected(verdict, .malformed, name: "HOST_REFUSED")
    }

    // MARK: RFC 5280 checks

    @Test func forgedSignatureIsBadSignature() throws {
        // Names the intermediate as issuer (name and key identifier) but is signed by another key.
        let forged = TestPKI.mint("www.example.com", issuer: intermediate, signingKey: TestPKI.unrelatedRoot.key, notBefore: TestPKI.start - TestPKI.days(1), notAfter: TestPKI.start + TestPKI.days(1)) { ski, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.dnsName("www.example.com")])
                ski
                if let aki { aki }
            }
        }
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([forged, intermediate])), .badSignature, name: "X509_V_ERR_CERT_SIGNATURE_FAILURE", depth: 0)
    }

    @Test func pathLengthConstraintIsEnforced() throws {
        let zeroRoot = TestPKI.ca("Root with pathLen 0", issuer: nil, pathLength: 0)
        let intermediate = TestPKI.ca("Intermediate below pathLen 0", issuer: zeroRoot)
        let leaf = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([zeroRoot])
        expectRejected(evaluator.evaluate(request([leaf, intermediate])), .pathLengthExceeded, name: "X509_V_ERR_PATH_LENGTH_EXCEEDED")
    }

    /// An issuer without basicConstraints is not a CA, even with keyCertSign.
    @Test func issuerWithoutBasicConstraintsIsNotCA() throws {
        let noBC = TestPKI.mint("Issuer without basicConstraints", issuer: root, notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(30)) { ski, aki in
            try Certificate.Extensions {
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                ski
                if let aki { aki }
            }
        }
        let leaf = TestPKI.leaf("www.example.com", issuer: noBC, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf, noBC])), .notCA, name: "X509_V_ERR_INVALID_CA", depth: 1)
    }

    @Test func issuerMarkedNotCAIsNotCA() throws {
        let notCA = TestPKI.mint("Issuer with cA false", issuer: root, notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(30)) { ski, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                ski
                if let aki { aki }
            }
        }
        let leaf = TestPKI.leaf("www.example.com", issuer: notCA, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf, notCA])), .notCA, name: "X509_V_ERR_INVALID_CA", depth: 1)
    }

    /// OpenSSL 3.0 does not strip a final "." (an absolute name) before matching, so the request
    /// drops it (HostIdentity.forComparison): the absolute name matches as the same host.
    @Test func anAbsoluteNameMatchesWithoutItsTrailingDot() throws {
        let evaluator = try makeEvaluator([root])
        #expect(evaluator.evaluate(request([leaf, intermediate], host: .dns("www.example.com."))).isTrusted)
        expectRejected(evaluator.evaluate(request([leaf, intermediate], host: .dns("www.example.com.."))), .malformed, name: "HOST_REFUSED", depth: nil)
    }

    @Test func issuerWithoutKeyCertSignIsNotCA() throws {
        let noCertSign = TestPKI.mint("Issuer without keyCertSign", issuer: root, notBefore: TestPKI.start - TestPKI.days(30), notAfter: TestPKI.start + TestPKI.days(30)) { ski, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(digitalSignature: true, cRLSign: true))
                ski
                if let aki { aki }
            }
        }
        let leaf = TestPKI.leaf("www.example.com", issuer: noCertSign, names: [.dnsName("www.example.com")])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([leaf, noCertSign])), .notCA, name: "X509_V_ERR_INVALID_CA", depth: 1)
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

    @Test func clientOnlyLeafIsAPurposeMismatch() throws {
        let clientOnly = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")], usages: [.clientAuth])
        let evaluator = try makeEvaluator([root])
        expectRejected(evaluator.evaluate(request([clientOnly, intermediate])), .purposeMismatch, name: "X509_V_ERR_INVALID_PURPOSE", depth: 0)
    }

    /// No extendedKeyUsage means any purpose (RFC 5280 §4.2.1.12).
    @Test func leafWithoutExtendedKeyUsageIsTrusted() throws {
        let anyPurpose = TestPKI.leaf("www.example.com", issuer: intermediate, names: [.dnsName("www.example.com")], usages: nil)
        let evaluator = try makeEvaluator([root])
        expectTrusted(evaluator.evaluate(request([anyPurpose, intermediate])), path: [anyPurpose, intermediate, root])
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

    // MARK: Concurrency

    @Test func concurrentEvaluationsOfOneEvaluatorAgree() async throws {
        let evaluator = try makeEvaluator([root])
        let leaf = self.leaf, intermediate = self.intermediate
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<40 {
                        let expired = (task + round) % 2 == 0
                        let verdict = evaluator.evaluate(request([leaf, intermediate], at: expired ? TestPKI.start + TestPKI.days(100) : TestPKI.start))
                        if verdict.isTrusted == expired || (expired && verdict.failures != [.expired]) { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
