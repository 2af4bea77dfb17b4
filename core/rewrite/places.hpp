#pragma once
// Where a line names a place in source: every location check is here. Two questions, because the
// rules need both:
//  - is_location: the line is a file place, as a stack frame or the arrow under an error gives it
//    (`path/file.ext:12`, `(File.java:12)`, `File "x.py", line 12`, `--> a.rs:1:2`). The file
//    must have an extension, so a call such as `x.toBe(6)` in a code excerpt is not one. It finds
//    an error's place in the block below it, and continues a diagnostic.
//  - has_location: the line names a place anywhere, with a line and a column or in words
//    (`NAME:12:5`, `NAME:12:`, `NAME(12,5)`, `line 12`, a stylish linter's `  12:5  ` row under
//    its file's name). It makes a warning a located one, and a paragraph's first line the place
//    of the findings under it.
// A file place with one number (`a.c:12`) is a location but names no line and column; `line 12`
// names a place but is no file place: neither question contains the other.

#include <string_view>

namespace sutra::core {

/// `path/file.ext:12`, `file.ext:12:5`, `(File.java:12)`, `File "x.py", line 12`, `--> a.rs:1:2`.
bool is_location(std::string_view line);

/// A source location: NAME:12: or NAME:12:5, NAME(12,5), "line 12", or a stylish linter's row
/// that opens with LINE:COL under its file's name (eslint, stylelint: `  12:5  error  …`).
bool has_location(std::string_view line);

} // namespace sutra::core
