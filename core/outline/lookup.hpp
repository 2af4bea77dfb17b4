#pragma once
// Finding a symbol by name for `sutra symbol`, and the closest names when there is none.

#include "core/outline/outline.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core::outline {

struct SymbolQuery {
    /// A name (`greet`), or a qualified name (`Greeter.greet`, `Greeter::greet`): it matches a
    /// symbol whose qualified name equals it or ends with '.' + it. When some qualified names
    /// equal it exactly, only those match.
    std::string name;
    std::string kind;                ///< empty: any kind
    std::optional<std::size_t> line; ///< only the symbol whose range holds this line
};

/// Indexes of the matching symbols, in file order. With `line`, the innermost match holding
/// that line.
std::vector<std::size_t> find_symbols(const Outline& outline, const SymbolQuery& query);

/// Up to `limit` distinct qualified names nearest to `name` by edit distance (ties in file
/// order), comparing against both the qualified and the plain name.
std::vector<std::string>
closest_names(const Outline& outline, std::string_view name, std::size_t limit = 5);

/// Levenshtein distance, by bytes.
std::size_t edit_distance(std::string_view a, std::string_view b);

} // namespace sutra::core::outline
