#pragma once
// JSON views: the document is scanned with byte offsets (our own scanner, so every elision can
// name its range in the original) and re-encoded. Long strings lose their middle; large arrays
// keep their first and last items plus one marker element; items and string parts holding a
// key word (an error, a failure) are kept too, between markers. The view is valid JSON of the same
// top-level type; formatting is normalised (compact stays compact, indented becomes 2-space).

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/classify.hpp"
#include "core/marker.hpp"

namespace sutra::core {

struct JsonOptions {
    std::uint64_t target_bytes = 8192;       ///< aim for a view this size (tightens until it fits)
    std::uint64_t max_string_bytes = 1024;   ///< longer string values lose their middle
    std::uint64_t array_head = 3;            ///< items kept at the start of a large array
    std::uint64_t array_tail = 2;            ///< items kept at the end
    bool elide_arrays = true;                ///< only when the original is retained
    std::uint32_t max_depth = 256;           ///< deeper documents are not rewritten
    std::uint64_t max_nodes = 4'000'000;     ///< larger documents are not rewritten
    MarkerContext measure;                   ///< placeholder context used to measure markers
    /// Key words (errors, failures, the user's keep patterns): array items holding one stay in
    /// the view between markers, and so does the part of a long string around one. Optional.
    const KeyMatcher* keys = nullptr;
};

/// True when the bytes are one complete JSON document (RFC 8259, surrounding whitespace allowed)
/// whose top level is an object or an array, within the depth and node limits.
bool is_json_document(std::string_view bytes, std::uint32_t max_depth = 256,
                      std::uint64_t max_nodes = 4'000'000);

/// Plans a JSON view, or nullopt when the bytes are not such a document, exceed a limit, or
/// nothing can be elided. Elision ranges are raw byte ranges of the original document.
std::optional<Plan> rewrite_json(std::string_view bytes, const JsonOptions& options);

} // namespace sutra::core
