import Foundation
import Testing
import TrustCore
@testable import TrustVectors

/// The catalogue is internally consistent and the committed manifest is its exact image.
@Suite struct CatalogueTests {
    let manifest: VectorManifest

    init() throws {
        manifest = try Catalogue.manifest(pin: VectorsFolder.pin, der: { name, keyType in try? VectorsFolder.certificate(name, keyType) })
    }

    @Test func idsAreUniqueAndFollowTheCaseSlashKeyTypeScheme() {
        let ids = manifest.vectors.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let parts = id.split(separator: "/")
            #expect(parts.count == 2 && KeyType(rawValue: String(parts[1])) != nil, "\(id)")
        }
    }

    @Test func everyKeyTypeCoversEveryCase() {
        var keyTypesByCase: [String: Set<String>] = [:]
        for id in manifest.vectors.map(\.id) {
            let parts = id.split(separator: "/").map(String.init)
            keyTypesByCase[parts[0], default: []].insert(parts[1])
        }
        #expect(keyTypesByCase.count == Catalogue.cases.count)
        for (name, keyTypes) in keyTypesByCase {
            #expect(keyTypes == Set(KeyType.allCases.map(\.rawValue)), "\(name)")
        }
    }

    @Test func committedManifestIsTheCatalogue() throws {
        let data = try FileProblem.contents(of: try VectorsFolder.committed().appendingPathComponent("manifest.json"))
        let committed = try JSONDecoder().decode(VectorManifest.self, from: data)
        #expect(committed == manifest)
        #expect(committed.policies?.isEmpty == false, "the policy vectors are written")
        #expect(data.last == 0x0A)
    }

    @Test func everyReferencedFileExists() throws {
        let folder = try VectorsFolder.committed()
        for entry in manifest.vectors {
            for path in entry.chain + entry.anchors + (entry.expected.path ?? []) {
                #expect(
                    FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path),
                    "\(entry.id): \(path)"
                )
            }
        }
    }

    @Test func expectationsAreWellFormed() {
        for entry in manifest.vectors {
            #expect(!entry.chain.isEmpty && !entry.anchors.isEmpty, "\(entry.id)")
            #expect(!entry.description.isEmpty && !entry.references.isEmpty, "\(entry.id)")
            if entry.expected.trusted {
                #expect(entry.expected.failures.isEmpty, "\(entry.id)")
                // No path only where two are valid and either answers (anchor-copy-of-intermediate-*).
                guard let path = entry.expected.path, let first = path.first, let last = path.last else {
                    if !entry.description.contains("Two paths are valid") { Issue.record("\(entry.id): trusted without a path") }
                    continue
                }
                #expect(first == entry.chain[0], "\(entry.id): the path starts at the leaf")
                #expect(entry.anchors.contains(last), "\(entry.id): the path ends at an anchor")
                #expect(Set(path).count == path.count, "\(entry.id): no certificate twice")
                for certificate in path.dropLast() {
                    #expect(entry.chain.contains(certificate), "\(entry.id): \(certificate) is not sent")
                }
            } else {
                #expect(entry.expected.path == nil, "\(entry.id)")
                #expect(!entry.expected.failures.isEmpty, "\(entry.id): a rejection needs a reason")
                #expect(entry.expected.failures == Array(Set(entry.expected.failures)).sorted(), "\(entry.id)")
            }
        }
    }

    @Test func everyFailureClassThatCertificatesCanCauseIsCovered() {
        let covered = Set(manifest.vectors.flatMap(\.expected.failures))
        let expected: Set<FailureClass> = [
            .expired, .notYetValid, .untrusted, .hostnameMismatch, .pathLengthExceeded, .notCA, .badSignature,
            .purposeMismatch,
        ]
        #expect(expected.isSubset(of: covered))
        #expect(manifest.vectors.contains { $0.expected.trusted })
    }

    @Test func validationTimeTextIsTheValidationTime() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        #expect(formatter.string(from: Catalogue.validationTime) == Catalogue.validationTimeText)
        #expect(manifest.vectors.allSatisfy { $0.time == Catalogue.validationTimeText })
        #expect((manifest.policies ?? []).allSatisfy { $0.time == Catalogue.validationTimeText })
    }

    @Test func hostsAndNamesAreReserved() {
        var names = manifest.vectors.compactMap(\.host) + (manifest.policies ?? []).compactMap(\.domain)
        for spec in Catalogue.certificates {
            guard case .minted(let minting) = spec.origin else { continue }
            for name in minting.profile.subjectAlternativeNames {
                switch name {
                case .dns(let dnsName), .ipAddress(let dnsName): names.append(dnsName)
                }
            }
        }
        for name in names {
            #expect(Self.isReserved(name), "\(name) is not under .test nor a documentation address")
        }
    }

    @Test func certificatesAreListedAfterTheirIssuers() {
        var seen = Set<String>()
        for spec in Catalogue.certificates {
            switch spec.origin {
            case .minted(let minting):
                if let issuer = minting.issuer { #expect(seen.contains(issuer), "\(spec.name) before \(issuer)") }
            case .flippedSignatureBit(let base):
                #expect(seen.contains(base), "\(spec.name) before \(base)")
            }
            seen.insert(spec.name)
        }
    }

    /// Under the `.test` TLD (RFC 6761 §6.2), or in 192.0.2.0/24 (RFC 5737) or 2001:db8::/32 (RFC 3849),
    /// or loopback (127.0.0.1, RFC 1122 §3.2.1.3; ::1, RFC 4291 §2.5.3): the connected-address cases
    /// name the address a real handshake on this machine connects to.
    private static func isReserved(_ name: String) -> Bool {
        if let octets = IPAddressParser.parse(name) {
            if octets == [127, 0, 0, 1] || octets == [UInt8](repeating: 0, count: 15) + [1] { return true }
            if octets.count == 4 { return octets.prefix(3) == [192, 0, 2] }
            return octets.prefix(4) == [0x20, 0x01, 0x0D, 0xB8]
        }
        let lowered = name.lowercased()
        return lowered == "example.test" || lowered.hasSuffix(".example.test")
    }
}
