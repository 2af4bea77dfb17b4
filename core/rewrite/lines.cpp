#include "core/rewrite/lines.hpp"

#include "core/util/byte_scan.hpp"

#include <cstdint>
#include <cstring>
#include <sys/mman.h>

namespace sutra::core {

void advise_huge_pages(const void* data, std::size_t bytes) noexcept {
    constexpr std::uintptr_t huge = 2u << 20;
    if (bytes < 2 * huge) return;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + huge - 1) & ~(huge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(huge - 1);
    // Advice only: where the kernel has no huge pages to give, nothing changes.
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

LineIndex index_lines(std::string_view s) {
    LineIndex index;
    if (s.empty()) {
        index.starts.push_back(0);
        return index;
    }
    // Counted first, so the index is never regrown (a copy of all of it, each time): a million
    // one-byte lines need a million entries, a log of long lines far fewer.
    reserve_huge(index.starts, count_newlines(s) + 2);
    index.starts.push_back(0);
    for_each_newline(s, [&](std::size_t pos) {
        if (pos + 1 < s.size()) index.starts.push_back(pos + 1);
        return true;
    });
    index.starts.push_back(s.size());
    return index;
}

bool has_noise(std::string_view line) {
    if (std::memchr(line.data(), 0x1B, line.size())) return true;
    const void* cr = std::memchr(line.data(), '\r', line.size());
    if (!cr) return false;
    const auto pos = static_cast<std::size_t>(static_cast<const char*>(cr) - line.data());
    // A lone CRLF ending is not noise.
    return !(pos + 2 == line.size() && line[pos + 1] == '\n');
}

namespace {

// Length of the escape sequence starting at s[i] (s[i] == ESC), up to the end of s.
std::size_t escape_length(std::string_view s, std::size_t i) {
    std::size_t j = i + 1;
    if (j >= s.size()) return 1;
    const char kind = s[j];
    if (kind == '[') { // CSI: parameters and intermediates, then a final byte 0x40-0x7E
        ++j;
        while (j < s.size()) {
            const auto c = static_cast<unsigned char>(s[j]);
            ++j;
            if (c >= 0x40 && c <= 0x7E) break;
            if (c < 0x20 && c != 0x1B) continue;
        }
        return j - i;
    }
    if (kind == ']' || kind == 'P' || kind == '_' || kind == '^' || kind == 'X') {
        // OSC/DCS/APC/PM/SOS: up to BEL or ST (ESC \), or the end of the line.
        ++j;
        while (j < s.size()) {
            if (s[j] == '\a') return j + 1 - i;
            if (s[j] == 0x1B && j + 1 < s.size() && s[j + 1] == '\\') return j + 2 - i;
            if (s[j] == '\n') return j - i;
            ++j;
        }
        return j - i;
    }
    if (kind == '(' || kind == ')' || kind == '*' || kind == '+' || kind == '#' || kind == '%')
        return j + 2 <= s.size() ? 3 : s.size() - i;
    return 2; // two-byte sequences: ESC 7, ESC 8, ESC =, ESC M, …
}

} // namespace

std::string clean_line(std::string_view line, Noise& noise) {
    // Split off the line ending, which is kept as it was.
    std::string_view ending;
    std::string_view body = line;
    if (!body.empty() && body.back() == '\n') {
        body.remove_suffix(1);
        ending = line.substr(body.size());
        if (!body.empty() && body.back() == '\r') {
            body.remove_suffix(1);
            ending = line.substr(body.size());
        }
    }
    std::string text;
    text.reserve(body.size());
    for (std::size_t i = 0; i < body.size();) {
        if (body[i] == 0x1B) {
            noise.ansi = true;
            i += escape_length(body, i);
            continue;
        }
        text += body[i++];
    }
    // Carriage returns redraw the line: keep the last segment that shows anything.
    if (text.find('\r') != std::string::npos) {
        noise.redraw = true;
        std::size_t seg_end = text.size();
        while (true) {
            const std::size_t cr = seg_end == 0 ? std::string::npos : text.rfind('\r', seg_end - 1);
            const std::size_t seg_begin = cr == std::string::npos ? 0 : cr + 1;
            if (seg_end > seg_begin || cr == std::string::npos) {
                text = text.substr(seg_begin, seg_end - seg_begin);
                break;
            }
            seg_end = cr;
        }
    }
    text += ending;
    return text;
}

} // namespace sutra::core
