import Foundation

/// PEM text as the generator writes it: the same bytes as swift-asn1's `PEMDocument.pemString` plus a
/// final newline.
///
/// Written here because `pemString` indexes its base64 `String` by offset for every 64-character
/// line, which is quadratic in the size of the document: one 60 KB certificate of the bad-input corpus
/// took seconds of every generation in a debug build.
package enum PEMText {
    package static func encode(type: String, der: [UInt8]) -> String {
        let base64 = Array(Data(der).base64EncodedString().utf8)
        var text = "-----BEGIN \(type)-----\n"
        text.reserveCapacity(base64.count + base64.count / 64 + 2 * type.count + 40)
        var start = 0
        while start < base64.count {
            let end = min(start + 64, base64.count)
            text += String(decoding: base64[start..<end], as: UTF8.self)
            text += "\n"
            start = end
        }
        text += "-----END \(type)-----\n"
        return text
    }
}
