#pragma once
// What a diagnostic line looks like, on its own: whether it names a place, warns, states a
// finding by a label or a code, explains another (a compiler's `note:`), or rules off a section;
// and the level all that gives it. Shared by the in-memory rewrite (core/text_rewrite.cpp) and
// the streaming planner of `sutra exec` (core/exec_stream.cpp), so a rule about lines lands in
// one place.

#include "core/classify.hpp"

#include <cstddef>
#include <string_view>

namespace sutra::core {

/// A source location: NAME:12: or NAME:12:5, NAME(12,5), "line 12", or a stylish linter's row
/// that opens with LINE:COL under its file's name (eslint, stylelint: `  12:5  error  …`).
bool has_location(std::string_view line);

/// "warn" in any case, or the warning mark `⚠`.
bool mentions_warning(std::string_view line);

/// A finding in the GNU form that names no severity word: `FILE:12:5: LABEL: …` or
/// `FILE:12:5: CODE …` (cppcheck's `style:`, pylint's `E1120:`, flake8's `E711`).
bool is_labelled_finding(std::string_view line);

/// A compiler's subordinate diagnostic: `PATH:12:5: note: …`, `  = note: …`, `help: …`.
bool is_subordinate_diagnostic(std::string_view line);

/// pytest's and unittest's rulers: `_____ test_x _____`, `===== FAILURES =====`.
bool is_section_header(std::string_view line);

/// Leading blanks (a tab counts as one): how deep a line sits under the ones above it.
std::size_t indent_of(std::string_view line);

/// The level of a line taken alone: its key words, raised for a located warning or a labelled
/// finding, a section ruler notable, a subordinate diagnostic at most notable.
Level line_level(const KeyMatcher& keys, std::string_view line);

} // namespace sutra::core
