// Symbol lookup by name, and the nearest names for a miss (lookup.hpp).

#include "core/outline/lookup.hpp"

#include <algorithm>
#include <numeric>

namespace sutra::core::outline {
namespace {

std::string dotted(std::string_view name) {
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name.compare(i, 2, "::") == 0) {
            out += '.';
            ++i;
        } else {
            out += name[i];
        }
    }
    return out;
}

std::string_view last_part(std::string_view qualified) {
    const std::size_t dot = qualified.rfind('.');
    return dot == std::string_view::npos ? qualified : qualified.substr(dot + 1);
}

} // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] =
                std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::vector<std::size_t> find_symbols(const Outline& outline, const SymbolQuery& query) {
    const std::string want = dotted(query.name);
    std::vector<std::size_t> exact, suffix;
    for (std::size_t i = 0; i < outline.symbols.size(); ++i) {
        const Symbol& s = outline.symbols[i];
        if (!query.kind.empty() && s.kind != query.kind) continue;
        if (query.line && (*query.line < s.first_line || *query.line > s.last_line)) continue;
        if (s.qualified == want) {
            exact.push_back(i);
        } else if (s.qualified.size() > want.size() && s.qualified.ends_with(want) &&
                   s.qualified[s.qualified.size() - want.size() - 1] == '.') {
            suffix.push_back(i);
        }
    }
    std::vector<std::size_t> found = exact.empty() ? std::move(suffix) : std::move(exact);
    if (query.line && found.size() > 1) {
        // Several symbols hold the line when they nest: the innermost is meant.
        const auto inner = std::ranges::max_element(
            found, {}, [&](std::size_t i) { return outline.symbols[i].depth; });
        found = {*inner};
    }
    return found;
}

std::vector<std::string>
closest_names(const Outline& outline, std::string_view name, std::size_t limit) {
    const std::string want = dotted(name);
    std::vector<std::pair<std::size_t, std::size_t>> scored; // (distance, index)
    for (std::size_t i = 0; i < outline.symbols.size(); ++i) {
        const std::string& q = outline.symbols[i].qualified;
        scored.emplace_back(
            std::min(edit_distance(want, q), edit_distance(last_part(want), last_part(q))), i);
    }
    std::ranges::stable_sort(scored, {}, &std::pair<std::size_t, std::size_t>::first);
    std::vector<std::string> names;
    for (const auto& [_, i] : scored) {
        const std::string& q = outline.symbols[i].qualified;
        if (std::ranges::find(names, q) != names.end()) continue;
        names.push_back(q);
        if (names.size() == limit) break;
    }
    return names;
}

} // namespace sutra::core::outline
