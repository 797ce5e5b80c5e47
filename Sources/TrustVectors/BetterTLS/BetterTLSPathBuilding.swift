/// The cases of Netflix BetterTLS's path-building suite, in BetterTLS's order, with its expected
/// results: the facts of the suite, written here from its design (`test-suites/pathbuilding/` of
/// github.com/Netflix/bettertls, Apache-2.0: `trust_graph.go`, `explicit_test_cases.go`,
/// `provider.go`, `test_case.go`, `generate_certs.go`), so that they can be generated and checked
/// here. A case's index is its id in BetterTLS (and in x509-limbo, `bettertls::pathbuilding::tc<index>`).
///
/// Each case is a trust graph (a directed graph whose edge A→B is a certificate for B's name and key
/// signed by A), a node the client trusts (the trust anchor, played by BetterTLS's trust root), a
/// node whose certificate the server presents as its leaf, and edges made invalid for one reason
/// (expired, name constraints, bad EKU, ...). The server presents every edge's certificate; the
/// client must find a valid path from the anchor to the leaf among them, and BetterTLS expects it to
/// pass exactly when one exists.
///
/// The 81 cases are the same at every revision of BetterTLS since the suite was written (a738c20,
/// whose results its authors published in December 2021, 081fb7c and the current master): only the
/// certificates changed since, the leaf gaining an extendedKeyUsage serverAuth in 859af10 (December
/// 2023), which ``BetterTLSExport/pathBuilding(seed:at:selected:)`` writes.
public enum BetterTLSPathBuilding {
    /// The host every case's leaf is issued for and the client asks for (`GetHostname()`).
    public static let hostname = "localhost"

    /// The name the constraints of ``InvalidReason/nameConstraints`` permit, alone: not the host.
    public static let nameConstraintsPermittedDNS = "bad.example.com"

    /// A certificate in a trust graph: `source` signs a certificate for `destination`'s name and key.
    public struct Edge: Sendable, Hashable, Codable, CustomStringConvertible {
        public var source: String
        public var destination: String

        public init(_ source: String, _ destination: String) {
            self.source = source
            self.destination = destination
        }

        public var description: String { "\(source)→\(destination)" }
    }

    /// A trust graph as BetterTLS defines it (`TrustGraph`): its edges in BetterTLS's order, which is
    /// also the order the server presents their certificates in, and its nodes sorted by name.
    public struct TrustGraph: Sendable, Hashable, CustomStringConvertible {
        /// BetterTLS's name of the graph (`LINEAR_TRUST_GRAPH`, `TWO_ROOTS`, ...).
        public let name: String
        public let edges: [Edge]
        /// Every node named by an edge, sorted (`NodeNames()`).
        public let nodes: [String]

        init(_ name: String, _ edges: [(String, String)]) {
            self.name = name
            self.edges = edges.map { Edge($0.0, $0.1) }
            // Go's sort.Strings orders by bytes; every name here is ASCII, where Swift's order is the same.
            self.nodes = Array(Set(edges.flatMap { [$0.0, $0.1] })).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }

        public var description: String { name }

        /// A path from `source` to `destination` over the edges not in `invalid`, found as BetterTLS
        /// finds it (`Reachable()`: depth first, edges in the graph's order, no node twice), or nil
        /// when there is none.
        public func reachable(avoiding invalid: [Edge], from source: String, to destination: String) -> [String]? {
            func search(_ path: [String], _ start: String) -> [String]? {
                if path.contains(start) { return nil }
                let path = path + [start]
                if start == destination { return path }
                for edge in edges where edge.source == start && !invalid.contains(edge) {
                    if let found = search(path, edge.destination) { return found }
                }
                return nil
            }
            return search([], source)
        }
    }

    /// A chain: Trust Anchor → ICA → EE.
    public static let linearTrustGraph = TrustGraph("LINEAR_TRUST_GRAPH", [
        ("ICA", "EE"),
        ("Trust Anchor", "ICA"),
    ])

    /// RFC 4158 section 2.3 (its figure 7): the anchor certifies A and C, which certify each other
    /// and both certify B, the leaf's issuer.
    public static let figureSeven = TrustGraph("FIGURE_SEVEN", [
        ("B", "EE"),
        ("C", "B"),
        ("A", "B"),
        ("C", "A"),
        ("A", "C"),
        ("Trust Anchor", "C"),
        ("Trust Anchor", "A"),
    ])

    /// One intermediate certified by two roots.
    public static let twoRoots = TrustGraph("TWO_ROOTS", [
        ("ICA", "EE"),
        ("Root1", "ICA"),
        ("Root2", "ICA"),
    ])

    /// RFC 4158 section 2.4: four PKIs (TA W, TA X, TA Y, TA Z) joined by a bridge CA that each
    /// cross-certifies both ways, with loops (F⇄G, H⇄I, A⇄C) inside them.
    public static let bridgeCAPKI = TrustGraph("BRIDGE_CA_PKI", [
        ("F", "H"), ("F", "G"), ("G", "F"), ("H", "I"), ("I", "H"), ("G", "I"), ("TA W", "F"), ("TA W", "G"),
        ("J", "K"), ("N", "EE"), ("L", "N"), ("L", "M"), ("TA X", "J"), ("TA X", "L"),
        ("B", "E"), ("B", "D"), ("A", "B"), ("C", "B"), ("A", "C"), ("C", "A"), ("TA Y", "A"), ("TA Y", "C"),
        ("R", "S"), ("O", "R"), ("O", "Q"), ("P", "S"), ("TA Z", "O"), ("TA Z", "P"),
        ("TA W", "Bridge CA"), ("Bridge CA", "TA W"), ("TA X", "Bridge CA"), ("Bridge CA", "TA X"),
        ("TA Y", "Bridge CA"), ("Bridge CA", "TA Y"), ("TA Z", "Bridge CA"), ("Bridge CA", "TA Z"),
    ])

    /// The four graphs in BetterTLS's order (`ALL_TRUST_GRAPHS`).
    public static let trustGraphs = [twoRoots, linearTrustGraph, figureSeven, bridgeCAPKI]

    /// Why a case's invalid edges are invalid (BetterTLS's `InvalidReason`, numbered as there).
    /// ``BetterTLSExport/pathBuilding(seed:at:selected:)`` makes each as `generate_certs.go` does.
    public enum InvalidReason: Int, Sendable, Hashable, CaseIterable, Codable {
        /// No reason: the case has no invalid edge (or, in an explicit case, "every reason below").
        case unspecified = 0
        /// notAfter an hour before the validation time.
        case expired
        /// Critical name constraints permitting only `bad.example.com`, which the leaf's host is not in.
        case nameConstraints
        /// An extendedKeyUsage of emailProtection alone on the CA certificate.
        case badEKU
        /// No basicConstraints extension on the CA certificate.
        case missingBasicConstraints
        /// basicConstraints with cA false.
        case notACA
        /// Signed with ECDSA over SHA-1 (ecdsa-with-SHA1).
        case deprecatedCrypto

        /// BetterTLS's name (`String()`): "EXPIRED", "NAME_CONSTRAINTS", ...
        public var name: String {
            ["UNSPECIFIED", "EXPIRED", "NAME_CONSTRAINTS", "BAD_EKU", "MISSING_BASIC_CONSTRAINTS", "NOT_A_CA", "DEPRECATED_CRYPTO"][rawValue]
        }

        /// The reasons an invalid edge can have, in BetterTLS's order (`InvalidReasons()` less UNSPECIFIED).
        public static let reasons: [InvalidReason] = allCases.filter { $0 != .unspecified }
    }

    /// BetterTLS's expected results (only PASS and FAIL occur in this suite).
    public typealias Expected = BetterTLSNameConstraints.Expected

    /// The checks a case needs a client to make (BetterTLS's features): choosing among several
    /// issuers, and rejecting an edge for one reason.
    public enum Feature: Sendable, Hashable, CustomStringConvertible {
        case branching
        case invalidReason(InvalidReason)

        /// BetterTLS's number of the feature: 0 for branching, 1 + the reason's number otherwise
        /// (so 1, UNSPECIFIED, is never used; the manifests' `features` are keyed by it).
        public var number: Int {
            switch self {
            case .branching: return 0
            case .invalidReason(let reason): return 1 + reason.rawValue
            }
        }

        /// BetterTLS's name (`DescribeFeature()`): BRANCHING, INVALID_REASON_EXPIRED, ...
        public var name: String {
            switch self {
            case .branching: return "BRANCHING"
            case .invalidReason(let reason): return "INVALID_REASON_" + reason.name
            }
        }

        public var description: String { name }
    }

    /// The suite's features in BetterTLS's order (`GetFeatures()`).
    public static let features: [Feature] = [.branching] + InvalidReason.reasons.map { .invalidReason($0) }

    /// The case that checks the client trusts BetterTLS's root at all (`GetSanityCheckTestCase()`).
    public static let sanityCheckCase = 0

    /// The cases a client must pass to be counted as supporting `feature` (`GetTestCasesForFeature()`):
    /// the two branching cases after the sanity check, then one linear case per invalid reason.
    public static func featureCases(_ feature: Feature) -> [Int] {
        switch feature {
        case .branching: return [1, 2]
        case .invalidReason(let reason): return reason == .unspecified ? [] : [3 + reason.rawValue - 1]
        }
    }

    /// An entry of BetterTLS's `EXPLICIT_TEST_CASES`: a case with its invalid edges but, when it has
    /// some and no reason, one case per reason in the suite.
    public struct ExplicitCase: Sendable, Hashable {
        public var graph: TrustGraph
        /// The node the client trusts (`SrcNode`).
        public var trustAnchor: String
        /// The node whose certificate is the leaf (`DstNode`).
        public var leaf: String
        public var invalidEdges: [Edge] = []
        public var invalidReason: InvalidReason = .unspecified
        /// Whether BetterTLS's authors wrote that the client must fail (`ExpectFailure`); the expected
        /// result is computed from the graph, and the tests check that the two agree.
        public var expectFailure = false
        public var comment = ""
    }

    /// BetterTLS's explicit cases, in its order (`explicit_test_cases.go`).
    public static let explicitCases: [ExplicitCase] = [
        ExplicitCase(graph: linearTrustGraph, trustAnchor: "Trust Anchor", leaf: "EE", comment: "The most basic linear chain."),
        ExplicitCase(graph: linearTrustGraph, trustAnchor: "Trust Anchor", leaf: "EE", invalidEdges: [Edge("Trust Anchor", "ICA")], expectFailure: true,
                     comment: "The most basic linear chain, broken by an expired ICA."),
        ExplicitCase(graph: linearTrustGraph, trustAnchor: "ICA", leaf: "EE", invalidEdges: [Edge("Trust Anchor", "ICA")],
                     comment: "ICA is trusted directly, so the expired TA => ICA cert should not cause validation to fail."),
        ExplicitCase(graph: twoRoots, trustAnchor: "Root1", leaf: "EE", comment: "Should be able to discover a path to either root."),
        ExplicitCase(graph: twoRoots, trustAnchor: "Root2", leaf: "EE", comment: "Should be able to discover a path to either root."),
        ExplicitCase(graph: twoRoots, trustAnchor: "Root1", leaf: "EE", invalidEdges: [Edge("Root2", "ICA")],
                     comment: "Should be able to discover a path when alternate root is invalid."),
        ExplicitCase(graph: twoRoots, trustAnchor: "Root2", leaf: "EE", invalidEdges: [Edge("Root1", "ICA")],
                     comment: "Should be able to discover a path when alternate root is invalid."),
        ExplicitCase(graph: twoRoots, trustAnchor: "Root1", leaf: "EE", invalidEdges: [Edge("Root1", "ICA")], expectFailure: true,
                     comment: "Should not be able to find a path when only trusted root is invalid."),
        ExplicitCase(graph: twoRoots, trustAnchor: "Root2", leaf: "EE", invalidEdges: [Edge("Root2", "ICA")], expectFailure: true,
                     comment: "Should not be able to find a path when only trusted root is invalid."),
        ExplicitCase(graph: figureSeven, trustAnchor: "Trust Anchor", leaf: "EE", comment: "Should be able to find a path through a more complicated tree."),
        ExplicitCase(graph: figureSeven, trustAnchor: "Trust Anchor", leaf: "EE", invalidEdges: [Edge("Trust Anchor", "C"), Edge("A", "B")],
                     comment: "Should be able to find an alternate path through a more complicated tree."),
        ExplicitCase(graph: figureSeven, trustAnchor: "Trust Anchor", leaf: "EE", invalidEdges: [Edge("Trust Anchor", "A"), Edge("C", "B")],
                     comment: "Should be able to find an alternate path through a more complicated tree."),
        ExplicitCase(graph: bridgeCAPKI, trustAnchor: "TA Z", leaf: "D", comment: "RFC 4158, section 2.3"),
        ExplicitCase(graph: bridgeCAPKI, trustAnchor: "TA Z", leaf: "EE", comment: "RFC 4158, section 2.4.2"),
        ExplicitCase(graph: bridgeCAPKI, trustAnchor: "TA Z", leaf: "EE", invalidEdges: [Edge("TA X", "Bridge CA")],
                     comment: "Irrelevant expired cross-signed cert"),
        ExplicitCase(graph: bridgeCAPKI, trustAnchor: "TA Z", leaf: "EE", invalidEdges: [Edge("Bridge CA", "TA X")], expectFailure: true,
                     comment: "Certificate from bridge CA into infrastructure X is invalid."),
        ExplicitCase(graph: bridgeCAPKI, trustAnchor: "TA Z", leaf: "EE", invalidEdges: [Edge("TA Z", "Bridge CA")], expectFailure: true,
                     comment: "Certificate from infrastructure Z to bridge CA is invalid."),
    ]

    /// One case (BetterTLS's `TestCaseImpl`): an explicit case with the one reason its invalid edges have.
    public struct Case: Sendable, Hashable, Encodable {
        public var graph: TrustGraph
        /// The node the client trusts: its certificate and key are BetterTLS's trust root's.
        public var trustAnchor: String
        /// The node whose certificate is the leaf (for the host ``BetterTLSPathBuilding/hostname``).
        public var leaf: String
        /// The edges whose certificates are made invalid, for ``invalidReason``.
        public var invalidEdges: [Edge]
        /// Why the invalid edges are invalid (``InvalidReason/unspecified`` when there are none).
        public var invalidReason: InvalidReason
        /// What BetterTLS's authors wrote the client must do (see ``ExplicitCase/expectFailure``).
        public var expectFailure: Bool
        public var comment: String

        /// The path a client can build over the valid edges from the anchor to the leaf, if any.
        public var validPath: [String]? { graph.reachable(avoiding: invalidEdges, from: trustAnchor, to: leaf) }

        /// BetterTLS's expected result (`ExpectedResult()`): PASS exactly when a valid path exists.
        public var expected: Expected { validPath == nil ? .fail : .pass }

        /// The checks the case needs (`RequiredFeatures()`): branching on any graph but the linear one,
        /// and the invalid reason when edges are invalid.
        public var requiredFeatures: [Feature] {
            var features: [Feature] = []
            if graph != BetterTLSPathBuilding.linearTrustGraph { features.append(.branching) }
            if !invalidEdges.isEmpty && invalidReason != .unspecified { features.append(.invalidReason(invalidReason)) }
            return features
        }

        /// The certificates the server presents, as edges, in BetterTLS's order (`GenerateCerts`):
        /// the edges into the leaf node first, then every other edge of the graph in the graph's
        /// order, edges from and into the anchor included (the anchor's own certificate is not sent).
        public var presentedEdges: [Edge] {
            graph.edges.filter { $0.destination == leaf } + graph.edges.filter { $0.destination != leaf }
        }

        /// Whether `edge`'s certificate is made invalid.
        public func isInvalid(_ edge: Edge) -> Bool { invalidEdges.contains(edge) }

        private enum CodingKeys: String, CodingKey {
            case graph, trustAnchor, leaf, invalidEdges, invalidReason, validPath
        }

        /// Its parts by name, as explanations' patterns read them (``BetterTLSExplanations``): the
        /// graph's name, the anchor, the leaf, the invalid edges (`A→B, C→D`, or `none`), the
        /// reason's name, and the valid path (`A→B→C`, or `none`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(graph.name, forKey: .graph)
            try container.encode(trustAnchor, forKey: .trustAnchor)
            try container.encode(leaf, forKey: .leaf)
            try container.encode(invalidEdges.isEmpty ? "none" : invalidEdges.map(\.description).joined(separator: ", "), forKey: .invalidEdges)
            try container.encode(invalidReason.name, forKey: .invalidReason)
            try container.encode(validPath.map { $0.joined(separator: "→") } ?? "none", forKey: .validPath)
        }

        /// The summary row the case counts in: the trust graph and the reason its edges are invalid.
        public var group: String {
            "\(graph.name), \(invalidEdges.isEmpty ? "no invalid edge" : "\(invalidReason.name) edges")"
        }

        /// The case in one line: the graph, the anchor, the leaf, the invalid edges and the path
        /// a client can find, if any.
        public var summary: String {
            var parts = ["graph \(graph.name)", "trust anchor \(trustAnchor)", "leaf \(leaf)"]
            if !invalidEdges.isEmpty {
                parts.append("invalid \(invalidEdges.map(\.description).joined(separator: ", ")) (\(invalidReason.name))")
            }
            parts.append(validPath.map { "valid path \($0.joined(separator: "→"))" } ?? "no valid path")
            return parts.joined(separator: "; ")
        }
    }

    /// Every case, in BetterTLS's order (`NewTestCaseProvider()`); a case's index is its id. The
    /// sanity check, the two branching cases, the linear chain broken for each of the six reasons,
    /// then each explicit case, expanded to six (one per reason) when it has invalid edges and no
    /// reason: 3 + 6 + 6 × 11 + 6 = 81.
    public static func cases() -> [Case] {
        func make(_ explicit: ExplicitCase, reason: InvalidReason) -> Case {
            Case(graph: explicit.graph, trustAnchor: explicit.trustAnchor, leaf: explicit.leaf, invalidEdges: explicit.invalidEdges,
                 invalidReason: reason, expectFailure: explicit.expectFailure, comment: explicit.comment)
        }
        var cases = [
            make(ExplicitCase(graph: linearTrustGraph, trustAnchor: "Trust Anchor", leaf: "EE"), reason: .unspecified),
            make(ExplicitCase(graph: twoRoots, trustAnchor: "Root1", leaf: "EE"), reason: .unspecified),
            make(ExplicitCase(graph: twoRoots, trustAnchor: "Root2", leaf: "EE"), reason: .unspecified),
        ]
        for reason in InvalidReason.reasons {
            cases.append(make(ExplicitCase(graph: linearTrustGraph, trustAnchor: "Trust Anchor", leaf: "EE", invalidEdges: [Edge("Trust Anchor", "ICA")],
                                           invalidReason: reason, expectFailure: true), reason: reason))
        }
        for explicit in explicitCases {
            if !explicit.invalidEdges.isEmpty && explicit.invalidReason == .unspecified {
                cases += InvalidReason.reasons.map { make(explicit, reason: $0) }
            } else {
                cases.append(make(explicit, reason: explicit.invalidReason))
            }
        }
        return cases
    }
}
