internal import CNIOBoringSSL
internal import CNIOBoringSSLShims
import Dispatch
import TrustBackendKit

/// BoringSSL (the copy swift-nio-ssl links) driven directly, with nothing of the back end around
/// it: one `X509_STORE` with the anchors made before the loop; per iteration, the chain parsed with
/// `X509_parse_from_buffer` (every iteration when cold, once when warm), one `X509_STORE_CTX` set up
/// as the back end sets it ("ssl_server", NIOSSL's parameters, the request's time) with BoringSSL's
/// own host check (`X509_VERIFY_PARAM_set1_host`/`_ip`) standing in for NIOSSL's Swift matching,
/// and `X509_verify_cert`. It is Swift calling C, not a C loop: CNIOBoringSSL's headers are not a
/// product of swift-nio-ssl, so no C target of this package can include them (see the README).
struct BoringSSLBaselineLoop: BaselineLoop {
    var label: String { "boringssl-direct" }

    /// An IP host arrives as text, checked as the back end checks the same text.
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        guard !chain.isEmpty, let store = X509_STORE_new() else { return nil }
        defer {
            X509_STORE_free(store)
            ERR_clear_error()
        }
        for der in anchors {
            guard let x509 = Self.parse(der) else { return nil }
            X509_STORE_add_cert(store, x509)
            X509_free(x509)
        }
        guard let parameters = X509_VERIFY_PARAM_new() else { return nil }
        defer { X509_VERIFY_PARAM_free(parameters) }
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_TRUSTED_FIRST))
        let address = host.flatMap { host in HostIdentity(host).ipBytes }
        if let host, address == nil, X509_VERIFY_PARAM_set1_host(parameters, host, host.utf8.count) != 1 { return nil }
        if let address, address.withUnsafeBufferPointer({ X509_VERIFY_PARAM_set1_ip(parameters, $0.baseAddress, $0.count) }) != 1 { return nil }

        var warm: OpaquePointer? = nil
        if !cold {
            guard let parsed = Self.stack(chain) else { return nil }
            warm = parsed
        }
        defer { if let warm { CNIOBoringSSLShims_sk_X509_pop_free(warm, X509_free) } }
        var verified = true
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations {
            guard let stack = warm ?? Self.stack(chain) else { return nil }
            defer { if warm == nil { CNIOBoringSSLShims_sk_X509_pop_free(stack, X509_free) } }
            guard let context = X509_STORE_CTX_new() else { return nil }
            defer { X509_STORE_CTX_free(context) }
            guard X509_STORE_CTX_init(context, store, CNIOBoringSSLShims_sk_X509_value(stack, 0), stack) == 1,
                  X509_STORE_CTX_set_default(context, "ssl_server") == 1,
                  X509_VERIFY_PARAM_set1(X509_STORE_CTX_get0_param(context), parameters) == 1
            else { return nil }
            X509_STORE_CTX_set_time_posix(context, 0, unixTime)
            verified = X509_verify_cert(context) == 1 && verified
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        return verified ? max(elapsed, 1) : nil
    }

    private static func parse(_ der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { bytes in
            guard let buffer = CRYPTO_BUFFER_new(bytes.baseAddress, bytes.count, nil) else { return nil }
            defer { CRYPTO_BUFFER_free(buffer) }
            return X509_parse_from_buffer(buffer)
        }
    }

    /// The chain parsed into a stack owning its certificates, or nil.
    private static func stack(_ chain: [[UInt8]]) -> OpaquePointer? {
        guard let stack = CNIOBoringSSLShims_sk_X509_new_null() else { return nil }
        for der in chain {
            guard let x509 = parse(der), CNIOBoringSSLShims_sk_X509_push(stack, x509) > 0 else {
                CNIOBoringSSLShims_sk_X509_pop_free(stack, X509_free)
                return nil
            }
        }
        return stack
    }
}

extension HostIdentity {
    /// The address's bytes when this is an IP address.
    fileprivate var ipBytes: [UInt8]? {
        if case .ipAddress(let bytes) = self { return bytes }
        return nil
    }
}
