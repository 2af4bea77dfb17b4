#include "core/rewrite/shape.hpp"

#include "core/rewrite/json_rewrite.hpp"
#include "core/util/byte_scan.hpp"
#include "core/util/utf8.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

namespace sutra::core {
namespace {

bool starts_with(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

// Calls f(line) for each line (without its '\n'); stops when f returns false.
template <class F> void each_line(std::string_view s, F&& f) {
    std::size_t pos = 0;
    const bool whole = for_each_newline(s, [&](std::size_t end) {
        const std::string_view line = s.substr(pos, end - pos);
        pos = end + 1;
        return f(line);
    });
    if (whole && pos < s.size()) f(s.substr(pos));
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

bool contains_diff(std::string_view s) {
    // Only lines beginning with 'd', '@', 'D' or 'F' need a look, so the loop over line starts
    // does nothing else; a hunk header looks back at the two lines before it itself.
    const auto line_at = [&](std::size_t begin) {
        const std::size_t end = std::min(s.find('\n', begin), s.size());
        std::string_view line = s.substr(begin, end - begin);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        return line;
    };
    // The start of the line before the one starting at `begin` (> 0).
    const auto line_before = [&](std::size_t begin) {
        const std::size_t newline = begin >= 2 ? s.rfind('\n', begin - 2) : std::string_view::npos;
        return newline == std::string_view::npos ? 0 : newline + 1;
    };
    const auto diff_at = [&](std::size_t begin) {
        const std::string_view line = line_at(begin);
        switch (line.empty() ? '\0' : line[0]) {
        case 'd':
            return starts_with(line, "diff --git ") || starts_with(line, "diff --cc ") ||
                   starts_with(line, "diff --combined ");
        case '@': {
            // "--- a" then "+++ b" then a hunk header.
            if (begin == 0 || !is_hunk_header(line)) return false;
            const std::size_t prev = line_before(begin);
            return prev > 0 && starts_with(line_at(prev), "+++ ") &&
                   starts_with(line_at(line_before(prev)), "--- ");
        }
        case 'D': {
            // rustfmt's (`cargo fmt --check`): "Diff in src/lib.rs:12:" or "Diff in src/lib.rs at
            // line 12:", then the changed lines, perhaps coloured.
            if (!starts_with(line, "Diff in ") || line.size() < 12 || line.back() != ':')
                return false;
            std::size_t d = line.size() - 1;
            while (d > 8 && line[d - 1] >= '0' && line[d - 1] <= '9') --d;
            if (d == line.size() - 1 ||
                !(line[d - 1] == ':' || line.substr(0, d).ends_with(" at line ")))
                return false;
            const std::size_t newline = s.find('\n', begin);
            if (newline == std::string_view::npos) return false;
            std::string_view next = line_at(newline + 1);
            while (next.starts_with("\x1b[")) { // a colour before the sign
                const std::size_t m = next.find('m');
                if (m == std::string_view::npos) return false;
                next.remove_prefix(m + 1);
            }
            return !next.empty() && (next[0] == '-' || next[0] == '+' || next[0] == ' ');
        }
        case 'F':
            // format-patch mail: "From <40 hex> Mon Sep 17 00:00:00 2001"
            return starts_with(line, "From ") && line.size() >= 45 &&
                   line.find(" Mon Sep 17 00:00:00 2001") != std::string_view::npos;
        default:
            return false;
        }
    };
    return !for_each_line_starting_with(s, "d@DF",
                                        [&](std::size_t begin) { return !diff_at(begin); });
}

std::size_t json_after_text(std::string_view s) {
    std::size_t pos = s.find('\n');
    for (std::size_t line = 1; line < k_json_after_text_lines && pos != std::string_view::npos;
         ++line) {
        const std::size_t start = pos + 1;
        if (start >= s.size() || start > s.size() - start) break; // the text outweighs the rest
        if ((s[start] == '{' || s[start] == '[') && is_json_document(s.substr(start))) return start;
        pos = s.find('\n', start);
    }
    return std::string_view::npos;
}

Shape detect_shape(std::string_view s, std::string_view command) {
    if (s.empty()) return Shape::empty;
    if (looks_binary(s)) return Shape::binary;
    if (contains_diff(s)) return Shape::diff;
    // Not find_first_not_of: it calls memchr for each byte, a million times on blank lines.
    const std::size_t first = skip_blank(s);
    if (first < s.size() && (s[first] == '{' || s[first] == '[') && is_json_document(s))
        return Shape::json;

    // Count evidence for each log kind in one pass over (at most) the first and last 32 KiB.
    int test = 0, trace = 0, build = 0;
    auto scan = [&](std::string_view part) {
        each_line(part, [&](std::string_view l) {
            if (l.empty()) return true;
            auto has = [&](std::string_view needle) {
                return l.find(needle) != std::string_view::npos;
            };
            const bool colon = std::memchr(l.data(), ':', l.size()) != nullptr;
            // Line openings first (one switch), then substrings only where a cheap gate holds.
            switch (l[0]) {
            case 'T':
                trace += starts_with(l, "Traceback (most recent call last)");
                break;
            case 'p':
                trace += starts_with(l, "panic: ");
                break;
            case 'g':
                trace += starts_with(l, "goroutine ");
                break;
            case 'E':
                trace += starts_with(l, "Exception in thread");
                break;
            case '\t':
                trace += starts_with(l, "\tat ");
                break;
            case ' ':
                trace += starts_with(l, "    at ");
                build += starts_with(l, "   Compiling ");
                break;
            case '=':
                test += starts_with(l, "=== RUN");
                break;
            case '-':
                test += starts_with(l, "--- FAIL") || starts_with(l, "--- PASS");
                break;
            case 't':
                test += starts_with(l, "test result:");
                break;
            case 'R':
                test += starts_with(l, "Ran ");
                break;
            case 'r':
                test += starts_with(l, "running ");
                break;
            case '[':
                test += starts_with(l, "[ RUN      ]") || starts_with(l, "[==========]");
                break;
            case 'm':
                build += starts_with(l, "make: ***") || starts_with(l, "make[");
                break;
            case 'C':
                build += starts_with(l, "CMake Error");
                break;
            case 'n':
                build += starts_with(l, "npm ERR!") || starts_with(l, "npm error");
                break;
            default:
                break;
            }
            if (colon) {
                trace +=
                    has("panicked at") || has("==ERROR: AddressSanitizer") || has("runtime error:");
                build += has(": error:") || has(": warning:") || has("error TS") ||
                         starts_with(l, "error[E");
                test += starts_with(l, "Tests:") || starts_with(l, "Test Suites:");
            }
            if (std::memchr(l.data(), ']', l.size()))
                build += has("] Building ") || has("] Linking ");
            if (std::memchr(l.data(), 'S', l.size()) || std::memchr(l.data(), 's', l.size()))
                test += has(" PASSED") || has(" FAILED") || has("tests passed") ||
                        has("test session starts");
            return true;
        });
    };
    // The label only picks a few rules and names the shape in stats: the ends are evidence enough.
    constexpr std::size_t window = 32u << 10;
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

namespace {

// Extensions of files whose every line is meant: code and configuration, not logs or data.
constexpr std::string_view k_source_extensions[] = {
    ".c",      ".h",     ".cc",    ".cpp", ".cxx",  ".hpp", ".hh",     ".py",    ".js",    ".mjs",
    ".cjs",    ".ts",    ".tsx",   ".jsx", ".go",   ".rs",  ".java",   ".kt",    ".rb",    ".php",
    ".cs",     ".swift", ".scala", ".sh",  ".bash", ".zsh", ".lua",    ".pl",    ".sql",   ".toml",
    ".yaml",   ".yml",   ".ini",   ".cfg", ".conf", ".md",  ".rst",    ".txt",   ".cmake", ".mk",
    ".gradle", ".xml",   ".html",  ".css", ".scss", ".vue", ".svelte", ".proto", ".tf",    ".nix"};

constexpr std::string_view k_file_printers[] = {"cat",    "head", "tail", "sed",  "bat",
                                                "batcat", "nl",   "tac",  "less", "more"};

bool is_source_path(std::string_view word) {
    const auto slash = word.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? word : word.substr(slash + 1);
    if (name == "Makefile" || name == "Dockerfile" || name == "CMakeLists.txt") return true;
    const auto dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0) return false;
    std::string ext;
    for (char c : name.substr(dot)) ext += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    for (std::string_view e : k_source_extensions)
        if (ext == e) return true;
    return false;
}

} // namespace

bool shows_file_contents(std::string_view command) {
    // The words of a plain command line: one program, its options and file names. Anything
    // with a pipe, a list or a substitution may mix other output in, and is not one file.
    if (command.find_first_of("|;&$`<>(") != std::string_view::npos) return false;
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < command.size()) {
        while (i < command.size() && (command[i] == ' ' || command[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < command.size() && command[i] != ' ' && command[i] != '\t') ++i;
        if (i > start) words.push_back(command.substr(start, i - start));
    }
    if (words.empty()) return false;
    std::string_view program = words[0];
    if (const auto slash = program.rfind('/'); slash != std::string_view::npos)
        program = program.substr(slash + 1);
    bool printer = false;
    for (std::string_view p : k_file_printers) printer = printer || program == p;
    if (!printer) return false;
    bool any = false;
    for (std::size_t k = 1; k < words.size(); ++k) {
        std::string_view w = words[k];
        if (w.starts_with('-') || (program == "sed" && k == 2 && words[1] == "-n")) continue;
        if (w.size() >= 2 && (w.front() == '\'' || w.front() == '"') && w.back() == w.front())
            w = w.substr(1, w.size() - 2);
        if (!is_source_path(w)) {
            if (program == "sed" && (w.ends_with('p') || w.ends_with("p'"))) continue;
            if (program == "head" || program == "tail") {
                bool digits = !w.empty();
                for (char c : w) digits = digits && c >= '0' && c <= '9';
                if (digits) continue; // the count after -n
            }
            return false;
        }
        any = true;
    }
    return any;
}

} // namespace sutra::core
