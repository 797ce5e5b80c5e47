import Testing
import TrustCore
@testable import OpenSSLBackend

@Suite struct X509VerifyErrorCodeTests {
    /// The table covers every code of OpenSSL 3.0's x509_vfy.h, 0 to 94, once each.
    @Test func tableCoversEveryCodeOnce() {
        let codes = X509VerifyErrorCode.entries.map(\.code)
        #expect(codes == Array(0...94))
        let names = X509VerifyErrorCode.entries.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.dropFirst().allSatisfy { $0.hasPrefix("X509_V_ERR_") })
        #expect(names.first == "X509_V_OK")
    }

    @Test(arguments: [
        ("X509_V_ERR_CERT_HAS_EXPIRED", FailureClass.expired),
        ("X509_V_ERR_CERT_NOT_YET_VALID", .notYetValid),
        ("X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT", .untrusted),
        ("X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN", .untrusted),
        ("X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT", .untrusted),
        ("X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY", .untrusted),
        ("X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE", .untrusted),
        ("X509_V_ERR_CERT_UNTRUSTED", .untrusted),
        ("X509_V_ERR_CERT_REJECTED", .untrusted),
        ("X509_V_ERR_HOSTNAME_MISMATCH", .hostnameMismatch),
        ("X509_V_ERR_IP_ADDRESS_MISMATCH", .hostnameMismatch),
        ("X509_V_ERR_PATH_LENGTH_EXCEEDED", .pathLengthExceeded),
        ("X509_V_ERR_INVALID_CA", .notCA),
        ("X509_V_ERR_KEYUSAGE_NO_CERTSIGN", .notCA),
        ("X509_V_ERR_CERT_SIGNATURE_FAILURE", .badSignature),
        ("X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE", .badSignature),
        ("X509_V_ERR_SIGNATURE_ALGORITHM_MISMATCH", .badSignature),
        ("X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY", .malformed),
        ("X509_V_ERR_INVALID_PURPOSE", .purposeMismatch),
        ("X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD", .malformed),
        ("X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD", .malformed),
        ("X509_V_ERR_INVALID_EXTENSION", .malformed),
        ("X509_V_ERR_CERT_REVOKED", .revoked),
        ("X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION", .other),
        ("X509_V_ERR_PERMITTED_VIOLATION", .other),
        ("X509_V_ERR_CA_BCONS_NOT_CRITICAL", .other),
        ("X509_V_ERR_UNSPECIFIED", .other),
    ])
    func mapping(name: String, failure: FailureClass) throws {
        let entry = try #require(X509VerifyErrorCode.entries.first { $0.name == name })
        #expect(X509VerifyErrorCode.failure(of: entry.code) == failure)
        #expect(X509VerifyErrorCode.name(of: entry.code) == name)
    }

    @Test func diagnosticCarriesOpenSSLsOwnText() {
        let diagnostic = X509VerifyErrorCode.diagnostic(code: 10, depth: 1)
        #expect(diagnostic == NativeDiagnostic(code: 10, name: "X509_V_ERR_CERT_HAS_EXPIRED", message: "certificate has expired", depth: 1, failure: .expired))
    }

    @Test func unknownCodeIsOtherWithItsNumber() {
        #expect(X509VerifyErrorCode.name(of: 4242) == "X509_V_ERR_UNKNOWN(4242)")
        #expect(X509VerifyErrorCode.failure(of: 4242) == .other)
    }
}
