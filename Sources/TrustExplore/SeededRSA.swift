import CGnuTLS

/// RSA keys derived from a seed, for the key slots ``RSAKeyPool`` does not hold: the same seed
/// gives the same key in every process, run and shard.
///
/// swift-crypto makes RSA keys only at random, and a key made at random once per process made the
/// mutants that need a slot beyond the pool (a pair that adds certificates to an RSA chain: a 21st
/// intermediate's sibling, an anchor added after twenty intermediates) differ between runs: two
/// 100,000-pair runs differed in 3 of 40,847 classes' anchors. GnuTLS generates RSA keys from a seed
/// (FIPS 186-4 provable primes, `GNUTLS_PRIVKEY_FLAG_PROVABLE` with a `GNUTLS_KEYGEN_SEED`), about
/// 0.15 s for 2048 bits; the key is exported as PKCS #1 DER for swift-crypto to sign with.
enum SeededRSA {
    /// The PKCS #1 RSAPrivateKey (DER) of `bits` derived from `seed`.
    static func privateKey(bits: Int, seed: [UInt8]) throws -> [UInt8] {
        var key: gnutls_privkey_t?
        try check(gnutls_privkey_init(&key), "gnutls_privkey_init")
        defer { gnutls_privkey_deinit(key) }
        var material = seed
        try material.withUnsafeMutableBufferPointer { buffer in
            var data = gnutls_keygen_data_st(type: GNUTLS_KEYGEN_SEED, data: buffer.baseAddress, size: UInt32(buffer.count))
            try check(gnutls_privkey_generate2(key, GNUTLS_PK_RSA, UInt32(bits), UInt32(GNUTLS_PRIVKEY_FLAG_PROVABLE.rawValue), &data, 1), "gnutls_privkey_generate2")
        }
        var x509: gnutls_x509_privkey_t?
        try check(gnutls_privkey_export_x509(key, &x509), "gnutls_privkey_export_x509")
        defer { gnutls_x509_privkey_deinit(x509) }
        var der = gnutls_datum_t(data: nil, size: 0)
        try check(gnutls_x509_privkey_export2(x509, GNUTLS_X509_FMT_DER, &der), "gnutls_x509_privkey_export2")
        defer { CGnuTLS_free(der.data) }
        guard let bytes = der.data, der.size > 0 else { throw GnuTLSCall.Failure(description: "seeded RSA: GnuTLS exported an empty key") }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(der.size)))
    }

    private static func check(_ result: Int32, _ call: String) throws {
        try GnuTLSCall.check(result, "seeded RSA", call)
    }
}
