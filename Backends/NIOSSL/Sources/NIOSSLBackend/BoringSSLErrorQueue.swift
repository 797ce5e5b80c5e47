internal import CNIOBoringSSL
import TrustBackendKit

/// One entry of BoringSSL's error queue, copied out of it.
struct BoringSSLError: Sendable, Hashable, CustomStringConvertible {
    /// The packed `ERR_get_error` code.
    var code: UInt32
    /// `ERR_error_string_n`'s line.
    var description: String
    /// `ERR_reason_error_string`, e.g. "DECODE_ERROR"; empty when BoringSSL has none.
    var reason: String

    /// This error as a diagnostic of the given class.
    func diagnostic(_ failure: FailureClass) -> NativeDiagnostic {
        NativeDiagnostic(code: Int(code), name: reason.isEmpty ? "ERR_get_error" : reason, message: description, failure: failure)
    }
}

/// The calling thread's BoringSSL error queue (thread-local, so safe from any thread).
enum BoringSSLErrorQueue {
    /// Removes and returns every queued error, oldest first.
    static func drain() -> [BoringSSLError] {
        var errors: [BoringSSLError] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? ""
            errors.append(BoringSSLError(code: code, description: text, reason: reason))
        }
        return errors
    }

    /// Empties the queue, so that one evaluation's errors never surface in a later one on the same
    /// thread (nor in NIOSSL's own connections there, which read the same queue).
    static func discard() {
        ERR_clear_error()
    }
}
