// The outline in a build without tree-sitter (npm was unreachable at configure time, or
// SUTRA_OUTLINE=OFF): every call says so. `sutra read` does not need this.

#include "core/outline/outline.hpp"

namespace sutra::core::outline {
namespace {

std::string unavailable() {
    return "outlines are unavailable in this build: tree-sitter could not be fetched at "
           "configure time (see docs/outline.md)";
}

} // namespace

bool outline_available() {
    return false;
}

std::expected<std::vector<std::size_t>, std::string>
parse_error_lines(std::string_view, Language, std::size_t) {
    return std::unexpected(unavailable());
}

std::expected<Outline, std::string> outline_source(std::string_view, Language) {
    return std::unexpected(unavailable());
}

} // namespace sutra::core::outline
