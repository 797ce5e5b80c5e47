import ArgumentParser
import Foundation
import TrustCore
import TrustVectors

/// Certificates named on the command line, read the same way by every subcommand: PEM bundles or
/// DER files, each certificate checked for a certificate's outer shape. Any problem is exit status 2
/// with the flag, the file and what is wrong.
enum CertificateInput {
    static func read(_ files: [String], role: String) throws -> [[UInt8]] {
        var all: [[UInt8]] = []
        for file in files {
            let certificates: [[UInt8]]
            do {
                certificates = try CertificateFile.read(URL(fileURLWithPath: file))
            } catch {
                printError("error: \(role) \(error)")
                throw ExitCode(2)
            }
            all += try checked(certificates, file: file, role: role)
        }
        return all
    }

    /// `certificates` when each has a certificate's outer shape. Only the shape is checked here (a
    /// library may support algorithms swift-certificates does not); validity is for the back ends.
    static func checked(_ certificates: [[UInt8]], file: String, role: String) throws -> [[UInt8]] {
        for (index, der) in certificates.enumerated() where SPKIPin.of(certificate: der) == nil {
            printError("error: \(role) \(file): certificate \(index + 1) of \(certificates.count) is not a DER X.509 certificate (\(der.count) bytes without the Certificate/TBSCertificate structure); give PEM or DER certificates")
            throw ExitCode(2)
        }
        return certificates
    }
}
