internal import COpenSSL
import TrustCore

/// One entry of OpenSSL's error queue, copied out of it.
struct OpenSSLError: Sendable, Hashable, CustomStringConvertible {
    /// The packed `ERR_get_error` code.
    var code: UInt
    /// `ERR_error_string_n`'s line, plus the entry's extra data (e.g. which ASN.1 field) when present.
    var description: String
    /// `ERR_reason_error_string`, e.g. "wrong tag"; empty when OpenSSL has none.
    var reason: String

    /// This error as a diagnostic of the given class.
    func diagnostic(_ failure: FailureClass) -> NativeDiagnostic {
        NativeDiagnostic(
            code: Int(truncatingIfNeeded: code),
            name: reason.isEmpty ? "ERR_get_error" : reason,
            message: description,
            failure: failure
        )
    }
}

/// The calling thread's OpenSSL error queue (it is thread-local, so this is safe from any thread).
enum OpenSSLErrorQueue {
    /// Removes and returns every queued error, oldest first.
    static func drain() -> [OpenSSLError] {
        var errors: [OpenSSLError] = []
        while true {
            var data: UnsafePointer<CChar>? = nil
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if flags & ERR_TXT_STRING != 0, let data, data.pointee != 0 {
                text += " (\(String(cString: data)))"
            }
            let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? ""
            errors.append(OpenSSLError(code: code, description: text, reason: reason))
        }
        return errors
    }

    /// Empties the queue, so that errors of one evaluation never surface in a later one on the
    /// same thread (or in other OpenSSL users there).
    static func discard() {
        ERR_clear_error()
    }
}
