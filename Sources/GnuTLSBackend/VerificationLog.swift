/// What GnuTLS's verification callback (`gnutls_verify_output_function`) reported during one
/// evaluation: every certificate GnuTLS checked against an issuer, that issuer (a presented
/// certificate or an anchor, by handle; none when GnuTLS found none), and the status of that check,
/// in the order GnuTLS made them.
///
/// GnuTLS returns no path, so this is how the evaluator learns it (``GnuTLSEvaluator``). In GnuTLS
/// 3.7 the callback is called by `verify_crt` for each certificate it checks and by
/// `_gnutls_verify_crt_status` for a presented certificate it replaces by a trusted one with the same
/// name and key (lib/x509/verify.c); one call of `gnutls_x509_trust_list_verify_crt2` may verify the
/// list twice (again against the last certificate's own subject when its signer was not found), so a
/// certificate may appear more than once and its last entry is the one that counts.
///
/// The first ``inlineCapacity`` entries are stored in place, so the per-thread state that holds the
/// log needs no heap allocation for a real chain; further ones go to an array.
struct VerificationLog {
    /// One call of the verification callback.
    struct Entry {
        /// The certificate GnuTLS checked.
        var certificate: OpaquePointer?
        /// The issuer it was checked against, or `nil` when GnuTLS found none.
        var issuer: OpaquePointer?
        /// The `gnutls_certificate_status_t` bits of that check: 0 when it passed.
        var status: UInt32
    }

    /// A real chain of two to four certificates makes at most about ten entries (two passes over it).
    static let inlineCapacity = 16

    private var inline: (
        Entry, Entry, Entry, Entry, Entry, Entry, Entry, Entry,
        Entry, Entry, Entry, Entry, Entry, Entry, Entry, Entry
    )
    private var overflow: [Entry] = []
    /// How many entries were recorded.
    private(set) var count = 0

    init() {
        let empty = Entry(certificate: nil, issuer: nil, status: 0)
        inline = (empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty)
    }

    /// Records one call of the callback.
    mutating func append(_ entry: Entry) {
        let index = count
        if index < Self.inlineCapacity {
            withUnsafeMutablePointer(to: &inline) { tuple in
                tuple.withMemoryRebound(to: Entry.self, capacity: Self.inlineCapacity) { $0[index] = entry }
            }
        } else {
            overflow.append(entry)
        }
        count = index + 1
    }

    /// The entry recorded `index`-th (0 is the first).
    subscript(index: Int) -> Entry {
        precondition(index >= 0 && index < count, "VerificationLog index \(index) out of 0..<\(count)")
        guard index < Self.inlineCapacity else { return overflow[index - Self.inlineCapacity] }
        return withUnsafePointer(to: inline) { tuple in
            tuple.withMemoryRebound(to: Entry.self, capacity: Self.inlineCapacity) { $0[index] }
        }
    }

    /// The index of the last entry that satisfies `predicate`.
    func lastIndex(where predicate: (Entry) -> Bool) -> Int? {
        var index = count - 1
        while index >= 0 {
            if predicate(self[index]) { return index }
            index -= 1
        }
        return nil
    }
}
