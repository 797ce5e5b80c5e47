import Foundation

/// Shell-style wildcard matching for vector, case and mutation ids: the C library's `fnmatch(3)`
/// (POSIX), with no flags: `*` any run of characters, `/` included, `?` one character, `[...]` one of
/// a set, `\` quotes the next character. (Issue 61: this was a matcher of our own for `*` and `?`.)
package enum Glob {
    package static func matches(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}
