import Foundation

/// How to ask a back end's library itself, without TrustHarness, what a finding shows: the
/// library's own command-line tool or a few lines of its API, written beside the finding's
/// certificates by `trust-harness findings`. A back end's package gives one per back end
/// (``BackendPackage/reproductions``); a back end without one gets the harness's own `evaluate`
/// command, which `fidelity` checks equals the library called plainly.
public struct Reproduction: Sendable {
    /// What a recipe may refer to: the files of the finding's folder and the request.
    public struct Input: Sendable, Hashable {
        /// `leaf.pem`: the presented leaf.
        public var leaf: String
        /// `intermediates.pem`: the rest of the presented chain, in the order presented (empty file
        /// when the leaf came alone).
        public var intermediates: String
        /// `chain.pem`: everything presented, leaf first.
        public var chain: String
        /// `anchors.pem`: the trust anchors.
        public var anchors: String
        /// `leaf-key.pem` when the leaf's private key is known (a TLS server can then serve the chain).
        public var leafKey: String?
        /// The host checked (DNS name or IP literal), or nil for none.
        public var host: String?
        /// Whether ``host`` is an IP address.
        public var hostIsIPAddress: Bool
        /// The address the client connected to, an IP literal, when the request models one.
        public var connectedAddress: String?
        /// The validation time.
        public var time: Date
        /// ``time`` in seconds since 1970.
        public var unixTime: Int64
        /// ``time`` as RFC 3339 (`2025-06-01T00:00:00Z`).
        public var isoTime: String

        public init(leaf: String = "leaf.pem", intermediates: String = "intermediates.pem", chain: String = "chain.pem", anchors: String = "anchors.pem",
                    leafKey: String?, host: String?, hostIsIPAddress: Bool, connectedAddress: String?, time: Date, isoTime: String) {
            self.leaf = leaf
            self.intermediates = intermediates
            self.chain = chain
            self.anchors = anchors
            self.leafKey = leafKey
            self.host = host
            self.hostIsIPAddress = hostIsIPAddress
            self.connectedAddress = connectedAddress
            self.time = time
            self.unixTime = Int64(time.timeIntervalSince1970.rounded(.down))
            self.isoTime = isoTime
        }
    }

    /// The file the recipe is written to (`reproduce.sh`, `Reproduce.swift`).
    public var fileName: String
    /// One line for the finding's README: how to run it.
    public var howToRun: String
    /// The file's text for one finding.
    public var make: @Sendable (Input) -> String

    public init(fileName: String, howToRun: String, make: @escaping @Sendable (Input) -> String) {
        self.fileName = fileName
        self.howToRun = howToRun
        self.make = make
    }

    /// A shell-quoted word.
    public static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A Swift string literal of `text`.
    public static func swiftLiteral(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
