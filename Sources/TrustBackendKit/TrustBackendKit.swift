// What a back end in any package needs, in one import: the contract (TrustCore: the protocol,
// requests, verdicts, failure classes, features) and the strict-DER reader (TrustDER) are part of
// the kit's API, so `import TrustBackendKit` is the only import a back end's Swift code needs.
@_exported import TrustCore
@_exported import TrustDER
