import Crypto
import _CryptoExtras
import Foundation
import Testing
@testable import TrustExplore

/// The explorer's ECDSA signatures are RFC 6979's: checked against the RFC's own vectors, so a
/// GnuTLS that ignored the reproducible flag (random nonces) or derived its nonce otherwise fails.
struct ReproducibleECDSATests {
    private static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
    }

    /// DER Ecdsa-Sig-Value of r and s (each an unsigned big-endian integer).
    private static func der(r: String, s: String) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.first.map({ $0 >= 0x80 }) ?? true { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(hex(r)) + integer(hex(s))
        return [0x30, UInt8(body.count)] + body
    }

    private static let message = Array("sample".utf8)

    @Test("P-256 signatures are RFC 6979 A.2.5's, for SHA-1, SHA-256 and SHA-512")
    func p256() throws {
        let scalar = Self.hex("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721")
        let point = Self.hex("60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6" + "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299")
        let cases: [(SigningKey.Hash, [UInt8], String, String)] = [
            (.sha1, Array(Insecure.SHA1.hash(data: Self.message)),
             "61340C88C3AAEBEB4F6D667F672CA9759A6CCAA9FA8811313039EE4A35471D32", "6D7F147DAC089441BB2E2FE8F7A3FA264B9C475098FDCF6E00D7C996E1B8B7EB"),
            (.sha256, Array(SHA256.hash(data: Self.message)),
             "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716", "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
            (.sha512, Array(SHA512.hash(data: Self.message)),
             "8496A60B5E9B47C825488827E0495B0E3FA109EC4568FD3F8D1097678EB97F00", "2362AB1ADBE2B8ADF9CB9EDAB740EA6049C028114F2460F96554F61FAE3302FE"),
        ]
        for (hash, digest, r, s) in cases {
            let signature = try ReproducibleECDSA.sign(digest: digest, hash: hash, curve: .p256, scalar: scalar, point: point)
            #expect(signature == Self.der(r: r, s: s), "\(hash)")
        }
    }

    @Test("P-384 signatures are RFC 6979 A.2.6's for SHA-384")
    func p384() throws {
        let scalar = Self.hex("6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D896D5724E4C70A825F872C9EA60D2EDF5")
        let point = Self.hex("EC3A4E415B4E19A4568618029F427FA5DA9A8BC4AE92E02E06AAE5286B300C64DEF8F0EA9055866064A254515480BC13"
            + "8015D9B72D7D57244EA8EF9AC0C621896708A59367F9DFB9F54CA84B3F1C9DB1288B231C3AE0D4FE7344FD2533264720")
        let signature = try ReproducibleECDSA.sign(digest: Array(SHA384.hash(data: Self.message)), hash: .sha384, curve: .p384, scalar: scalar, point: point)
        #expect(signature == Self.der(
            r: "94EDBB92A5ECB8AAD4736E56C691916B3F88140666CE9FA73D64C4EA95AD133C81A648152E44ACF96E36DD1E80FABE46",
            s: "99EF4AEB15F178CEA1FE40DB2603138F130E740A19624526203B6351D0A3A94FA329C145786E679E7B82C71A38628AC8"))
    }

    @Test("The explorer's ECDSA keys sign the same bytes twice, and swift-crypto verifies them")
    func signingKeysAreDeterministic() throws {
        let tbs = Array("a TBSCertificate stands here".utf8)
        for kind in [SigningKey.Kind.p256, .p384] {
            let key = try SigningKey(kind: kind, seed: 7, slot: 3)
            for hash in [SigningKey.Hash.sha256, .sha384] {
                let first = try key.sign(tbs, hash: hash), second = try key.sign(tbs, hash: hash)
                #expect(first == second, "\(kind) \(hash)")
                let digest: any Digest = hash == .sha256 ? SHA256.hash(data: tbs) : SHA384.hash(data: tbs)
                switch kind {
                case .p256:
                    let publicKey = try P256.Signing.PublicKey(derRepresentation: key.spki)
                    #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: first), for: digest), "\(kind) \(hash)")
                default:
                    let publicKey = try P384.Signing.PublicKey(derRepresentation: key.spki)
                    #expect(publicKey.isValidSignature(try P384.Signing.ECDSASignature(derRepresentation: first), for: digest), "\(kind) \(hash)")
                }
            }
        }
    }

    @Test("A key of the wrong size is refused, not signed with")
    func wrongSizes() {
        #expect(throws: GnuTLSCall.Failure.self) {
            try ReproducibleECDSA.sign(digest: Array(repeating: 1, count: 32), hash: .sha256, curve: .p384, scalar: Array(repeating: 1, count: 32), point: Array(repeating: 1, count: 64))
        }
    }
}

/// RSA keys for the slots beyond the committed pool are derived from the slot (GnuTLS's provable
/// generation from a seed), so a mutant that needs one has the same bytes in every process.
struct SeededRSATests {
    @Test("The same seed gives the same key, another seed another, and the key signs")
    func seededKeys() throws {
        let seed = Array(repeating: UInt8(7), count: 28)
        let first = try SeededRSA.privateKey(bits: 2048, seed: seed)
        #expect(try SeededRSA.privateKey(bits: 2048, seed: seed) == first)
        #expect(try SeededRSA.privateKey(bits: 2048, seed: Array(repeating: 8, count: 28)) != first)
        let key = try _RSA.Signing.PrivateKey(unsafeDERRepresentation: first)
        #expect(key.keySizeInBits == 2048)
        let digest = SHA256.hash(data: Array("tbs".utf8))
        #expect(key.publicKey.isValidSignature(try key.signature(for: digest, padding: .insecurePKCS1v1_5), for: digest, padding: .insecurePKCS1v1_5))
    }

    /// Pinned: a slot beyond the pool has this key on every machine. A GnuTLS that derived it
    /// otherwise would change the bytes of RSA mutants between machines; this says so.
    @Test("A slot beyond the pool has its pinned key")
    func slotBeyondThePool() throws {
        #expect(RSAKeyPool.keys[2048]?[77] == nil)
        let key = try SigningKey(kind: .rsa2048, seed: 1, slot: 77)
        #expect(try SigningKey(kind: .rsa2048, seed: 2, slot: 77).spki == key.spki, "RSA keys do not depend on the run's seed")
        let pin = SHA256.hash(data: key.spki).map { String(format: "%02x", $0) }.joined()
        #expect(pin == "9fa090f108536f1055d45ecb530183a099733036879cead136d51d964c195a30")  // GnuTLS 3.7.9, checked with its C API directly
    }
}
