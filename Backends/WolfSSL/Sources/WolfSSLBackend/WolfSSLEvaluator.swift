import Foundation
import TrustBackendKit
internal import CWolfSSLBridge

/// Evaluates requests against one set of anchors with wolfSSL (see ``WolfSSLBackend``). Holds only
/// DER: every evaluation makes its own certificate manager, so evaluators share no wolfSSL object and
/// may run on any number of tasks at once (wolfSSL's process-wide state, its initialisation and the
/// time callback, is set once, and the time itself is per thread).
struct WolfSSLEvaluator: TrustEvaluator {
    let backend: String
    let anchors: [[UInt8]]
    let features: Set<BackendFeature>

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // The guard has refused requests no library can be asked and features this back end does
        // not honour; the bytes and the host are the library's to read.
        let host = request.host.map { WolfSSLHost($0) }
        // CRL checking is wolfSSL's one mode, hard-fail: on with CRLs or when hard-fail is asked
        // (the preflight has refused soft-fail).
        let checkCRLs: Int32 = !request.revocationLists.isEmpty || request.revocationMode == .hardFail ? 1 : 0
        var outcome = cwolfssl_outcome()
        withCBufferArrays(anchors) { anchorPointers, anchorLengths in
            withCBufferArrays(request.chain) { chainPointers, chainLengths in
                withCBufferArrays(request.revocationLists) { crlPointers, crlLengths in
                    withUnsafeMutablePointer(to: &outcome) { outcomePointer in
                        let anyPurpose: Int32 = request.purpose == .anyPurpose ? 1 : 0
                        if let host {
                            host.text.withCString { cwolfssl_verify(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, request.chain.count, crlPointers, crlLengths, request.revocationLists.count, checkCRLs, $0, host.isAddress ? 1 : 0, request.unixTime, anyPurpose, outcomePointer) }
                        } else {
                            cwolfssl_verify(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, request.chain.count, crlPointers, crlLengths, request.revocationLists.count, checkCRLs, nil, 0, request.unixTime, anyPurpose, outcomePointer)
                        }
                    }
                }
            }
        }
        return verdict(outcome, request: request)
    }

    private func verdict(_ outcome: cwolfssl_outcome, request: EvaluationRequest) -> Verdict {
        let count = Int(outcome.count)
        let codes = withUnsafeBytes(of: outcome.codes) { Array($0.bindMemory(to: Int32.self).prefix(count)) }
        let stages = withUnsafeBytes(of: outcome.stages) { Array($0.bindMemory(to: Int32.self).prefix(count)) }
        let indices = withUnsafeBytes(of: outcome.indices) { Array($0.bindMemory(to: Int32.self).prefix(count)) }
        if outcome.trusted == 1 {
            let steps = withUnsafeBytes(of: outcome.path) { Array($0.bindMemory(to: Int32.self).prefix(Int(outcome.path_count))) }
            let path = steps.map { step in step >= 0 ? request.chain[Int(step)] : anchors[Int(-1 - step)] }
            return .trusted(path: path)
        }
        // An anchor wolfSSL would not load (one it cannot decode) explains a missing
        // signer; beside any other rejection it is no part of the answer.
        let missingSigner = codes.contains { cwolfssl_error_class($0) == 3 }
        // A certificate wolfSSL refused to take as a signer leaves the one below it without one
        // (ASN_NO_SIGNER_E): that is its consequence, reported once, at the refused certificate.
        let refusedAbove = (0..<count).filter { (stages[$0] == CWOLFSSL_STAGE_VERIFY || stages[$0] == CWOLFSSL_STAGE_ADD_CA) && indices[$0] > 0 }.map { Int(indices[$0]) }.max()
        var diagnostics: [NativeDiagnostic] = []
        for i in 0..<count {
            if stages[i] == CWOLFSSL_STAGE_ANCHOR && !missingSigner { continue }
            if let refusedAbove, stages[i] == CWOLFSSL_STAGE_VERIFY, cwolfssl_error_class(codes[i]) == 3, Int(indices[i]) < refusedAbove { continue }
            diagnostics.append(Self.diagnostic(code: codes[i], stage: stages[i], index: Int(indices[i])))
        }
        if diagnostics.isEmpty {
            return .failClosed(.other, name: "WOLFSSL_UNEXPLAINED", message: "wolfSSL did not trust the chain but reported no error; not trusted", origin: .library, inferred: true)
        }
        return .rejected(diagnostics)
    }

    private static func diagnostic(code: Int32, stage: Int32, index: Int) -> NativeDiagnostic {
        let error = WolfSSLError(code: code)
        let depth: Int? = stage == CWOLFSSL_STAGE_ANCHOR || stage == CWOLFSSL_STAGE_CRL_LOAD || index < 0 ? nil : index
        switch stage {
        case Int32(CWOLFSSL_STAGE_ANCHOR):
            return NativeDiagnostic(code: Int(code), name: error.name, message: "wolfSSL refused to load anchor \(index) as a CA (wolfSSL_CertManagerLoadCABuffer): \(error.text)", depth: nil, failure: error.failure(depth: nil))
        case Int32(CWOLFSSL_STAGE_MESSAGE):
            let limit = code == -368 ? "more than MAX_CHAIN_DEPTH (9) certificates" : "a certificate list over MAX_CERTIFICATE_SZ (18,462 bytes)"
            return NativeDiagnostic(code: Int(code), name: error.name, message: "the presented chain has \(limit), which wolfSSL's TLS client refuses in a Certificate message (ProcessPeerCerts): \(error.text)", depth: depth, failure: .other)
        case Int32(CWOLFSSL_STAGE_ADD_CA):
            return NativeDiagnostic(code: Int(code), name: error.name, message: "presented certificate \(index) verified but wolfSSL would not add it as a signer (AddCA, WOLFSSL_CHAIN_CA: a CA that is not self-issued needs keyUsage with keyCertSign): \(error.text)", depth: depth, failure: error.failure(depth: depth))
        case Int32(CWOLFSSL_STAGE_PURPOSE):
            return NativeDiagnostic(code: Int(code), name: error.name, message: "the leaf is not for a TLS server as wolfSSL's client checks it (ProcessPeerCerts): \(error.text)", depth: 0, failure: .purposeMismatch)
        case Int32(CWOLFSSL_STAGE_HOST) where code == CWOLFSSL_HOST_UNAVAILABLE:
            return NativeDiagnostic(code: Int(code), name: error.name, message: "wolfSSL verified the leaf but its host check cannot be called on it: wolfSSL_X509_check_host and wolfSSL_X509_check_ip_asc take a WOLFSSL_X509, and wolfSSL_X509_d2i makes none of an Ed25519 certificate in this build (OPENSSL_ALL's CopyDecodedToX509 needs an EVP_PKEY of the key, which wolfSSL_d2i_PUBKEY cannot make for Ed25519 in 5.5.4); the host is unchecked, so not trusted", depth: 0, failure: .other)
        case Int32(CWOLFSSL_STAGE_HOST):
            return NativeDiagnostic(code: Int(code), name: error.name, message: "\(error.text) (CheckHostName)", depth: 0, failure: .hostnameMismatch)
        case Int32(CWOLFSSL_STAGE_PATH):
            return NativeDiagnostic(code: Int(code), name: "WOLFSSL_PATH_UNRESOLVED", message: "wolfSSL trusted the leaf, but the signers it verified the certificates with (DecodedCert.ca) do not lead from the leaf to a loaded anchor; without a path the verdict cannot be reported, so not trusted", depth: 0, failure: .other)
        case Int32(CWOLFSSL_STAGE_CRL_LOAD):
            // A CRL wolfSSL cannot decode fails the verification (the load an application makes
            // fails); one it decoded but would not take (no signer among the manager's CAs, a bad
            // signature, past its nextUpdate) explains a certificate left without a CRL.
            let failure = error.failure(depth: nil)
            return NativeDiagnostic(code: Int(code), name: error.name, message: "wolfSSL would not load revocation list \(index) (wolfSSL_CertManagerLoadCRLBuffer): \(error.text)", depth: nil, failure: failure == .malformed ? .malformed : .other)
        case Int32(CWOLFSSL_STAGE_CRL_CHECK):
            return NativeDiagnostic(code: Int(code), name: error.name, message: "wolfSSL_CertManagerCheckCRL: \(error.text)", depth: depth, failure: error.failure(depth: depth))
        case Int32(CWOLFSSL_STAGE_INTERNAL):
            return NativeDiagnostic(code: Int(code), name: error.name, message: "wolfSSL failed before verifying: \(error.text)", depth: nil, failure: .other)
        default:
            return NativeDiagnostic(code: Int(code), name: error.name, message: "wolfSSL_CertManagerVerifyBuffer: \(error.text)", depth: depth, failure: error.failure(depth: depth))
        }
    }
}

/// A host as wolfSSL compares it: a DNS name as given; an IPv4 address dotted; an IPv6 address in the
/// full, uncompressed form with upper-case digits in which wolfSSL writes iPAddress entries
/// (`GenerateDNSEntryIPString`, wolfcrypt/src/asn.c) and which `CheckHostName` compares as text, so
/// that an address is compared with the address, not with one of its spellings.
struct WolfSSLHost {
    let text: String
    let isAddress: Bool

    init(_ host: HostIdentity) {
        switch host {
        case .dns(let name):
            text = name
            isAddress = false
        case .ipAddress(let bytes) where bytes.count == 4:
            text = bytes.map(String.init).joined(separator: ".")
            isAddress = true
        case .ipAddress(let bytes):
            text = stride(from: 0, to: bytes.count, by: 2).map { i in
                String(format: "%02X%02X", bytes[i], i + 1 < bytes.count ? bytes[i + 1] : 0)
            }.joined(separator: ":")
            isAddress = true
        }
    }
}
