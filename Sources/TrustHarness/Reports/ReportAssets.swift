/// The HTML pages' style sheet and script: files under `Sources/TrustHarness/Resources`
/// (`document.css`, `document.js`, used by ``DocumentWriter/html(_:)``), embedded in the module by SwiftPM
/// (`.embedInCode`), so an installed or copied binary carries them and no resource bundle can be
/// missing. Constant: no data is ever placed in them.
enum ReportAssets {
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
