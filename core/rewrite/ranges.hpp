#pragma once
// Ranges as every command names them (`sutra restore --lines/--bytes`, `--critical --lines`,
// `sutra read --lines/--bytes`, the MCP tools), checked by one rule so every mode and front end
// accepts and refuses the same ranges with the same words, and line ranges paged by one rule so
// no answer outgrows its bound.
//
// Lines are one-based and inclusive: `A-B` or `A` (then `A-A`); 0 is no line, a range may not
// run backwards, and its first line must exist; a last line past the end is clamped. Bytes are
// zero-based and half-open: `A-B` may not run backwards, A may be at most the size, and an end
// past the end is clamped.

#include "core/rewrite/lines.hpp"

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sutra::core {

/// Lines first through last, one-based, inclusive.
struct LineSpan {
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    bool operator==(const LineSpan&) const = default;
};

/// "A-B[,C-D...]", each part `A-B` or `A`: the syntax only (what each part says is checked
/// against a text by check_line_span). The error names the malformed part.
std::expected<std::vector<LineSpan>, std::string> parse_line_spans(std::string_view spec);

/// `span` checked against a text of `count` lines, its last line clamped to the end. The error is
/// one line that names the lines that exist.
std::expected<LineSpan, std::string> check_line_span(LineSpan span, std::uint64_t count);

/// Bytes [begin, end) of a text of `size` bytes, the end clamped; the error names the bytes that
/// exist.
std::expected<std::pair<std::uint64_t, std::uint64_t>, std::string>
check_byte_range(std::uint64_t begin, std::uint64_t end, std::uint64_t size);

/// The union of the spans, in line order: lines asked for twice are answered once.
std::vector<LineSpan> merge_line_spans(std::vector<LineSpan> spans);

/// "A-B,C-D" (a one-line span as "A").
std::string format_line_spans(const std::vector<LineSpan>& spans);

/// One bounded page of the lines `spans` (checked and merged) name in `text`.
struct LinePage {
    std::string text;            ///< exact bytes of the original, at most the bound
    std::vector<LineSpan> shown; ///< the lines the page holds whole
    std::vector<LineSpan> next;  ///< the lines still to ask for; empty when done
    /// When the page's first line alone is longer than the bound: the page holds its start, and
    /// these bytes of the original (zero-based, end exclusive) are the rest of it.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> rest;
    std::uint64_t rest_line = 0; ///< the line `rest` belongs to
};

/// Pages end at a line end; a page's first line longer than `max_bytes` is cut on a UTF-8
/// boundary (never to nothing: at least one character), with `rest` naming the remainder.
LinePage page_line_spans(std::string_view text,
                         const LineIndex& lines,
                         const std::vector<LineSpan>& spans,
                         std::uint64_t max_bytes);

} // namespace sutra::core
