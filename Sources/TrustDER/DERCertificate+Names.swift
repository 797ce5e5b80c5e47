/// The two names of a certificate, as encoded.
extension DERCertificate {
    /// The complete DER encodings (tag and length included) of the issuer and subject Names of
    /// `der`, or nil when `der` does not have a certificate's shape with DER headers. The names are
    /// what a library's store finds certificates by (issuer candidates by subject, duplicates by
    /// issuer and serial number), so a back end whose library keeps certificates between calls can
    /// tell whether two requests could meet there.
    public static func names(_ der: [UInt8]) -> (issuer: ArraySlice<UInt8>, subject: ArraySlice<UInt8>)? {
        withTBSFields(der) { fields -> (Range<Int>, Range<Int>)? in
            guard (try? fields.next(0x02, "TBSCertificate.serialNumber")) != nil,
                  (try? fields.next(0x30, "TBSCertificate.signature")) != nil,
                  let issuer = try? fields.next(0x30, "TBSCertificate.issuer"),
                  (try? fields.next(0x30, "TBSCertificate.validity")) != nil,
                  let subject = try? fields.next(0x30, "TBSCertificate.subject") else { return nil }
            return (issuer.whole, subject.whole)
        }.map { (der[$0.0], der[$0.1]) }
    }

    /// `body` with a reader of the TBSCertificate's fields after the version, or nil when `der`
    /// does not have a certificate's outer shape with DER headers.
    static func withTBSFields<T>(_ der: [UInt8], _ body: (inout DERReader) -> T?) -> T? {
        der.withUnsafeBufferPointer { buffer -> T? in
            var reader = DERReader(buffer)
            guard let certificate = try? reader.next(0x30, "Certificate"), reader.atEnd else { return nil }
            var outer = reader.inside(certificate)
            guard let tbs = try? outer.next(0x30, "Certificate.tbsCertificate") else { return nil }
            var fields = outer.inside(tbs)
            if fields.peekTag == 0xA0 {
                guard (try? fields.next(0xA0, "TBSCertificate.version")) != nil else { return nil }
            }
            return body(&fields)
        }
    }
}
