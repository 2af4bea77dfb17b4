#pragma once
// Reading a source file for `sutra outline`, `symbol` and `read`: bounded, text only, and
// addressed by one-based inclusive line ranges that map to exact byte ranges.

#include "core/lines.hpp"

#include <cstddef>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core::outline {

/// Files larger than this are refused rather than read: an outline of a 16 MiB file is not
/// something a model should be handed, and it bounds memory.
constexpr std::size_t k_max_source_bytes = std::size_t{16} << 20;

/// The whole file. Errors (messages name the file as given): it cannot be opened or is not a
/// regular file, it is larger than k_max_source_bytes, or it holds a NUL byte (binary).
std::expected<std::string, std::string> read_source_file(const std::string& path);

/// One-based, inclusive.
struct LineRange {
    std::size_t first = 0;
    std::size_t last = 0;
};

/// "A-B[,C-D...]", each part "A-B" or "A"; 1 <= A <= B. Errors say what is wrong with which part.
std::expected<std::vector<LineRange>, std::string> parse_line_ranges(std::string_view spec);

/// The exact bytes of each range, concatenated in the order given (a last line without '\n'
/// stays without one). A range past the last line is an error that names the line count.
std::expected<std::string, std::string>
read_lines(std::string_view text, const LineIndex& lines, const std::vector<LineRange>& ranges);

/// The one-based line holding byte `offset` (offsets at or past the end give the last line).
std::size_t line_of(const LineIndex& lines, std::size_t offset);

} // namespace sutra::core::outline
