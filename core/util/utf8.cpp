#include "core/util/utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace sutra::core {
namespace {

bool is_continuation(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

// Length of the well-formed sequence at s[i], or 0 when it is not one.
std::size_t sequence_length(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    std::uint32_t min = 0;
    std::uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0)
        n = 2, min = 0x80, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
        n = 3, min = 0x800, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
        n = 4, min = 0x10000, cp = c & 0x07;
    else
        return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto d = static_cast<unsigned char>(s[i + k]);
        if (!is_continuation(d)) return 0;
        cp = (cp << 6) | (d & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

} // namespace

bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        // Fast path over ASCII, eight bytes at a time.
        while (i + 8 <= s.size()) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            if (w & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= s.size()) break;
        const std::size_t n = sequence_length(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::size_t utf8_floor(std::string_view s, std::size_t pos) {
    pos = std::min(pos, s.size());
    for (int k = 0;
         k < 3 && pos > 0 && pos < s.size() && is_continuation(static_cast<unsigned char>(s[pos]));
         ++k)
        --pos;
    return pos;
}

std::size_t utf8_ceil(std::string_view s, std::size_t pos) {
    pos = std::min(pos, s.size());
    for (int k = 0; k < 3 && pos < s.size() && is_continuation(static_cast<unsigned char>(s[pos]));
         ++k)
        ++pos;
    return pos;
}

bool looks_binary(std::string_view s) {
    const std::string_view head = s.substr(0, 65536);
    if (head.find('\0') != std::string_view::npos) return true;
    std::size_t bad = 0;
    std::size_t i = 0;
    while (i < head.size()) {
        // Fast path over printable ASCII, eight bytes at a time.
        while (i + 8 <= head.size()) {
            std::uint64_t w;
            std::memcpy(&w, head.data() + i, 8);
            // Any byte >= 0x80 or < 0x20 leaves the fast path.
            if ((w & 0x8080808080808080ull) ||
                ((w - 0x2020202020202020ull) & ~w & 0x8080808080808080ull))
                break;
            i += 8;
        }
        if (i >= head.size()) break;
        const auto c = static_cast<unsigned char>(head[i]);
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1B && c != '\b' &&
            c != '\f' && c != '\v') {
            ++bad, ++i;
            continue;
        }
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t n = sequence_length(head, i);
        // A sequence cut by the 64 KiB window is not evidence of binary.
        if (n == 0 && i + 4 > head.size() && head.size() < s.size()) break;
        if (n == 0) ++bad, n = 1;
        i += n;
    }
    // More than 1 in 32 bytes invalid: binary (a few stray Latin-1 bytes are still text).
    return bad * 32 > head.size();
}

std::size_t split_utf8_tail(std::string_view s) {
    const std::size_t n = s.size();
    for (std::size_t k = 1; k <= 3 && k <= n; ++k) {
        const auto c = static_cast<unsigned char>(s[n - k]);
        if ((c & 0xC0) == 0x80) continue;
        const std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        return len > k ? k : 0;
    }
    return 0;
}

std::size_t first_invalid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        std::size_t n = 1;
        while (n <= 4 && !(i + n <= s.size() && valid_utf8(s.substr(i, n)))) ++n;
        if (n > 4) return i;
        i += n;
    }
    return i;
}

} // namespace sutra::core
