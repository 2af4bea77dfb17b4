#pragma once
// What a diagnostic line looks like, on its own: whether it names a place, warns, states a
// finding by a label or a code, explains another (a compiler's `note:`), or rules off a section;
// and the level all that gives it. Shared by the in-memory rewrite (core/rewrite/text_rewrite.cpp)
// and the streaming planner of `sutra exec` (core/exec/exec_stream.cpp), so a rule about lines
// lands in one place.

#include "core/rewrite/classify.hpp"

#include <cstddef>
#include <string_view>

namespace sutra::core {

/// "warn" in any case, or the warning mark `⚠`.
bool mentions_warning(std::string_view line);

/// A finding in the GNU form that names no severity word: `FILE:12:5: LABEL: …` or
/// `FILE:12:5: CODE …` (cppcheck's `style:`, pylint's `E1120:`, flake8's `E711`).
bool is_labelled_finding(std::string_view line);

/// A row in the GNU form, `PATH:LINE:COL: message`, perhaps indented, with no severity word or
/// code (luacheck, go vet): a finding at its place. (A match listing's `path:12:5:code` has no
/// blank after the column.)
bool is_gnu_finding(std::string_view line);

/// A finding named by its file and line alone, its message in words right after them
/// (`pkg/m.py:3: unused import 'os' (90% confidence)`), unlike a grep hit's line of code.
bool is_line_finding(std::string_view line);

/// A row under its file's name opening with its line and column and a severity
/// (`  3:10  warning  'x' is defined but never used  no-unused-vars`).
bool is_row_finding(std::string_view line);

/// What a pair of brackets that ends the line after a blank holds (` [SC2086]` gives `SC2086`,
/// mypy's `  [union-attr]` gives `union-attr`), or empty.
std::string_view trailing_bracket(std::string_view line);

/// Whether a line ends with a check's code in brackets: ` [SC2086]`, ` [E501]`.
bool ends_with_check_code(std::string_view line);

/// A compiler's subordinate diagnostic: `PATH:12:5: note: …`, `  = note: …`, `help: …`.
bool is_subordinate_diagnostic(std::string_view line);

/// pytest's and unittest's rulers: `_____ test_x _____`, `===== FAILURES =====`.
bool is_section_header(std::string_view line);

/// A failure verdict in a vocabulary with no failure word: TAP's `not ok 12 …`.
bool is_failure_verdict(std::string_view line);

/// TeX's error line, flush left: `! Undefined control sequence.`.
bool is_tex_error(std::string_view line);

/// A token that names a file by its path (`src/a.js`, `./lib/x.py`), or a line of at most three
/// words that ends with a file's name (`[warn] index.js`): a checker's verdict about that file.
bool names_file(std::string_view line);

/// A rule or check code: `MD013/line-length`, `E501`, `SC2086` standing as a word, or in
/// brackets `[B101:assert_used]`, `[whitespace/comma]`, or as a call opening a report's header
/// (`  ! eslint(no-debugger): …`).
bool names_rule(std::string_view line);

/// A finding named by its place and its rule, with no severity word: `path:12:5 MD013/…`,
/// `path:12:  text  [whitespace/comma] [4]`, biome's `path:4:7 lint/correctness/noUnused…` (the
/// place opens the line; a column is optional).
bool is_coded_finding(std::string_view line);

/// A line of source code a diagnostic quotes, numbered in a gutter: `   12 |     assert(x);`
/// (gcc, clang, jest's `  > 12 |`), `639\t    assert obj` (bandit, `cat -n`, `nl`). Its words
/// are the program's, not the tool's.
bool is_quoted_code(std::string_view line);

/// An error the output reports, as opposed to a verdict that closes a run (`Fetched … in 2s`,
/// `exited with 0`, `Build files have been written`, `N newly installed`): an error key word,
/// a failure verdict, or an error tag.
bool is_error_report(const KeyMatcher& keys, std::string_view line);

/// Leading blanks after content_start (a tab counts as one): how deep a line sits under the
/// ones above it.
std::size_t indent_of(std::string_view line);

/// A short label in words, a colon and a value on the same line (`left:  10`, `Expected: 5`).
bool is_labelled_value(std::string_view line);

/// A few words and a colon alone (`Failed example:`): a label over the line below it.
bool is_bare_label(std::string_view line);

/// Whether a line under an error can be that error's own message rather than context that
/// repeats from error to error: it has words or values, and is no frame or place (a line that
/// opens with one), quoted source, gutter, caret, box drawing or compiler note.
bool is_own_message_line(std::string_view line);

/// The level of a line taken alone: its key words, raised for a failure verdict, an error tag, a
/// warning that names a place or a file, a labelled or coded finding; a section ruler notable, a
/// subordinate diagnostic at most notable.
Level line_level(const KeyMatcher& keys, std::string_view line);

} // namespace sutra::core
