import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which build of a shared library a back end actually loaded, for its ``TrustBackend/libraryVersion``.
///
/// A library's own version string does not identify its build: Debian 12's libgnutls30
/// 3.7.9-2+deb12u6 and 3.7.9-2+deb12u7 both report `3.7.9`, yet the second compares name constraints
/// case-insensitively and the first does not (issue 23), so one vector gets two verdicts on two
/// machines that both say "GnuTLS 3.7.9". Where the library loaded is a file a Debian package
/// installed, that package's version names the build exactly.
public enum InstalledLibrary {
    /// A back end's ``TrustBackend/libraryVersion``: the library's own `version` string, followed by
    /// the Debian package that installed the object defining `symbol` when there is one, as
    /// `GnuTLS 3.7.9 (Debian libgnutls30 3.7.9-2+deb12u7)`. Call it once per library (it reads
    /// dpkg's files).
    public static func version(_ version: String, providing symbol: String) -> String {
        debianPackage(providing: symbol).map { "\(version) (Debian \($0))" } ?? version
    }

    /// The Debian package, and its version, that installed the shared object defining the C function
    /// `symbol` as this process resolves it (`dlsym`), as `libgnutls30 3.7.9-2+deb12u6`; `nil` when
    /// that object is not a file the dpkg database lists (a library built locally, or loaded through
    /// `LD_LIBRARY_PATH`). Reads `dpkg`'s files (`info/*.list`, `status`) under `database`; costs a
    /// few milliseconds, so call it once per library.
    public static func debianPackage(providing symbol: String, database: String = "/var/lib/dpkg") -> String? {
        // The address the dynamic linker binds, not a stub in the caller's own image.
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(process) }
        guard let address = dlsym(process, symbol) else { return nil }
        guard let mapped = mappedFile(containing: UInt(bitPattern: address)), let resolved = realpath(mapped, nil) else { return nil }
        let path = String(cString: resolved)
        free(resolved)
        // With merged /usr a package may list /lib/... or /usr/lib/... for the same file.
        let spellings: Set<String> = path.hasPrefix("/usr/") ? [path, String(path.dropFirst(4))] : [path, "/usr" + path]
        let infoFolder = database + "/info"
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: infoFolder) else { return nil }
        // Each spelling as a whole line ("\n/usr/lib/...\n"), searched in the raw bytes: 7 MB of lists
        // take milliseconds this way, where decoding them as Strings took half a second.
        // (strstr, on the bytes made a C string: the lists hold no NUL.)
        let needles = spellings.map { "\n\($0)\n" }
        for file in files.sorted() where file.hasSuffix(".list") {
            guard let handle = FileHandle(forReadingAtPath: infoFolder + "/" + file),
                  let data = try? handle.readToEnd() else { continue }
            try? handle.close()
            // A newline before the first line, so that it matches like the others, and a NUL after.
            var listed = [UInt8](repeating: 0x0A, count: 1)
            listed.append(contentsOf: data)
            listed.append(0)
            let found = listed.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
                    needles.contains { strstr(text, $0) != nil }
                }
            }
            guard found else { continue }
            let qualified = String(file.dropLast(".list".count))
            let parts = qualified.split(separator: ":", maxSplits: 1).map(String.init)
            guard let version = version(of: parts[0], architecture: parts.count > 1 ? parts[1] : nil, status: database + "/status") else { return nil }
            return "\(parts[0]) \(version)"
        }
        return nil
    }

    /// The file mapped at `address` in this process, from `/proc/self/maps` (`start-end perms offset
    /// device inode path`); `nil` where there is no such file (not Linux, anonymous memory).
    static func mappedFile(containing address: UInt) -> String? {
        // Read to the end with stdio: /proc files report size 0, and a read sized by stat gets only
        // the first page.
        guard let file = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(file) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        var lines: [String] = []
        while getline(&buffer, &capacity, file) > 0, let buffer {
            lines.append(String(cString: buffer).trimmingCharacters(in: .newlines))
        }
        for line in lines {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            // The path is the rest of the line after the padding that follows the inode.
            guard fields.count == 6 else { continue }
            let path = fields[5].drop { $0 == " " }
            guard path.hasPrefix("/") else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                  start <= address, address < end else { continue }
            return String(path)
        }
        return nil
    }

    /// The `Version:` of the installed package `package` (of `architecture`, when given) in dpkg's
    /// status file.
    static func version(of package: String, architecture: String?, status: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: status), let data = try? handle.readToEnd() else { return nil }
        try? handle.close()
        // Only the stanzas of this package are parsed: the file holds every installed package.
        let text = "\n" + String(decoding: data, as: UTF8.self)
        var searchFrom = text.startIndex
        while let start = text.range(of: "\nPackage: \(package)\n", range: searchFrom..<text.endIndex) {
            let end = text.range(of: "\n\n", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
            searchFrom = start.upperBound
            var fields: [Substring: Substring] = [:]
            for line in text[start.lowerBound..<end].split(separator: "\n") where !line.hasPrefix(" ") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon]] = line[line.index(after: colon)...].drop { $0 == " " }
            }
            guard architecture == nil || fields["Architecture"].map(String.init) == architecture,
                  fields["Status"]?.hasSuffix("installed") == true,
                  let version = fields["Version"] else { continue }
            return String(version)
        }
        return nil
    }

}
