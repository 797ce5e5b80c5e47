import Crypto
import Foundation
import SwiftASN1
import X509

/// Signs the catalogue's CRLs and OCSP responses for one key type, with the keys and certificates
/// a ``CertificateMinter`` has minted. Everything but an ECDSA signature is a function of the spec,
/// the certificates and the keys, so a file an earlier generation wrote is kept when it differs
/// from the fresh one in its signature value alone (as certificates are), which keeps regeneration
/// stable.
package struct RevocationMinter {
    /// The certificates by catalogue name, their DER, and the key name of each.
    let certificates: [String: Certificate]
    let derEncodings: [String: [UInt8]]
    let keyNames: [String: String]
    let keyType: KeyType
    let keys: KeyRing
    let validationTime: Date

    /// Signs with what `minter` has minted.
    init(certificates minter: CertificateMinter, keys: KeyRing, validationTime: Date) {
        self.init(certificates: minter.certificates, derEncodings: minter.derEncodings, keyNames: minter.keyNames, keyType: minter.keyType, keys: keys, validationTime: validationTime)
    }

    init(certificates: [String: Certificate], derEncodings: [String: [UInt8]], keyNames: [String: String], keyType: KeyType, keys: KeyRing, validationTime: Date) {
        self.certificates = certificates
        self.derEncodings = derEncodings
        self.keyNames = keyNames
        self.keyType = keyType
        self.keys = keys
        self.validationTime = validationTime
    }

    /// A current CRL of the catalogue's `intermediate` (of the key type named `name`, `p256`, read with its key from the
    /// vectors folder `folder`) listing `entries` serial numbers no certificate of the catalogue has
    /// (the first 16 octets of SHA-256 over `filler-N`, top bit cleared) and not the leaf: what
    /// `bench --revocation` checks the `leaf` against, a CRL the size of a large CA's. DER.
    /// - Throws: when the certificate or key cannot be read, or signing fails.
    package static func largeIntermediateList(in folder: URL, keyType name: String, entries: Int) throws -> [UInt8] {
        guard let keyType = KeyType(rawValue: name) else { throw VectorGeneratorError.catalogue("no key type \(name)") }
        let keys = try KeyRing(keyType: keyType, names: ["intermediate"], reusingFrom: folder)
        let path = Catalogue.certificatePath("intermediate", keyType)
        guard let text = try VectorFiles.readText(path, in: folder), let document = try? PEMDocument(pemString: text) else {
            throw VectorGeneratorError.catalogue("\(path) is not in \(folder.path)")
        }
        let intermediate = try Certificate(derEncoded: document.derBytes)
        let minter = RevocationMinter(certificates: ["intermediate": intermediate], derEncodings: ["intermediate": document.derBytes],
                                      keyNames: ["intermediate": "intermediate"], keyType: keyType, keys: keys, validationTime: Catalogue.validationTime)
        return try minter.crl(CRLSpec(name: "large", issuer: "intermediate", filler: entries), previous: nil)
    }

    // MARK: - CRLs

    /// The DER CertificateList of `spec` (RFC 5280 §5.1), or `previous` when only its signature differs.
    func crl(_ spec: CRLSpec, previous: [UInt8]?) throws -> [UInt8] {
        let issuer = try certificate(spec.issuer)
        var extensions: [DERTree] = [
            // authorityKeyIdentifier (§5.2.1): the issuer's key identifier, as its certificates carry.
            DERBuilder.extensionField("2.5.29.35", value: DERBuilder.sequence([.primitive(0x80, try subjectKeyIdentifier(of: issuer, name: spec.issuer))])),
            // cRLNumber (§5.2.3).
            DERBuilder.extensionField("2.5.29.20", value: DERBuilder.integer(spec.number)),
        ]
        if let scope = spec.scope {
            // IssuingDistributionPoint ::= SEQUENCE { onlyContainsUserCerts [1] IMPLICIT BOOLEAN, onlyContainsCACerts [2] ... }
            let flag: DERTree = scope == .onlyUserCertificates ? .primitive(0x81, [0xFF]) : .primitive(0x82, [0xFF])
            extensions.append(DERBuilder.extensionField("2.5.29.28", critical: true, value: DERBuilder.sequence([flag])))
        }
        if spec.unknownCriticalExtension {
            extensions.append(DERBuilder.extensionField("1.3.6.1.4.1.32473.1", critical: true, value: DERBuilder.null))
        }
        var tbs: [DERTree] = [
            DERBuilder.integer(1),  // v2
            try signatureAlgorithm(of: issuer),
            try DERTree(ArraySlice(serialized(issuer.subject))),
            DERBuilder.time(validationTime + spec.thisUpdate),
            DERBuilder.time(validationTime + spec.nextUpdate),
        ]
        if !spec.revoked.isEmpty || spec.filler > 0 {
            let filler = (0..<spec.filler).map { index -> DERTree in
                var serial = Array(SHA256.hash(data: Data("filler-\(index)".utf8)).prefix(16))
                serial[0] &= 0x7F
                // DER: no leading zero octet unless the next one's top bit needs it (X.690 8.3.2).
                while serial.count > 1 && serial[0] == 0 && serial[1] & 0x80 == 0 { serial.removeFirst() }
                return DERBuilder.sequence([DERBuilder.integer(bytes: serial), DERBuilder.time(validationTime + spec.thisUpdate - 86_400)])
            }
            tbs.append(DERBuilder.sequence(filler + (try spec.revoked.map { entry in
                let revoked = try certificate(entry.certificate)
                var fields: [DERTree] = [
                    DERBuilder.integer(bytes: Array(revoked.serialNumber.bytes)),
                    DERBuilder.time(validationTime + spec.thisUpdate - 86_400),
                ]
                if let reason = entry.reason {
                    fields.append(DERBuilder.sequence([DERBuilder.extensionField("2.5.29.21", value: DERBuilder.enumerated(reason.rawValue))]))
                }
                return DERBuilder.sequence(fields)
            })))
        }
        tbs.append(DERBuilder.tagged(0, [DERBuilder.sequence(extensions)]))
        let body = DERBuilder.sequence(tbs)
        let signed = DERBuilder.sequence([body, try signatureAlgorithm(of: issuer), try signature(over: body.encoded, by: spec.signer ?? spec.issuer)]).encoded
        return Self.keep(previous, fresh: signed) { try DERTree(ArraySlice($0)).children?.prefix(2).map(\.encoded) }
    }

    // MARK: - OCSP

    /// The DER OCSPResponse of `spec` (RFC 6960 §4.2.1), or `previous` when only its signature differs.
    func ocspResponse(_ spec: OCSPSpec, previous: [UInt8]?) throws -> [UInt8] {
        let subject = try certificate(spec.certificate)
        let issuer = try certificate(spec.issuer)
        let responder = try certificate(spec.responder)
        // CertID (§4.1.1): SHA-1 of the issuer's name and of its public key's BIT STRING value.
        let issuerName = try serialized(issuer.subject)
        let certID = DERBuilder.sequence([
            DERBuilder.sequence([DERBuilder.oid("1.3.14.3.2.26"), DERBuilder.null]),
            .primitive(0x04, Array(Insecure.SHA1.hash(data: issuerName))),
            .primitive(0x04, Array(Insecure.SHA1.hash(data: try publicKeyBits(of: spec.issuer)))),
            DERBuilder.integer(bytes: Array(subject.serialNumber.bytes)),
        ])
        let status: DERTree
        switch spec.status {
        case .good:
            status = .primitive(0x80, [])
        case .revoked(let reason):
            // RevokedInfo ::= SEQUENCE { revocationTime, revocationReason [0] EXPLICIT CRLReason OPTIONAL }, IMPLICIT [1].
            var info: [DERTree] = [DERBuilder.generalizedTime(validationTime + spec.thisUpdate - 86_400)]
            if let reason { info.append(DERBuilder.tagged(0, [DERBuilder.enumerated(reason.rawValue)])) }
            status = DERBuilder.tagged(1, info)
        case .unknown:
            status = .primitive(0x82, [])
        }
        var single: [DERTree] = [certID, status, DERBuilder.generalizedTime(validationTime + spec.thisUpdate)]
        if let next = spec.nextUpdate { single.append(DERBuilder.tagged(0, [DERBuilder.generalizedTime(validationTime + next)])) }
        let responseData = DERBuilder.sequence([
            // responderID byName [1] EXPLICIT Name; version v1 is the default and omitted.
            DERBuilder.tagged(1, [try DERTree(ArraySlice(serialized(responder.subject)))]),
            DERBuilder.generalizedTime(validationTime + min(spec.thisUpdate, 0)),
            DERBuilder.sequence([DERBuilder.sequence(single)]),
        ])
        var basic: [DERTree] = [responseData, try signatureAlgorithm(of: responder), try signature(over: responseData.encoded, by: spec.signer ?? spec.responder)]
        if spec.responder != spec.issuer {
            // A delegated responder's certificate goes with the response (§4.2.2.2).
            basic.append(DERBuilder.tagged(0, [DERBuilder.sequence([try DERTree(ArraySlice(der(spec.responder)))])]))
        }
        let response = DERBuilder.sequence([
            DERBuilder.enumerated(0),  // successful
            DERBuilder.tagged(0, [DERBuilder.sequence([DERBuilder.oid("1.3.6.1.5.5.7.48.1.1"), .primitive(0x04, DERBuilder.sequence(basic).encoded)])]),
        ])
        return Self.keep(previous, fresh: response.encoded) { bytes in
            // Everything of the BasicOCSPResponse but its signature value.
            guard let wrapper = try DERTree(ArraySlice(bytes)).children?.last?.children?.first?.children?.last,
                  let inner = try DERTree(ArraySlice(wrapper.content)).children else { return nil }
            return inner.enumerated().filter { $0.offset != 2 }.map(\.element.encoded)
        }
    }

    // MARK: - Parts

    private func certificate(_ name: String) throws -> Certificate {
        guard let certificate = certificates[name] else {
            throw VectorGeneratorError.catalogue("revocation data names \(name), which is not a minted certificate of the catalogue")
        }
        return certificate
    }

    private func der(_ name: String) throws -> [UInt8] {
        guard let der = derEncodings[name] else {
            throw VectorGeneratorError.catalogue("revocation data names \(name), which the catalogue has not minted")
        }
        return der
    }

    private func serialized<Value: DERSerializable>(_ value: Value) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(value)
        return serializer.serializedBytes
    }

    /// The issuer certificate's signatureAlgorithm element, as its own certificates carry it.
    private func signatureAlgorithm(of certificate: Certificate) throws -> DERTree {
        let encoded = try DERTree(ArraySlice(serialized(certificate)))
        guard let algorithm = encoded.children?.dropFirst().first else {
            throw VectorGeneratorError.catalogue("a minted certificate has no signatureAlgorithm")
        }
        return algorithm
    }

    /// The value of the subjectPublicKey BIT STRING (without its unused-bits octet) of `name`.
    private func publicKeyBits(of name: String) throws -> [UInt8] {
        let tree = try DERTree(ArraySlice(der(name)))
        guard let tbs = tree.children?.first?.children, tbs.count > 6, let bits = tbs[6].children?.last, bits.tag == 0x03 else {
            throw VectorGeneratorError.catalogue("\(name) has no subjectPublicKeyInfo where a v3 certificate has it")
        }
        return Array(bits.content.dropFirst())
    }

    private func subjectKeyIdentifier(of certificate: Certificate, name: String) throws -> [UInt8] {
        guard let identifier = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier else {
            throw VectorGeneratorError.catalogue("\(name) has no subjectKeyIdentifier to name it by")
        }
        return Array(identifier)
    }

    /// The signature BIT STRING over `bytes` by the key of certificate `name`.
    private func signature(over bytes: [UInt8], by name: String) throws -> DERTree {
        guard let keyName = keyNames[name] else {
            throw VectorGeneratorError.catalogue("revocation data is signed by \(name), which is not a minted certificate of the catalogue")
        }
        let key = try keys.privateKey(keyName)
        let signature = try key.sign(bytes: bytes, signatureAlgorithm: keyType.signatureAlgorithm)
        return .primitive(0x03, [0] + signature.rawRepresentation)
    }

    /// `previous` when `unsigned` (the signed data and everything else but the signature value)
    /// gives the same for both, else `fresh`.
    private static func keep(_ previous: [UInt8]?, fresh: [UInt8], unsigned: ([UInt8]) throws -> [[UInt8]]?) -> [UInt8] {
        guard let previous, let old = try? unsigned(previous), let new = try? unsigned(fresh), old == new else { return fresh }
        return previous
    }
}
