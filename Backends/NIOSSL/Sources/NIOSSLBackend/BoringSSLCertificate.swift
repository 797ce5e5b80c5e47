internal import CNIOBoringSSL
internal import CNIOBoringSSLShims
import TrustBackendKit

/// One certificate parsed by the BoringSSL that swift-nio-ssl links (`CNIOBoringSSL`), owning its
/// `X509 *` and freeing it in deinit.
///
/// Presented certificates are parsed as BoringSSL's TLS client parses the server's Certificate
/// message (`X509_parse_from_buffer` over a `CRYPTO_BUFFER`, `ssl_crypto_x509_session_cache_objects`
/// in ssl/ssl_x509.cc), anchors as NIOSSL parses `.certificates([...])` trust roots
/// (`d2i_X509`, `NIOSSLCertificate(bytes:format: .der)`).
final class BoringSSLCertificate: @unchecked Sendable {
    // @unchecked Sendable: the X509 is only read after init (BoringSSL fills its extension cache
    // once, under the certificate's own lock, x509v3_cache_extensions in crypto/x509/v3_purp.cc).

    /// `X509 *`, owned.
    let identity: OpaquePointer
    /// The exact bytes parsed.
    let der: [UInt8]

    private init(identity: OpaquePointer, der: [UInt8]) {
        self.identity = identity
        self.der = der
    }

    deinit {
        X509_free(identity)
    }

    /// A presented certificate (strict DER: BackendPreflight's, before) read with
    /// `X509_parse_from_buffer`, as BoringSSL's TLS client reads a server's certificate.
    static func presented(_ der: [UInt8]) throws(CertificateParseFailure) -> BoringSSLCertificate {
        BoringSSLErrorQueue.discard()
        let buffer: OpaquePointer? = der.withUnsafeBufferPointer { CRYPTO_BUFFER_new($0.baseAddress, $0.count, nil) }
        guard let buffer else { throw .boringSSL(BoringSSLErrorQueue.drain()) }
        defer { CRYPTO_BUFFER_free(buffer) }
        guard let x509 = X509_parse_from_buffer(buffer) else { throw .boringSSL(BoringSSLErrorQueue.drain()) }
        return BoringSSLCertificate(identity: x509, der: der)
    }

    /// An anchor (strict DER: BackendPreflight's, before) read with `d2i_X509` over exactly its bytes, as NIOSSL reads a DER trust root.
    static func anchor(_ der: [UInt8]) throws(CertificateParseFailure) -> BoringSSLCertificate {
        BoringSSLErrorQueue.discard()
        let parsed: (OpaquePointer?, Int) = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let x509 = d2i_X509(nil, &cursor, buffer.count)
            return (x509, cursor.map { $0 - buffer.baseAddress! } ?? 0)
        }
        guard let x509 = parsed.0 else { throw .boringSSL(BoringSSLErrorQueue.drain()) }
        guard parsed.1 == der.count else {
            X509_free(x509)
            throw .trailingBytes(der.count - parsed.1)
        }
        return BoringSSLCertificate(identity: x509, der: der)
    }

    /// The subjectAltName entries, as NIOSSL's `NIOSSLCertificate._subjectAlternativeNames()`
    /// (Sources/NIOSSL/SSLCertificate.swift, SubjectAlternativeName.swift) reads them, with the same
    /// calls: `X509_get_ext_d2i(NID_subject_alt_name)`, each `GENERAL_NAME`'s type, and for the
    /// string-shaped types (dNSName, iPAddress, URI, rfc822Name) the `ASN1_STRING`'s bytes; other
    /// types have no contents. Read here rather than through a `NIOSSLCertificate`, because NIOSSL's
    /// DER constructor (`d2i_X509_bio`) refuses certificates over 100 KiB that its handshake
    /// (`SSL_get_peer_certificate`) takes.
    func subjectAltNames() -> [(type: Int32, contents: [UInt8])] {
        guard let raw = X509_get_ext_d2i(identity, NID_subject_alt_name, nil, nil) else { return [] }
        let stack = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(stack) }
        let count = CNIOBoringSSLShims_sk_GENERAL_NAME_num(stack)
        var names: [(type: Int32, contents: [UInt8])] = []
        names.reserveCapacity(count)
        for index in 0..<count {
            guard let name = CNIOBoringSSLShims_sk_GENERAL_NAME_value(stack, index) else { continue }
            let type = name.pointee.type
            switch type {
            case GEN_DNS, GEN_IPADD, GEN_URI, GEN_EMAIL:
                let string = name.pointee.d.ia5
                let length = Int(ASN1_STRING_length(string))
                if let bytes = ASN1_STRING_get0_data(string), length > 0 {
                    names.append((type, Array(UnsafeBufferPointer(start: bytes, count: length))))
                } else {
                    names.append((type, []))
                }
            default:
                names.append((type, []))
            }
        }
        return names
    }

    /// The subject's last commonName in UTF-8, as NIOSSL's internal `NIOSSLCertificate.commonName()`
    /// (Sources/NIOSSL/SSLCertificate.swift) reads it: the most significant (last) entry, converted
    /// with `ASN1_STRING_to_UTF8`; nil when there is none or it cannot be converted.
    func commonName() -> [UInt8]? {
        guard let subject = X509_get_subject_name(identity) else { return nil }
        var lastIndex: CInt = -1
        var nextIndex: CInt = -1
        repeat {
            lastIndex = nextIndex
            nextIndex = X509_NAME_get_index_by_NID(subject, NID_commonName, lastIndex)
        } while nextIndex >= 0
        guard lastIndex >= 0, let data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, lastIndex)) else { return nil }
        var encoded: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&encoded, data)
        guard let encoded else { return nil }
        defer { OPENSSL_free(encoded) }
        guard length >= 0 else { return nil }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(length)))
    }
}

/// Why a certificate was not handed to BoringSSL.
enum CertificateParseFailure: Error, CustomStringConvertible {
    /// Bytes after the certificate.
    case trailingBytes(Int)
    /// BoringSSL could not read it, with its error stack.
    case boringSSL([BoringSSLError])

    var description: String {
        switch self {
        case .trailingBytes(let count): "\(count) bytes after the certificate"
        case .boringSSL(let errors): errors.isEmpty ? "BoringSSL could not parse it" : errors.map(\.description).joined(separator: "; ")
        }
    }

    /// The diagnostic of a presented certificate at `index` that could not be read.
    func diagnostic(index: Int) -> NativeDiagnostic {
        switch self {
        case .trailingBytes(let count):
            NativeDiagnostic(code: 0, name: "DER_TRAILING_BYTES", message: "presented certificate \(index) has \(count) bytes after it", depth: index, failure: .malformed)
        case .boringSSL(let errors):
            NativeDiagnostic(
                code: Int(errors.first?.code ?? 0), name: errors.first?.reason ?? "X509_parse_from_buffer",
                message: "BoringSSL could not parse presented certificate \(index): \(description)", depth: index, failure: .malformed
            )
        }
    }
}
