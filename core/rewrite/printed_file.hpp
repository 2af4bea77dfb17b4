#pragma once
// A printed file comes back whole (issue 25, docs/contract.md "Printed files"): when the command
// prints files (`cat`, `head`, `tail`, `sed -n`, `nl`, pagers, `git show REV:path`) or the output
// reads as source code, every line is meant, so it passes byte for byte up to the view ceiling.
// Past the ceiling the view is the file's outline: each symbol's first line, as the original
// has it, with one marker per run of lines between them, each with its exact restore call.
//
// The outline itself comes from tree-sitter (core/outline), which the core library does not
// link: the front ends that do (the `sutra` binary) hand it in as Request::outline_lines. A front
// end without one (the hook dispatcher) gets the ordinary rewrite past the ceiling.

#include "core/request.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/marker.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace sutra::core {

/// The file a command prints, as its command line names it (`src/a.cpp` for `cat src/a.cpp`,
/// `a/b.py` for `git show HEAD~1:a/b.py`); "" when the command prints no single file.
std::string printed_file_name(std::string_view command);

/// True when `text` reads as source code: most of its first lines look like code (they end in
/// `{`, `}`, `;` or `:`, open with a keyword or a comment, or are indented under such a
/// line) and none is a located diagnostic or a test verdict.
bool reads_as_source(std::string_view text);

/// True when every line of `output` is meant: the command prints a file, or the output reads as
/// source code.
bool is_printed_file(const Request& req, std::string_view output);

/// The outline view of a printed file past the ceiling: the lines `outline_lines` names kept
/// whole, everything between them in markers (Reason::outside_outline). Deeper symbols are
/// dropped first, then the last ones, until the view fits `ceiling` (measured with `measure`).
/// nullopt when there is nothing to outline.
std::optional<Plan> outline_plan(std::string_view bytes,
                                 const LineIndex& lines,
                                 const std::vector<OutlineLine>& outline_lines,
                                 std::uint64_t ceiling,
                                 const MarkerContext& measure);

} // namespace sutra::core
