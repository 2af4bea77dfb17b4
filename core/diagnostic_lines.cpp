// Line-level diagnostic rules (core/diagnostic_lines.hpp).

#include "core/diagnostic_lines.hpp"

#include <string>

namespace sutra::core {
namespace {

bool is_digit_at(std::string_view l, std::size_t i) {
    return i < l.size() && l[i] >= '0' && l[i] <= '9';
}

// `  12:5  …`: blanks, LINE:COL, a blank.
bool is_row_position(std::string_view l) {
    std::size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    if (i == 0 || !is_digit_at(l, i)) return false;
    while (is_digit_at(l, i)) ++i;
    if (i >= l.size() || l[i] != ':' || !is_digit_at(l, i + 1)) return false;
    ++i;
    while (is_digit_at(l, i)) ++i;
    return i < l.size() && (l[i] == ' ' || l[i] == '\t');
}

} // namespace

// Leading blanks, a tab counting as one: how deep a line sits under the ones above it.
std::size_t indent_of(std::string_view l) {
    std::size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    return i;
}

// A source location: NAME:12: or NAME:12:5, NAME(12,5), "line 12", or a stylish linter's row
// that opens with LINE:COL under its file's name (eslint, stylelint: `  12:5  error  …`).
bool has_location(std::string_view l) {
    if (is_row_position(l)) return true;
    for (std::size_t i = 0; i + 2 < l.size(); ++i) {
        if ((l[i] == ':' || l[i] == '(') && i > 0 && l[i - 1] != ' ' && is_digit_at(l, i + 1)) {
            std::size_t j = i + 1;
            while (is_digit_at(l, j)) ++j;
            if (j < l.size() && ((l[i] == ':' && l[j] == ':') || (l[i] == '(' && l[j] == ',')))
                return true;
        }
        if (l[i] == 'l' && l.substr(i, 5) == "line " && is_digit_at(l, i + 5)) return true;
    }
    return false;
}

bool mentions_warning(std::string_view l) {
    for (std::size_t i = 0; i + 4 <= l.size(); ++i)
        if ((l[i] == 'w' || l[i] == 'W') &&
            (l.substr(i + 1, 3) == "arn" || l.substr(i + 1, 3) == "ARN"))
            return true;
    return l.find("\xe2\x9a\xa0") != std::string_view::npos; // "⚠"
}

// A finding in the GNU form that names no severity word: `FILE:12:5: LABEL: …` or
// `FILE:12:5: CODE …`, as cppcheck (`style:`, `portability:`), pylint (`E1120:`), flake8 and ruff
// (`E711 …`), rubocop (`C:`) write them. The place is the finding's identity, so it is one to act
// on. Labels that explain another finding (`note:`, `help:`, `info:`, `hint:`, `remark:`,
// `information:`) are not findings of their own.
bool is_labelled_finding(std::string_view l) {
    // The first token, up to the first blank, is the place and its colon (only that token is
    // scanned: most lines are told apart within a few bytes).
    std::size_t blank = 0;
    while (blank < l.size() && blank <= 4096 && l[blank] != ' ' && l[blank] != '\t') ++blank;
    if (blank < 2 || blank >= l.size() || l[blank] != ' ' || l[blank - 1] != ':') return false;
    const std::size_t colon = blank - 1;
    const std::string_view where = l.substr(0, colon);
    // :LINE:COL at the end, after a file's name (a dot or a slash in it).
    std::size_t k = where.size();
    for (int field = 0; field < 2; ++field) {
        const std::size_t digits_end = k;
        while (k > 0 && is_digit_at(where, k - 1)) --k;
        if (k == digits_end || k == 0 || where[k - 1] != ':') return false;
        --k;
    }
    if (where.substr(0, k).find_first_of("./") == std::string_view::npos) return false;
    const std::string_view rest = l.substr(colon + 2);
    std::size_t e = 0;
    while (e < rest.size() && e <= 20 &&
           ((rest[e] >= 'a' && rest[e] <= 'z') || (rest[e] >= 'A' && rest[e] <= 'Z')))
        ++e;
    if (e == 0 || e > 20) return false;
    const std::string_view label = rest.substr(0, e);
    if (e < rest.size() && rest[e] == ':') {
        for (std::string_view w : {"note", "help", "info", "hint", "remark", "information"})
            if (label == w) return false;
        return true;
    }
    // A code: capitals then digits (E711, W0611, SC2086), then a blank, a colon or the end.
    for (char c : label)
        if (c < 'A' || c > 'Z') return false;
    if (e > 4) return false;
    std::size_t d = e;
    while (is_digit_at(rest, d)) ++d;
    return d - e >= 2 && d - e <= 5 && (d == rest.size() || rest[d] == ' ' || rest[d] == ':');
}

// A compiler's subordinate diagnostic: `PATH:12:5: note: …`, `  = note: …`, `help: …`. It
// explains an error shown above it (g++'s candidate chains, "substitution failed"), so its own
// key words do not make it an error of its own.
bool is_subordinate_diagnostic(std::string_view l) {
    static constexpr std::string_view labels[] = {"note:", "help:", "info:", "hint:"};
    auto label_at = [&](std::size_t p) {
        for (std::string_view w : labels)
            if (l.substr(p, w.size()) == w) return true;
        return false;
    };
    std::size_t p = 0;
    while (p < l.size() && (l[p] == ' ' || l[p] == '\t')) ++p;
    if (l.substr(p, 2) == "= ") p += 2;
    if (label_at(p)) return true;
    // After a location with no blank in it: the first ": " that ends the location.
    const std::size_t colon = l.find(": ", p);
    if (colon == std::string_view::npos || colon == p) return false;
    if (l.substr(p, colon - p).find(' ') != std::string_view::npos) return false;
    if (!has_location(l.substr(p, colon + 1 - p))) return false;
    std::size_t q = colon + 2;
    while (q < l.size() && l[q] == ' ') ++q;
    return label_at(q);
}

bool is_section_header(std::string_view l) {
    // pytest/unittest: "_____ test_x _____", "===== FAILURES =====", "----- Captured -----"
    if (l.empty() || (l[0] != '_' && l[0] != '=' && l[0] != '-')) return false;
    for (char c : {'_', '=', '-'}) {
        const std::string three(3, c);
        if (l.substr(0, 3) == three && l.find(' ') != std::string_view::npos) {
            std::string_view t = l;
            while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.remove_suffix(1);
            if (t.size() >= 7 && t.substr(t.size() - 3) == three) return true;
        }
    }
    return false;
}

Level line_level(const KeyMatcher& keys, std::string_view t) {
    Level level = keys.level(t);
    if (level < Level::notable && is_section_header(t)) level = Level::notable;
    // A warning that names where it is (file:12:5, file(12,5), line 12) is a finding to act on,
    // as an error is; so is a finding whose severity is a label or a code.
    if (level == Level::notable && has_location(t) && mentions_warning(t)) level = Level::critical;
    if (level < Level::critical && is_labelled_finding(t)) level = Level::critical;
    if (level == Level::critical && is_subordinate_diagnostic(t)) level = Level::notable;
    return level;
}

} // namespace sutra::core
