// See printed_file.hpp.

#include "core/rewrite/printed_file.hpp"

#include "core/rewrite/diagnostic_lines.hpp"
#include "core/rewrite/shape.hpp"

#include <algorithm>
#include <array>

namespace sutra::core {
namespace {

// How much of an output is read to tell whether it is source code: this many lines with text,
// among at most eight times as many lines (a million blank lines are not all read).
constexpr std::size_t k_source_sample_lines = 400;
constexpr std::size_t k_source_sample_reach = 8 * k_source_sample_lines;

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

// Words that open a line of code in the languages sutra outlines, and in most others.
constexpr std::array k_code_openers = {
    "#include", "#define",   "#if",     "#endif",  "#pragma",  "import ",  "from ",
    "package ", "def ",      "class ",  "struct ", "enum ",    "fn ",      "pub ",
    "func ",    "function ", "const ",  "let ",    "var ",     "return",   "if (",
    "if ",      "for (",     "for ",    "while ",  "switch ",  "case ",    "else",
    "try",      "catch",     "static ", "public ", "private ", "template", "namespace ",
    "using ",   "export ",   "async ",  "impl ",   "mod ",     "use ",     "@",
    "//",       "/*",        "* ",      "*/",      "#",        "'''",      "\"\"\""};

bool code_like(std::string_view line) {
    const std::string_view t = trimmed(line);
    if (t.empty()) return false;
    const char last = t.back();
    // Not `)` or `,`: many log lines end so ("Compiling x (/path)").
    if (last == '{' || last == '}' || last == ';' || last == ':') return true;
    for (const char* w : k_code_openers)
        if (t.starts_with(w)) return true;
    return false;
}

// A verdict or a diagnostic that marks the output as a tool's report, not a file.
bool report_line(std::string_view line) {
    const std::string_view t = trimmed(line);
    for (const char* verdict : {" PASSED", " FAILED", " SKIPPED", " ERROR", "ERROR:"})
        if (t.find(verdict) != std::string_view::npos) return true;
    if (t.ends_with(" ok") || t.ends_with(" OK")) return true;
    return names_place(t) || t.starts_with("PASS") || t.starts_with("FAIL") ||
           t.starts_with("ok ") || t.starts_with("not ok") || t.starts_with("===") ||
           t.starts_with("---") || t.starts_with("+++") || t.starts_with("Traceback");
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

std::string unquoted(std::string_view w) {
    if (w.size() >= 2 && (w.front() == '\'' || w.front() == '"') && w.back() == w.front())
        w = w.substr(1, w.size() - 2);
    return std::string(w);
}

} // namespace

std::string printed_file_name(std::string_view command) {
    if (command.find_first_of("|;&$`<>(\n") != std::string_view::npos) return {};
    const auto w = words(command);
    // `git show REV:path` (and `git cat-file -p REV:path`): the file as the revision has it.
    if (w.size() >= 3 && w[0] == "git" && (w[1] == "show" || w[1] == "cat-file")) {
        const std::string_view last = w.back();
        const auto colon = last.find(':');
        if (colon == std::string_view::npos || colon + 1 >= last.size()) return {};
        return unquoted(last.substr(colon + 1));
    }
    if (!shows_file_contents(command)) return {};
    // The last word that is not an option: the file (shows_file_contents checked them all).
    for (auto it = w.rbegin(); it + 1 != w.rend(); ++it)
        if (!it->starts_with('-')) return unquoted(*it);
    return {};
}

bool reads_as_source(std::string_view text) {
    std::size_t seen = 0, code = 0, start = 0, visited = 0;
    bool indented_under_code = false;
    while (start < text.size() && seen < k_source_sample_lines &&
           ++visited <= k_source_sample_reach) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        if (trimmed(line).empty()) continue;
        if (report_line(line)) return false;
        ++seen;
        const bool indented = line.starts_with(' ') || line.starts_with('\t');
        if (code_like(line) || (indented && indented_under_code)) {
            ++code;
            indented_under_code = true;
        } else {
            indented_under_code = false;
        }
    }
    // Enough lines to judge, and nearly all of them code.
    return seen >= 8 && code * 10 >= seen * 8;
}

bool is_printed_file(const Request& req, std::string_view output) {
    return !printed_file_name(req.command).empty() || reads_as_source(output);
}

std::optional<Plan> outline_plan(std::string_view bytes,
                                 const LineIndex& lines,
                                 const std::vector<OutlineLine>& outline_lines,
                                 std::uint64_t ceiling,
                                 const MarkerContext& measure) {
    const std::size_t n = lines.count();
    std::vector<OutlineLine> kept;
    for (const OutlineLine& o : outline_lines)
        if (o.line >= 1 && o.line <= n) kept.push_back(o);
    if (kept.empty()) return std::nullopt;
    std::sort(kept.begin(), kept.end(),
              [](const OutlineLine& a, const OutlineLine& b) { return a.line < b.line; });
    kept.erase(
        std::unique(kept.begin(), kept.end(),
                    [](const OutlineLine& a, const OutlineLine& b) { return a.line == b.line; }),
        kept.end());

    auto build = [&](const std::vector<OutlineLine>& show) {
        Plan plan;
        plan.shape = Shape::text;
        plan.rules.push_back("outline");
        std::uint64_t next = 1; // the first line not yet placed
        auto elide_to = [&](std::uint64_t last) {
            if (last < next) return;
            // One short line (a blank one, a brace) costs less kept than marked.
            if (last == next && lines.end(last - 1) - lines.begin(last - 1) <= 16) {
                plan.pieces.push_back({std::string(bytes.substr(
                    lines.begin(last - 1), lines.end(last - 1) - lines.begin(last - 1)))});
                return;
            }
            Elision e;
            e.reason = Reason::outside_outline;
            e.first_line = next;
            e.last_line = last;
            e.begin = lines.begin(next - 1);
            e.end = lines.end(last - 1);
            plan.pieces.push_back({std::string(), static_cast<int>(plan.elisions.size())});
            plan.elisions.push_back(e);
        };
        for (const OutlineLine& o : show) {
            elide_to(o.line - 1);
            const std::uint64_t b = lines.begin(o.line - 1), e = lines.end(o.line - 1);
            plan.pieces.push_back({std::string(bytes.substr(b, e - b))});
            next = o.line + 1;
        }
        elide_to(n);
        return plan;
    };

    // The view that shows the most symbol lines and fits: for each depth, its symbols and the
    // shallower ones, all of them or the longest first part that fits (a binary search).
    std::uint64_t max_depth = 0;
    for (const auto& o : kept) max_depth = std::max(max_depth, o.depth);
    std::optional<Plan> best;
    std::size_t best_count = 0;
    for (std::uint64_t depth = 0; depth <= max_depth; ++depth) {
        std::vector<OutlineLine> show;
        for (const auto& o : kept)
            if (o.depth <= depth) show.push_back(o);
        std::size_t lo = 0, hi = show.size(); // the longest prefix that fits is in [lo, hi]
        std::optional<Plan> fitting;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo + 1) / 2;
            Plan plan = build(std::vector<OutlineLine>(show.begin(), show.begin() + mid));
            if (render(plan, measure).size() <= ceiling) {
                lo = mid;
                fitting = std::move(plan);
            } else {
                hi = mid - 1;
            }
        }
        if (fitting && lo > best_count) {
            best_count = lo;
            best = std::move(fitting);
        }
    }
    return best;
}

} // namespace sutra::core
