#pragma once
// Internal to core/outline: from the query's raw matches to an Outline (dedup, nesting,
// qualified names, lines, signatures). Independent of tree-sitter, so it builds without it.

#include "core/outline/outline.hpp"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace sutra::core::outline {

struct ByteSpan {
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// One match of a language's outline query (core/outline/queries/*.scm).
struct RawSymbol {
    std::string_view kind;            ///< the suffix of the @definition.KIND capture
    ByteSpan range;                   ///< the @definition node
    ByteSpan name;                    ///< the @name node
    std::optional<ByteSpan> body;     ///< the @body node
    std::optional<ByteSpan> receiver; ///< Go's @receiver: the method's qualifier
    std::size_t pattern = 0;          ///< which query pattern matched (earlier wins ties)
};

Outline build_outline(std::string_view text,
                      Language language,
                      std::vector<RawSymbol> raw,
                      std::vector<std::size_t> error_lines);

} // namespace sutra::core::outline
