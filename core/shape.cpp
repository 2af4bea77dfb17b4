#include "core/shape.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/json_rewrite.hpp"
#include "core/utf8.hpp"

namespace sutra::core {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Calls f(line) for each line (without its '\n'); stops when f returns false.
template <class F> void each_line(std::string_view s, F&& f) {
    std::size_t pos = 0;
    while (pos < s.size()) {
        const void* nl = std::memchr(s.data() + pos, '\n', s.size() - pos);
        const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - s.data())
                                   : s.size();
        if (!f(s.substr(pos, end - pos))) return;
        pos = end + 1;
    }
}

bool is_hunk_header(std::string_view line) {
    // @@ -12,5 +12,7 @@ (counts optional)
    if (!starts_with(line, "@@ -")) return false;
    std::size_t i = 4;
    auto digits = [&] {
        const std::size_t b = i;
        while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
        return i > b;
    };
    if (!digits()) return false;
    if (i < line.size() && line[i] == ',') ++i, digits();
    if (line.substr(i, 2) != " +") return false;
    i += 2;
    if (!digits()) return false;
    if (i < line.size() && line[i] == ',') ++i, digits();
    return line.substr(i, 3) == " @@";
}

} // namespace

namespace {

// Positions where `needle` occurs at the start of a line, found with memmem (vectorised), so a
// 100 MB log is scanned in milliseconds.
template <class F> bool any_at_line_start(std::string_view s, std::string_view needle, F&& check) {
    std::size_t pos = 0;
    while (pos < s.size()) {
        const void* hit = ::memmem(s.data() + pos, s.size() - pos, needle.data(), needle.size());
        if (!hit) return false;
        const auto at = static_cast<std::size_t>(static_cast<const char*>(hit) - s.data());
        if ((at == 0 || s[at - 1] == '\n') && check(at)) return true;
        pos = at + 1;
    }
    return false;
}

std::string_view line_at(std::string_view s, std::size_t at) {
    const std::size_t nl = s.find('\n', at);
    std::string_view l = s.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    return l;
}

} // namespace

bool contains_diff(std::string_view s) {
    if (any_at_line_start(s, "diff --", [&](std::size_t at) {
            const std::string_view l = line_at(s, at);
            return starts_with(l, "diff --git ") || starts_with(l, "diff --cc ") ||
                   starts_with(l, "diff --combined ");
        }))
        return true;
    // "--- a" then "+++ b" then a hunk header.
    if (any_at_line_start(s, "+++ ", [&](std::size_t at) {
            if (at < 2) return false;
            const std::size_t prev = s.rfind('\n', at - 2);
            const std::size_t prev_start = prev == std::string_view::npos ? 0 : prev + 1;
            if (!starts_with(s.substr(prev_start), "--- ")) return false;
            const std::size_t nl = s.find('\n', at);
            return nl != std::string_view::npos && is_hunk_header(line_at(s, nl + 1));
        }))
        return true;
    // format-patch mail: "From <40 hex> Mon Sep 17 00:00:00 2001"
    return any_at_line_start(s, "From ", [&](std::size_t at) {
        const std::string_view l = line_at(s, at);
        return l.size() >= 45 && l.find(" Mon Sep 17 00:00:00 2001") != std::string_view::npos;
    });
}

Shape detect_shape(std::string_view s, std::string_view command) {
    if (s.empty()) return Shape::empty;
    if (looks_binary(s)) return Shape::binary;
    if (contains_diff(s)) return Shape::diff;
    const std::size_t first = s.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && (s[first] == '{' || s[first] == '[') &&
        is_json_document(s))
        return Shape::json;

    // Count evidence for each log kind in one pass over (at most) the first and last 256 KiB.
    int test = 0, trace = 0, build = 0;
    auto scan = [&](std::string_view part) {
        each_line(part, [&](std::string_view l) {
            if (starts_with(l, "Traceback (most recent call last)") || starts_with(l, "panic: ") ||
                starts_with(l, "goroutine ") || starts_with(l, "Exception in thread") ||
                starts_with(l, "\tat ") || starts_with(l, "    at ") ||
                l.find("panicked at") != std::string_view::npos ||
                l.find("==ERROR: AddressSanitizer") != std::string_view::npos ||
                l.find("runtime error:") != std::string_view::npos)
                ++trace;
            if (l.find("test session starts") != std::string_view::npos ||
                starts_with(l, "=== RUN") || starts_with(l, "--- FAIL") ||
                starts_with(l, "--- PASS") || starts_with(l, "test result:") ||
                starts_with(l, "[ RUN      ]") || starts_with(l, "[==========]") ||
                starts_with(l, "Tests:") || starts_with(l, "Test Suites:") ||
                starts_with(l, "Ran ") || l.find(" PASSED") != std::string_view::npos ||
                l.find(" FAILED") != std::string_view::npos ||
                l.find("tests passed") != std::string_view::npos || starts_with(l, "running "))
                ++test;
            if (l.find(": error:") != std::string_view::npos ||
                l.find(": warning:") != std::string_view::npos || starts_with(l, "error[E") ||
                l.find("error TS") != std::string_view::npos || starts_with(l, "make: ***") ||
                starts_with(l, "make[") || starts_with(l, "CMake Error") ||
                starts_with(l, "npm ERR!") || starts_with(l, "npm error") ||
                starts_with(l, "   Compiling ") || l.find("] Building ") != std::string_view::npos ||
                l.find("] Linking ") != std::string_view::npos)
                ++build;
            return true;
        });
    };
    // The label only picks a few rules and names the shape in stats: the ends are evidence enough.
    constexpr std::size_t window = 256u << 10;
    if (s.size() <= 2 * window) {
        scan(s);
    } else {
        scan(s.substr(0, window));
        scan(s.substr(s.size() - window));
    }
    const bool test_cmd = command.find("test") != std::string_view::npos ||
                          command.find("pytest") != std::string_view::npos;
    if (test > 0 && (test >= build || test_cmd)) return Shape::test_log;
    if (trace > 0 && trace >= build) return Shape::traceback;
    if (build > 0) return Shape::build_log;
    if (trace > 0) return Shape::traceback;
    return Shape::text;
}

} // namespace sutra::core
