// Line-level diagnostic rules (core/rewrite/diagnostic_lines.hpp).

#include "core/rewrite/diagnostic_lines.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>

namespace sutra::core {
namespace {

constexpr std::size_t npos_v = std::string_view::npos;

bool is_digit_at(std::string_view l, std::size_t i) {
    return i < l.size() && l[i] >= '0' && l[i] <= '9';
}

bool is_upper(char c) {
    return c >= 'A' && c <= 'Z';
}

bool is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || is_upper(c) || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// `path:LINE` or `path:LINE:COL`, with an optional colon after, where path holds a dot or a
// slash: the end of that place at the start of `l`, or npos.
std::size_t place_end(std::string_view l) {
    std::size_t i = 0;
    bool named = false;
    while (i < l.size() && i < 4096 && l[i] != ':' && l[i] != ' ' && l[i] != '\t') {
        named |= l[i] == '.' || l[i] == '/';
        ++i;
    }
    if (!named || i == 0 || i >= l.size() || l[i] != ':' || !is_digit_at(l, i + 1)) return npos_v;
    for (int field = 0; field < 2 && i < l.size() && l[i] == ':' && is_digit_at(l, i + 1);
         ++field) {
        ++i;
        while (is_digit_at(l, i)) ++i;
    }
    if (i < l.size() && l[i] == ':') ++i;
    return i == l.size() || l[i] == ' ' || l[i] == '\t' ? i : npos_v;
}

// A check code at l[i]: 1-4 capitals, then 2-5 digits, then the end or one of ` /:]`.
bool code_at(std::string_view l, std::size_t i) {
    std::size_t k = i;
    while (k < l.size() && k - i < 5 && is_upper(l[k])) ++k;
    if (k == i || k - i > 4) return false;
    const std::size_t digits = k;
    while (is_digit_at(l, k)) ++k;
    if (k - digits < 2 || k - digits > 5) return false;
    return k == l.size() || l[k] == ' ' || l[k] == '/' || l[k] == ':' || l[k] == ']';
}

// A rule named by its group and its name joined by slashes at l[i], then a blank or the end:
// biome's `lint/correctness/noUnusedVariables`, eslint's `@typescript-eslint/no-unused-vars`.
// Letters, digits, `-`, `_` and `@` only: a path with a file extension is none.
bool slash_rule_at(std::string_view l, std::size_t i) {
    std::size_t k = i, slashes = 0;
    bool letter = false;
    while (k < l.size() && k - i <= 96 && (is_word_char(l[k]) || l[k] == '/' || l[k] == '@')) {
        if (l[k] == '/') {
            if (k == i || l[k - 1] == '/') return false;
            ++slashes;
        }
        letter |= (l[k] >= 'a' && l[k] <= 'z') || is_upper(l[k]);
        ++k;
    }
    return slashes > 0 && letter && l[k - 1] != '/' &&
           (k == l.size() || l[k] == ' ' || l[k] == '\t' || l[k] == '\n' || l[k] == '\r');
}

// A bracketed rule at l[i] == '[': `[B101:assert_used]`, `[E501]`, `[whitespace/comma]`.
bool bracketed_rule_at(std::string_view l, std::size_t i) {
    if (code_at(l, i + 1)) return true;
    std::size_t k = i + 1, slash = 0;
    while (k < l.size() && k - i <= 64 && (is_word_char(l[k]) || l[k] == '/')) {
        if (l[k] == '/') {
            if (slash || k == i + 1) return false;
            slash = k;
        }
        ++k;
    }
    return slash && slash + 1 < k && k < l.size() && l[k] == ']';
}

// A path-like token: it holds a slash (not a URL's `://`) and its last part a file extension.
bool is_path_token(std::string_view t) {
    while (!t.empty() &&
           (t.back() == ':' || t.back() == ',' || t.back() == '.' || t.back() == ';' ||
            t.back() == ')' || t.back() == ']' || t.back() == '\'' || t.back() == '"'))
        t.remove_suffix(1);
    while (!t.empty() &&
           (t.front() == '(' || t.front() == '[' || t.front() == '\'' || t.front() == '"'))
        t.remove_prefix(1);
    if (t.find("://") != std::string_view::npos || t.find('@') != std::string_view::npos)
        return false;
    const std::size_t dot = t.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 >= t.size() || dot + 9 < t.size())
        return false;
    const std::size_t slash = t.rfind('/');
    if (slash != std::string_view::npos && slash > dot) return false;
    bool letter = false;
    for (std::size_t k = dot + 1; k < t.size(); ++k) {
        const char c = t[k];
        if (!(is_word_char(c) && c != '-')) return false;
        letter |= !is_digit_at(t, k);
    }
    return letter && t[dot - 1] != '/' && t[dot - 1] != '.';
}

} // namespace

// Leading blanks after the checker's prefix, a tab counting as one: how deep a line sits under
// the ones above it.
std::size_t indent_of(std::string_view l) {
    std::size_t i = content_start(l);
    const std::size_t from = i;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    return i - from;
}

// TAP's failure verdict (tape, prove, node's TAP reporter, bats, pg_regress): `not ok`, then a
// blank, a test number or the end. Its success twin `ok N` differs by two words: without this,
// a failure reads as one more "similar line".
bool is_failure_verdict(std::string_view l) {
    const std::size_t i = indent_of(l) + content_start(l);
    if (l.substr(i, 6) != "not ok") return false;
    return i + 6 == l.size() || l[i + 6] == ' ' || l[i + 6] == '\n' || l[i + 6] == '\r';
}

// TeX's error: `! Undefined control sequence.`, `! Missing $ inserted.`, flush left.
bool is_tex_error(std::string_view l) {
    return l.size() > 3 && l[0] == '!' && l[1] == ' ' && l[2] >= 'A' && l[2] <= 'Z';
}

bool names_file(std::string_view l) {
    std::size_t words = 0;
    std::string_view last;
    for (std::size_t i = 0; i < l.size() && i <= 4096;) {
        while (i < l.size() && (l[i] == ' ' || l[i] == '\t' || l[i] == '\n' || l[i] == '\r')) ++i;
        const std::size_t b = i;
        while (i < l.size() && l[i] != ' ' && l[i] != '\t' && l[i] != '\n' && l[i] != '\r') ++i;
        if (b == i) break;
        last = l.substr(b, i - b);
        ++words;
        if (last.find('/') != std::string_view::npos && is_path_token(last)) return true;
    }
    return words <= 3 && !last.empty() && is_path_token(last);
}

// A report's header that opens with its rule as a call, after at most one severity mark:
// oxlint's `  ! eslint(no-debugger): …` and `  x eslint(no-dupe-keys): …` (miette's format,
// whose place follows in the block below: `   ,-[src/a.js:8:3]`).
bool opens_with_rule_call(std::string_view l) {
    std::size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    std::size_t mark = i;
    while (mark < l.size() && l[mark] != ' ' && mark - i <= 4) ++mark;
    if (mark < l.size() && l[mark] == ' ' && mark - i <= 4 &&
        l.substr(i, mark - i).find('(') == std::string_view::npos)
        i = mark + 1; // the mark (`!`, `x`, `×`, `⚠`)
    const std::size_t name = i;
    while (i < l.size() && i - name <= 40 && (is_word_char(l[i]) || l[i] == '/' || l[i] == '@'))
        ++i;
    if (i == name || i >= l.size() || l[i] != '(') return false;
    const std::size_t rule = ++i;
    while (i < l.size() && i - rule <= 64 && (is_word_char(l[i]) || l[i] == '/')) ++i;
    return i > rule && i + 1 < l.size() && l[i] == ')' && l[i + 1] == ':';
}

bool names_rule(std::string_view l) {
    for (std::size_t i = l.find('['); i != std::string_view::npos && i + 3 < l.size();
         i = l.find('[', i + 1))
        if (bracketed_rule_at(l, i)) return true;
    return opens_with_rule_call(l);
}

// `path:12:5 MD013/line-length …` (markdownlint), `path:12:  text  [whitespace/comma] [4]`
// (cpplint): the place opens the line, then a code as the first word or a bracketed rule. A grep
// hit (`path:12:text`) names no rule.
bool is_coded_finding(std::string_view l) {
    const std::size_t at = place_end(l);
    if (at == npos_v) return false;
    std::size_t i = at;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    if (i < l.size() && l[i] == '[' && bracketed_rule_at(l, i)) return true;
    if (code_at(l, i)) return true;
    if (slash_rule_at(l, i)) return true;
    // A risk level in brackets, then its category (flawfinder's `src/a.c:15:  [4] (buffer) …`).
    if (i + 3 < l.size() && l[i] == '[' && is_digit_at(l, i + 1) && l[i + 2] == ']' &&
        l[i + 3] == ' ')
        return true;
    return names_rule(l.substr(i));
}

bool mentions_warning(std::string_view l) {
    for (std::size_t i = 0; i + 4 <= l.size(); ++i)
        if ((l[i] == 'w' || l[i] == 'W') &&
            (l.substr(i + 1, 3) == "arn" || l.substr(i + 1, 3) == "ARN"))
            return true;
    return l.find("\xe2\x9a\xa0") != std::string_view::npos; // "⚠"
}

// Where a place in the GNU form, `PATH:LINE:COL:`, that opens the line at `from` ends (the
// blank before its message), or npos_v. Only that first token is scanned: most lines are told
// apart within a few bytes. The path has a dot or a slash in it (a file's name). The column
// may be a range (hlint's `Stock1.hs:16:1-28:`), and the place may end in ` - ` instead of a
// colon (cspell's `docs/a.md:1:26 - Unknown word`).
namespace {
std::size_t gnu_place_end(std::string_view l, std::size_t from) {
    std::size_t blank = from;
    while (blank < l.size() && blank <= from + 4096 && l[blank] != ' ' && l[blank] != '\t') ++blank;
    if (blank < from + 2 || blank >= l.size() || l[blank] != ' ') return npos_v;
    std::size_t end = blank; // the blank before the message
    std::string_view where;
    if (l[blank - 1] == ':') {
        where = l.substr(from, blank - 1 - from);
    } else if (l.substr(blank, 3) == " - " && blank + 3 < l.size()) {
        where = l.substr(from, blank - from);
        end = blank + 2;
    } else {
        return npos_v;
    }
    std::size_t k = where.size();
    for (int field = 0; field < 2; ++field) {
        std::size_t digits_end = k;
        while (k > 0 && is_digit_at(where, k - 1)) --k;
        if (field == 0 && k != digits_end && k > 1 && where[k - 1] == '-') { // a column range
            digits_end = --k;
            while (k > 0 && is_digit_at(where, k - 1)) --k;
        }
        if (k == digits_end || k == 0 || where[k - 1] != ':') return npos_v;
        --k;
    }
    if (where.substr(0, k).find_first_of("./") == std::string_view::npos) return npos_v;
    return end;
}
} // namespace

// A finding in the GNU form that names no severity word: `FILE:12:5: LABEL: …` or
// `FILE:12:5: CODE …`, as cppcheck (`style:`, `portability:`), pylint (`E1120:`), flake8 and ruff
// (`E711 …`), rubocop (`C:`) write them. The place is the finding's identity, so it is one to act
// on. Labels that explain another finding (`note:`, `help:`, `info:`, `hint:`, `remark:`,
// `information:`) are not findings of their own.
bool is_labelled_finding(std::string_view l) {
    const std::size_t blank = gnu_place_end(l, 0);
    if (blank == npos_v) return false;
    const std::size_t colon = blank - 1;
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

std::string_view trailing_bracket(std::string_view l) {
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r' || l.back() == ' '))
        l.remove_suffix(1);
    if (l.size() < 4 || l.back() != ']') return {};
    const std::size_t open = l.rfind('[');
    if (open == std::string_view::npos || open == 0 || l[open - 1] != ' ') return {};
    return l.substr(open + 1, l.size() - open - 2);
}

bool ends_with_check_code(std::string_view l) {
    const std::string_view code = trailing_bracket(l);
    std::size_t k = 0;
    while (k < code.size() && code[k] >= 'A' && code[k] <= 'Z') ++k;
    const std::size_t capitals = k;
    while (is_digit_at(code, k)) ++k;
    return capitals >= 1 && capitals <= 6 && k - capitals >= 2 && k - capitals <= 5 &&
           k == code.size();
}

bool is_gnu_finding(std::string_view l) {
    std::size_t p = 0;
    while (p < l.size() && p <= 8 && (l[p] == ' ' || l[p] == '\t')) ++p;
    // `PATH:LINE:COL: …`; not `PATH:LINE: …`, which a grep hit writes too (`src/hash.c:12:
    // SHA256(input)`).
    const std::size_t blank = gnu_place_end(l, p);
    // Then one blank and the message's first character; no scheme (`http://h:80:1: …`).
    if (blank == npos_v || blank + 1 >= l.size()) return false;
    const unsigned char first = static_cast<unsigned char>(l[blank + 1]);
    if (first == ' ' || first == '\t' || first == '\r' || first == '\n') return false;
    if (l.substr(p, blank - p).find("://") != std::string_view::npos) return false;
    // A label that explains another finding (`note:`, cppcheck's `information:`) is none.
    const std::string_view rest = l.substr(blank + 1);
    for (std::string_view w : {"note:", "help:", "info:", "hint:", "remark:", "information:"})
        if (rest.starts_with(w)) return false;
    return true;
}

// A finding named by its file and line alone, `PATH:LINE: message` (vulture's `pkg/m.py:3:
// unused import 'os' (90% confidence)`, codespell's `docs/a.md:3: recieve ==> receive`): a
// message in words opens right after the place, where a grep hit shows a file's own line,
// indented or code (`src/a.c:12:    return x;`, `src/hash.c:12: SHA256(input)`).
bool is_line_finding(std::string_view l) {
    const std::size_t colon = l.find(": ");
    if (colon == std::string_view::npos || colon < 3 || colon > 4096) return false;
    const std::string_view where = l.substr(0, colon);
    std::size_t k = where.size();
    while (k > 0 && is_digit_at(where, k - 1)) --k;
    if (k == where.size() || k < 2 || where[k - 1] != ':') return false;
    const std::string_view path = where.substr(0, k - 1);
    if (path.find_first_of("./") == std::string_view::npos ||
        path.find_first_of(" \t:") != std::string_view::npos)
        return false;
    // A word of two or more lower-case letters, then a blank or a label's colon (go test's
    // `x_test.go:75: report: Split(100,3) sums to 99`): prose, not a file's line.
    const std::string_view rest = l.substr(colon + 2);
    std::size_t w = 0;
    while (w < rest.size() && rest[w] >= 'a' && rest[w] <= 'z') ++w;
    if (w < 2 || w >= rest.size()) return false;
    if (rest[w] == ':' && w + 1 < rest.size() && rest[w + 1] == ' ') ++w;
    if (rest[w] != ' ') return false;
    return rest.find_first_of(";{}") == std::string_view::npos;
}

namespace {

// A row that opens with its line, and maybe its position, each after a label, then a rule's
// code: sqlfluff's `L:   2 | P:  55 | L014 | Unquoted identifiers must be …`, `Line 12, Col 3,
// E501 …`. The labels name a line (`L`, `Ln`, `Line`) and a position (`P`, `Pos`, `C`, `Col`,
// `Column`); the code is capitals then digits.
bool is_labelled_place_row(std::string_view l) {
    std::size_t i = 0;
    const auto label = [&](std::initializer_list<std::string_view> names) {
        std::size_t at = i;
        while (at < l.size() && ((l[at] >= 'a' && l[at] <= 'z') || (l[at] >= 'A' && l[at] <= 'Z')))
            ++at;
        const std::string_view word = l.substr(i, at - i);
        bool known = false;
        for (std::string_view n : names) known = known || word == n;
        if (!known) return false;
        i = at;
        if (i < l.size() && l[i] == ':') ++i;
        while (i < l.size() && l[i] == ' ') ++i;
        const std::size_t digits = i;
        while (is_digit_at(l, i)) ++i;
        return i > digits && i - digits <= 7;
    };
    const auto separator = [&] {
        const std::size_t at = i;
        while (i < l.size() && (l[i] == ' ' || l[i] == '|' || l[i] == ',' || l[i] == '\t')) ++i;
        return i > at;
    };
    if (!label({"L", "Ln", "Line", "line"}) || !separator()) return false;
    const std::size_t after_line = i;
    if (!label({"P", "Pos", "C", "Col", "Column", "col", "column"}) || !separator()) i = after_line;
    std::size_t k = i;
    while (k < l.size() && l[k] >= 'A' && l[k] <= 'Z') ++k;
    const std::size_t capitals = k - i;
    while (is_digit_at(l, k)) ++k;
    return capitals >= 1 && capitals <= 6 && k - i - capitals >= 2 && k - i - capitals <= 5 &&
           k < l.size() && (l[k] == ' ' || l[k] == '|' || l[k] == ':' || l[k] == ',');
}

} // namespace

// A row under its file's name that opens with the finding's line and column (or their range)
// and its severity (eslint's stylish `  3:10  warning  'x' is defined but never used`,
// remark's `11:1-11:26   warning Unexpected heading rank`), or with them labelled and a rule's
// code after (is_labelled_place_row).
bool is_row_finding(std::string_view l) {
    std::size_t i = 0;
    while (i < l.size() && i <= 8 && (l[i] == ' ' || l[i] == '\t')) ++i;
    const auto number = [&] {
        const std::size_t at = i;
        while (is_digit_at(l, i)) ++i;
        return i > at && i - at <= 7;
    };
    const auto line_col = [&] { return number() && i < l.size() && l[i++] == ':' && number(); };
    const std::size_t start = i;
    if (is_labelled_place_row(l.substr(start))) return true;
    if (!line_col()) return false;
    if (i < l.size() && l[i] == '-') {
        ++i;
        const std::size_t at = i;
        if (!line_col()) {
            i = at;
            if (!number()) return false;
        }
    }
    if (i >= l.size() || l[i] != ' ') return false;
    while (i < l.size() && l[i] == ' ') ++i;
    const std::string_view rest = l.substr(i);
    for (std::string_view w : {"error ", "warning ", "Error ", "Warning "})
        if (rest.starts_with(w)) return true;
    return false;
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
    if (!names_place(l.substr(p, colon + 1 - p))) return false;
    std::size_t q = colon + 2;
    while (q < l.size() && l[q] == ' ') ++q;
    // A located note that names its own check (shellcheck -f gcc's `a.sh:11:10: note: Double
    // quote … [SC2086]`) is a finding of the checker's lowest severity, not an explanation.
    return label_at(q) && !ends_with_check_code(l);
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

// A gutter opens with blanks (`   12 |`, `  > 12 |`, erlc's `%    3| `) so a log's `2024 |
// ERROR | …` is not one; a numbered listing is digits and a tab.
bool is_quoted_code(std::string_view l) {
    std::size_t i = 0;
    if (l.starts_with('%')) ++i; // erlc marks its excerpt as an Erlang comment
    const std::size_t lead = i;
    while (i < l.size() && l[i] == ' ') ++i;
    const bool blanks = i > lead;
    if (i < l.size() && l[i] == '>') {
        ++i;
        while (i < l.size() && l[i] == ' ') ++i;
    }
    const std::size_t digits = i;
    while (is_digit_at(l, i)) ++i;
    if (i == digits || i - digits > 7 || i >= l.size()) return false;
    if (l[i] == '\t' && lead == 0) return true;
    if (!blanks) return false;
    if (l[i] == ' ') ++i;
    if (!(i < l.size() && l[i] == '|' &&
          (i + 1 == l.size() || l[i + 1] == ' ' || l[i + 1] == '\n' || l[i + 1] == '\r')))
        return false;
    // A table's row, not code: a word in capitals as the next cell (phpcs's `  4 | ERROR | …`).
    std::size_t w = i + 1;
    while (w < l.size() && l[w] == ' ') ++w;
    const std::size_t word = w;
    while (w < l.size() && l[w] >= 'A' && l[w] <= 'Z') ++w;
    if (w - word >= 3) {
        while (w < l.size() && l[w] == ' ') ++w;
        if (w < l.size() && l[w] == '|') return false;
    }
    return true;
}

bool is_error_report(const KeyMatcher& keys, std::string_view t) {
    if (is_failure_verdict(t)) return true;
    if (keys.level(t) != Level::critical) return false;
    std::string lower(t.substr(0, 512));
    for (char& c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    for (std::string_view v :
         {"exited with", "build files have been written", "newly installed", "fetched "})
        if (lower.find(v) != std::string::npos) return false;
    return true;
}

// A severity written as one capital letter opening the line (apt's and lintian's `E: …`, `W: …`):
// 'E' and 'W', or 0 for none.
char severity_letter(std::string_view t) {
    if (t.size() < 4 || t[1] != ':' || t[2] != ' ' || (t[0] != 'E' && t[0] != 'W')) return 0;
    return t[0];
}

// `left:  10`, `Expected: 5`, `code:  assert …`: a short label in words, a colon, a value.
bool is_labelled_value(std::string_view t) {
    std::size_t i = 0;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    const std::size_t word = i;
    while (i < t.size() && i - word <= 24 &&
           ((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') || t[i] == ' ' ||
            t[i] == '_' || t[i] == '-'))
        ++i;
    if (i == word || i >= t.size() || t[i] != ':' || t[i - 1] == ' ') return false;
    ++i;
    if (i >= t.size() || t[i] != ' ') return false;
    while (i < t.size() && t[i] == ' ') ++i;
    return i < t.size() && t[i] != '\n' && t[i] != '\r';
}

// `Failed example:`, `Exception raised:`: a few words and a colon, over what they name.
bool is_bare_label(std::string_view t) {
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' '))
        t.remove_suffix(1);
    std::size_t i = 0;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    const std::size_t word = i;
    // A qualifier in brackets is part of it (tcltest's `Result should have been (exact
    // matching):`).
    while (i < t.size() &&
           ((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') || t[i] == ' ' ||
            t[i] == '_' || t[i] == '-' || t[i] == '(' || t[i] == ')'))
        ++i;
    return i > word && i - word <= 48 && i + 1 == t.size() && t[i] == ':';
}

bool is_own_message_line(std::string_view t) {
    std::size_t i = 0;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    if (i == t.size() || t[i] == '\n' || t[i] == '\r') return false;
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if (c == '|' || c == '^' || c == '~' || c == '=' || c == 0xE2) return false;
    // Words or values, not a ruler or a marker row (oxlint's `   :   ^^^^`, `   `----`).
    if (std::none_of(t.begin() + static_cast<std::ptrdiff_t>(i), t.end(), [](char ch) {
            return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
        }))
        return false;
    // A frame or a place opens with it (`at …`, `File "…"`, `#3 0x…`, `/src/a.go:31`); a title
    // that names its place later (minitest's `TestSlug9#test_words [t.rb:8]:`) is the error's
    // own.
    const std::string_view rest = t.substr(i);
    for (std::string_view frame : {"at ", "File \"", "by 0x", "from "})
        if (rest.starts_with(frame)) return false;
    if (rest.size() > 1 && rest[0] == '#' && rest[1] >= '0' && rest[1] <= '9') return false;
    if (is_file_place(rest.substr(0, rest.find_first_of(" \t")))) return false;
    return !is_quoted_code(t) && !is_subordinate_diagnostic(t);
}

namespace {

Level text_level(const KeyMatcher& keys, std::string_view t);

// A line that is one JSON object (`go test -json`'s `{"Action":"output",…,"Output":"FAIL\t
// example.com/p\t0.02s\n"}`, a JSON log's record) says in its string values what a tool
// would print as lines: each value, unescaped and cut at its newlines, is read as a line.
// Keys are names, not words. Bounded: only a line under 64 KiB is read so.
Level json_line_level(const KeyMatcher& keys, std::string_view t) {
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' '))
        t.remove_suffix(1);
    if (t.size() < 2 || t.size() > 65536 || t.front() != '{' || t.back() != '}') return Level::none;
    Level level = Level::none;
    std::string value;
    const auto read = [&] {
        std::size_t from = 0;
        while (from <= value.size() && level < Level::critical) {
            const std::size_t nl = std::min(value.find('\n', from), value.size());
            // Its indentation is the producer's nesting (go test's `    x_test.go:87: got 3`
            // under its test), read as the line itself.
            std::size_t at = from;
            while (at < nl && (value[at] == ' ' || value[at] == '\t')) ++at;
            if (nl > at)
                level =
                    std::max(level, text_level(keys, std::string_view(value).substr(at, nl - at)));
            from = nl + 1;
        }
    };
    for (std::size_t i = 1; i < t.size() && level < Level::critical; ++i) {
        if (t[i] != '"') continue;
        value.clear();
        std::size_t j = i + 1;
        for (; j < t.size() && t[j] != '"'; ++j) {
            if (t[j] != '\\' || j + 1 >= t.size()) {
                value += t[j];
                continue;
            }
            const char e = t[++j];
            value += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
        }
        std::size_t k = j + 1;
        while (k < t.size() && t[k] == ' ') ++k;
        if (k >= t.size() || t[k] != ':') read(); // a value, not a key
        i = j;
    }
    return level;
}

} // namespace

Level line_level(const KeyMatcher& keys, std::string_view t) {
    const Level level = text_level(keys, t);
    return level < Level::critical ? std::max(level, json_line_level(keys, t)) : level;
}

namespace {

// A rule's name in brackets at the end of a line: one word of letters, digits, `-` and `_`
// that reads as a name, not a level (`[XDeclaredButNotUsed]`, `[union-attr]`; not `[INFO]`).
bool ends_with_rule_name_in_brackets(std::string_view l) {
    const std::string_view name = trailing_bracket(l);
    if (name.size() < 4 || name.size() > 64) return false;
    bool joined = false, lower = false;
    for (std::size_t k = 0; k < name.size(); ++k) {
        const char c = name[k];
        if (c == '-' || c == '_') {
            joined = k > 0;
            continue;
        }
        if (!is_word_char(c)) return false;
        if (c >= 'a' && c <= 'z') lower = true;
        if (is_upper(c) && lower) joined = true; // camelCase: a capital after a lower-case letter
    }
    return joined && lower;
}

// A table's row that names a file first and lists lines of it last (coverage.py's `app/m1.py
// 60  36  40%   3-4, 9-13, 17-18`, gcovr's `src/a.c  10  5  50%  3,5-7`, jest's `… | 3-4,9-13`):
// the lines a check left uncovered, places in that file. At least two lines or one range.
bool is_file_lines_row(std::string_view l) {
    std::size_t p = 0;
    while (p < l.size() && (l[p] == ' ' || l[p] == '\t')) ++p;
    const std::size_t first_end = std::min(l.find_first_of(" \t|", p), l.size());
    if (first_end == p || first_end == l.size() || !is_path_token(l.substr(p, first_end - p)))
        return false;
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r' || l.back() == ' '))
        l.remove_suffix(1);
    std::size_t k = l.size(), items = 0, ranges = 0;
    const auto digits_back = [&] {
        const std::size_t end = k;
        while (k > first_end && is_digit_at(l, k - 1)) --k;
        return k < end;
    };
    while (digits_back()) {
        ++items;
        if (k > first_end + 1 && l[k - 1] == '-' && is_digit_at(l, k - 2)) { // 9-13
            --k;
            digits_back();
            ++ranges;
        } else if (k > first_end + 2 && l.substr(k - 2, 2) == "->" && is_digit_at(l, k - 3)) {
            k -= 2; // a branch, 3->5
            digits_back();
            ++ranges;
        }
        std::size_t c = k;
        while (c > first_end && l[c - 1] == ' ') --c;
        if (c == first_end || l[c - 1] != ',') break;
        k = c - 1;
        while (k > first_end && l[k - 1] == ' ') --k;
    }
    return (ranges > 0 || items >= 2) && k > first_end &&
           (l[k - 1] == ' ' || l[k - 1] == '\t' || l[k - 1] == '|');
}

// A line that opens with a file's place: its first token, or its first two and the label after
// them (Nim's `bad.nim(8, 7) Hint:`, whose place holds a blank).
bool opens_with_file_place(std::string_view l) {
    if (l.empty() || l[0] == ' ' || l[0] == '\t') return false;
    std::size_t end = std::min(l.find(' '), l.size());
    if (end > 0 && end + 1 < l.size() && l[end - 1] == ',') {
        end = std::min(l.find(' ', end + 1), l.size()); // past `7)`
        end = std::min(l.find(' ', end + 1), l.size()); // past the label
    }
    return is_file_place(l.substr(0, end));
}

Level text_level(const KeyMatcher& keys, std::string_view t) {
    Level level = keys.level(t);
    // An error by its letter; a warning by its letter is one to act on when it names its file
    // (lintian's `W: pkg: executable-not-elf-or-script [usr/lib/x/mod1.py]`).
    if (const char letter = severity_letter(t); letter != 0 && level < Level::critical)
        level = letter == 'E' || names_file(t) || names_place(t) ? Level::critical
                                                                 : std::max(level, Level::notable);
    if (level < Level::critical && (is_failure_verdict(t) || is_tex_error(t)))
        level = Level::critical;
    if (level < Level::notable && is_section_header(t)) level = Level::notable;
    // A warning that names where it is (file:12:5, file(12,5), line 12) or the file it is about
    // (a checker's `[warn] src/a.js`) is a finding to act on, as an error is; so is a finding
    // whose severity is a label or a code, or that names its place and its rule.
    if (level == Level::notable && mentions_warning(t) && (names_place(t) || names_file(t)))
        level = Level::critical;
    if (level < Level::critical && (is_labelled_finding(t) || is_coded_finding(t)))
        level = Level::critical;
    // So is a row in the GNU form with no severity at all (luacheck's `src/m005.lua:11:10:
    // accessing undefined variable 'total_2'`, go vet's): its place is its identity.
    if (level < Level::critical && (is_gnu_finding(t) || is_line_finding(t) || is_row_finding(t)))
        level = Level::critical;
    // A located line that names its check by code at its end (`… [SC2086]`) is one too, its
    // label (`note:`) whatever it is.
    if (level < Level::critical && ends_with_check_code(t) && names_place(t))
        level = Level::critical;
    // A row that opens with its place and ends with its rule's name in brackets, whatever its
    // label (Nim's `bad.nim(8, 7) Hint: 'x' is declared but not used [XDeclaredButNotUsed]`).
    if (level < Level::critical && ends_with_rule_name_in_brackets(t) && opens_with_file_place(t))
        level = Level::critical;
    if (level < Level::critical && is_file_lines_row(t)) level = Level::critical;
    // A message that ends by naming its file and line in words is a diagnostic (perl's `…
    // at mod018.pl line 8.`, PHP's `… on line 12`), with or without an error word.
    if (level < Level::critical && indent_of(t) == 0 && names_file_line(t)) level = Level::critical;
    if (level == Level::critical && is_subordinate_diagnostic(t)) level = Level::notable;
    // Quoted source (bandit's excerpt of the `assert` it flags) is the program's words.
    if (level != Level::none && is_quoted_code(t)) level = Level::none;
    return level;
}

} // namespace

} // namespace sutra::core
