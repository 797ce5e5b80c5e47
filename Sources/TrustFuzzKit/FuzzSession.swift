import TrustBackendKit
import Foundation
import Synchronization
import TrustCore
import TrustHarness
import TrustPolicy

/// The back ends under fuzzing, with their evaluators made once (anchors and pins parsed before the
/// first input), and the invariants every input is checked against.
///
/// Each back end is made from its registry entry as it is used, behind the kit's preflight
/// (BackendPreflight: input rejection, feature refusal, strict DER), which every back end applies
/// in its own makeEvaluator: the libraries get every fuzzed input that passes it. They are made
/// `.uncached`, so every input is parsed anew by every library, and an input's allocations are its
/// own: libFuzzer's leak check after an input would otherwise take the certificates a cache keeps
/// (behind pointers the Swift runtime tags, which LeakSanitizer cannot follow) for leaks.
final class FuzzSession: Sendable {
    let names: [String]
    /// Each back end's features: what of an input's revocation data it is given.
    private let features: [Set<BackendFeature>]
    /// [anchor set][back end]; a back end that refuses an anchor set rejects every input there.
    private let evaluators: [[any TrustEvaluator]]
    /// [anchor set][policy index (see ``FuzzInput/policyIndex``)][back end]; nil where the back end
    /// refused the anchors or pins.
    private let policyEvaluators: [[[SecurityPolicyEvaluator?]]]
    private let counts: Mutex<FuzzCounts>

    /// The back ends of `entries`, in their order, with their evaluators for every anchor set and
    /// policy; stops the program when a policy cannot be made from the vectors' pins.
    init(entries: [BackendRegistry.Entry]) {
        let backends = entries.map { $0.make(.uncached) }
        names = backends.map(\.name)
        features = backends.map(\.features)
        evaluators = FuzzFixture.anchorSets.map { anchors in backends.map { $0.evaluatorFailingClosed(anchors: anchors) } }
        var refused: [String] = []
        policyEvaluators = FuzzFixture.anchorSets.enumerated().map { set, anchors in
            var table: [[SecurityPolicyEvaluator?]] = []
            for mode in [PinningMode.none, .publicKey, .certificate] {
                for allowInvalid in [false, true] {
                    for validates in [false, true] {
                        let policy: SecurityPolicy
                        do {
                            policy = try SecurityPolicy(pinningMode: mode, pinnedCertificates: mode == .none ? [] : FuzzFixture.pinned,
                                                        allowInvalidCertificates: allowInvalid, validatesDomainName: validates)
                        } catch {
                            FuzzFixture.fail("the policy (\(mode), allowInvalid \(allowInvalid), validatesDomainName \(validates)): \(error)")
                        }
                        table.append(backends.map { backend in
                            do {
                                return try policy.evaluator(on: backend, anchors: anchors)
                            } catch {
                                refused.append("\(backend.name) refuses anchor set \(set) for the policy (pinning \(mode)): \(error)")
                                return nil
                            }
                        })
                    }
                }
            }
            return table
        }
        for line in Set(refused).sorted() { FileHandle.standardError.write(Data("note: \(line)\n".utf8)) }
        counts = Mutex(FuzzCounts(names: names))
    }

    /// What the session has done so far.
    var snapshot: FuzzCounts { counts.withLock { $0 } }

    /// Evaluates `input` on every back end and through every back end's policy; traps (so libFuzzer
    /// keeps the input) when a trusted path does not start at the presented leaf or end at an anchor,
    /// a rejection gives no reason, or a pinned policy trusts without a matched pin.
    func evaluate(_ input: FuzzInput) {
        let anchors = FuzzFixture.anchorSets[input.anchorSet]
        let domain = input.hasHost ? input.host : nil
        let time = FuzzFixture.times[input.timeIndex]
        let plain = EvaluationRequest(chain: input.chain, host: domain.map(HostIdentity.init), time: time)
        var trusted = [Bool](repeating: false, count: names.count)
        for (index, evaluator) in evaluators[input.anchorSet].enumerated() {
            // The revocation data as each back end takes it: CRLs, or the first as an OCSP response.
            var request = plain
            if !input.revocation.isEmpty {
                if features[index].contains(.revocationLists) { request.revocationLists = input.revocation }
                if features[index].contains(.ocspResponses) { request.ocspResponses = Array(input.revocation.prefix(1)) }
            }
            let verdict = evaluator.evaluate(request)
            if case .trusted(let path) = verdict {
                precondition(!path.isEmpty && path.first == input.chain.first, "\(names[index]): a trusted path does not start with the presented leaf")
                precondition(anchors.contains(path.last!), "\(names[index]): a trusted path does not end at an anchor")
                trusted[index] = true
            } else {
                precondition(!verdict.diagnostics.isEmpty && verdict.diagnostics.allSatisfy { !$0.message.isEmpty }, "\(names[index]): a rejection without a reason")
                // A back end that runs its library in worker processes (NSS) fails a request closed
                // when the worker ends with it: a crash in the library, a fault for the fuzzer.
                precondition(!verdict.diagnostics.contains { $0.name.hasSuffix("_WORKER_ENDED") }, "\(names[index]): its worker process ended with the input: \(verdict.diagnostics.map(\.message))")
            }
        }
        var policyTrusted = [Bool?](repeating: nil, count: names.count)
        for (index, evaluator) in policyEvaluators[input.anchorSet][input.policyIndex].enumerated() {
            guard let evaluator else { continue }
            let decision = evaluator.evaluate(chain: input.chain, forDomain: domain, at: time)
            if decision.trusted && evaluator.policy.pinningMode != .none {
                precondition(decision.matchedPin != nil, "\(names[index]): a pinned policy trusted without a matched pin")
            }
            policyTrusted[index] = decision.trusted
        }
        counts.withLock { counts in
            counts.inputs += 1
            for index in counts.backends.indices {
                counts.backends[index].evaluations += 1
                if trusted[index] { counts.backends[index].trusted += 1 }
                if let decided = policyTrusted[index] {
                    counts.backends[index].policyEvaluations += 1
                    if decided { counts.backends[index].policyTrusted += 1 }
                }
            }
        }
    }
}
