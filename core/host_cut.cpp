// The host's own cut (core/host_cut.hpp).
#include "core/host_cut.hpp"

#include <algorithm>
#include <charconv>

namespace sutra::core {

namespace {

bool parse_u64(std::string_view s, std::uint64_t& out) {
    if (s.empty() || s.size() > 12) return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

// The window's size, and the head and tail shown of it (0 and 0: all of it).
struct Shown {
    std::uint64_t window;
    std::uint64_t head;
    std::uint64_t tail;
};

Shown shown(const HostCut& cut, std::uint64_t size) {
    const std::uint64_t window = cut.known && cut.window > 0 ? std::min(size, cut.window) : size;
    if (!cut.known || window <= cut.over) return {window, window, 0};
    const std::uint64_t head = std::min(cut.head, window);
    return {window, head, std::min(cut.tail, window - head)};
}

} // namespace

std::optional<HostCut> parse_host_cut(std::string_view spec) {
    HostCut cut;
    cut.known = true;
    std::uint64_t* fields[] = {&cut.over, &cut.head, &cut.tail, &cut.window};
    std::size_t n = 0;
    while (n < 4) {
        const std::size_t colon = spec.find(':');
        if (!parse_u64(spec.substr(0, colon), *fields[n++])) return std::nullopt;
        if (colon == std::string_view::npos) break;
        spec.remove_prefix(colon + 1);
        if (n == 4) return std::nullopt;
    }
    if (n < 3) return std::nullopt;
    return cut;
}

std::uint64_t host_shown_bytes(const HostCut& cut, std::uint64_t size) {
    const Shown s = shown(cut, size);
    return s.head + s.tail;
}

std::string host_shown_text(const HostCut& cut, std::string_view output) {
    const Shown s = shown(cut, output.size());
    std::string text(output.substr(0, s.head));
    text += output.substr(s.window - s.tail, s.tail);
    return text;
}

} // namespace sutra::core
