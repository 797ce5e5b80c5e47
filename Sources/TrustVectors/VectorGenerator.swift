import Foundation
import SwiftASN1
import TrustCore
import X509
import TrustPolicy

/// Writes and checks the `Vectors/` folder: the certificates, keys and manifest the catalogue
/// describes.
///
/// Output is stable: keys are reused from an earlier folder, serial numbers and key identifiers are
/// derived, and a certificate whose TBSCertificate has not changed keeps its earlier (possibly
/// randomised ECDSA) signature. So regenerating an up-to-date folder changes no byte, and a change to
/// the catalogue changes exactly the files it affects.
public enum VectorGenerator {
    /// Writes the whole `Vectors/` content (certs, keys, manifest.json) for the catalogue into
    /// `directory`.
    ///
    /// Reuses the PEM PKCS#8 keys found under `keys/` in `reuse`, making new ones only where none
    /// exists, and reuses a certificate file from `reuse` when its TBSCertificate is byte-identical to
    /// the freshly built one and its signature verifies under the issuer key. With `reuse` nil every
    /// key and signature is new, and so is every `sha256/` pin of the policy vectors in the manifest.
    /// `directory` and `reuse` may be the same folder. Files under `certs/` and `keys/` that the
    /// catalogue does not describe are removed; anything else in `directory` (`deviations.json` above
    /// all) is never touched. Files whose content is already right are not rewritten.
    /// - Throws: ``VectorGeneratorError`` when a key file in `reuse` is unusable or a file cannot be
    ///   read or written; `directory` may then be partly written.
    public static func generate(into directory: URL, reusingFrom reuse: URL?) throws {
        let files = try render(reusingFrom: reuse)
        for path in files.keys.sorted() {
            try VectorFiles.write(files[path]!, to: path, in: directory)
        }
        for path in VectorFiles.generatedFiles(in: directory) where files[path] == nil {
            try VectorFiles.remove(path, in: directory)
        }
        if let explored = try exploredManifest(in: directory) {
            try VectorFiles.write(explored, to: VectorSuite.exploredManifestPath, in: directory)
        }
    }

    /// Regenerates reusing `directory` and returns every difference from what is there, one line per
    /// file (`missing: …`, `extra: …`, `differs: …`, paths relative to `directory`, sorted by path):
    /// empty when the committed set under `certs/`, `keys/` and `manifest.json` is exactly what the
    /// catalogue describes. Nothing is written; the regenerated content is compared in memory.
    /// - Throws: ``VectorGeneratorError`` when a key file is unusable or a file cannot be read.
    public static func check(_ directory: URL) throws -> [String] {
        var expected = try render(reusingFrom: directory)
        // The adopted vectors of this folder, with the Web PKI answers their certificates give.
        expected[VectorSuite.exploredManifestPath] = try exploredManifest(in: directory)
        let present = Set(VectorFiles.generatedFiles(in: directory))
        var differences: [(path: String, line: String)] = []
        for (path, data) in expected {
            guard let committed = try VectorFiles.readData(path, in: directory) else {
                differences.append((path, "missing: \(path)"))
                continue
            }
            if committed != data { differences.append((path, "differs: \(path)")) }
        }
        for path in present where expected[path] == nil {
            differences.append((path, "extra: \(path)"))
        }
        return differences.sorted { $0.path < $1.path }.map(\.line) + (try impactProblems(expected, in: directory))
    }

    /// Every decided answer of the manifests (the catalogue's and the adopted vectors') must have an
    /// impact for a departure either way, and every impact class its CWE and precedent
    /// (``ImpactCatalogue/problems(_:)``): one line each, `impact: …`. A missing catalogue is one.
    static func impactProblems(_ rendered: [String: Data], in directory: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(ImpactCatalogue.fileName).path) else {
            return ["impact: missing: \(ImpactCatalogue.fileName) (every departure needs an impact class)"]
        }
        let catalogue = try ImpactCatalogue.load(from: directory)
        var entries: [VectorEntry] = []
        var policies: [PolicyVectorEntry] = []
        for path in ["manifest.json", VectorSuite.exploredManifestPath] {
            guard let data = rendered[path] else { continue }
            let manifest = try JSONDecoder().decode(VectorManifest.self, from: data)
            entries += manifest.vectors
            policies += manifest.policies ?? []
        }
        return catalogue.problems(entries, policies: policies).map { "impact: \($0)" }
    }

    /// Every generated file by path relative to `Vectors/`.
    static func render(reusingFrom reuse: URL?) throws -> [String: Data] {
        try validateCatalogue()
        var files: [String: Data] = [:]
        var minted: [KeyType: [String: [UInt8]]] = [:]
        for keyType in KeyType.allCases {
            let keys = try KeyRing(keyType: keyType, names: Catalogue.keyNames, reusingFrom: reuse)
            for name in Catalogue.keyNames {
                files[Catalogue.keyPath(name, keyType)] = Data(try keys.pemFile(name).utf8)
            }
            var minter = CertificateMinter(keyType: keyType, keys: keys, validationTime: Catalogue.validationTime)
            for spec in Catalogue.certificates {
                let path = Catalogue.certificatePath(spec.name, keyType)
                var previous: Certificate?
                if case .minted = spec.origin, let reuse {
                    previous = try previousCertificate(path, in: reuse)
                }
                try minter.mint(spec, previous: previous)
                guard let der = minter.derEncodings[spec.name] else {
                    throw VectorGeneratorError.catalogue("\(spec.name) was not minted")
                }
                files[path] = Data(PEMText.encode(type: certificatePEMType, der: der).utf8)
            }
            minted[keyType] = minter.derEncodings
            let revocation = RevocationMinter(certificates: minter, keys: keys, validationTime: Catalogue.validationTime)
            for spec in Catalogue.crls {
                let path = Catalogue.crlPath(spec.name, keyType)
                let previous = try reuse.flatMap { try VectorFiles.readText(path, in: $0) }.flatMap { try? PEMDocument(pemString: $0) }.map(\.derBytes)
                files[path] = Data(PEMText.encode(type: "X509 CRL", der: try revocation.crl(spec, previous: previous)).utf8)
            }
            for spec in Catalogue.ocspResponses {
                let path = Catalogue.ocspPath(spec.name, keyType)
                let previous = try reuse.flatMap { try VectorFiles.readData(path, in: $0) }.map { [UInt8]($0) }
                files[path] = Data(try revocation.ocspResponse(spec, previous: previous))
            }
            if keyType == .ed25519 {
                // KeyType.allCases runs P-256 before Ed25519, so its leaf is minted by now.
                guard let leaf = minter.derEncodings["leaf"], let intermediate = minter.derEncodings["intermediate"],
                      let p256Leaf = minted[.p256]?["leaf"] else {
                    throw VectorGeneratorError.catalogue("the bad-input corpus needs the Ed25519 leaf and intermediate and the P-256 leaf")
                }
                files.merge(try BadInputFiles.render(leaf: leaf, intermediate: intermediate, intermediateKey: try keys.privateKey("intermediate"), p256Leaf: p256Leaf)) { $1 }
            }
        }
        files[VectorFiles.manifestPath] = try manifestData(pin: { name, keyType in
            guard let der = minted[keyType]?[name], let pin = SPKIPin.of(certificate: der) else {
                throw VectorGeneratorError.catalogue("no public key to pin in \(Catalogue.certificatePath(name, keyType))")
            }
            return pin
        }, der: { name, keyType in minted[keyType]?[name] })
        return files
    }

    /// The adopted vectors' manifest (`explored/manifest.json`) of `folder` with every Web PKI answer
    /// derived again from its certificates by ``WebPKIRules``, so that a change of the rules reaches
    /// every vector through `generate` and `generate --check` fails until it has; nil without one.
    static func exploredManifest(in folder: URL) throws -> Data? {
        guard let data = try VectorFiles.readData(VectorSuite.exploredManifestPath, in: folder) else { return nil }
        var manifest: VectorManifest
        do {
            manifest = try JSONDecoder().decode(VectorManifest.self, from: data)
        } catch {
            throw VectorGeneratorError.catalogue("\(VectorSuite.exploredManifestPath) is not a vector manifest: \(error)")
        }
        do {
            try manifest.deriveAnswers(in: folder) { _ in nil }
        } catch let problem as FileProblem {
            throw VectorGeneratorError.catalogue("\(problem) (named by \(VectorSuite.exploredManifestPath))")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(manifest) + Data("\n".utf8)
    }

    /// The manifest as written: pretty-printed, keys sorted, with a final newline.
    /// - Parameter pin: the pin of a certificate of the catalogue, for the policy vectors.
    static func manifestData(pin: (_ certificate: String, _ keyType: KeyType) throws -> SPKIPin, der: @escaping (_ certificate: String, _ keyType: KeyType) -> [UInt8]?) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(try Catalogue.manifest(pin: pin, der: der))
        data.append(0x0A)
        return data
    }

    private static let certificatePEMType = "CERTIFICATE"

    /// The certificate an earlier generation wrote at `path`, or nil when there is none or it cannot
    /// be parsed (it is then replaced, and ``check(_:)`` reports it as differing).
    private static func previousCertificate(_ path: String, in folder: URL) throws -> Certificate? {
        guard let text = try VectorFiles.readText(path, in: folder),
              let document = try? PEMDocument(pemString: text),
              document.discriminator == certificatePEMType
        else { return nil }
        return try? Certificate(derEncoded: document.derBytes)
    }

    /// Names are unique, and every case and policy case refers only to certificates the catalogue
    /// mints.
    private static func validateCatalogue() throws {
        var names = Set<String>()
        for spec in Catalogue.certificates where !names.insert(spec.name).inserted {
            throw VectorGeneratorError.catalogue("two certificates are named \(spec.name)")
        }
        var caseNames = Set<String>()
        for vectorCase in Catalogue.cases {
            guard caseNames.insert(vectorCase.name).inserted else {
                throw VectorGeneratorError.catalogue("two cases are named \(vectorCase.name)")
            }
            for name in vectorCase.certificateNames where !names.contains(name) {
                throw VectorGeneratorError.catalogue("case \(vectorCase.name) refers to an unknown certificate \(name)")
            }
        }
        var policyNames = Set<String>()
        for policyCase in PolicyCatalogue.cases {
            guard !policyCase.name.contains("/"), policyNames.insert(policyCase.name).inserted else {
                throw VectorGeneratorError.catalogue("policy case names are unique and without \"/\": \(policyCase.name)")
            }
            for name in policyCase.certificateNames where !names.contains(name) {
                throw VectorGeneratorError.catalogue("policy case \(policyCase.name) refers to an unknown certificate \(name)")
            }
        }
    }
}
