import ArgumentParser
import Foundation
import Synchronization
import TrustCore
import TrustVectors
import TrustPolicy

/// Certificates named on the command line, read the same way by every subcommand: PEM bundles or
/// DER files, each certificate checked for a certificate's outer shape. Any problem is exit status 2
/// with the flag, the file and what is wrong.
enum CertificateInput {
    /// The certificates of `files`, in order. `-` is standard input (once). A folder is read as
    /// every PEM or DER certificate file in it, in name order, each distinct certificate once, where
    /// `folders` allows it (anchors: `/etc/ssl/certs` works); for a chain, whose order matters, a
    /// folder is a usage error.
    /// Standard input is the context's, and only one flag may read it: `--chain - --anchors -` cannot
    /// both have it.
    static func read(_ files: [String], role: String, folders: Bool = false, in tool: ToolContext) throws -> [[UInt8]] {
        var all: [[UInt8]] = []
        for file in files {
            let certificates: [[UInt8]]
            var isDirectory: ObjCBool = false
            do {
                if file == "-" {
                    guard !tool.standardInputTaken.take() else {
                        tool.error("error: \(role) -: standard input can be read only once (another flag took it)")
                        throw ExitCode(2)
                    }
                    let bytes = tool.standardInput()
                    certificates = try CertificateFile.decode(bytes, file: "standard input")
                } else if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
                    guard folders else {
                        tool.error("error: \(role) \(file): is a folder; give the certificates as a PEM bundle or as files in order")
                        throw ExitCode(2)
                    }
                    certificates = try folder(file, role: role, in: tool)
                } else {
                    certificates = try CertificateFile.read(URL(fileURLWithPath: file))
                }
            } catch let exit as ExitCode {
                throw exit
            } catch {
                tool.error("error: \(role) \(error)")
                throw ExitCode(2)
            }
            all += try checked(certificates, file: file, role: role, in: tool)
        }
        return all
    }

    /// Every certificate of the regular files (or links to them) in `path`, in name order, each
    /// distinct certificate once; files that hold no certificate are skipped (a trust-store folder
    /// also holds CRLs and other files). No certificate at all is an error.
    static func folder(_ path: String, role: String, in tool: ToolContext) throws -> [[UInt8]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        var seen = Set<[UInt8]>()
        var certificates: [[UInt8]] = []
        for name in names where !name.hasPrefix(".") {
            let url = URL(fileURLWithPath: path).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let found = try? CertificateFile.read(url) else { continue }
            for der in found where SPKIPin.of(certificate: der) != nil && seen.insert(der).inserted {
                certificates.append(der)
            }
        }
        guard !certificates.isEmpty else {
            tool.error("error: \(role) \(path): the folder holds no PEM or DER certificate")
            throw ExitCode(2)
        }
        return certificates
    }

    /// `certificates` when each has a certificate's outer shape. Only the shape is checked here (a
    /// library may support algorithms swift-certificates does not); validity is for the back ends.
    static func checked(_ certificates: [[UInt8]], file: String, role: String, in tool: ToolContext) throws -> [[UInt8]] {
        for (index, der) in certificates.enumerated() where SPKIPin.of(certificate: der) == nil {
            tool.error("error: \(role) \(file): certificate \(index + 1) of \(certificates.count) is not a DER X.509 certificate (\(der.count) bytes without the Certificate/TBSCertificate structure); give PEM or DER certificates")
            throw ExitCode(2)
        }
        return certificates
    }
}
