import Foundation
import Testing
import TrustCore
import TrustVectors

/// What users read when a JSON or pin file is wrong: the problem in words, never Swift's
/// `DecodingError` text or an empty fragment.
@Suite struct FileMessageTests {
    struct Report: Decodable {
        enum Mode: String, Decodable { case cold, warm }
        struct Row: Decodable {
            var backend: String
            var count: Int
            var mode: Mode?
        }
        var version: Int
        var results: [Row]
    }

    func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("file-message-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        return url
    }

    func problem(_ json: String) throws -> String {
        let url = try write(json)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try FileProblem.decodeJSON(Report.self, from: url, shape: "a test report")
        } catch let problem as FileProblem {
            #expect(problem.file == url.path)
            return problem.problem
        }
        Issue.record("\(json.debugDescription) decoded")
        return ""
    }

    @Test(arguments: [
        ("", "is not a test report: not valid JSON (the file is empty)"),
        ("  \n", "is not a test report: not valid JSON (the text ends before the JSON value does)"),
        ("{\"version\": 1,", "is not a test report: not valid JSON (the text ends before the JSON value does)"),
        ("{\n  \"version\": 1,\n  \"results\": ]\n}", "is not a test report: not valid JSON (invalid value at line 3, column 14)"),
        ("{\"version\": 1, \"results\": [], x}", "is not a test report: not valid JSON (invalid value at line 1, column 31)"),
        ("{\"results\": []}", "is not a test report: missing key \"version\" at the top level"),
        ("{\"version\": 1, \"results\": [{\"count\": 1}]}", "is not a test report: missing key \"backend\" at results[0]"),
        ("{\"version\": \"1\", \"results\": []}", "is not a test report: version should be a whole number, not a string"),
        ("[1]", "is not a test report: the top level should be an object, not a list"),
        ("{\"version\": 1, \"results\": [{\"backend\": 7, \"count\": 1}]}", "is not a test report: results[0].backend should be a string, not a number"),
        ("{\"version\": true, \"results\": []}", "is not a test report: version should be a whole number, not true or false"),
        ("{\"version\": 1, \"results\": {}}", "is not a test report: results should be a list (JSON array), not an object"),
        ("{\"version\": 1, \"results\": [{\"backend\": \"a\", \"count\": 1}, {\"backend\": null, \"count\": 1}]}",
         "is not a test report: results[1].backend should be a string, not null"),
        ("{\"version\": 1, \"results\": [{\"backend\": \"a\", \"count\": 1, \"mode\": \"hot\"}]}",
         "is not a test report: results[0].mode: Cannot initialize Mode from invalid String value hot"),
        ("{\"version\": 1, \"results\": [{\"backend\": \"a\", \"count\": 1.5}]}",
         "is not a test report: a number does not fit its field (a fraction where a whole number belongs, or a number out of the field's range)"),
    ])
    func decodeProblemsAreInWords(json: String, expected: String) throws {
        let problem = try problem(json)
        #expect(problem == expected)
        #expect(!problem.contains("DecodingError") && !problem.contains(": :") && !problem.contains("CodingKeys"))
    }

    @Test func anUnreadableFileIsStillNamed() {
        #expect { _ = try FileProblem.decodeJSON(Report.self, from: URL(fileURLWithPath: "/nonexistent/report.json"), shape: "a test report") } throws: { error in
            "\(error)".hasPrefix("/nonexistent/report.json: cannot be read")
        }
    }

    @Test(arguments: ["# pins for api.example.com\n# none yet\n", "\n\n", "   \n\t\n", "# only a comment", "# sha256/ pins go here\n\n", "# a\r\n\r\n"])
    func aPinFileWithNoPinsSaysSo(text: String) throws {
        let bytes = Array(text.utf8)
        #expect(PinFile.isPinList(bytes))
        #expect { try PinFile.decodePinList(bytes, file: "pins.txt") } throws: { error in
            (error as? CertificateFileError)?.description.hasPrefix("pins.txt: holds no pins (only comments or blank lines)") == true
        }
        let url = try write(text)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect { try PinFile.read(url) } throws: { error in
            (error as? CertificateFileError)?.problem.hasPrefix("holds no pins (only comments or blank lines)") == true
        }
    }

    /// Files that are not pin lists stay certificate files: empty (named empty), PEM, DER, garbage.
    @Test func otherFilesAreNotPinLists() throws {
        #expect(!PinFile.isPinList([]))
        #expect(!PinFile.isPinList(Array("# a bundle\n-----BEGIN CERTIFICATE-----\n".utf8)))
        #expect(!PinFile.isPinList([0x30, 0x82, 0x01, 0x0a]))
        #expect(!PinFile.isPinList(Array("# pins\nnot a pin\n".utf8)))
        #expect(PinFile.isPinList(Array("# pins\nsha256/d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=\n".utf8)))
        let empty = try write("")
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect { try PinFile.read(empty) } throws: { error in (error as? CertificateFileError)?.problem == "is empty" }
    }
}
