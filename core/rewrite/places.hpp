#pragma once
// Where a line names a place in source: every location check is here. Two questions, because the
// rules need both:
//  - is_file_place: the line is a file place, as a stack frame or the arrow under an error gives it
//    (`path/file.ext:12`, `(File.java:12)`, `File "x.py", line 12`, `--> a.rs:1:2`). The file
//    must have an extension, so a call such as `x.toBe(6)` in a code excerpt is not one. It finds
//    an error's place in the block below it, and continues a diagnostic.
//  - names_place: the line names a place anywhere, with a line and a column or in words
//    (`NAME:12:5`, `NAME:12:`, `NAME(12,5)`, `line 12`, a stylish linter's `  12:5  ` row under
//    its file's name). It makes a warning a located one, and a paragraph's first line the place
//    of the findings under it.
// A file place with one number (`a.c:12`) is a location but names no line and column; `line 12`
// names a place but is no file place: neither question contains the other.
// Answering both with their union was measured on the corpus (tests/data/real, 53 cases): the
// view of http_server_log doubled (2,585 to 5,621 o200k tokens: its request lines read as
// places) and StreamPlanner.KeyLinesAreShownFirstAndLastAndTheRestCounted failed.

#include <string_view>

namespace sutra::core {

/// `path/file.ext:12`, `file.ext:12:5`, `(File.java:12)`, `File "x.py", line 12`, `--> a.rs:1:2`.
bool is_file_place(std::string_view line);

/// Whether a word of the line is a file name with an extension (`paths.bats,`, `t/02-title.t`,
/// `(main.c`): what tells a place named in words (`line 66`) from a count of lines.
bool names_file_name(std::string_view line);

/// A file's name and a line number in words, the file right before `line N`: perl's `… at
/// mod018.pl line 8.`, PHP's `… in /srv/a.php on line 12`, Tcl's `(file "app.tcl" line 12)`;
/// or the file opening the line before a colon (perlcritic's `lib/A.pm: … at line 5, column 1.`).
bool names_file_line(std::string_view line);

/// A source location: NAME:12: or NAME:12:5, NAME(12,5), "line 12", or a stylish linter's row
/// that opens with LINE:COL under its file's name (eslint, stylelint: `  12:5  error  …`).
bool names_place(std::string_view line);

} // namespace sutra::core
