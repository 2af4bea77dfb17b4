// A printed file's outline for the compressed view (outline.hpp, printed_file_outline).

#include "core/outline/outline.hpp"

namespace sutra::core::outline {

std::vector<OutlineLine> printed_file_outline(std::string_view text, std::string_view name) {
    const auto language = detect_language(name, text.substr(0, 256 * 1024));
    if (!language) return {};
    const auto outline = outline_source(text, *language);
    if (!outline) return {};
    std::vector<OutlineLine> out;
    out.reserve(outline->symbols.size());
    for (const Symbol& s : outline->symbols) out.push_back({s.first_line, s.depth});
    return out;
}

} // namespace sutra::core::outline
