import HTTPClientWire
import TrustBackendKit

/// The request's outcome as a verdict: a response is trusted (the path is not known: neither stack
/// says which it verified); an error is a rejection whose diagnostic is the stack's error as the
/// application sees it (its type and code as the name, its own text as the message), classed by the
/// first verification message in that text (OpenSSL's `X509_verify_cert_error_string` in libcurl's
/// "SSL certificate problem: ...", libcurl's and NIOSSL's host errors), else ``FailureClass/other``:
/// AsyncHTTPClient's error says only `CERTIFICATE_VERIFY_FAILED` (NIOSSL never reads BoringSSL's
/// verify result), so its rejections of a chain are `other`.
enum StackError {
    /// Verification texts and their classes, the more specific first.
    static let texts: [(text: String, failure: FailureClass)] = [
        ("certificate has expired", .expired),
        ("certificate is not yet valid", .notYetValid),
        ("self-signed certificate in certificate chain", .untrusted),
        ("self signed certificate in certificate chain", .untrusted),
        ("self-signed certificate", .untrusted),
        ("self signed certificate", .untrusted),
        ("unable to get local issuer certificate", .untrusted),
        ("unable to get issuer certificate", .untrusted),
        ("unable to verify the first certificate", .untrusted),
        ("certificate not trusted", .untrusted),
        ("certificate rejected", .untrusted),
        ("path length constraint exceeded", .pathLengthExceeded),
        ("unsupported certificate purpose", .purposeMismatch),
        ("unsuitable certificate purpose", .purposeMismatch),
        ("invalid CA certificate", .notCA),
        ("key usage does not include certificate signing", .notCA),
        ("certificate signature failure", .badSignature),
        ("unable to decrypt certificate's signature", .badSignature),
        ("signature algorithm mismatch", .badSignature),
        ("format error in certificate's notBefore field", .malformed),
        ("format error in certificate's notAfter field", .malformed),
        ("unable to decode issuer public key", .malformed),
        ("Hostname mismatch", .hostnameMismatch),
        ("IP address mismatch", .hostnameMismatch),
        // libcurl's own host check (lib/vtls/openssl.c, Curl_ossl_verifyhost).
        ("no alternative certificate subject name matches target host name", .hostnameMismatch),
        ("does not match target host name", .hostnameMismatch),
        ("SSL: certificate subject name", .hostnameMismatch),
        // NIOSSL's host check after the handshake (NIOSSLExtraError).
        ("failedToValidateHostname", .hostnameMismatch),
        ("serverHostnameImpossibleToMatch", .hostnameMismatch),
        ("revoked", .revoked),
    ]

    /// The `URLError` codes FoundationNetworking gives (NSURLError.h names): every libcurl TLS error is
    /// `-1`, NSURLErrorUnknown, with curl's text (so the text decides); the others name what kept
    /// the request from being made.
    static let urlErrorNames: [Int: String] = [
        -1: "NSURLErrorUnknown", -1000: "NSURLErrorBadURL", -1001: "NSURLErrorTimedOut",
        -1003: "NSURLErrorCannotFindHost", -1004: "NSURLErrorCannotConnectToHost",
        -1005: "NSURLErrorNetworkConnectionLost", -1011: "NSURLErrorBadServerResponse",
    ]

    static func verdict(_ outcome: ClientOutcome, stack: ClientStack) -> Verdict {
        if let status = outcome.status {
            guard (200..<300).contains(status) else {
                return .failClosed(.other, name: "HTTP_\(status)", message: "the request got HTTP \(status), not the server's 200: not trusted", origin: .harness)
            }
            return .trusted(path: [])
        }
        let text = ([outcome.errorDescription ?? ""] + outcome.errorDetails).joined(separator: "\n")
        let lowered = text.lowercased()
        let failure = texts.first { lowered.contains($0.text.lowercased()) }?.failure ?? .other
        var name = outcome.errorType ?? "error"
        if let code = outcome.errorCode {
            name += " \(code)" + (urlErrorNames[code].map { " (\($0))" } ?? "")
        }
        // Only the stack's error: what the loopback server saw (a client's TLS alert, a reset) depends
        // on timing, and the same request must give the same verdict.
        let diagnostics = [NativeDiagnostic(code: outcome.errorCode ?? 0, name: name, message: Self.oneLine(outcome.errorDescription ?? text), failure: failure)]
        return .rejected(diagnostics)
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " | ")
    }
}

