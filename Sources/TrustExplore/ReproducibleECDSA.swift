import CGnuTLS

/// ECDSA signatures whose nonce is derived from the key and the message (RFC 6979), so the same
/// key, hash and data give the same signature bytes in every run, shard and process.
///
/// swift-crypto draws the nonce at random and has no deterministic mode, and OpenSSL 3.0 (Debian
/// 12's) has none either; GnuTLS has had one since 3.6.10 (`GNUTLS_PRIVKEY_FLAG_REPRODUCIBLE`). The
/// test checks it against RFC 6979's own vectors (A.2.5). A key is imported for each signature, so
/// no GnuTLS object is shared between tasks (GnuTLS objects are not safe to use from two threads at
/// once); the explorer signs few ECDSA mutants, so the import costs little.
enum ReproducibleECDSA {
    enum Curve: Sendable {
        case p256, p384

        var gnutls: gnutls_ecc_curve_t {
            switch self {
            case .p256: return GNUTLS_ECC_CURVE_SECP256R1
            case .p384: return GNUTLS_ECC_CURVE_SECP384R1
            }
        }

        /// The length in bytes of a scalar and of each coordinate.
        var size: Int { self == .p256 ? 32 : 48 }
    }

    /// The DER Ecdsa-Sig-Value over `digest` (made with `hash`) by the private scalar `scalar`, whose
    /// public point is `point` (the uncompressed x || y, without the 0x04 prefix).
    static func sign(digest: [UInt8], hash: SigningKey.Hash, curve: Curve, scalar: [UInt8], point: [UInt8]) throws -> [UInt8] {
        guard scalar.count == curve.size, point.count == 2 * curve.size else {
            throw GnuTLSCall.Failure(description: "reproducible ECDSA: a \(curve) key needs a \(curve.size)-byte scalar and a \(2 * curve.size)-byte point, not \(scalar.count) and \(point.count)")
        }
        var key: gnutls_privkey_t?
        try check(gnutls_privkey_init(&key), "gnutls_privkey_init")
        defer { gnutls_privkey_deinit(key) }
        var x = Array(point.prefix(curve.size)), y = Array(point.suffix(curve.size)), k = scalar, h = digest
        try x.withUnsafeMutableBufferPointer { x in
            try y.withUnsafeMutableBufferPointer { y in
                try k.withUnsafeMutableBufferPointer { k in
                    var xd = gnutls_datum_t(data: x.baseAddress, size: UInt32(x.count))
                    var yd = gnutls_datum_t(data: y.baseAddress, size: UInt32(y.count))
                    var kd = gnutls_datum_t(data: k.baseAddress, size: UInt32(k.count))
                    try check(gnutls_privkey_import_ecc_raw(key, curve.gnutls, &xd, &yd, &kd), "gnutls_privkey_import_ecc_raw")
                }
            }
        }
        return try h.withUnsafeMutableBufferPointer { h in
            var hd = gnutls_datum_t(data: h.baseAddress, size: UInt32(h.count))
            var signature = gnutls_datum_t(data: nil, size: 0)
            try check(gnutls_privkey_sign_hash2(key, algorithm(hash), UInt32(GNUTLS_PRIVKEY_FLAG_REPRODUCIBLE.rawValue), &hd, &signature), "gnutls_privkey_sign_hash2")
            defer { CGnuTLS_free(signature.data) }
            guard let data = signature.data, signature.size > 0 else {
                throw GnuTLSCall.Failure(description: "reproducible ECDSA: gnutls_privkey_sign_hash2 succeeded with no signature")
            }
            return Array(UnsafeBufferPointer(start: data, count: Int(signature.size)))
        }
    }

    private static func algorithm(_ hash: SigningKey.Hash) -> gnutls_sign_algorithm_t {
        switch hash {
        case .sha1: return GNUTLS_SIGN_ECDSA_SHA1
        case .sha256: return GNUTLS_SIGN_ECDSA_SHA256
        case .sha384: return GNUTLS_SIGN_ECDSA_SHA384
        case .sha512: return GNUTLS_SIGN_ECDSA_SHA512
        }
    }

    private static func check(_ result: Int32, _ call: String) throws {
        try GnuTLSCall.check(result, "reproducible ECDSA", call)
    }
}

/// A GnuTLS call of the explorer's signers (``ReproducibleECDSA``, ``SeededRSA``): a negative result
/// is an error naming the signer, the call and GnuTLS's reason.
enum GnuTLSCall {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func check(_ result: Int32, _ signer: String, _ call: String) throws {
        guard result >= 0 else {
            throw Failure(description: "\(signer): \(call) failed: \(String(cString: gnutls_strerror(result)))")
        }
    }
}
