#pragma once
// JSON views: the document is scanned with byte offsets (our own scanner, so every elision can
// name its range in the original) and re-encoded. Long strings lose their middle; large arrays
// (and, when that is not enough, large objects below the top level) keep their first and last
// items plus one marker element; items and string parts holding a key word (an error, a
// failure, an eslint `"severity": 2` entry) are kept too, between markers. The view aims for a
// target size and is tightened until it is within a hard ceiling. It is valid JSON of the same
// top-level type; formatting is normalised (compact stays compact, indented becomes 2-space).

#include "core/rewrite/classify.hpp"
#include "core/rewrite/marker.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace sutra::core {

struct JsonOptions {
    std::uint64_t target_bytes = 8192; ///< aim for a view this size (tightens until it fits)
    /// Never more than this, if the document allows: key items then give way (as many stay as
    /// fit, evenly spread), then every limit goes to nothing, then the top level's members fold.
    std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t max_string_bytes = 1024; ///< longer string values lose their middle
    std::uint64_t array_head = 3;          ///< items kept at the start of a large array
    std::uint64_t array_tail = 2;          ///< items kept at the end
    bool elide_arrays = true;              ///< only when the original is retained
    std::uint32_t max_depth = 256;         ///< deeper documents are not rewritten
    std::uint64_t max_nodes = 4'000'000;   ///< larger documents are not rewritten
    MarkerContext measure;                 ///< placeholder context used to measure markers
    /// Key words (errors, failures, the user's keep patterns): array items holding one stay in
    /// the view between markers, and so does the part of a long string around one. Optional.
    const KeyMatcher* keys = nullptr;
};

/// True when the bytes are one complete JSON document (RFC 8259, surrounding whitespace allowed)
/// whose top level is an object or an array, within the depth and node limits.
bool is_json_document(std::string_view bytes,
                      std::uint32_t max_depth = 256,
                      std::uint64_t max_nodes = 4'000'000);

/// Plans a JSON view, or nullopt when the bytes are not such a document, exceed a limit, or
/// nothing can be elided. Elision ranges are raw byte ranges of the original document.
std::optional<Plan> rewrite_json(std::string_view bytes, const JsonOptions& options);

/// As rewrite_json, for output whose lines of text end at `start` and whose rest is one JSON
/// document (a warning on stderr, then a tool's JSON, as agents capture them): the text stays as
/// it is, ahead of the document's view. Ranges and line numbers are the whole output's, and the
/// text counts towards the sizes. Nullopt also when `start` is not just after a newline.
std::optional<Plan>
rewrite_json_after_text(std::string_view bytes, std::size_t start, const JsonOptions& options);

} // namespace sutra::core
