/// An extension no schema in ``DERCertificate`` covers that a back end's library decodes while it
/// verifies a certificate: its value is held to the generic DER rules (exactly one element, DER
/// throughout), because BER there could be read one way by one library and another way (or not at
/// all) by the check and the others.
///
/// The value of any extension that is neither in this table nor given a schema by the check is
/// opaque: RFC 5280 §4.2 lets a verifier ignore a non-critical extension it does not recognise and
/// requires it to refuse a critical one, so no library reads those bytes, and only their OCTET
/// STRING wrapper is the certificate's encoding to check.
///
/// An extension is listed only on evidence that a library's verification path, as the back ends
/// call it and as their builds are configured, decodes the value; each entry names the library,
/// its version and the code. Left out on the same evidence: the SCT list
/// (1.3.6.1.4.1.11129.2.4.2; OpenSSL reads it only when libssl's CT validation is enabled, which
/// no back end does, GnuTLS only when built with `--enable-strict-x509`, which Debian's is not),
/// privateKeyUsagePeriod (2.5.29.16; GnuTLS only with `--enable-strict-x509`), BoringSSL's
/// Merkle Tree CA extension (1.3.6.1.4.1.44363.47.2; only with
/// `X509_V_FLAG_USE_MTC_DRAFT_PLANTS_05`, which swift-nio-ssl does not set), and the Netscape
/// comment (NSS prints it, never verifies with it).
struct InterpretedExtension {
    /// The extnID's content octets.
    let oid: [UInt8]
    /// The dotted form and name, for readers of this table.
    let name: StaticString
    /// Which libraries decode the value while verifying, and where (file and function).
    let decodedBy: StaticString

    /// Whether the OBJECT IDENTIFIER `id`, read by `reader`, is one of ``all``.
    static func contains(_ id: DERElement, in reader: DERReader) -> Bool {
        for entry in all where reader.matches(id, entry.oid) { return true }
        return false
    }

    static let all: [InterpretedExtension] = [
        InterpretedExtension(
            oid: [0x60, 0x86, 0x48, 0x01, 0x86, 0xF8, 0x42, 0x01, 0x01],
            name: "2.16.840.1.113730.1.1 Netscape certificate type",
            decodedBy: """
                OpenSSL 3.0.22 (crypto/x509/v3_purp.c ossl_x509v3_cache_extensions: ex_nscert, EXFLAG_INVALID when it \
                does not decode; ns_reject in the SSL server purpose); NSS 3.87 (lib/certdb/certdb.c \
                CERT_DecodeDERCertificate -> cert_GetCertType -> cert_ComputeCertType -> \
                CERT_FindNSCertTypeExtension); mbed TLS 2.28 (library/x509_crt.c x509_get_crt_ext -> \
                x509_get_ns_cert_type); wolfSSL 5.5.4 (wolfcrypt/src/asn.c DecodeExtensionType \
                NETSCAPE_CT_OID -> DecodeNsCertType)
                """
        ),
        InterpretedExtension(
            oid: [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x0E],
            name: "1.3.6.1.5.5.7.1.14 proxyCertInfo (RFC 3820)",
            decodedBy: """
                OpenSSL 3.0.22 (crypto/x509/v3_purp.c ossl_x509v3_cache_extensions: PROXY_CERT_INFO_EXTENSION, \
                EXFLAG_INVALID when it does not decode)
                """
        ),
        InterpretedExtension(
            oid: [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x07],
            name: "1.3.6.1.5.5.7.1.7 ipAddrBlocks (RFC 3779)",
            decodedBy: """
                OpenSSL 3.0.22 built with RFC 3779 (as Debian's is) (crypto/x509/v3_purp.c \
                ossl_x509v3_cache_extensions: rfc3779_addr; crypto/x509/x509_vfy.c verify_chain -> \
                X509v3_addr_validate_path)
                """
        ),
        InterpretedExtension(
            oid: [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x08],
            name: "1.3.6.1.5.5.7.1.8 autonomousSysIds (RFC 3779)",
            decodedBy: """
                OpenSSL 3.0.22 built with RFC 3779 (crypto/x509/v3_purp.c ossl_x509v3_cache_extensions: \
                rfc3779_asid; crypto/x509/x509_vfy.c verify_chain -> X509v3_asid_validate_path)
                """
        ),
        InterpretedExtension(
            oid: [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x18],
            name: "1.3.6.1.5.5.7.1.24 TLS feature (RFC 7633)",
            decodedBy: """
                GnuTLS 3.7.9 (lib/x509/verify.c verify_crt: gnutls_x509_crt_get_tlsfeatures of each \
                issuer, gnutls_x509_tlsfeatures_check_crt of the certificate it issued)
                """
        ),
        InterpretedExtension(
            oid: [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x05],
            name: "1.3.6.1.5.5.7.48.1.5 OCSP no-check (RFC 6960 §4.2.2.2.1)",
            decodedBy: """
                wolfSSL 5.5.4 with HAVE_OCSP (as Debian's --enable-distro is) (wolfcrypt/src/asn.c \
                DecodeExtensionType OCSP_NOCHECK_OID -> GetASNNull: the certificate does not parse \
                when it fails)
                """
        ),
        InterpretedExtension(
            oid: [0x55, 0x1D, 0x09],
            name: "2.5.29.9 subjectDirectoryAttributes (RFC 5280 §4.2.1.8)",
            decodedBy: """
                wolfSSL 5.5.4 with WOLFSSL_SUBJ_DIR_ATTR (as Debian's --enable-distro is) \
                (wolfcrypt/src/asn.c DecodeExtensionType SUBJ_DIR_ATTR_OID -> DecodeSubjDirAttr: the \
                certificate does not parse when it fails)
                """
        ),
    ]
}
