// See block_rules.hpp.

#include "core/rewrite/block_rules.hpp"

#include "core/rewrite/diagnostic_lines.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

namespace sutra::core {
namespace {

// How far above an indented error the line it sits under may be (a file's name over its rows).
constexpr std::size_t k_parent_reach = 2000;
// How far above an indented error its paragraph's first line may be to count as its place
// (shellcheck's `In FILE line N:` is two lines up); further up it is the start of a long log.
constexpr std::size_t k_heading_reach = 8;
// How far below an error its place may be, inside the indented block under it (jest's first
// frame comes after the diff and the code excerpt).
constexpr std::size_t k_block_reach = 60;
// How far below a line naming a rule its place may be for the line to be a finding (bandit's
// `Location:` is the third line of its block).
constexpr std::size_t k_rule_reach = 6;

// How far above an error its place may be (gfortran: the place, a blank, two lines of quoted
// code, then the error).
constexpr std::size_t k_place_above_reach = 6;

// A line without its blanks at either end (and its newline).
std::string_view trimmed(std::string_view t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' '))
        t.remove_suffix(1);
    return t;
}

// The top frame of a stack, in a file: a sanitizer's `#0 0x… in FUNC path/file.c:8`, a
// runtime's `at FUNC (path/file.js:3:9)`.
bool is_top_frame(std::string_view t) {
    std::size_t i = 0;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    const std::string_view rest = t.substr(i);
    return (rest.starts_with("#0 ") || rest.starts_with("at ")) && is_file_place(t);
}

// How far below a failure the labels of its values may be (doctest: the example, `Expected:`,
// the value, `Got:`).
constexpr std::size_t k_value_reach = 12;

// A line that only labels the value below it: `Expected:`, `Got:`, `Actual:`, `Received:`,
// jasmine's `Message:`.
bool is_value_label(std::string_view t) {
    t = trimmed(t);
    for (const std::string_view label :
         {"Expected:", "Got:", "Actual:", "Received:", "But was:", "Message:"})
        if (t == label) return true;
    return false;
}

// How far below a failure its values may be on labelled lines of their own (node's TAP: the
// `not ok`, the YAML block's `---`, its duration, location, message and name, then
// `expected: 50` and `actual: 51`).
constexpr std::size_t k_inline_value_reach = 24;

// A line holding a failure's value after its label: `expected: 50`, `actual: 51` (TAP's YAML),
// `Expected: 3`, `Received: 4` (jest); `expected: |-` with the value on the lines below.
// Returns 0 for none, 1 for a value on the line, 2 for a value below.
int inline_value(std::string_view t) {
    t = trimmed(t);
    for (const std::string_view label : {"expected:", "actual:", "received:", "got:", "but was:"}) {
        if (t.size() <= label.size() + 1 || t[label.size()] != ' ') continue;
        bool same = true;
        for (std::size_t k = 0; k < label.size() && same; ++k)
            same = (t[k] | 0x20) == label[k] || t[k] == label[k];
        if (!same) continue;
        std::string_view value = t.substr(label.size());
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        if (value.empty()) return 0;
        return value == "|" || value == "|-" || value == ">" || value == ">-" ? 2 : 1;
    }
    return 0;
}

// Whether a line ends with a rule's code in brackets after a blank: mypy's `  [union-attr]`,
// clang-tidy's `[readability-braces]`.
bool ends_with_rule_code(std::string_view t) {
    const std::string_view code = trailing_bracket(t);
    if (code.empty()) return false;
    for (const char c : code)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
              c == '.' || c == '/'))
            return false;
    return true;
}

// How many places listed alone under a failure are its own (phpunit: the code, the test).
constexpr std::size_t k_bare_places = 4;

// How many brackets line t leaves open (negative: closes more than it opens), quoted text
// skipped. An Erlang or Elixir term, a repr or an object printed over several lines.
int open_brackets(std::string_view t) {
    int depth = 0;
    char quote = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
        const char c = t[k];
        if (quote) {
            if (c == '\\')
                ++k;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '`')
            quote = c;
        else if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if (c == ')' || c == ']' || c == '}')
            --depth;
    }
    return depth;
}

// How far a term an error leaves open may run below it.
constexpr std::size_t k_open_term_lines = 16;

// A numbered failure's title: `9) Cart9Test::testBadType`, `  3) Calc11 handles strings`.
// Its number, or 0 when t is none.
std::size_t numbered_title(std::string_view t) {
    t = trimmed(t);
    std::size_t i = 0, number = 0;
    while (i < t.size() && i < 6 && t[i] >= '0' && t[i] <= '9')
        number = number * 10 + static_cast<std::size_t>(t[i++] - '0');
    return i > 0 && i + 2 < t.size() && t[i] == ')' && t[i + 1] == ' ' && t[i + 2] != ' ' ? number
                                                                                          : 0;
}

bool is_numbered_title(std::string_view t) {
    return numbered_title(t) > 0;
}

// A short line in lower case, for a search of its words.
std::string lowered(std::string_view t) {
    std::string lower(t);
    for (char& c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    return lower;
}

// A diff's opening under a failure: a short label naming the expected value and the actual one
// (ava's `Difference (- actual, + expected):`, mocha's `+ expected - actual`, jest's `- Expected
// + Received`), or a unified diff's `--- expected` over `+++ actual` (node-tap).
bool opens_value_diff(std::string_view t, std::string_view next) {
    t = trimmed(t);
    if (t.empty() || t.size() > 60) return false;
    const std::string lower = lowered(t);
    const bool expected = lower.find("expected") != std::string::npos;
    const bool actual =
        lower.find("actual") != std::string::npos || lower.find("received") != std::string::npos;
    if (expected && actual) return lower.find_first_of("0123456789") == std::string::npos;
    next = trimmed(next);
    return (t.starts_with("--- ") && next.starts_with("+++ ")) && (expected || actual);
}

// Whether `value` stands in `t` as a word of its own: no letter, digit or dot on either side.
bool holds_word(std::string_view t, std::string_view value) {
    auto inner = [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               c == '.' || c == '_';
    };
    for (std::size_t at = t.find(value); at != std::string_view::npos; at = t.find(value, at + 1)) {
        const std::size_t end = at + value.size();
        if ((at == 0 || !inner(t[at - 1])) && (end >= t.size() || !inner(t[end]))) return true;
    }
    return false;
}

// How many lines of a failure's diff are its own.
constexpr std::size_t k_diff_lines = 12;
// How far below a failure its diff may start (node-tap quotes a dozen lines of code between).
constexpr std::size_t k_diff_reach = 40;

// The heading of a list of failures: a short line ending with a colon that names failures or
// errors (jasmine's and rspec's `Failures:`, phpunit's `There were 2 errors:`), or mocha's
// `  12 failing`.
bool is_failures_heading(std::string_view t) {
    t = trimmed(t);
    if (t.size() < 7 || t.size() > 80 || (t.back() != ':' && t.back() != 'g')) return false;
    const std::string lower = lowered(t);
    if (t.back() == ':')
        return lower.find("fail") != std::string::npos || lower.find("error") != std::string::npos;
    std::size_t i = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > 0 && t.substr(i) == " failing";
}

// How many lines of a list a checker's verdict about a file announces are its own.
constexpr std::size_t k_listed_lines = 16;

// How far below its heading a failures list's first title may be.
constexpr std::size_t k_first_title_reach = 12;
// How far apart two numbered titles of one failures list may be.
constexpr std::size_t k_title_reach = 200;

// A line that is a place and nothing else: `/src/Cart9.php:4`; not one that opens the next
// finding (gfortran's `m012.f90:43:8:`).
bool is_bare_place(std::string_view t) {
    t = trimmed(t);
    return !t.empty() && t.back() != ':' && t.find_first_of(" \t") == std::string_view::npos &&
           is_file_place(t);
}

// A message that opens with its place: `pkg_test.go:242: got 120, want 121`.
bool opens_with_place(std::string_view t) {
    t = trimmed(t);
    const std::size_t space = t.find(' ');
    if (space == std::string_view::npos || space < 4 || t[space - 1] != ':') return false;
    return is_file_place(t.substr(0, space)) && !is_blank(t.substr(space));
}

// A line of quoted code in a gutter flush left: OCaml's `3 | ..match y with`, `57 |   let …`.
bool is_flush_gutter_row(std::string_view t) {
    std::size_t i = 0;
    while (i < t.size() && i < 8 && t[i] >= '0' && t[i] <= '9') ++i;
    return i > 0 && t.substr(i, 2) == " |" && (i + 2 == t.size() || t[i + 2] == ' ');
}

// The first name of a test in a line: a word of at least five letters, digits and `_` that
// opens with `test` or `Test` (`test_count_0` in `Failure: test_count_0(TestCart1)`), or empty.
std::string_view test_name_in(std::string_view t) {
    const auto word_char = [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               c == '_';
    };
    for (std::size_t at = 0; at + 5 <= t.size(); ++at) {
        if ((t[at] != 't' && t[at] != 'T') || t.substr(at + 1, 3) != "est" ||
            (at > 0 && word_char(t[at - 1])))
            continue;
        std::size_t end = at + 4;
        while (end < t.size() && word_char(t[end])) ++end;
        if (end - at >= 5) return t.substr(at, end - at);
        at = end;
    }
    return {};
}

// A labelled value that is a file's place and nothing else: `location:   t1-test.rkt:7:19`,
// `  at: test/a.js:12:5` (one word of letters, its colon, blanks, the place).
bool is_placed_value(std::string_view t) {
    t = trimmed(t);
    std::size_t k = 0;
    while (k < t.size() && ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z'))) ++k;
    if (k < 2 || k + 2 >= t.size() || t[k] != ':' || t[k + 1] != ' ') return false;
    const std::string_view value = trimmed(t.substr(k + 1));
    return !value.empty() && value.find(' ') == std::string_view::npos && is_file_place(value);
}

// One word of letters and nothing else on the line (`FAILURE`, `ERROR`, `Failed:`), as a
// verdict that names no subject stands.
bool is_lone_word(std::string_view t) {
    t = trimmed(t);
    if (!t.empty() && t.back() == ':') t.remove_suffix(1);
    if (t.size() < 4) return false;
    for (char c : t)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
    return true;
}

// The longest line taken for a check's name above a lone verdict: a name, not a paragraph.
constexpr std::size_t k_name_line_max = 160;

// How many notes with places of their own an error keeps (rustc explains with a few).
constexpr std::size_t k_located_notes = 3;

// How many of a failed test's own frames its section may name (one per chained exception).
constexpr std::size_t k_test_frames = 4;

// A frame's place flush left, alone or before the function's name: pytest's `tests/t.py:27: `
// and `tests/t.py:19: in compute` (not `tests/t.py:14: KeyError`, an error's place).
bool is_flush_frame(std::string_view t) {
    if (t.empty() || t[0] == ' ' || t[0] == '\t') return false;
    t = trimmed(t);
    const std::size_t space = t.find(' ');
    const std::string_view place = t.substr(0, space);
    if (place.size() < 4 || place.back() != ':' || !is_file_place(place)) return false;
    return place.size() == t.size() || t.substr(space + 1).starts_with("in ");
}

// A box-drawing gutter at a line's start, after its blanks (phpunit --testdox draws a failure's
// lines in one).
constexpr std::string_view k_gutter = "\xe2\x94\x82"; // "│"

bool in_gutter(std::string_view t) {
    return trimmed(t).starts_with(k_gutter);
}

// Line `place` is line `line`'s place: shown with it, and part of what makes it one error.
void link_place(Blocks& b, std::vector<Level>& levels, std::size_t line, std::size_t place) {
    if (b.location.empty()) b.location.assign(levels.size(), -1);
    b.location[line] = static_cast<std::int32_t>(place);
    b.location_line[place] = true;
    levels[line] = levels[place] = Level::critical;
}

// Whether two lines open with the same two words (`==31880==    by 0x…` and `==31880==    by
// 0x…`: a stack's frames).
bool open_alike(std::string_view a, std::string_view b) {
    auto words = [](std::string_view t) {
        std::size_t i = 0, count = 0;
        while (count < 2) {
            while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
            if (i == t.size()) break;
            while (i < t.size() && t[i] != ' ' && t[i] != '\t') ++i;
            ++count;
        }
        return t.substr(0, i);
    };
    return words(a) == words(b);
}

// A line of punctuation only (`------`, `━━━━`, `=====`): a ruler between parts.
bool is_ruler(std::string_view t) {
    t = trimmed(t);
    if (t.size() < 3) return false;
    for (const char c : t)
        if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) return false;
    return true;
}

// A message ending with its rule's name in parentheses, words joined by hyphens (htmlhint's
// `^ The id value [ main ] must be unique. (id-unique)`): a finding when it sits under a place.
bool ends_with_rule_name(std::string_view t) {
    t = trimmed(t);
    if (t.size() < 5 || t.back() != ')') return false;
    const std::size_t open = t.rfind('(');
    if (open == std::string_view::npos || open == 0 || t[open - 1] != ' ') return false;
    const std::string_view name = t.substr(open + 1, t.size() - open - 2);
    bool hyphen = false;
    for (const char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
        hyphen |= c == '-';
    }
    return hyphen && name.front() != '-' && name.back() != '-';
}

// An indented error sits under the line it belongs to: a stylish linter's row under its
// file's name, a test runner's assertion under the test's name (the nearest line above with
// less indentation), and shellcheck's finding under its code line and `In FILE line 12:`
// (the first line of its paragraph, when that names a place). Those lines are shown
// whenever the error is: without them the row reads as the previous file's. An indented
// warning under a line that names a place is a located warning, as one naming it itself.
// How many words a line has, counting up to `most` + 1.
std::size_t word_count(std::string_view t, std::size_t most) {
    std::size_t words = 0;
    bool in_word = false;
    for (const char c : t) {
        const bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (!blank && !in_word && ++words > most) break;
        in_word = !blank;
    }
    return words;
}

// One pass, with a stack of the open lines of less and less indentation; only when some
// error or warning is indented.
void find_parents(const LineTexts& lines, std::vector<Level>& levels, Blocks& b) {
    const std::size_t n = lines.count;
    b.parent.clear();
    b.heading.clear();
    auto candidate = [&](std::size_t i, std::string_view t) {
        return !b.location_line[i] &&
               (levels[i] == Level::critical ||
                (levels[i] == Level::notable && mentions_warning(t)) || ends_with_rule_name(t));
    };
    // A row that opens with its line and column (is_row_finding) names no file: it sits under
    // its paragraph's file even flush left (remark's `docs/a.md` over `5:1  warning …`).
    const auto row = [&](std::size_t i, std::string_view t) {
        return levels[i] == Level::critical && is_row_finding(t);
    };
    bool any = false;
    for (std::size_t i = 0; i < n && !any; ++i)
        any = (levels[i] >= Level::notable && indent_of(lines(i)) > 0 && candidate(i, lines(i))) ||
              row(i, lines(i));
    if (!any) return;
    b.parent.assign(n, -1);
    b.heading.assign(n, -1);
    std::vector<std::pair<std::size_t, std::size_t>> open; // (indentation, line)
    std::size_t paragraph = 0;      // the first line after the last blank one
    bool paragraph_located = false; // and whether it names a place
    bool paragraph_file = false;    // or is a file's path, alone or after a label
    bool after_blank = true;
    std::size_t file_heading = n; // the last line naming a file alone, n for none
    for (std::size_t i = 0; i < n; ++i) {
        const std::string_view t = lines(i);
        if (is_blank(t)) {
            after_blank = true;
            continue;
        }
        if (after_blank) {
            paragraph = i;
            // A place; or a file's path, alone (htmlhint's `   /app/pages/a.html` over its
            // `      L11 |<p>…` rows) or after a label (phpcs's `FILE: /app/Cart06.php` over its
            // table of `  4 | ERROR | …` rows): it heads every row of its paragraph.
            paragraph_located = names_place(t);
            const std::string_view words = trimmed(t);
            const std::size_t blank = words.find_first_of(" \t");
            paragraph_file = !paragraph_located && names_file(t) &&
                             (blank == std::string_view::npos ||
                              (words[blank - 1] == ':' && words.substr(blank + 1).find_first_of(
                                                              " \t") == std::string_view::npos));
            after_blank = false;
        }
        // A ruler (phpcs's `-----` under its file's name) says nothing: no line sits under it,
        // and it closes none.
        if (is_ruler(t)) continue;
        const std::size_t depth = indent_of(t);
        if (depth == 0 && row(i, t)) {
            const std::size_t up = paragraph_file && paragraph < i ? paragraph : file_heading;
            if (up < i) {
                b.parent[i] = b.heading[i] = static_cast<std::int32_t>(up);
                continue;
            }
        }
        // A flush line that names a file among a few words, no place (sqlfluff's `== [models/
        // a.sql] FAIL`, with no blank line between one file's rows and the next's): the file
        // of the rows below it.
        if (depth == 0 && !names_place(t) && names_file(t) && word_count(t, 4) <= 4)
            file_heading = i;
        while (!open.empty() && open.back().first >= depth) open.pop_back();
        if (depth > 0 && !open.empty() && i - open.back().second <= k_parent_reach &&
            candidate(i, t)) {
            const std::size_t up = open.back().second;
            const bool heading =
                paragraph < up && ((paragraph_located && i - paragraph <= k_heading_reach) ||
                                   (paragraph_file && i - paragraph <= k_parent_reach));
            if (levels[i] < Level::critical && (names_place(lines(up)) || heading))
                levels[i] = Level::critical;
            if (levels[i] == Level::critical) {
                b.parent[i] = static_cast<std::int32_t>(up);
                if (heading) b.heading[i] = static_cast<std::int32_t>(paragraph);
            }
        }
        // Quoted source (`  8 |   if (x) {`, the last line of oxlint's excerpt over the next
        // report's header) is the program's, never the line a finding sits under.
        if (!is_quoted_code(t)) open.emplace_back(depth, i);
    }
}

// The file a compiler's scope line names: `f4.c: In function ‘f1_4’:` (gcc), `shop/m.py: note:
// In function "use_2":` (mypy): flush left, a file's name and a colon, then words, a colon at the
// end, no line number. Empty when the line is none.
std::string_view scope_file(std::string_view t) {
    if (t.empty() || t[0] == ' ' || t[0] == '\t') return {};
    const std::size_t colon = t.find(": ");
    if (colon == std::string_view::npos || colon == 0 || colon > 256) return {};
    const std::string_view file = t.substr(0, colon);
    if (file.find_first_of(" \t:(") != std::string_view::npos || !names_file_name(file)) return {};
    return trimmed(t).back() == ':' ? file : std::string_view{};
}

// How far below its scope line a compiler's diagnostics may be.
constexpr std::size_t k_scope_reach = 400;

// A compiler's scope line over the diagnostics of its file that follow it (gcc's `f4.c: In
// function ‘f1_4’:` over `f4.c:5:15: warning: …`, its excerpt and notes): what the errors sit
// under, shown with them, and part of what makes one error: `make -k` over 20 directories
// printed the same `f1.c:5:12: error: …` in each, under a different function every time.
void find_scopes(const LineTexts& lines, std::vector<Level>& levels, Blocks& b) {
    const std::size_t n = lines.count;
    // Only an error said word for word elsewhere needs its scope to tell it apart; one named by
    // a path of its own (ninja's `../src/lib3/f1.c:5:12`) shows no more than itself.
    std::unordered_map<std::string_view, std::uint32_t> said;
    bool any = false;
    for (std::size_t h = 0; h + 1 < n && !any; ++h) any = !scope_file(lines(h)).empty();
    if (!any) return;
    for (std::size_t i = 0; i < n; ++i)
        if (levels[i] == Level::critical && !b.location_line[i]) ++said[lines(i)];
    for (std::size_t h = 0; h + 1 < n; ++h) {
        const std::string_view file = scope_file(lines(h));
        if (file.empty() || levels[h] == Level::critical) continue;
        std::size_t j = h + 1;
        for (; j < n && j - h <= k_scope_reach; ++j) {
            const std::string_view t = lines(j);
            if (is_blank(t) || indent_of(t) > 0) continue; // an excerpt, its caret
            if (!t.starts_with(file) || t.size() <= file.size() + 1 || t[file.size()] != ':' ||
                t[file.size() + 1] < '0' || t[file.size() + 1] > '9')
                break; // the scope's end: another file's line, a build step, the next scope
            if (levels[j] != Level::critical || b.location_line[j] || b.parent_of(j) >= 0 ||
                said[t] < 2)
                continue;
            if (b.parent.empty()) b.parent.assign(n, -1);
            if (b.heading.empty()) b.heading.assign(n, -1);
            b.parent[j] = static_cast<std::int32_t>(h);
        }
        h = j - 1;
    }
}

// A banner's rule: flush left, one character repeated across the line (`-----…`, `.....…`),
// unlike a caret under an excerpt or a table's short rule.
bool is_banner_rule(std::string_view t) {
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.remove_suffix(1);
    if (t.size() < 40 || std::string_view("-=.*_~#").find(t[0]) == std::string_view::npos)
        return false;
    return t.find_first_not_of(t[0]) == std::string_view::npos;
}

// How far above an error (in lines) its test's banner may end, and how many title lines it
// holds.
constexpr std::size_t k_banner_reach = 24;
constexpr std::size_t k_banner_titles = 3;

// A test's banner right above its failures (Catch2: a ruler, the test case's name and section,
// a ruler, the test case's place `t1.cpp:17`, a dotted ruler, then `t1.cpp:20: FAILED:`): the
// name is the failed test, the place where it is; both are shown with every failure under it,
// and tell its failures apart from another test's.
void find_banners(const LineTexts& lines, std::vector<Level>& levels, Blocks& b) {
    const std::size_t n = lines.count;
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || b.parent_of(i) >= 0 ||
            b.heading_of(i) >= 0 || indent_of(lines(i)) > 0)
            continue;
        // Up past blanks and the failures of the same test to the ruler that closes its banner.
        std::size_t j = i;
        while (j > 0 && i - j <= k_banner_reach && !is_banner_rule(lines(j - 1))) --j;
        if (j < 2 || !is_banner_rule(lines(j - 1))) continue;
        std::size_t r = j - 1; // the closing ruler
        std::int32_t place = -1;
        if (r >= 2 && is_file_place(lines(r - 1)) && is_banner_rule(lines(r - 2))) {
            place = static_cast<std::int32_t>(r - 1);
            r -= 2;
        }
        std::size_t top = r; // the first title line
        while (top > 0 && r - top < k_banner_titles && !is_banner_rule(lines(top - 1)) &&
               !is_blank(lines(top - 1)))
            --top;
        if (top == r || top == 0 || !is_banner_rule(lines(top - 1))) continue;
        if (b.parent.empty()) b.parent.assign(n, -1);
        if (b.heading.empty()) b.heading.assign(n, -1);
        b.heading[i] = static_cast<std::int32_t>(top);
        if (place >= 0) b.parent[i] = place;
    }
}

} // namespace

bool is_program_frame(std::string_view t) {
    std::size_t i = 0;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    const std::string_view rest = t.substr(i);
    // Go prints each frame's place alone under its function: `\t/src/pkg/pkg.go:31 +0x1d`.
    const std::string_view place = rest.substr(0, rest.find(' '));
    const bool go_frame =
        place.size() < rest.size() ? rest.substr(place.size()).starts_with(" +0x") : true;
    if (!(rest.starts_with("at ") || rest.starts_with("\xe2\x9d\xaf ") || rest.starts_with("# ") ||
          rest.starts_with("\xe2\x80\xba ") || (go_frame && place.starts_with('/'))) ||
        !is_file_place(t))
        return false;
    // The runtime's, the libraries' and the test framework's own frames (JUnit's `at
    // org.junit.Assert.fail(Assert.java:89)` above the test's `at com.acme.InvoiceTest.total(…)`).
    for (const std::string_view outside :
         {"node:internal", "node_modules/", "/rustc/", "java.base/", " /usr/", "(/usr/", "/gems/",
          "at org.junit.", "at junit.framework.", "at org.hamcrest.", "at jdk.internal.",
          "at sun.reflect.", "at java.lang.reflect.", "at org.testng."})
        if (t.find(outside) != std::string_view::npos) return false;
    return !rest.starts_with("/usr/");
}

bool announces_message(std::string_view line) {
    line = trimmed(line);
    return !line.empty() && line.back() == ':';
}

bool is_error_detail(std::size_t depth, std::string_view line) {
    if (indent_of(line) != depth) return false;
    const std::string_view t = line.substr(depth);
    std::size_t i = 0;
    while (i < t.size() && t[i] >= 'A' && t[i] <= 'Z') ++i;
    if (i < 3) return false;
    const std::string_view label = t.substr(0, i);
    if (i + 1 < t.size() && t[i] == ' ' && t[i + 1] >= '0' && t[i + 1] <= '9') { // `LINE 1:`
        ++i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    }
    if (i + 2 >= t.size() || t[i] != ':' || (t[i + 1] != ' ' && t[i + 1] != '\t') ||
        is_blank(t.substr(i + 1)))
        return false;
    // A level or a verdict opens a record of its own (a log's `INFO:` lines after its `ERROR:`,
    // automake's `PASS:` lines after a `FAIL:`), not a detail of the one above.
    for (const std::string_view own :
         {"TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "FATAL", "PANIC", "PASS",
          "FAIL", "SKIP", "XFAIL", "XPASS", "SUCCESS", "DONE", "OK"})
        if (label == own) return false;
    return true;
}

bool is_announced_message(std::size_t depth, std::string_view next) {
    return !is_blank(next) && indent_of(next) <= depth && !is_file_place(next) &&
           !is_section_header(next);
}

Blocks find_blocks(const LineTexts& lines, std::vector<Level>& levels) {
    const std::size_t n = lines.count;
    Blocks b;
    // The line that ends a Python traceback names the exception, whatever its name; the
    // traceback's last frame (`  File "t.py", line 224, in test_total`) is its place, so the
    // hundredth `AssertionError: 2 != 3` of a test run, raised elsewhere, is no repeat of the
    // first: a traceback always keeps its error end.
    std::vector<std::pair<std::size_t, std::size_t>> tracebacks; // (error end, last frame)
    // Indented too, inside another tool's report (doctest's `Exception raised:` over
    // `    Traceback …`): its frames are deeper than it, its end at its depth.
    for (std::size_t i = 0; i < n; ++i) {
        const std::string_view t = lines(i);
        const std::size_t depth = indent_of(t);
        if (depth > 8 || t.size() <= depth || t[depth] != 'T' ||
            !t.substr(depth).starts_with("Traceback (most recent call last)"))
            continue;
        std::size_t j = i + 1, frame = n;
        for (; j < n && !is_blank(lines(j)) && indent_of(lines(j)) > depth; ++j)
            if (is_file_place(lines(j))) frame = j;
        if (j < n && j > i + 1 && !is_blank(lines(j)) && indent_of(lines(j)) == depth) {
            levels[j] = Level::critical;
            if (frame < n) tracebacks.emplace_back(j, frame);
        }
        i = j > i ? j - 1 : i;
    }
    // An error whose place is below it, in the indented block under it: the line right
    // below (rustc's `error[E0308]: mismatched types` over `  --> src/main.rs:2:19`, a
    // runtime's message over `    at app.js:12:5`) or the block's first place further down
    // (jest's `      at Object.toBe (__tests__/lib.test.js:7:55)` under `  ● suite › case`,
    // go test's `    main_test.go:12: got 4` under `--- FAIL: TestX`). That line is part
    // of the error, shown with it even when later errors of its kind go without context,
    // and it tells a hundred identical headers apart.
    // A line that names a rule with its place in the block below (bandit's `>> Issue:
    // [B101:assert_used] …` over `   Location: path:12`) is a finding just the same. A memory
    // checker's header may have one line of its own depth under it before the stack (ASan's
    // `WRITE of size 4 at … thread T0`): the stack's first place in a source file is where
    // the program went wrong, past the checker's and the C library's frames.
    b.location_line.assign(n, false);
    b.location.clear();
    for (const auto& [end, frame] : tracebacks) link_place(b, levels, end, frame);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const bool error = levels[i] == Level::critical;
        // A warning with its place right below it (elixirc's `warning: unused alias Unused13`
        // over `  lib/report13.ex:4`) is a located warning, as one naming it itself.
        const bool warning = levels[i] == Level::notable && mentions_warning(lines(i)) &&
                             is_file_place(lines(i + 1)) &&
                             indent_of(lines(i + 1)) > indent_of(lines(i));
        if (!error && !warning && !names_rule(lines(i))) continue;
        if (names_place(lines(i))) {
            // An error that names its place has no other below it, but the top frame of the
            // stack right under it names the function it happened in (UBSan's `ub2.c:8:27:
            // runtime error: …` over `    #0 0x… in op5 /src/ub2.c:8`): shown with it.
            if (error && is_top_frame(lines(i + 1)) &&
                indent_of(lines(i + 1)) > indent_of(lines(i)))
                link_place(b, levels, i, i + 1);
            continue;
        }
        const std::size_t depth = indent_of(lines(i));
        const std::size_t reach = error ? k_block_reach : k_rule_reach;
        for (std::size_t j = i + 1; j < n && j - i <= reach; ++j) {
            const std::string_view t = lines(j);
            if (is_blank(t)) continue;
            const bool subtitle = j == i + 1 && error && levels[j] != Level::critical;
            if ((indent_of(t) <= depth && !subtitle) ||
                (levels[j] == Level::critical && !is_file_place(t)))
                break; // out of the block, or another error's own line
            // Right below the error, a line that names a place in words with its file is its
            // place too (bats' `# (in test file paths.bats, line 66)` under `not ok 3 …`, perl's
            // `#   at t/02-title.t line 38.`).
            const bool named_below = subtitle && names_place(t) && names_file_name(t);
            if (!named_below && (!is_file_place(t) || indent_of(t) <= depth)) continue;
            link_place(b, levels, i, j);
            break;
        }
    }
    // A place alone on its line, between blank lines (ava's `  test/stats14.test.js:22` under a
    // failed test's title, node's `/app/index.js:12` over the line that threw): where something
    // failed, said by nothing else. A one-line paragraph right above it, no deeper, is what
    // failed there (ava's `  stats14 › median of 4 values (case 4)`). Runs of places (a grep
    // count per file, phpunit's listing) are not this.
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] == Level::critical || !is_bare_place(lines(i))) continue;
        if ((i > 0 && !is_blank(lines(i - 1))) || (i + 1 < n && !is_blank(lines(i + 1)))) continue;
        levels[i] = Level::critical;
        const std::size_t depth = indent_of(lines(i));
        if (i >= 2 && !is_blank(lines(i - 2)) && (i == 2 || is_blank(lines(i - 3))) &&
            levels[i - 2] != Level::critical && indent_of(lines(i - 2)) == depth &&
            !is_bare_place(lines(i - 2))) {
            levels[i - 2] = Level::critical;
            b.location_line[i - 2] = true;
        }
    }
    // A paragraph of two lines, a message over the place it was found at (ansible-lint's
    // `name[casing]: All names should start with an uppercase letter.` over `db.yml:2`, or
    // over `db.yml:8 Task/Handler: install postgres`): a finding, whatever its words.
    for (std::size_t i = 1; i < n; ++i) {
        if ((i + 1 < n && !is_blank(lines(i + 1))) || is_blank(lines(i - 1)) ||
            (i >= 2 && !is_blank(lines(i - 2))))
            continue;
        const std::string_view place = trimmed(lines(i)), message = lines(i - 1);
        const std::string_view where = place.substr(0, place.find_first_of(" \t"));
        if (where.empty() || where.back() == ':' || !is_file_place(where) || b.location_line[i] ||
            b.location_of(i - 1) >= 0 || indent_of(message) != indent_of(lines(i)) ||
            is_file_place(trimmed(message).substr(0, trimmed(message).find_first_of(" \t"))))
            continue;
        link_place(b, levels, i - 1, i);
    }
    // A checker's verdict about a file, announcing a list: a line that opens with the file's
    // name and ends with a colon (include-what-you-use's `src/buf01.c should remove these
    // lines:` over `- #include <math.h>  // lines 4-4`). The verdict is a finding, and its
    // list, up to a blank line, is its own.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const std::string_view t = lines(i);
        if (levels[i] == Level::critical || is_blank(t) || t[0] == ' ' || t[0] == '\t' ||
            trimmed(t).back() != ':')
            continue;
        const std::size_t blank = t.find(' ');
        if (blank == std::string_view::npos || t[blank - 1] == ':' || t[blank - 1] == ',' ||
            !names_file_name(t.substr(0, blank)) || is_file_place(t.substr(0, blank)))
            continue;
        levels[i] = Level::critical;
        std::size_t j = i + 1;
        for (; j < n && j - i <= k_listed_lines && !is_blank(lines(j)); ++j) {
            if (levels[j] == Level::critical && !b.location_line[j]) break;
            levels[j] = Level::critical;
            b.location_line[j] = true;
        }
        i = j - 1;
    }
    // The numbered titles of a failures list (jasmine's `Failures:` over `1) module100 lookup
    // finds key 1009`, `  Message:`, `    Expected 3 to equal 4.`, the stack; then `2) …`),
    // numbered 1, 2, 3 … at one depth: each names a failed test, whatever its message's words,
    // and the first frame of its stack in the program is its place.
    // One pass: a heading opens a list when title 1 follows it closely; the list goes on while
    // each next number comes within reach at the same depth (an error line between that reads
    // as a heading, `AssertionError …: … equal:`, opens no new list unless a `1)` follows it).
    {
        std::size_t next = 0, last = 0, depth = 0; // the open list: the number it expects
        std::size_t heading = n;                   // the last heading seen, n for none
        for (std::size_t j = 0; j < n; ++j) {
            if (next > 0 && j - last > k_title_reach) next = 0;
            const std::size_t number = numbered_title(lines(j));
            if (number == 0) {
                if (is_failures_heading(lines(j))) heading = j;
                continue;
            }
            const bool follows = next > 0 && number == next && indent_of(lines(j)) == depth;
            const bool opens = number == 1 && heading < j && j - heading <= k_first_title_reach;
            if (!follows && !opens) continue;
            if (levels[j] < Level::critical) levels[j] = Level::critical;
            if (opens && !follows) {
                depth = indent_of(lines(j));
                heading = n;
                next = 1;
            }
            last = j;
            ++next;
        }
    }
    // An error whose stack follows its message, the message's lines flush left in between
    // (mocha's `AssertionError …: Expected values to be strictly equal:`, a blank, `31 !== 30`,
    // the diff, then `      at Context.<anonymous> (test/lib.spec.js:15:12)` at the error's
    // depth): the stack's first frame in the program, before the next error, is its place.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || b.location_of(i) >= 0) continue;
        if (names_place(lines(i))) continue;
        const std::size_t depth = indent_of(lines(i));
        for (std::size_t j = i + 1; j < n && j - i <= k_block_reach; ++j) {
            const std::string_view t = lines(j);
            // Go's `panic({0x51cbc0, …})` over its frame's place is a frame, not the next error.
            const bool frame_call = j + 1 < n && trimmed(t).ends_with(')') &&
                                    lines(j + 1).starts_with("\t/") && is_file_place(lines(j + 1));
            if (levels[j] == Level::critical && !is_file_place(t) && !frame_call)
                break; // the next error
            // A place alone and flush left heads the next report (svelte-check's
            // `/app/src/A.svelte:10:42` over its `Error: …`); a stack's frames are indented.
            if (indent_of(t) == 0 && is_bare_place(t)) break;
            if (!is_program_frame(t) || indent_of(t) < depth) continue;
            link_place(b, levels, i, j);
            break;
        }
    }
    // An error whose place is above it, on a line of its own, with only the quoted code and
    // its caret between (gfortran's `m012.f90:43:8:`, a blank, `   43 |     r = x + 'abc'`,
    // `      |        1`, then `Error: Operands of …`): that line is its place, so errors of
    // one wording at different places stay apart and each keeps where it is. Doctest's
    // `File "calc.py", line 78, in calc.triple` over `Failed example:` is the same. Two lines
    // that open alike are items of one list (a stack's frames), not a place and its error.
    for (std::size_t i = 1; i < n; ++i) {
        if (b.location_line[i] || b.location_of(i) >= 0) continue;
        // A warning right under its place alone (svelte-check's `/app/src/A.svelte:23:3` over
        // `Warn: <img> element should have an alt attribute`) is located there too.
        if (levels[i] == Level::notable && mentions_warning(lines(i)) &&
            levels[i - 1] != Level::critical && is_bare_place(lines(i - 1)) &&
            indent_of(lines(i - 1)) == indent_of(lines(i))) {
            link_place(b, levels, i, i - 1);
            continue;
        }
        // A warning over the same (OCaml's `File "m1.ml", lines 3-4, characters 2-19:`, the
        // quoted code, then `Warning 8 [partial-match]: …`) is located there as an error is.
        const bool warning = levels[i] == Level::notable && mentions_warning(lines(i));
        if (levels[i] != Level::critical && !warning) continue;
        const std::string_view error = lines(i);
        if (names_place(error)) continue;
        const std::size_t depth = indent_of(error);
        // A verdict under its test's own located messages, deeper (go test -v's `    x_test.go:
        // 242: got 120, want 121` over `--- FAIL: TestLookup40`): they are its place and words.
        std::size_t m = i;
        while (m > 0 && i - m < k_bare_places && levels[m - 1] != Level::critical &&
               indent_of(lines(m - 1)) > depth && opens_with_place(lines(m - 1)))
            --m;
        if (m < i && !warning) {
            link_place(b, levels, i, i - 1);
            for (std::size_t k = m; k < i; ++k) {
                levels[k] = Level::critical;
                b.location_line[k] = true;
            }
            continue;
        }
        for (std::size_t j = i; j-- > 0 && i - j <= k_place_above_reach;) {
            const std::string_view t = lines(j);
            if (is_blank(t)) continue;
            if ((indent_of(t) > depth || is_flush_gutter_row(t)) && levels[j] != Level::critical)
                continue; // code, caret
            // A warning's place is a header ending with a colon (not a note above a run's `13
            // warnings generated.`).
            const bool header = trimmed(t).ends_with(':') && !is_subordinate_diagnostic(t);
            if (indent_of(t) == depth && is_file_place(t) && levels[j] != Level::critical &&
                !open_alike(t, error) && (!warning || header)) {
                link_place(b, levels, i, j);
            }
            break;
        }
    }
    // A critical line that ends with a colon announces its message on the line right below
    // (Rust's `thread 'x' panicked at src/lib.rs:9:5:` over `index out of bounds: …`, a tool's
    // `error: the build failed because:` over the reason): the error's own words, whatever
    // words they hold. Node's assert leaves a blank line between (`AssertionError
    // [ERR_ASSERTION]: Expected values to be strictly equal:`, a blank, `30 !== 50`).
    for (std::size_t i = 0; i + 1 < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || !announces_message(lines(i)))
            continue;
        const std::size_t m = is_blank(lines(i + 1)) && i + 2 < n ? i + 2 : i + 1;
        if (levels[m] != Level::critical && is_announced_message(indent_of(lines(i)), lines(m)))
            levels[m] = Level::critical;
    }
    // An error's details on the lines right below it, flush with it, each under a label in
    // capitals (psql's `ERROR:  duplicate key …` over `DETAIL:  Key (id)=(654) already
    // exists.` and `HINT:  …`): the error's own words, which tell its copies apart, so later
    // errors of its kind keep them too.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i]) continue;
        const std::size_t depth = indent_of(lines(i));
        std::size_t j = i + 1;
        for (; j < n && j - i <= k_error_detail_lines && is_error_detail(depth, lines(j)); ++j)
            levels[j] = Level::critical;
        i = j - 1; // a detail is no error of its own: each line is looked at once
    }
    // A message wrapped onto the line below (mypy --pretty: `m13.py:16: error: Item "None" of
    // … has no attribute` over `"name"  [union-attr]`): that line, no deeper than the error and
    // ending with the rule code the error's own line lacks, is the rest of its message.
    for (std::size_t i = 0; i + 1 < n; ++i)
        if (levels[i] == Level::critical && !b.location_line[i] &&
            levels[i + 1] != Level::critical && !is_blank(lines(i + 1)) &&
            indent_of(lines(i + 1)) <= indent_of(lines(i)) && ends_with_rule_code(lines(i + 1)) &&
            !ends_with_rule_code(lines(i)) && !names_place(lines(i + 1))) {
            levels[i + 1] = Level::critical;
            b.location_line[i + 1] = true; // the error's own line, as its place is
        }
    // A failure that names no place, with a labelled value below it that is one (rackunit's
    // `FAILURE` over `name:       check-equal?` and `location:   t1-test.rkt:7:19`, TAP's YAML
    // `at: test/a.js:12:5`): that line is its place, so later failures of one wording keep
    // where each is, as a place below an error keeps it.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || b.location_of(i) >= 0 ||
            names_place(lines(i)))
            continue;
        for (std::size_t j = i + 1; j < n && j - i <= k_value_reach; ++j) {
            if (levels[j] == Level::critical && !b.location_line[j]) break; // the next error
            if (!is_placed_value(lines(j))) continue;
            link_place(b, levels, i, j);
            break;
        }
    }
    // A verdict alone on its line names nothing (rackunit's `FAILURE` and `ERROR` under a row
    // of dashes and the check's name, `square 12`): the plain text line that opens the block
    // just above it (after a blank, a ruler or the start, no deeper than the verdict) is what
    // failed, shown with it, so later failures of one wording each keep their name. A run's
    // last line above its summary `FAIL` (go's `    --- PASS: …`, after another) is no name.
    for (std::size_t i = 1; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || !is_lone_word(lines(i))) continue;
        const std::string_view above = lines(i - 1);
        const bool opens_block = i == 1 || is_blank(lines(i - 2)) || is_ruler(lines(i - 2));
        if (!opens_block || levels[i - 1] != Level::none || is_blank(above) || is_ruler(above) ||
            indent_of(above) > indent_of(lines(i)) || above.size() > k_name_line_max)
            continue;
        levels[i - 1] = Level::critical;
        b.location_line[i - 1] = true;
    }
    // A failure's values, each under a label of its own (doctest's `Expected:` and `Got:` over
    // `    156` and `    157`, a runner's `Received:`): the value goes with its label as a
    // place goes with its error, so later failures keep what they got, and two failures with
    // different values are not one.
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i]) continue;
        for (std::size_t j = i + 1; j + 1 < n && j - i <= k_value_reach; ++j) {
            if (levels[j] == Level::critical && !b.location_line[j]) break; // the next error
            if (!is_value_label(lines(j))) continue;
            std::size_t v = j + 1;
            while (v < n && v - j <= 2 && is_blank(lines(v))) ++v;
            if (v >= n || is_blank(lines(v)) || levels[v] == Level::critical ||
                indent_of(lines(v)) < indent_of(lines(j)))
                continue;
            link_place(b, levels, j, v);
            j = v;
        }
    }
    // A failure's diff of the value it expected and the one it got (ava's `Difference (- actual,
    // + expected):` over `  - 16` and `  + 14.5`, node-tap's `--- expected`, `+++ actual`, `@@`,
    // `-report-q1-17`, `+report-q`): its lines, up to the first blank one or one back at the
    // diff's depth that is no diff line, are the failure's own, as a value under its label is.
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i]) continue;
        for (std::size_t j = i + 1; j + 1 < n && j - i <= k_diff_reach; ++j) {
            if (levels[j] == Level::critical && !b.location_line[j]) break; // the next error
            if (!opens_value_diff(lines(j), lines(j + 1))) continue;
            std::size_t v = j + 1;
            while (v < n && v - j <= 2 && is_blank(lines(v))) ++v;
            const std::size_t first = v, depth = v < n ? indent_of(lines(v)) : 0;
            for (; v < n && v - j <= k_diff_lines && !is_blank(lines(v)); ++v) {
                const std::string_view t = lines(v);
                const std::size_t at = content_start(t) + indent_of(t);
                if (indent_of(t) <= depth && at < t.size() && t[at] != '-' && t[at] != '+' &&
                    t[at] != '@' && t[at] != '{' && t[at] != '}' && t[at] != '[' && t[at] != ']')
                    break;
            }
            // A diff of values the failure said above, no deeper than it (mocha's `31 !== 30`
            // over `-31`, `+30`), says nothing new; quoted code deeper than it says nothing.
            bool said = true;
            for (std::size_t k = first; k < v && said; ++k) {
                std::string_view value = trimmed(lines(k));
                if (value.empty() || value.starts_with("---") || value.starts_with("+++") ||
                    value.starts_with("@@") || (value[0] != '-' && value[0] != '+'))
                    continue;
                value = trimmed(value.substr(1));
                said = false;
                for (std::size_t a = i; a < j && !said && !value.empty(); ++a)
                    said =
                        indent_of(lines(a)) <= indent_of(lines(i)) && holds_word(lines(a), value);
            }
            if (!said) {
                for (std::size_t k = j; k < v; ++k) {
                    if (k > j && k < first) continue; // the blanks between
                    levels[k] = Level::critical;
                    b.location_line[k] = true;
                }
            }
            i = v > 0 ? v - 1 : v;
            break;
        }
    }
    // The same values on the label's own line (node's `expected: 50` and `actual: 51` in a
    // failure's YAML block, jest's `Expected: 3` and `Received: 4`): both, or an agent sees the
    // expected value alone ("expected" is a notable word by itself) and not what it got.
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || inline_value(lines(i)) != 0)
            continue;
        for (std::size_t j = i + 1; j < n && j - i <= k_inline_value_reach; ++j) {
            const int value = inline_value(lines(j));
            if (value == 0) {
                if (levels[j] == Level::critical && !b.location_line[j]) break; // the next error
                continue;
            }
            // The failure's own lines, as its place is: never "said before" by another
            // failure's equal values, nor an error of their own.
            levels[j] = Level::critical;
            b.location_line[j] = true;
            std::size_t v = j + 1; // a value below its label (`expected: |-`)
            while (value == 2 && v < n && v - j <= 2 && is_blank(lines(v))) ++v;
            if (value == 2 && v < n && !is_blank(lines(v)) &&
                indent_of(lines(v)) > indent_of(lines(j))) {
                levels[v] = Level::critical;
                b.location_line[v] = true;
            }
        }
    }
    // An error that leaves a term open at its end (eunit's `**error:{assertEqual,[{module,m},`
    // over `              {line,6},`, `{expected,26},` and `{value,25}]}`): the deeper lines
    // that close it are the rest of its message, kept with it as its place is, so a later
    // failure of its kind still says which line and what it got.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i]) continue;
        const std::string_view t = trimmed(lines(i));
        if (t.empty() || (t.back() != ',' && t.back() != '[' && t.back() != '{' && t.back() != '('))
            continue;
        int open = open_brackets(t);
        if (open <= 0) continue;
        const std::size_t depth = indent_of(lines(i));
        std::size_t j = i + 1;
        for (; j < n && j - i <= k_open_term_lines && open > 0; ++j) {
            const std::string_view u = lines(j);
            if (is_blank(u) || indent_of(u) <= depth ||
                (levels[j] == Level::critical && !b.location_line[j]))
                break;
            open += open_brackets(u);
        }
        if (open > 0) continue; // not closed where it should be: no term
        for (std::size_t k = i + 1; k < j; ++k) {
            levels[k] = Level::critical;
            b.location_line[k] = true;
        }
        i = j - 1;
    }
    // A finding's header naming its place and its rule, its message below it after a blank,
    // deeper, behind a severity mark (biome's `src/a.js:4:7 lint/correctness/noUnusedVariables
    // FIXABLE ━━━` over `  ! This variable unused120 is unused.`): the message is the
    // finding's own words, kept with it however many of its rule there are.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || !is_coded_finding(lines(i)))
            continue;
        std::size_t j = i + 1;
        if (is_blank(lines(j)) && j + 1 < n) ++j;
        const std::string_view t = trimmed(lines(j));
        const std::size_t mark = t.find(' ');
        if (mark == std::string_view::npos || mark == 0 || mark > 3 ||
            indent_of(lines(j)) <= indent_of(lines(i)) || t.substr(0, mark) == "i")
            continue;
        // A mark is no word of its own: `!`, `×`, `⚠`, or miette's ASCII `x`.
        const std::string_view mark_text = t.substr(0, mark);
        if (mark_text != "x" &&
            mark_text.find_first_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                                    "QRSTUVWXYZ0123456789") != std::string_view::npos)
            continue;
        levels[j] = Level::critical;
        b.location_line[j] = true;
    }
    // A failure's numbered title right above it, no deeper (phpunit's `9) Cart9Test::testBadType`
    // over `TypeError: …`), and the places listed alone on the lines after it, past one blank
    // (phpunit's `/src/Cart9.php:4` and `/tests/Cart9Test.php:25`): which test failed, and
    // where. Later failures of one wording keep them, as an error keeps its place.
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i]) continue;
        const std::size_t depth = indent_of(lines(i));
        if (i > 0 && levels[i - 1] != Level::critical && indent_of(lines(i - 1)) <= depth &&
            is_numbered_title(lines(i - 1))) {
            levels[i - 1] = Level::critical;
            b.location_line[i - 1] = true;
        }
        std::size_t j = i + 1;
        if (j < n && is_blank(lines(j))) ++j;
        if (j >= n || !is_bare_place(lines(j))) continue;
        if (b.location_of(i) < 0) link_place(b, levels, i, j);
        for (std::size_t k = j; k < n && k - j < k_bare_places && is_bare_place(lines(k)); ++k) {
            levels[k] = Level::critical;
            b.location_line[k] = true;
        }
    }
    // A failure drawn in a gutter (phpunit --testdox: `   │ Failed asserting that …`, the diff,
    // then `   │ /tests/Cart12Test.php:23`): the place listed alone further down the gutter,
    // before the next error, is its place.
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || b.location_of(i) >= 0 ||
            !in_gutter(lines(i)))
            continue;
        for (std::size_t j = i + 1; j < n && j - i <= k_block_reach && in_gutter(lines(j)); ++j) {
            const std::string_view rest = trimmed(trimmed(lines(j)).substr(k_gutter.size()));
            if (levels[j] == Level::critical && !is_file_place(rest)) break; // the next error
            if (!is_bare_place(rest)) continue;
            link_place(b, levels, i, j);
            break;
        }
    }
    // TeX's error is placed by the `l.24 …` line a few lines below it (the input line and its
    // text up to where TeX stopped).
    for (std::size_t i = 0; i < n; ++i) {
        if (!is_tex_error(lines(i)) || b.location_of(i) >= 0) continue;
        for (std::size_t j = i + 1; j < n && j - i <= 4; ++j) {
            const std::string_view t = lines(j);
            std::size_t d = 2;
            while (d < t.size() && t[d] >= '0' && t[d] <= '9') ++d;
            if (t.starts_with("l.") && d > 2 && d < t.size() && t[d] == ' ') {
                link_place(b, levels, i, j);
                break;
            }
        }
    }
    // A note with a place of its own in an error's block (clippy's `note: first possible panic
    // found here` over `  --> src/m0.rs:26:5`, rustc's `note: required by a bound in …` over
    // the bound's place): the note and its place are the error's own, shown with it. The
    // note's words repeat under every error of its kind; its place does not.
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i] || b.location_of(i) < 0) continue;
        const std::size_t depth = indent_of(lines(i));
        std::size_t notes = 0;
        for (std::size_t j = i + 1; j + 1 < n && j - i <= k_block_reach && !is_blank(lines(j));
             ++j) {
            const std::string_view t = lines(j);
            if (levels[j] == Level::critical && !b.location_line[j]) break; // the next error
            if (indent_of(t) != depth || !is_subordinate_diagnostic(t) || names_place(t) ||
                indent_of(lines(j + 1)) <= depth || !is_file_place(lines(j + 1)))
                continue;
            if (++notes > k_located_notes) break;
            for (const std::size_t k : {j, j + 1}) {
                levels[k] = Level::critical;
                b.location_line[k] = true;
            }
        }
    }
    // A failed test's section under its ruled title (pytest's `____ test_total ____` over the
    // test's code, `tests/test_cart.py:27: `, the frames below, `E   …`): the first frame flush
    // left is the test's own, where it stands in its file, and so is the first after each
    // one-line paragraph that chains another exception (`The above exception was the direct
    // cause of the following exception:`). Shown with the section's errors: a later failure's
    // code and frames fold as said above, and this line alone tells the agent where it failed.
    // Each line is looked at once: a section ends at the next title.
    for (std::size_t i = 0; i < n; ++i) {
        if (!is_section_header(lines(i))) continue;
        std::size_t frames[k_test_frames];
        std::size_t found = 0;
        bool want = true, errors = false;
        std::size_t j = i + 1;
        for (; j < n && !is_section_header(lines(j)); ++j) {
            const std::string_view t = lines(j);
            if (levels[j] == Level::critical && !b.location_line[j]) errors = true;
            if (want && is_flush_frame(t)) {
                want = false;
                if (levels[j] != Level::critical && found < k_test_frames) frames[found++] = j;
            } else if (j + 1 < n && is_blank(lines(j - 1)) && is_blank(lines(j + 1)) &&
                       !is_blank(t) && indent_of(t) == 0 && announces_message(t)) {
                want = true;
            }
        }
        if (errors) {
            for (std::size_t k = 0; k < found; ++k) {
                levels[frames[k]] = Level::critical;
                b.location_line[frames[k]] = true;
            }
            // The title names the failed test (pytest's `____ test_param_5[17] ____`).
            if (levels[i] != Level::critical) {
                levels[i] = Level::critical;
                b.location_line[i] = true;
            }
        }
        i = j - 1;
    }
    // A failure's title naming its test (test-unit's `Failure: test_count_0(TestCart1)`,
    // `Error: test_find_5(TestCart2): NoMethodError: …`): the frame in its block that names
    // that test (`test/test_cart1.rb:6:in 'test_count_0'`, under the library's frames) is
    // where the test stands, shown with it as the stack's top is.
    for (std::size_t i = 0; i < n; ++i) {
        if (levels[i] != Level::critical || b.location_line[i]) continue;
        const std::string_view name = test_name_in(lines(i));
        if (name.empty()) continue;
        for (std::size_t j = i + 1; j < n && j - i <= k_block_reach; ++j) {
            const std::string_view t = lines(j);
            // The next failure's title (an error's own message, `NoMethodError: …`, is no
            // title: the frames come after it).
            if (levels[j] == Level::critical && !b.location_line[j] && !test_name_in(t).empty())
                break;
            if (!is_file_place(t) || !holds_word(t, name)) continue;
            levels[j] = Level::critical;
            b.location_line[j] = true;
            break;
        }
    }
    find_parents(lines, levels, b);
    find_scopes(lines, levels, b);
    find_banners(lines, levels, b);
    return b;
}

} // namespace sutra::core
