/// The HTML reports' style sheets and scripts: files under `Sources/TrustHarness/Resources`
/// (`report.css`, `report.js`, `suite.css`, `suite.js`), embedded in the module by SwiftPM
/// (`.embedInCode`), so an installed or copied binary carries them and no resource bundle can be
/// missing. Constant: no data is ever placed in them.
enum ReportAssets {
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
