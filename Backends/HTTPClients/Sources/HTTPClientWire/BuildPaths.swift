import Foundation

/// `text` without BoringSSL's ` at /path/file.cc:NNN` locations: the build folder differs between
/// machines, the reason does not, so the same error reads the same everywhere.
public func withoutBuildPaths(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let range = rest.range(of: " at /") {
        result += rest[..<range.lowerBound]
        let after = rest[range.upperBound...]
        guard let colon = after.firstIndex(of: ":") else {
            rest = after
            break
        }
        rest = after[after.index(after: colon)...].drop { $0.isNumber }
    }
    return result + rest
}
