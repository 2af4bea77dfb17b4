#pragma once
// How deeply a JSON text nests, found by one linear scan before any parser sees it.
// nlohmann::json copies, compares and dumps a tree by recursing once per level, so a payload
// nested 100,000 deep (200 KB) overflows the stack in the first copy. Every parse of untrusted
// JSON (MCP lines, hook payloads, files a host or a user may have written) goes through
// `parse_within_nesting`: past the limit the text never becomes a tree, and the caller refuses
// it or passes it through. Header-only, so adapter modules, which never link the core, run the
// very same scan.

#include "core/util/json_fast.hpp"

#include <cstddef>
#include <string_view>

namespace sutra::core {

/// Deeper than any payload a host sends or any file it writes; shallow enough that a recursive
/// copy or dump of the tree stays far from the stack's end, sanitizers included.
inline constexpr std::size_t k_max_json_nesting = 512;

/// The limit for a config file the user wrote (settings.json, .claude.json, opencode.json …) that
/// install reads and writes back: deep enough for any real document (1,000 levels pass), while a
/// tree this deep still copies and dumps well within the stack. Hook payloads keep the limit above.
inline constexpr std::size_t k_max_config_nesting = 2048;

/// True when no array or object in `text` opens more than `limit` levels deep. Brackets inside
/// strings do not count; the text need not be valid JSON (the parser judges that afterwards).
inline bool json_nesting_within(std::string_view text,
                                std::size_t limit = k_max_json_nesting) noexcept {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return false;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return true;
}

/// `Json::parse(text, nullptr, false)` when the text nests within the limit, else a discarded
/// value, as for any text that is not JSON. Never throws on bad input. Read by
/// core/util/json_fast.hpp (the same answer, faster), which recurses once per level: a text
/// nested past k_max_json_nesting (only a config file may be) goes to nlohmann's own parser,
/// which keeps its stack of levels on the heap.
template <class Json>
Json parse_within_nesting(std::string_view text, std::size_t limit = k_max_json_nesting) {
    if (limit <= k_max_json_nesting || json_nesting_within(text, k_max_json_nesting))
        return parse_json_fast<Json>(text, limit);
    if (!json_nesting_within(text, limit)) return Json(Json::value_t::discarded);
    return Json::parse(text, nullptr, false);
}

} // namespace sutra::core
