import SwiftASN1
import Testing
@testable import TrustVectors
import X509
import TrustDER

/// The strict DER check proved on generated cases: every committed vector, of every key type,
/// varied one BER form at a time (``BERMutant``), must be refused; swift-certificates (over
/// swift-asn1) reads the same variants as an independent parser.
@Suite struct DERCertificateMutantTests {
    /// The extensions swift-certificates decodes in ``swiftCertificatesAccepts(_:)``: basicConstraints,
    /// keyUsage, extKeyUsage, subjectAltName, subjectKeyIdentifier, authorityKeyIdentifier,
    /// nameConstraints, authorityInfoAccess.
    static let decodedBySwiftCertificates: Set<[UInt8]> = [
        [0x55, 0x1D, 0x13], [0x55, 0x1D, 0x0F], [0x55, 0x1D, 0x25], [0x55, 0x1D, 0x11], [0x55, 0x1D, 0x0E],
        [0x55, 0x1D, 0x23], [0x55, 0x1D, 0x1E], [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x01],
    ]

    /// The extensions of the vectors whose values the check leaves opaque: no schema here, no
    /// library decodes them (the catalogue's unregistered OIDs, under RFC 5612's documentation arc).
    static let opaqueInVectors: Set<String> = [CertificateMinter.unknownExtensionOID.description, CertificateMinter.unknownNonDERExtensionOID.description]

    /// Extensions of the vectors with a structure inside their value that the check reads and
    /// swift-certificates does not decode (it keeps the value as bytes): every kind of variant inside
    /// such a value goes unseen by swift-certificates, not only a long-form length or a trailing byte.
    /// The TLS feature extension (RFC 7633, `Features ::= SEQUENCE OF INTEGER`) of `ocsp-leaf-must-staple`.
    static let structuredButNotDecoded: Set<String> = ["2b 6 1 5 5 7 1 18"]

    /// Every variant is refused, except inside the value of an extension the check leaves opaque
    /// (``opaqueInVectors``), which is accepted (its OCTET STRING is still held to DER);
    /// swift-certificates refuses every one too, except inside the value of an extension it does
    /// not decode: `Certificate(derEncoded:)` keeps an extnValue as bytes, so a long-form length or
    /// a byte after the value there goes unseen (swift-asn1 refuses both wherever it parses).
    /// One key type's folder per case, so the cases run in parallel.
    @Test(arguments: KeyType.allCases.map(\.rawValue))
    func everyVariantOfEveryVectorIsRefusedExceptInsideOpaqueValues(keyType: String) throws {
        var count = 0
        var opaque = 0
        var missed: [String] = []
        var disagreements: [String: Set<BERMutant.Kind>] = [:]
        let vectors = try CertificateCorpus.vectors().filter { $0.name.hasPrefix(keyType + "/") }
        #expect(vectors.count > 40)
        for vector in vectors {
            #expect(Self.swiftCertificatesAccepts(vector.der), "swift-certificates refuses the vector \(vector.name)")
            let tree = try DERTree(vector.der[...])
            for mutant in try BERMutant.all(of: vector.der) {
                count += 1
                #expect(mutant.der != vector.der)
                // [0, extensions, 0, index, extnValue, ...]: inside which extension's value?
                let path = mutant.path
                let inExtension = path.count >= 5 && tree[[0, path[1]]].tag == 0xA3 && path[4] == tree[Array(path.prefix(4))].children!.count - 1
                let id = inExtension ? tree[Array(path.prefix(4)) + [0]].content : []
                // Inside the value (below the OCTET STRING, or bytes after the value in it).
                let inOpaqueValue = inExtension && Self.opaqueInVectors.contains(DERTree.dotted(id))
                    && (path.count > 5 || mutant.kind == .extensionTrailingByte)
                let problem = DERCertificate.encodingProblem(mutant.der)
                if inOpaqueValue {
                    opaque += 1
                    if let problem { missed.append("opaque value read: \(vector.name): \(mutant.kind.rawValue) at \(path): \(problem)") }
                } else if problem == nil {
                    missed.append("\(vector.name): \(mutant.kind.rawValue) at \(mutant.path)")
                }
                guard Self.swiftCertificatesAccepts(mutant.der) else { continue }
                if !inExtension || Self.decodedBySwiftCertificates.contains(id) {
                    missed.append("swift-certificates accepts \(vector.name): \(mutant.kind.rawValue) at \(path)")
                } else {
                    disagreements[id.map { String($0, radix: 16) }.joined(separator: " "), default: []].insert(mutant.kind)
                }
            }
        }
        #expect(count > 3_000)
        // The vectors' unknown extensions (a NULL, and 01 02 03 04) are varied too.
        #expect(opaque >= 6)
        #expect(missed.isEmpty, "\(missed.prefix(20))")
        #expect(disagreements.filter { !Self.structuredButNotDecoded.contains($0.key) }.values.allSatisfy { $0.isSubset(of: [.longFormLength, .extensionTrailingByte]) }, "\(disagreements)")
        #expect(Set(disagreements.keys).isSuperset(of: Self.structuredButNotDecoded), "the TLS feature extension's variants are no longer unseen by swift-certificates: \(disagreements)")
    }

    /// Every kind of variant is made from the vectors, so none of the rules goes untested.
    @Test func everyKindOfVariantIsMade() throws {
        var kinds = Set<BERMutant.Kind>()
        for name in ["certs/p256/leaf.pem", "certs/rsa2048/intermediate.pem", "certs/ed25519/leaf.pem"] {
            kinds.formUnion(try BERMutant.all(of: CertificateCorpus.vector(name)).map(\.kind))
        }
        #expect(kinds == Set(BERMutant.Kind.allCases))
    }

    /// Whether swift-certificates parses `der` and decodes each extension it knows.
    static func swiftCertificatesAccepts(_ der: [UInt8]) -> Bool {
        guard let certificate = try? Certificate(derEncoded: der) else { return false }
        let extensions = certificate.extensions
        do {
            _ = try extensions.basicConstraints
            _ = try extensions.keyUsage
            _ = try extensions.extendedKeyUsage
            _ = try extensions.subjectAlternativeNames
            _ = try extensions.subjectKeyIdentifier
            _ = try extensions.authorityKeyIdentifier
            _ = try extensions.nameConstraints
            _ = try extensions.authorityInformationAccess
            return true
        } catch {
            return false
        }
    }
}
