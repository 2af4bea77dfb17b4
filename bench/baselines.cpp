#include "bench/baselines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace sutra::bench {
namespace {

// Lines with their end offsets; the last line may lack a '\n'.
struct Line {
    std::size_t begin, end; // end includes the '\n'
};

std::vector<Line> split_lines(std::string_view s) {
    std::vector<Line> out;
    std::size_t b = 0;
    while (b < s.size()) {
        const std::size_t nl = s.find('\n', b);
        const std::size_t e = nl == std::string_view::npos ? s.size() : nl + 1;
        out.push_back({b, e});
        b = e;
    }
    return out;
}

bool icontains(std::string_view hay, std::string_view needle) {
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           }) != hay.end();
}

bool contains(std::string_view hay, std::string_view needle) {
    return hay.find(needle) != std::string_view::npos;
}

// Renders kept byte intervals in order, each gap replaced by one omission line.
std::string render_kept(std::string_view s, std::vector<std::pair<std::size_t, std::size_t>> kept) {
    std::sort(kept.begin(), kept.end());
    std::string out;
    std::size_t at = 0;
    auto gap = [&](std::size_t to) {
        if (to <= at) return;
        if (!out.empty() && out.back() != '\n') out += '\n';
        out += fmt::format("[... {} bytes omitted ...]\n", to - at);
    };
    for (auto [b, e] : kept) {
        b = std::max(b, at);
        if (e <= b) continue;
        gap(b);
        out.append(s.substr(b, e - b));
        at = e;
    }
    gap(s.size());
    return out;
}

} // namespace

std::string baseline_raw(std::string_view s) {
    return std::string(s);
}

std::string baseline_head_tail(std::string_view s) {
    constexpr std::size_t half = 4096;
    if (s.size() <= 2 * half) return std::string(s);
    return std::string(s.substr(0, half)) +
           fmt::format("\n... [{} bytes omitted] ...\n", s.size() - 2 * half) +
           std::string(s.substr(s.size() - half));
}

std::string strip_ansi(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\x1b') {
            out += s[i];
            continue;
        }
        if (i + 1 >= s.size()) break;
        const char k = s[i + 1];
        if (k == '[') { // CSI: parameters and intermediates, then one final byte 0x40-0x7e
            std::size_t j = i + 2;
            while (j < s.size() && !(s[j] >= 0x40 && s[j] <= 0x7e)) ++j;
            i = j;
        } else if (k == ']') { // OSC: ends at BEL or ESC '\'
            std::size_t j = i + 2;
            while (j < s.size() && s[j] != '\a' &&
                   !(s[j] == '\x1b' && j + 1 < s.size() && s[j + 1] == '\\'))
                ++j;
            i = (j < s.size() && s[j] == '\x1b') ? j + 1 : j;
        } else {
            i += 1; // a two-byte escape
        }
    }
    return out;
}

std::string baseline_ansi_uniq(std::string_view s) {
    const std::string clean = strip_ansi(s);
    std::string out;
    std::string_view prev;
    bool first = true;
    for (const Line& l : split_lines(clean)) {
        std::string_view line = std::string_view(clean).substr(l.begin, l.end - l.begin);
        std::string_view body = line.substr(0, line.size() - (line.ends_with('\n') ? 1 : 0));
        if (!first && body == prev) continue;
        out.append(line);
        prev = body;
        first = false;
    }
    return out;
}

std::string baseline_ctxctl(std::string_view s) {
    constexpr std::size_t head = 5, tail = 5, threshold = 20;
    const auto lines = split_lines(s);
    if (lines.size() <= threshold) return std::string(s);
    static constexpr std::string_view keep[] = {"error", "warning", "failed", "panic", "fatal"};
    std::string out;
    std::size_t omitted = 0;
    auto flush = [&] {
        if (omitted) out += fmt::format("... [{} lines omitted]\n", omitted);
        omitted = 0;
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = s.substr(lines[i].begin, lines[i].end - lines[i].begin);
        bool kept = i < head || i >= lines.size() - tail;
        for (auto k : keep) kept = kept || icontains(line, k);
        // The implicit keep `^\s+-->` (rustc locations).
        const std::size_t ws = line.find_first_not_of(" \t");
        kept =
            kept || (ws != 0 && ws != std::string_view::npos && line.substr(ws).starts_with("-->"));
        if (!kept) {
            ++omitted;
            continue;
        }
        flush();
        out.append(line);
        if (!out.ends_with('\n')) out += '\n';
    }
    flush();
    return out;
}

std::string baseline_everruns(std::string_view raw, int exit_code) {
    // 1. ANSI, 2. CR-overwritten lines (keep what is left after the last '\r' of a line).
    const std::string clean = strip_ansi(raw);
    std::string s;
    s.reserve(clean.size());
    for (const Line& l : split_lines(clean)) {
        std::string_view line = std::string_view(clean).substr(l.begin, l.end - l.begin);
        const bool nl = line.ends_with('\n');
        if (nl) line.remove_suffix(1);
        if (line.ends_with('\r')) line.remove_suffix(1);
        const std::size_t cr = line.rfind('\r');
        if (cr != std::string_view::npos) line = line.substr(cr + 1);
        s.append(line);
        if (nl) s += '\n';
    }
    // 3. The budget: `auto` is 384 B on success; a failure switches to `normal`, 8 KiB.
    const std::size_t budget = exit_code == 0 ? 384 : 8192;
    const std::string pointer = fmt::format(
        "[full output saved to outputs/call_0001.stdout ({} bytes) — use read_file to see it]\n",
        raw.size());
    if (s.size() <= budget) return s;

    static constexpr std::string_view patterns[] = {
        "error:",        "Error:", "ERROR",       "FAILED", "FAIL",
        "failed",        "panic",  "panicked at", "assert", "Traceback (most recent call last)",
        "--- stderr ---"};
    const auto lines = split_lines(s);
    std::vector<std::pair<std::size_t, std::size_t>> kept;
    std::size_t used = 0;
    // Error regions (±5 lines) first, in order, while the budget lasts.
    std::size_t covered = 0; // lines before this index are already in a region
    for (std::size_t i = 0; i < lines.size() && used < budget; ++i) {
        const std::string_view line =
            std::string_view(s).substr(lines[i].begin, lines[i].end - lines[i].begin);
        bool hit = line.starts_with("E ");
        for (auto p : patterns) hit = hit || contains(line, p);
        if (!hit) continue;
        const std::size_t from = std::max(covered, i >= 5 ? i - 5 : 0);
        const std::size_t to = std::min(lines.size(), i + 6);
        for (std::size_t k = from; k < to; ++k) {
            const std::size_t len = lines[k].end - lines[k].begin;
            if (used + len > budget) break;
            kept.push_back({lines[k].begin, lines[k].end});
            used += len;
            covered = k + 1;
        }
        covered = std::max(covered, to);
    }
    // The rest: 20% head, 80% tail, byte-cut.
    const std::size_t rest = budget - used;
    kept.push_back({0, rest / 5});
    kept.push_back({s.size() - (rest - rest / 5), s.size()});
    return render_kept(s, kept) + pointer;
}

} // namespace sutra::bench
