// The line-based rewrite.
//
// Every line of the original ends up in exactly one of three states: kept (shown, cleaned of
// terminal escapes, a very long one with its middle elided), folded (one of a run of repeats
// or similar lines, shown as a marker next to the lines that represent the run), or dropped
// (inside a "large output" marker). Markers name exact byte and line ranges of the original.
//
// The passes:
//  1. Folds. Runs of identical lines, and of identical blocks of 2-4 lines (recursion frames),
//     keep their first copy. Runs of 4+ lines with the same shape signature (differing only in
//     numbers, hashes, paths) keep their first and last line. Critical lines never fold as
//     "similar": each may be a distinct error.
//  2. Levels. Key words make a line critical or notable (core/rewrite/diagnostic_lines.hpp); the
//     rules over several lines add a few and say which lines belong together (the exception line
//     that ends a Python traceback, an error's place below it, the line an indented error sits
//     under: core/rewrite/block_rules.hpp).
//  3. Selection under a byte budget: critical lines with their context and continuation block
//     (carets, frames, location lines) first, then a minimum head and tail, then notable lines,
//     then more tail and head. Critical lines are only cut when they alone exceed the ceiling.
//  4. Tiny gaps are filled in (a marker would cost more than the lines), then pieces are built.
//
// Long runs of identical lines arrive condensed (core/rewrite/line_runs.hpp): a run of a million
// blank lines is planned as its edges and one line standing for the middle, whose range is all its
// copies; shown, that line brings a marker for them. So the passes cost the same on any input.
//
// Nothing is generated: a view is kept bytes of the original plus markers.

#include "core/rewrite/text_rewrite.hpp"

#include "core/rewrite/block_rules.hpp"
#include "core/rewrite/diagnostic_lines.hpp"
#include "core/rewrite/line_runs.hpp"
#include "core/util/flat_set.hpp"
#include "core/util/utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace sutra::core {
namespace {

enum class State : std::uint8_t { dropped, kept, folded };

struct Fold {
    std::size_t first = 0; ///< zero-based line index, inclusive
    std::size_t last = 0;
    Reason reason = Reason::repeated_lines;
    std::uint64_t items = 0;
    std::uint64_t period = 0;
};

// Odd lines out (keep_odd_lines): outputs of this many lines, where one kind of line makes up
// this share, keep up to this many lines of a rare kind.
constexpr std::size_t k_odd_min_lines = 200;
constexpr std::size_t k_odd_max_lines = 200000;
constexpr std::uint64_t k_odd_uniform_percent = 90;
constexpr std::size_t k_odd_max_kept = 8;

// A marker line costs about this many bytes; gaps smaller than that are cheaper to show.
constexpr std::uint64_t k_marker_cost = 170;
// A later marker names only its range (core/rewrite/marker.hpp) and costs about this much: once the
// view is short of room (context given up), only gaps smaller than that are shown.
constexpr std::uint64_t k_short_marker_cost = 40;
// When not every critical line fits, the shown ones come in runs of about this many.
constexpr std::size_t k_shown_run = 16;
// Subordinate diagnostics (`note:` lines) kept in an error's block.
constexpr std::size_t k_notes_per_error = 3;
// Errors of one kind (the shape of their first three words) shown with their context lines
// regardless of the budget.
constexpr std::uint32_t k_context_per_kind = 3;
// Lines with text at the end kept when the critical lines alone pass the ceiling (the verdict).
constexpr std::size_t k_closing_lines = 4;
// How close the search for the most critical room that fits the ceiling gets.
constexpr std::uint64_t k_room_step = 1024;

// A line without its end: its newline, a carriage return, trailing blanks.
std::string_view trimmed_end(std::string_view t) {
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' '))
        t.remove_suffix(1);
    return t;
}

// A line that is one mark repeated, blanks around it allowed: `------`, `======`, `━━━━━━`
// (the mark's bytes, one character of UTF-8, over and over).
bool is_one_mark_repeated(std::string_view t) {
    t = trimmed_end(t);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    const auto lead = static_cast<unsigned char>(t.empty() ? 0 : t[0]);
    const std::size_t mark = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (t.size() < 3 * mark || t.size() % mark != 0) return false;
    if (mark == 1 &&
        (((lead | 0x20) >= 'a' && (lead | 0x20) <= 'z') || (lead >= '0' && lead <= '9')))
        return false;
    for (std::size_t k = mark; k < t.size(); ++k)
        if (t[k] != t[k % mark]) return false;
    return true;
}

// A stack's bottom frames shared with the stack above it are elided from this many on.
constexpr std::size_t k_min_common_frames = 4;
// A long line keeps this many bytes either side of each critical word in its middle; words are
// looked for up to this many times a line (a 5 MB line of "error" stays linear).
constexpr std::size_t k_word_window = 100;
constexpr std::size_t k_max_word_hits = 4096;

// The kind of a line: the shape of its first three words ("npm warn deprecated", "npm warn
// ERESOLVE", "src/a.c:1:2: warning:").
std::uint64_t kind_of(std::string_view l) {
    std::size_t end = 0;
    for (int words = 0; words < 3 && end < l.size(); ++words) {
        while (end < l.size() && (l[end] == ' ' || l[end] == '\t')) ++end;
        while (end < l.size() && l[end] != ' ' && l[end] != '\t' && l[end] != '\n') ++end;
    }
    return shape_signature(l.substr(0, end));
}

// The next token of l from `at` (moved past it): the bytes up to a blank or the line's end,
// empty at the end; `alnum` when it holds a letter or a digit (a word, not a gutter's `|` or a
// caret run).
struct Token {
    std::string_view text;
    bool alnum = false;
};
Token next_token(std::string_view l, std::size_t& at) {
    while (at < l.size() && (l[at] == ' ' || l[at] == '\t')) ++at;
    const std::size_t b = at;
    bool alnum = false;
    while (at < l.size() && l[at] != ' ' && l[at] != '\t' && l[at] != '\n') {
        const char c = l[at++];
        alnum |= (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
    }
    return {l.substr(b, at - b), alnum};
}

// The kind of an error, which decides whether it still gets its context: as kind_of, but
// tokens with no letter or digit (a caret run under a column, `|`, `-->`) are no words, so
// shellcheck's `^--^ SC2086 (info): …` and `^-------^ SC2086 (info): …` are one kind whatever
// the width they underline.
std::uint64_t error_kind_of(std::string_view l) {
    std::string words; // only when a token is skipped: most lines take their prefix as it is
    bool skipped = false;
    std::size_t at = 0, end = 0;
    for (int count = 0; count < 3 && at < l.size();) {
        const Token t = next_token(l, at);
        if (t.text.empty()) break; // the line's end
        if (!t.alnum) {
            if (!skipped)
                words.assign(l.substr(0, static_cast<std::size_t>(t.text.data() - l.data())));
            skipped = true;
            continue;
        }
        if (skipped) words.append(t.text).push_back(' ');
        end = at;
        ++count;
    }
    return skipped ? shape_signature(words) : shape_signature(l.substr(0, end));
}

// A line's words: its tokens holding a letter or a digit, in order, the rest (a gutter's `|`, a
// caret run, the padding) left out. rustc's `  |   ---   ^^^^ expected `u32`, found `&str`` reads
// the same under every error whatever the width of its column and carets.
// FNV-1a over a line's words that `take` accepts, a space after each, at most `most` of them.
template <class Take>
std::uint64_t hash_words(std::string_view l, Take take, std::size_t most = SIZE_MAX) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    const auto mix = [&h](unsigned char c) {
        h ^= c;
        h *= 0x100000001b3ULL;
    };
    std::size_t at = 0, words = 0;
    for (Token t = next_token(l, at); !t.text.empty() && words < most; t = next_token(l, at)) {
        if (!t.alnum || !take(t.text)) continue;
        for (const char c : t.text) mix(static_cast<unsigned char>(c));
        mix(' ');
        ++words;
    }
    return h;
}

std::uint64_t words_of(std::string_view l) {
    return hash_words(l, [](std::string_view) { return true; });
}

// The kind of a finding for choosing which to show past the ceiling: its words after its place
// that hold no digit and no quote (standard's `  /p/a.js:5:23: Expected '===' and instead saw
// '=='. (eqeqeq)` reads "Expected and instead saw (eqeqeq)" at every place), at most eight.
std::uint64_t finding_kind_of(std::string_view l) {
    return hash_words(
        l,
        [](std::string_view w) {
            return w.find_first_of("0123456789'\"`") == std::string_view::npos;
        },
        8);
}

// What makes an error the same error again: its own text with the lines it sits under and its
// place below (views into the input, so 200,000 errors cost no copies).
struct ErrorKey {
    std::string_view heading, parent, line, place;
    bool operator==(const ErrorKey&) const = default;
};
struct ErrorKeyHash {
    std::size_t operator()(const ErrorKey& k) const noexcept {
        const std::hash<std::string_view> h;
        std::size_t x = h(k.line);
        for (const std::string_view v : {k.parent, k.heading, k.place})
            x ^= h(v) + 0x9E3779B97F4A7C15ULL + (x << 6) + (x >> 2);
        return x;
    }
};

class Planner {
public:
    Planner(std::string_view bytes,
            const LineIndex& lines,
            Shape shape,
            const KeyMatcher& keys,
            const TextOptions& options,
            const CondensedLines* runs)
        : m_bytes(bytes), m_lines(lines), m_shape(shape), m_keys(keys), m_opt(options),
          m_runs(runs), m_n(lines.count()) {}

    /// The error lines, each after the line it sits under (docs/contract.md, `--critical`).
    std::vector<std::size_t> critical() {
        clean();
        classify();
        std::vector<std::size_t> listed = m_listed;
        // Condensed lines name their first original line.
        if (m_runs)
            for (std::size_t& i : listed) i = static_cast<std::size_t>(m_runs->first[i]);
        return listed;
    }

    // The lines `restore --critical` lists, which the view's count of hidden ones counts too:
    // the critical lines and the lines they sit under (a file's name over its rows).
    std::vector<std::size_t> listed_lines() const {
        std::vector<std::size_t> listed = m_critical_lines;
        if (!m_blocks.parent.empty()) {
            for (std::size_t k = 0, n = listed.size(); k < n; ++k)
                for (const std::int32_t up : {parent_of(listed[k]), heading_of(listed[k])})
                    if (up >= 0) listed.push_back(static_cast<std::size_t>(up));
            std::sort(listed.begin(), listed.end());
            listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
        }
        return listed;
    }

    Plan plan() {
        m_use_folds = m_opt.folds;
        clean();
        classify();
        widen_for_error_reports();
        find_folds();
        mark_later_errors();
        Plan best;
        // Tighten until the view fits the ceiling: halve the budget, then give up the folds
        // (a thousand runs of similar lines cost a marker each, and their markers alone can
        // outgrow the ceiling: unfolded, those lines merge into a few large gaps), then drop
        // context, then show fewer critical lines (from both ends). Many scattered errors cost
        // a marker per gap, so the critical lines alone fitting is not enough.
        std::uint64_t budget = m_opt.budget_bytes;
        bool context = true;
        m_critical_room =
            m_opt.ceiling > 4 * k_marker_cost ? m_opt.ceiling - 4 * k_marker_cost : m_opt.ceiling;
        std::uint64_t over_room = 0; // the last critical room whose view did not fit
        for (int attempt = 0; attempt < 64; ++attempt) {
            select(budget, context);
            Plan p = build();
            const std::uint64_t size = render(p, m_opt.measure).size();
            best = std::move(p);
            if (size <= m_opt.ceiling) {
                // Shedding a third at a time overshoots (a 263 KB lint run came back as 16 KB
                // with 482 of 597 errors hidden): look for the most room that still fits.
                std::uint64_t fits = m_critical_room;
                while (over_room > fits + k_room_step) {
                    m_critical_room = fits + (over_room - fits) / 2;
                    select(budget, context);
                    Plan q = build();
                    if (render(q, m_opt.measure).size() <= m_opt.ceiling) {
                        best = std::move(q);
                        fits = m_critical_room;
                    } else {
                        over_room = m_critical_room;
                    }
                }
                break;
            }
            if (budget > 512)
                budget -= std::min(budget / 2, size - m_opt.ceiling + 1024);
            else if (m_show_own) // later errors' own messages yield before any fold or context
                m_show_own = false;
            else if (m_use_folds && !m_folds.empty()) {
                m_use_folds = false;
                budget = m_opt.budget_bytes; // the markers were the cost, not the budget
            } else if (context)
                context = false;
            else { // shed what overflowed, and a little more: as many critical lines as fit
                over_room = m_critical_room;
                m_critical_room -= std::min(m_critical_room / 3, size - m_opt.ceiling + 128);
            }
        }
        return best;
    }

private:
    std::string_view m_bytes;
    const LineIndex& m_lines;
    Shape m_shape;
    const KeyMatcher& m_keys;
    TextOptions m_opt;            // a copy: a successful run's error reports widen its context
    const CondensedLines* m_runs; // long runs of identical lines condensed, or null
    std::size_t m_n;

    std::vector<std::int32_t> m_clean_slot; // index into m_cleaned, or -1; empty: no noise
    std::vector<std::string> m_cleaned;
    Noise m_noise;
    std::vector<Level> m_level;
    Blocks m_blocks; // which lines belong together (core/rewrite/block_rules.hpp)
    // The critical and the notable lines, in order: what select() visits on every attempt.
    std::vector<std::size_t> m_critical_lines;
    std::vector<std::size_t> m_listed; // listed_lines(), made once classify() is done
    // finding_kind_of(text(i)) once per line over the tightening attempts; 0: not yet.
    std::vector<std::uint64_t> m_finding_kinds;
    std::uint64_t finding_kind(std::size_t i) {
        if (m_finding_kinds.empty()) m_finding_kinds.assign(m_n, 0);
        if (m_finding_kinds[i] == 0) m_finding_kinds[i] = finding_kind_of(text(i)) | 1;
        return m_finding_kinds[i];
    }
    std::vector<std::size_t> m_notable_lines;
    // shape_head of each line, its low half: it only serves as a filter (unequal heads mean
    // unequal shapes, and unequal lines), which half of it does as well, in half the memory.
    std::vector<std::uint32_t> m_head;
    std::vector<std::int32_t> m_fold_of; // index into m_folds, or -1
    std::vector<Fold> m_folds;
    std::vector<State> m_state;
    std::vector<bool> m_bare;  // an error shown without its context (a later one of its kind)
    std::vector<bool> m_later; // a later error of its kind (mark_later_errors)
    // The context under a later error: it repeats what the first few of its kind showed, so
    // the head and tail filling stops there rather than show it anyway.
    std::vector<bool> m_repeated;
    // A notable line in that context whose words a notable line under the first few said.
    std::vector<bool> m_said_above;
    // The bottom frames of an error's stack that the stack shown above it ends with too.
    std::vector<bool> m_common;
    // A line in that context that is the later error's own message (is_own_message_line), not a
    // quoted excerpt, a frame, a note or words the first few said.
    std::vector<bool> m_own;
    bool m_show_own = true;            // off once the view did not fit with them (plan)
    std::uint64_t m_critical_room = 0; // bytes of critical lines shown at most
    bool m_use_folds = true;           // folds become markers; off, their lines are plain gaps
    bool m_used_ansi = false;
    bool m_used_redraw = false;
    bool m_used_repeat = false; // a kept line that stands for a run brought its marker

    std::string_view raw(std::size_t i) const {
        const std::uint64_t size = m_lines.end(i) - m_lines.begin(i);
        // A line standing for a run of copies reads as one copy.
        return m_bytes.substr(m_lines.begin(i), m_runs ? size / m_runs->weight(i) : size);
    }
    std::uint64_t weight(std::size_t i) const { return m_runs ? m_runs->weight(i) : 1; }
    // The one-based original line that line i starts at, and the last one line i - 1 ends at.
    std::uint64_t first_line_of(std::size_t i) const { return (m_runs ? m_runs->first[i] : i) + 1; }
    std::uint64_t last_line_before(std::size_t i) const { return m_runs ? m_runs->first[i] : i; }
    std::string_view text(std::size_t i) const {
        if (m_clean_slot.empty()) return raw(i);
        const std::int32_t slot = m_clean_slot[i];
        return slot < 0 ? raw(i) : std::string_view(m_cleaned[static_cast<std::size_t>(slot)]);
    }

    void clean() {
        // Most logs carry no escapes or carriage returns at all: then no line needs a look.
        if (!std::memchr(m_bytes.data(), 0x1B, m_bytes.size()) &&
            !std::memchr(m_bytes.data(), '\r', m_bytes.size()))
            return;
        reserve_huge(m_clean_slot, m_n);
        m_clean_slot.assign(m_n, -1);
        for (std::size_t i = 0; i < m_n; ++i) {
            const std::string_view r = raw(i);
            if (!has_noise(r)) continue;
            m_clean_slot[i] = static_cast<std::int32_t>(m_cleaned.size());
            m_cleaned.push_back(clean_line(r, m_noise));
        }
    }

    void classify() {
        reserve_huge(m_level, m_n);
        reserve_huge(m_head, m_n);
        m_level.resize(m_n);
        m_head.resize(m_n);
        for (std::size_t i = 0; i < m_n; ++i) {
            const std::string_view t = text(i);
            m_level[i] = line_level(m_keys, t);
            m_head[i] = static_cast<std::uint32_t>(shape_head(t));
        }
        m_blocks = find_blocks(LineTexts{m_n, this,
                                         [](const void* p, std::size_t i) {
                                             return static_cast<const Planner*>(p)->text(i);
                                         }},
                               m_level);
        // A critical line the output already said word for word (a server's hundredth "code
        // 404, message File not found") adds only its position: the first copy is the error.
        // A located error is said again only with the same location too, and an indented one
        // only under the same header.
        std::size_t critical = 0;
        for (std::size_t i = 0; i < m_n; ++i) critical += m_level[i] == Level::critical ? 1 : 0;
        LineSet said(critical),
            said_at(m_blocks.parent.empty() && m_blocks.location.empty() ? 0 : critical);
        auto text_or_none = [&](std::int32_t at) {
            return at >= 0 ? text(static_cast<std::size_t>(at)) : std::string_view{};
        };
        auto key_of = [&](std::size_t i) {
            return ErrorKey{text_or_none(heading_of(i)), text_or_none(parent_of(i)), text(i),
                            text_or_none(location_of(i))};
        };
        const std::hash<std::string_view> hash;
        for (std::size_t i = 0; i < m_n; ++i) {
            // A location line goes with its error.
            if (m_level[i] != Level::critical || m_blocks.location_line[i]) continue;
            const auto line = static_cast<std::uint32_t>(i);
            const std::int32_t at = location_of(i);
            if (at < 0 && parent_of(i) < 0) {
                if (!said.insert(hash(text(i)), line, [&](std::uint32_t a, std::uint32_t b) {
                        return text(a) == text(b);
                    }))
                    m_level[i] = Level::none;
                continue;
            }
            if (!said_at.insert(
                    ErrorKeyHash{}(key_of(i)), line,
                    [&](std::uint32_t a, std::uint32_t b) { return key_of(a) == key_of(b); })) {
                m_level[i] = Level::none;
                if (at >= 0) m_level[static_cast<std::size_t>(at)] = Level::none;
            }
        }
        for (std::size_t i = 0; i < m_n; ++i) {
            if (m_level[i] == Level::critical)
                m_critical_lines.push_back(i);
            else if (m_level[i] == Level::notable)
                m_notable_lines.push_back(i);
        }
        m_listed = listed_lines();
    }

    // A run that exited 0 but reported errors of its own (valgrind over passing tests, a
    // sanitizer in recover mode, a linter that exits 0) shows them as a failing run would: the
    // exit status is the wrapped program's verdict, not the checker's.
    void widen_for_error_reports() {
        if (!m_opt.on_errors) return;
        for (const std::size_t i : m_critical_lines) {
            if (!is_error_report(m_keys, text(i))) continue;
            const auto& e = *m_opt.on_errors;
            m_opt.context_before = std::max(m_opt.context_before, e.before);
            m_opt.context_after = std::max(m_opt.context_after, e.after);
            m_opt.max_block = std::max(m_opt.max_block, e.max_block);
            m_opt.max_line_bytes = std::max(m_opt.max_line_bytes, e.max_line_bytes);
            return;
        }
    }

    std::int32_t parent_of(std::size_t i) const { return m_blocks.parent_of(i); }
    std::int32_t location_of(std::size_t i) const { return m_blocks.location_of(i); }
    std::int32_t heading_of(std::size_t i) const { return m_blocks.heading_of(i); }

    // Keeps critical line i and the lines it sits under; returns the bytes they add.
    std::uint64_t keep_error(std::size_t i) {
        std::uint64_t bytes = keep(i);
        for (const std::int32_t up : {parent_of(i), heading_of(i)})
            if (up >= 0) bytes += keep(static_cast<std::size_t>(up));
        return bytes;
    }

    bool same_line(std::size_t a, std::size_t b) const {
        // Equal lines have equal heads: most pairs are told apart without their bytes.
        if (m_head[a] != m_head[b]) return false;
        const std::string_view x = text(a), y = text(b);
        return x.size() == y.size() && x == y;
    }

    // The end of the run of lines from i on with line i's shape signature, none of them
    // critical. Unequal heads mean unequal shapes, so a signature (a pass over the whole line)
    // is only computed for lines whose first token already agrees with line i's.
    std::size_t shape_run_end(std::size_t i) const {
        std::size_t j = i + 1;
        if (m_level[i] == Level::critical) return j;
        std::optional<std::uint64_t> sig; // line i's, once needed
        for (; j < m_n && m_level[j] != Level::critical && m_head[j] == m_head[i]; ++j) {
            if (!sig) sig = shape_signature(text(i));
            if (shape_signature(text(j)) != *sig) break;
        }
        return j;
    }

    std::uint64_t bytes_of(std::size_t first, std::size_t last) const {
        return m_lines.end(last) - m_lines.begin(first);
    }

    // Whether line i's head recurs within the next four lines: what any repeat from line i
    // needs first, and what most lines lack.
    bool head_recurs(std::size_t i) const {
        const std::size_t last = std::min(m_n - 1, i + 4);
        for (std::size_t j = i + 1; j <= last; ++j)
            if (m_head[j] == m_head[i]) return true;
        return false;
    }

    // Copies of a block of 1-4 lines starting at line i that follow one another: records the
    // fold and returns the lines the copies cover, or 0 when there are none worth a marker.
    std::size_t repeat_from(std::size_t i, std::vector<Fold>& repeats) const {
        const std::size_t max_period = std::min<std::size_t>(4, (m_n - i) / 2);
        for (std::size_t k = 1; k <= max_period; ++k) {
            // No second copy starts with line i again: the common case, told cheaply.
            if (!same_line(i, i + k)) continue;
            // Copies of the block [i, i+k) that follow one another.
            std::size_t copies = 1;
            while (i + (copies + 1) * k <= m_n) {
                bool same = true;
                for (std::size_t t = 0; t < k && same; ++t)
                    same = same_line(i + t, i + copies * k + t);
                if (!same) break;
                ++copies;
            }
            if (k > 1) {
                // A block of one repeated line is the k == 1 case.
                bool uniform = true;
                for (std::size_t t = 1; t < k && uniform; ++t) uniform = same_line(i, i + t);
                if (uniform) continue;
            }
            const std::size_t min_copies = k == 1 ? 2 : 3;
            if (copies < min_copies) continue;
            const std::size_t first = i + k;
            const std::size_t last = i + copies * k - 1;
            if (k == 1 && copies < 4 && bytes_of(first, last) < k_marker_cost) continue;
            repeats.push_back({first, last, Reason::repeated_lines, copies - 1, k});
            return copies * k;
        }
        return 0;
    }

    void find_folds() {
        std::vector<Fold> repeats;
        for (std::size_t i = 0; i < m_n;) {
            const std::size_t advanced = head_recurs(i) ? repeat_from(i, repeats) : 0;
            i += advanced ? advanced : 1;
        }

        reserve_huge(m_fold_of, m_n);
        m_fold_of.assign(m_n, -1);
        for (std::size_t f = 0; f < repeats.size(); ++f)
            for (std::size_t i = repeats[f].first; i <= repeats[f].last; ++i)
                m_fold_of[i] = static_cast<std::int32_t>(f);

        // Similar runs absorb the repeats inside them.
        std::vector<bool> dropped_repeat(repeats.size(), false);
        std::vector<Fold> similar;
        for (std::size_t i = 0; i < m_n;) {
            // Blank lines start no run. Asked first: walking the run from each of a million
            // blank lines in turn is quadratic.
            const std::size_t j = is_blank(text(i)) ? i + 1 : shape_run_end(i);
            if (j - i >= 4 && bytes_of(i + 1, j - 2) >= k_marker_cost) {
                similar.push_back({i + 1, j - 2, Reason::similar_lines, 0, 0});
                for (std::size_t t = i + 1; t < j; ++t)
                    if (m_fold_of[t] >= 0)
                        dropped_repeat[static_cast<std::size_t>(m_fold_of[t])] = true;
                // A repeat run that the similar run cuts in two loses its fold; its
                // representative (line i) stays shown, so nothing is hidden unmarked.
                if (m_fold_of[i] >= 0)
                    dropped_repeat[static_cast<std::size_t>(m_fold_of[i])] = true;
            }
            i = j;
        }
        for (std::size_t f = 0; f < repeats.size(); ++f)
            if (!dropped_repeat[f]) m_folds.push_back(repeats[f]);
        for (const auto& s : similar) m_folds.push_back(s);
        std::sort(m_folds.begin(), m_folds.end(),
                  [](const Fold& a, const Fold& b) { return a.first < b.first; });
        reserve_huge(m_fold_of, m_n);
        m_fold_of.assign(m_n, -1);
        for (std::size_t f = 0; f < m_folds.size(); ++f)
            for (std::size_t i = m_folds[f].first; i <= m_folds[f].last; ++i)
                m_fold_of[i] = static_cast<std::int32_t>(f);
    }

    std::uint64_t shown_size(std::size_t i) const {
        const std::uint64_t own =
            std::min<std::uint64_t>(text(i).size(), m_opt.max_line_bytes + k_marker_cost);
        // A line standing for a run shows with a marker for its other copies.
        return weight(i) > 1 ? own + k_short_marker_cost : own;
    }

    // Marks line i kept when it is not folded; returns the bytes it adds.
    std::uint64_t keep(std::size_t i) {
        if (m_state[i] != State::dropped) return 0;
        m_state[i] = State::kept;
        return shown_size(i);
    }

    void select(std::uint64_t budget, bool context) {
        reserve_huge(m_state, m_n);
        m_state.assign(m_n, State::dropped);
        m_bare.assign(m_n, false);
        if (m_use_folds)
            for (const Fold& f : m_folds)
                for (std::size_t i = f.first; i <= f.last; ++i) m_state[i] = State::folded;

        // A. Critical lines, their context and their continuation blocks, within the ceiling.
        std::vector<std::size_t> critical;
        for (std::size_t i : m_critical_lines)
            if (m_state[i] != State::folded) critical.push_back(i);
        std::uint64_t critical_bytes = 0;
        for (std::size_t i : critical) critical_bytes += shown_size(i);
        // The last line with text is where a run states its verdict: it always stays.
        std::uint64_t room = m_critical_room;
        for (std::size_t k = m_n; k > 0; --k)
            if (!is_blank(text(k - 1))) {
                const std::uint64_t last = keep(k - 1);
                room = room > last ? room - last : 0;
                break;
            }
        if (critical_bytes > room) {
            // The run's closing lines state its verdict (sphinx's `build succeeded, 861
            // warnings.` sits above its last line): a few stay before any finding does.
            std::uint64_t closing = 0;
            for (std::size_t k = m_n, seen = 0; k > 0 && seen < k_closing_lines; --k) {
                if (is_blank(text(k - 1))) continue;
                if (closing + shown_size(k - 1) > room / 32) break;
                closing += keep(k - 1);
                ++seen;
            }
            room = room > closing ? room - closing : 0;
            // Too many to show: errors first, then findings (a located warning, a labelled
            // finding) with what room is left, each spread over the output in runs (the first
            // and the last always among them), so no stretch is silently all hidden and the
            // ones left out cost a marker per run rather than one each. A warning never takes
            // an error's place: a clang -Weverything run hid 3 of its 10 errors among 800
            // warnings before.
            std::vector<std::size_t> errors, findings;
            std::vector<bool> error(m_n, false); // an error report, or an error's place
            for (std::size_t i : critical)
                if (is_error_report(m_keys, text(i))) {
                    error[i] = true;
                    if (location_of(i) >= 0) error[static_cast<std::size_t>(location_of(i))] = true;
                }
            for (std::size_t i : critical) (error[i] ? errors : findings).push_back(i);
            const std::uint64_t shown = show_spread(errors, room, true);
            show_spread(findings, room > shown ? room - shown : 0, errors.empty());
            show_cheap_gaps(context);
            return;
        }
        std::uint64_t used = 0;
        for (std::size_t i : critical) used += keep_error(i);
        // The first few errors of each kind get their context; later ones of the same kind (a
        // hundred copies of one compiler warning) show only their own line (mark_later_errors).
        std::uint64_t context_bytes = 0;
        for (std::size_t i : critical) {
            if (m_blocks.location_line[i]) continue; // its error's context is its context
            if (m_later[i]) {
                m_bare[i] = true;
                // Its own message still says something the first few did not (catch2's
                // expression and expansion, ExUnit's `left:` and `right:`).
                if (!context || !m_show_own || context_bytes + used > room) continue;
                for (std::size_t j = i + 1, end = own_end(i); j < end; ++j)
                    if (m_own[j]) context_bytes += keep(j);
                continue;
            }
            if (!context || context_bytes + used > room) continue; // once over, it stays over
            const std::size_t from = i >= m_opt.context_before ? i - m_opt.context_before : 0;
            for (std::size_t j = from; j < i; ++j)
                if (!m_common[j]) context_bytes += keep(j);
            const std::size_t end = context_end(i);
            for (std::size_t j = i + 1; j < end; ++j)
                if (!m_common[j]) context_bytes += keep(j);
            // Its own message past its context (a race's `Previous write at …:` further down).
            if (m_show_own)
                for (std::size_t j = end, stop = own_end(i); j < stop; ++j)
                    if (m_own[j]) context_bytes += keep(j);
        }

        // B. A minimum head and tail.
        std::uint64_t spent = 0;
        for (std::size_t i = 0; i < std::min(m_opt.head_lines, m_n); ++i) spent += keep(i);
        for (std::size_t k = 0; k < std::min(m_opt.tail_lines, m_n); ++k)
            spent += keep(m_n - 1 - k);

        // C. Notable lines while the budget lasts: first one of each kind (so one odd warning
        // is not crowded out by hundreds of a common one), then the rest in order.
        std::unordered_set<std::uint64_t> kinds;
        for (std::size_t i : m_notable_lines) {
            if (spent >= budget) break;
            // A kind already shown (in an error's context) is not shown again for its own sake.
            if (kinds.insert(kind_of(text(i))).second && m_state[i] == State::dropped &&
                spent + shown_size(i) <= budget)
                spent += keep(i);
        }
        for (std::size_t i : m_notable_lines) {
            if (spent >= budget) break;
            if (m_state[i] == State::dropped && !m_said_above[i] && spent + shown_size(i) <= budget)
                spent += keep(i);
        }

        // C2. The odd lines out of a uniform listing.
        keep_odd_lines(spent, budget);

        // D. More tail (where verdicts are), then more head.
        if (spent < budget) {
            const std::uint64_t tail_room = (budget - spent) * 3 / 5;
            std::uint64_t t = 0;
            for (std::size_t k = 0; k < m_n; ++k) {
                const std::size_t i = m_n - 1 - k;
                if (m_state[i] != State::dropped) continue;
                if (m_repeated[i] || t + shown_size(i) > tail_room) break;
                t += keep(i);
            }
            spent += t;
            for (std::size_t i = 0; i < m_n && spent < budget; ++i) {
                if (m_state[i] != State::dropped) continue;
                if (m_repeated[i] || spent + shown_size(i) > budget) break;
                spent += keep(i);
            }
        }

        show_cheap_gaps(context);
    }

    // Which errors are later ones of their kind (past the first k_context_per_kind, by
    // error_kind_of), and the context under them, which repeats what the first few showed: the
    // same on every attempt of the tightening loop, so found once.
    void mark_later_errors() {
        m_later.assign(m_n, false);
        m_repeated.assign(m_n, false);
        m_said_above.assign(m_n, false);
        m_common.assign(m_n, false);
        std::unordered_map<std::uint64_t, std::uint32_t> seen;
        std::unordered_set<std::uint64_t> first_words;          // notable lines under the first few
        std::vector<std::size_t> ends(m_critical_lines.size()); // each one's context_end
        for (std::size_t k = 0; k < m_critical_lines.size(); ++k) {
            const std::size_t i = m_critical_lines[k];
            if (m_blocks.location_line[i]) continue;
            const std::size_t end = ends[k] = context_end(i);
            if (++seen[error_kind_of(text(i))] <= k_context_per_kind) {
                for (std::size_t j = i + 1; j < end; ++j)
                    if (m_level[j] == Level::notable) first_words.insert(words_of(text(j)));
                continue;
            }
            m_later[i] = true;
            for (std::size_t j = i + 1; j < end; ++j) {
                m_repeated[j] = true;
                // rustc's "expected `u32`, found `&str`" under the 700th error of a kind says
                // what it said under the first: not shown for its own sake again. One in other
                // words (another type) still is.
                m_said_above[j] =
                    m_level[j] == Level::notable && first_words.count(words_of(text(j)));
            }
        }
        // A chained exception's stack printed in full under each `Caused by:` (Maven's -e):
        // the frames it shares with the stack of the error shown above it, counted from the
        // bottom, say nothing new (Java itself writes them as `... 23 more`).
        std::size_t above_begin = 0, above_end = 0; // the last stack shown with its error
        for (std::size_t k = 0; k < m_critical_lines.size(); ++k) {
            const std::size_t i = m_critical_lines[k];
            if (m_blocks.location_line[i]) continue;
            // Its whole stack, past the context's cap of max_block lines.
            std::size_t end = ends[k];
            while (end < m_n && m_level[end] != Level::critical && is_continuation(text(end)))
                ++end;
            std::size_t a = end, b = above_end;
            while (a > i + 1 && b > above_begin && same_line(a - 1, b - 1)) --a, --b;
            if (end - a >= k_min_common_frames)
                for (std::size_t j = a; j < end; ++j) m_common[j] = m_repeated[j] = true;
            if (m_later[i]) continue; // shown bare: the stack above stays the one to compare
            above_begin = i + 1;
            above_end = end;
        }
        // A later error's own message: its paragraph (up to a blank line) when it announces
        // one (catch2's `t.cpp:14: FAILED:`), else the labelled values there and the line a
        // label announces (ExUnit's `left:  7` and `right: 8` under `Assertion with == failed`).
        // A line said word for word under an earlier error of any kind (bandit's `More Info:
        // https://…` under every finding) says nothing new; a label (`with expansion:`) stays.
        m_own.assign(m_n, false);
        std::unordered_set<std::string_view> said;
        for (std::size_t k = 0; k < m_critical_lines.size(); ++k) {
            const std::size_t i = m_critical_lines[k];
            if (m_blocks.location_line[i]) continue;
            if (!m_later[i]) {
                // Its own message too: what of it lies past its context still shows.
                std::unordered_set<std::string_view> alone;
                mark_own(i, ends[k], alone);
                for (std::size_t j = i + 1; j < ends[k]; ++j) said.insert(trimmed_end(text(j)));
                continue;
            }
            mark_own(i, ends[k], said);
        }
    }

    // Marks the lines under critical line i that are its own message (m_own), those in
    // `said` already excepted; `context_stop` is the end of its context.
    void
    mark_own(std::size_t i, std::size_t context_stop, std::unordered_set<std::string_view>& said) {
        const bool announces = trimmed_end(text(i)).ends_with(':');
        const std::size_t mark = message_mark(text(i)); // its lines' mark, or 0
        bool label = false;                             // the line above was a label of the message
        bool paragraph = true;                          // no blank line yet
        bool stack = false;                             // in a stack a label announced
        std::size_t shown_with = m_n;                   // that label: shown with what it announces
        // Past the first paragraph, up to the next error, only a bare label and the line it
        // announces (tcltest's `---- Result was:` under the test's code), and a stack's
        // label (a race detector's `Previous write at 0x… by goroutine 19:`) with the
        // stack's first frame in the program.
        for (std::size_t j = i + 1, end = own_end(i); j < end; ++j) {
            if (is_blank(text(j))) {
                paragraph = label = stack = false;
                shown_with = m_n;
                continue;
            }
            const std::string_view t = trimmed_end(text(j));
            if (stack && (!label || is_program_frame(t))) {
                if (!is_program_frame(t)) continue;
                stack = false;
                if (!m_common[j] && said.insert(t).second) {
                    m_own[j] = true;
                    if (shown_with < m_n) m_own[shown_with] = true;
                }
                continue;
            }
            const bool first = paragraph && j < context_stop;
            const bool opens_stack = t.ends_with(':') && !is_bare_label(t) && j + 1 < end &&
                                     !is_blank(text(j + 1)) &&
                                     indent_of(text(j + 1)) > indent_of(t);
            // A line with the error's mark goes on saying it (pytest's `E         At index 2
            // diff: [4, 5] != [4]` under `E       assert …`, TAP's `#     expected: 'b'`).
            const bool marked = mark > 0 && paragraph && message_mark(t) == mark &&
                                indent_of(t) == indent_of(text(i));
            // Still in the first paragraph past the context, a label is the next item's
            // (doctest -v's `Trying:` under a failed example).
            const bool part = label || opens_stack || marked ||
                              ((first || !paragraph) && is_bare_label(t)) ||
                              (first && (announces || is_labelled_value(t)));
            const bool own = part && !(j < context_stop && (m_said_above[j] || m_common[j])) &&
                             m_level[j] != Level::critical && is_own_message_line(t);
            // A label in words alone (`Traceback (most recent call last):`, `Expected:`), or
            // over a stack, says nothing without what it announces; one with words of its
            // own (minitest's `TestSlug9#test_words [t.rb:8]:`) shows anyway.
            if (own && t.ends_with(':')) {
                label = true;
                stack = opens_stack;
                shown_with = j;
                if (!opens_stack && !is_bare_label(t)) m_own[j] = true;
                continue;
            }
            label = false;
            m_own[j] = own && said.insert(t).second;
            if (m_own[j] && shown_with < m_n) m_own[shown_with] = true;
            if (!stack) shown_with = m_n;
        }
    }

    // The mark an error's message lines open with, after their indentation: one character, a
    // capital (pytest's `E`; not the words `A` and `I`) or `#` (TAP's comments), then a blank.
    // 0 for none.
    static std::size_t message_mark(std::string_view t) {
        std::size_t p = 0;
        while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
        if (p + 1 >= t.size() || t[p + 1] != ' ') return 0;
        const char c = t[p];
        const bool capital = c >= 'B' && c <= 'Z' && c != 'I';
        return capital || c == '#' ? static_cast<unsigned char>(c) : 0;
    }

    // The end (exclusive) of the lines where critical line i's own message may sit: up to the
    // next error, at most max_block lines.
    std::size_t own_end(std::size_t i) const {
        const std::size_t reach = std::min(m_n, i + 1 + m_opt.max_block);
        std::size_t j = i + 1;
        while (j < reach && !(m_level[j] == Level::critical && !m_blocks.location_line[j])) ++j;
        return j;
    }

    // The end (exclusive) of the lines under critical line i that are its context: a few plain
    // lines, then its continuation block (frames, a code excerpt) up to max_block.
    std::size_t context_end(std::size_t i) const {
        std::size_t notes = 0;
        std::size_t j = i + 1;
        for (; j < m_n && j - i <= m_opt.max_block; ++j) {
            if (j - i > m_opt.context_after && !is_continuation(text(j))) break;
            // Another error's own block follows (not this one's location line).
            if (m_level[j] == Level::critical &&
                !(m_blocks.location_line[j] && location_of(i) == static_cast<std::int32_t>(j)))
                break;
            // A compiler's chain of notes (g++'s hundred candidates) explains the error with
            // its first few; the rest stay behind a marker.
            if (is_subordinate_diagnostic(text(j)) && ++notes > k_notes_per_error) break;
        }
        return j;
    }

    // What line i weighs in a gap, in bytes of ordinary text: a ruler of one mark repeated
    // (`--------------------`, `━━━━`) is a token or two whatever its length, so two of them
    // between rackunit's failures cost less to show than a marker's ten tokens.
    std::uint64_t gap_weight(std::size_t i) const {
        return is_one_mark_repeated(text(i)) ? std::min<std::uint64_t>(shown_size(i), 8)
                                             : shown_size(i);
    }

    // Gaps cheaper to show than to mark are shown. The context under an error shown bare (a
    // later one of its kind: its code excerpt, event path and notes repeat the first few's) is
    // weighed against a later marker's cost, which names only its range.
    void show_cheap_gaps(bool context) {
        bool under_bare = false; // the last error kept above was shown bare
        for (std::size_t i = 0; i < m_n;) {
            if (m_state[i] != State::dropped) {
                if (m_level[i] == Level::critical && !m_blocks.location_line[i])
                    under_bare = m_bare[i];
                ++i;
                continue;
            }
            const std::uint64_t fill = context && !under_bare ? k_marker_cost : k_short_marker_cost;
            std::size_t j = i;
            std::uint64_t gap = 0;
            for (; j < m_n && m_state[j] == State::dropped; ++j)
                if (gap <= fill) gap += gap_weight(j); // past it, the sum is moot
            if (gap <= fill) {
                // Keep only when the neighbours are not folds, which would merge with the gap.
                for (std::size_t t = i; t < j; ++t) m_state[t] = State::kept;
            }
            i = j;
        }
    }

    // Shows as many of the critical lines `lines` (in order) as fit in `room` bytes, spread
    // over them in runs (spread_in_runs), with the lines they sit under; returns the bytes
    // shown. At least one when `at_least_one`.
    std::uint64_t
    show_spread(const std::vector<std::size_t>& lines, std::uint64_t room, bool at_least_one) {
        const std::size_t n = lines.size();
        if (n == 0) return 0;
        auto bytes_of_shown = [&](const std::vector<bool>& shown) {
            std::uint64_t bytes = 0;
            std::int32_t last_parent = -1; // a file's rows share one: count it once a run
            for (std::size_t k = 0; k < n; ++k) {
                if (!shown[k]) continue;
                const std::size_t i = lines[k];
                bytes += shown_size(i);
                const std::int32_t up = parent_of(i);
                if (up >= 0 && up != last_parent &&
                    m_level[static_cast<std::size_t>(up)] != Level::critical)
                    bytes += shown_size(static_cast<std::size_t>(up));
                if (heading_of(i) >= 0 && up != last_parent)
                    bytes += shown_size(static_cast<std::size_t>(heading_of(i)));
                last_parent = up;
            }
            return bytes;
        };
        const std::vector<bool> all(n, true);
        const std::uint64_t total = bytes_of_shown(all);
        std::size_t count = total <= room ? n
                                          : static_cast<std::size_t>(static_cast<double>(n) *
                                                                     static_cast<double>(room) /
                                                                     static_cast<double>(total));
        count = std::min(count, n);
        if (count == 0 && !at_least_one) return 0;
        count = std::max<std::size_t>(count, 1);
        // The first of each kind is shown whatever its position (standard's 40 `(eqeqeq)`
        // findings all fell in the runs left out, 1,293 `(semi)` ones did not), when kinds
        // repeat enough that the firsts are a small part of what fits.
        std::vector<bool> firsts(n, false);
        if (count < n) {
            std::unordered_set<std::uint64_t> kinds;
            std::size_t distinct = 0;
            for (std::size_t k = 0; k < n && distinct <= count / 4; ++k)
                if (!m_blocks.location_line[lines[k]] &&
                    kinds.insert(finding_kind(lines[k])).second) {
                    firsts[k] = true;
                    ++distinct;
                }
            if (distinct > count / 4) firsts.assign(n, false);
        }
        // The most spread over the lines that fits, with the firsts or without them.
        std::vector<bool> shown;
        std::uint64_t bytes = 0;
        const auto fit = [&](bool with_firsts) {
            for (std::size_t c = count;; c -= std::max<std::size_t>(1, c / 64)) {
                shown = spread_in_runs(n, c);
                if (with_firsts)
                    for (std::size_t k = 0; k < n; ++k) shown[k] = shown[k] || firsts[k];
                bytes = bytes_of_shown(shown);
                if (bytes <= room || c == 1) return;
            }
        };
        fit(true);
        if (bytes > room) fit(false); // the firsts alone do not fit
        if (bytes > room && !at_least_one) return 0;
        for (std::size_t k = 0; k < n; ++k)
            if (shown[k]) keep_error(lines[k]);
        return bytes;
    }

    // Which of n items to show when only `count` fit: the n - count left out form runs of a few
    // items each, placed evenly between runs of about k_shown_run shown ones; the first and the
    // last item are always shown.
    static std::vector<bool> spread_in_runs(std::size_t n, std::size_t count) {
        std::vector<bool> shown(n, true);
        const std::size_t skip = n - std::min(n, count);
        if (skip == 0) return shown;
        const std::size_t runs = std::clamp<std::size_t>(count / k_shown_run, 1, skip);
        const double stride = static_cast<double>(n) / static_cast<double>(runs);
        for (std::size_t g = 0; g < runs; ++g) {
            const std::size_t len = skip / runs + (g < skip % runs ? 1 : 0);
            const double centre = (static_cast<double>(g) + 0.5) * stride;
            std::size_t from =
                static_cast<std::size_t>(std::max(1.0, centre - static_cast<double>(len) / 2.0));
            for (std::size_t k = from; k < n - 1 && len > 0 && k < from + len; ++k)
                shown[k] = false;
        }
        // Runs clipped at the ends leave some unskipped: take them from the middle out.
        std::size_t hidden = 0;
        for (bool b : shown) hidden += b ? 0 : 1;
        for (std::size_t k = 1; k + 1 < n && hidden < skip; ++k)
            if (shown[k]) {
                shown[k] = false;
                ++hidden;
            }
        return shown;
    }

    // In a long output where one kind of line (the shape of its first three words) makes up
    // nearly every line, such as a grep listing or a run of test names, the few lines of other
    // kinds are what a reader would look for. Kept only while they are few; a varied output has
    // no odd ones out. Bounded to outputs where a second signature pass costs little.
    void keep_odd_lines(std::uint64_t& spent, std::uint64_t budget) {
        if (m_n < k_odd_min_lines || m_n > k_odd_max_lines) return;
        std::vector<std::uint64_t> kinds(m_n, 0);
        std::unordered_map<std::uint64_t, std::uint32_t> counts;
        std::size_t considered = 0;
        for (std::size_t i = 0; i < m_n; ++i) {
            if (is_blank(text(i))) continue;
            kinds[i] = kind_of(text(i));
            ++counts[kinds[i]];
            ++considered;
        }
        std::uint32_t top = 0;
        std::uint64_t top_kind = 0;
        for (const auto& [kind, count] : counts)
            if (count > top || (count == top && kind < top_kind)) {
                top = count;
                top_kind = kind;
            }
        if (static_cast<std::uint64_t>(top) * 100 < considered * k_odd_uniform_percent) return;
        std::vector<std::size_t> odd;
        for (std::size_t i = 0; i < m_n && odd.size() <= k_odd_max_kept; ++i)
            if (kinds[i] != 0 && kinds[i] != top_kind) odd.push_back(i);
        if (odd.size() > k_odd_max_kept) return;
        for (std::size_t i : odd)
            if (m_state[i] == State::dropped && spent + shown_size(i) <= budget) spent += keep(i);
    }

    void add_marker(Plan& plan, Elision e) {
        plan.elisions.push_back(e);
        Piece piece;
        piece.elision = static_cast<int>(plan.elisions.size() - 1);
        plan.pieces.push_back(std::move(piece));
    }

    void add_text(Plan& plan, std::string_view t) {
        if (!plan.pieces.empty() && plan.pieces.back().elision == -1)
            plan.pieces.back().text.append(t);
        else
            plan.pieces.push_back(Piece{std::string(t), -1, Piece::Json::none, true});
    }

    // The byte ranges of a long line that stay: its head and tail, and a window around each
    // critical word in between (as many as the line's bound allows, evenly spread), cut on UTF-8
    // boundaries of the original. A line's error sits anywhere in it, not only at its ends.
    std::vector<std::pair<std::size_t, std::size_t>> long_line_windows(std::string_view r) const {
        const std::size_t bound = m_opt.max_line_bytes;
        std::vector<std::pair<std::size_t, std::size_t>> w;
        w.emplace_back(0, utf8_floor(r, bound * 2 / 3));
        const std::size_t tail = utf8_ceil(r, r.size() - bound / 3);
        std::vector<std::size_t> hits;
        for (std::size_t pos = w[0].second; pos < tail && hits.size() < k_max_word_hits;) {
            const std::size_t off = m_keys.find(r.substr(pos, tail - pos), Level::critical);
            if (off == std::string_view::npos) break;
            hits.push_back(pos + off);
            pos += off + k_word_window; // the next window starts past this one
        }
        const std::size_t most = std::max<std::size_t>(1, bound / (2 * k_word_window));
        const std::size_t count = std::min(hits.size(), most);
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t at =
                hits[count == hits.size()
                         ? k
                         : k * (hits.size() - 1) / std::max<std::size_t>(1, count - 1)];
            const std::size_t b = utf8_floor(r, at > k_word_window ? at - k_word_window : 0);
            const std::size_t e = utf8_ceil(r, std::min(tail, at + k_word_window));
            if (b < w.back().second + k_short_marker_cost)
                w.back().second = std::max(w.back().second, e);
            else
                w.emplace_back(b, e);
        }
        if (tail < w.back().second + k_short_marker_cost)
            w.back().second = r.size();
        else
            w.emplace_back(tail, r.size());
        return w;
    }

    // A kept line; a line standing for a run adds the marker of its other copies.
    void emit_line(Plan& plan, std::size_t i) {
        emit_one_line(plan, i);
        if (weight(i) == 1) return;
        Elision e;
        e.reason = Reason::repeated_lines;
        e.begin = m_lines.begin(i) + raw(i).size();
        e.end = m_lines.end(i);
        e.first_line = first_line_of(i) + 1;
        e.last_line = last_line_before(i + 1);
        e.items = weight(i) - 1;
        e.period = 1;
        add_marker(plan, e);
        m_used_repeat = true;
    }

    // One line; a long one keeps its long_line_windows and elides the rest.
    void emit_one_line(Plan& plan, std::size_t i) {
        const std::string_view r = raw(i);
        if (r.size() <= m_opt.max_line_bytes) {
            add_text(plan, text(i));
            note_noise(r);
            return;
        }
        Noise noise;
        const auto shown = [&](std::size_t b, std::size_t e) {
            const std::string_view part = r.substr(b, e - b);
            add_text(plan, has_noise(part) ? clean_line(part, noise) : std::string(part));
        };
        const auto windows = long_line_windows(r);
        for (std::size_t k = 0; k < windows.size(); ++k) {
            shown(windows[k].first, windows[k].second);
            if (k + 1 == windows.size()) break;
            Elision e;
            e.reason = Reason::long_line;
            e.begin = m_lines.begin(i) + windows[k].second;
            e.end = m_lines.begin(i) + windows[k + 1].first;
            e.first_line = e.last_line = first_line_of(i);
            plan.elisions.push_back(e);
            Piece piece;
            piece.elision = static_cast<int>(plan.elisions.size() - 1);
            piece.own_line = false;
            plan.pieces.push_back(std::move(piece));
        }
        m_used_ansi |= noise.ansi;
        m_used_redraw |= noise.redraw;
        if (!plan.rules.empty() && plan.rules.back() == "long-line") return;
        plan.rules.push_back("long-line");
    }

    void note_noise(std::string_view r) {
        if (!has_noise(r)) return;
        Noise noise;
        (void)clean_line(r, noise);
        m_used_ansi |= noise.ansi;
        m_used_redraw |= noise.redraw;
    }

    Plan build() {
        Plan plan;
        plan.shape = m_shape;
        m_used_ansi = m_used_redraw = m_used_repeat = false;
        bool repeated = false, similar = false, large = false;
        for (std::size_t i = 0; i < m_n;) {
            if (m_state[i] == State::kept) {
                emit_line(plan, i++);
                continue;
            }
            std::size_t j = i;
            while (j < m_n && m_state[j] != State::kept) ++j;
            Elision e;
            e.begin = m_lines.begin(i);
            e.end = m_lines.end(j - 1);
            e.first_line = first_line_of(i);
            e.last_line = last_line_before(j);
            const std::int32_t f = m_fold_of[i];
            bool one_fold = f >= 0 && m_folds[static_cast<std::size_t>(f)].first == i &&
                            m_folds[static_cast<std::size_t>(f)].last == j - 1;
            // "The N lines above repeat" must be true of the lines right above the marker.
            if (one_fold && m_folds[static_cast<std::size_t>(f)].period > 1) {
                const Fold& fold = m_folds[static_cast<std::size_t>(f)];
                for (std::size_t t = fold.first - fold.period; t < fold.first; ++t)
                    if (m_state[t] != State::kept) one_fold = false;
            }
            if (one_fold) {
                const Fold& fold = m_folds[static_cast<std::size_t>(f)];
                e.reason = fold.reason;
                // A repeated line's copies, counted in original lines (a condensed run's too).
                e.items =
                    fold.period == 1 ? last_line_before(j) - first_line_of(i) + 1 : fold.items;
                e.period = fold.period;
                (fold.reason == Reason::repeated_lines ? repeated : similar) = true;
            } else {
                e.reason = Reason::large_output;
                large = true;
                // Errors that did not fit are counted, so the reader knows this range holds some.
                for (std::size_t t = i; t < j; ++t)
                    if (m_level[t] == Level::critical) ++e.keys;
            }
            add_marker(plan, e);
            i = j;
        }
        // Errors that did not fit: one line counts them and gives the call that lists them all.
        for (const std::size_t i : m_listed) { // once per output, not per tightening attempt
            ++plan.critical_total;
            if (m_state[i] != State::kept) ++plan.critical_hidden;
        }
        if (plan.critical_hidden > 0) {
            Piece note;
            note.elision = k_critical_note;
            plan.pieces.push_back(std::move(note));
        }
        if (m_used_ansi) plan.rules.push_back("ansi");
        if (m_used_redraw) plan.rules.push_back("redraw");
        if (repeated || m_used_repeat) plan.rules.push_back("repeated");
        if (similar) plan.rules.push_back("similar");
        if (large) plan.rules.push_back("budget");
        if (m_used_ansi || m_used_redraw) {
            Piece note;
            note.elision = k_cleanup_note;
            note.text = m_used_ansi && m_used_redraw ? "terminal escapes and progress redraws"
                        : m_used_ansi                ? "terminal escapes"
                                                     : "progress redraws";
            plan.pieces.push_back(std::move(note));
        }
        return plan;
    }
};

} // namespace

TextOptions text_options(Mode mode, std::uint64_t ceiling) {
    TextOptions o;
    o.ceiling = ceiling;
    switch (mode) {
    case Mode::concise:
        o.budget_bytes = 2048, o.context_before = 1, o.context_after = 2, o.max_block = 12;
        o.head_lines = 3, o.tail_lines = 6, o.max_line_bytes = 512;
        break;
    case Mode::automatic:
    case Mode::normal:
        break;
    case Mode::verbose:
        o.budget_bytes = 32768, o.context_before = 6, o.context_after = 8, o.max_block = 100;
        o.head_lines = 10, o.tail_lines = 20, o.max_line_bytes = 4096;
        break;
    case Mode::full:
        o.budget_bytes = ceiling, o.context_before = 10, o.context_after = 10, o.max_block = 400;
        o.head_lines = 20, o.tail_lines = 40, o.max_line_bytes = 16384;
        break;
    }
    o.budget_bytes = std::min(o.budget_bytes, ceiling);
    return o;
}

Plan rewrite_text(std::string_view bytes,
                  const CondensedLines& lines,
                  Shape shape,
                  const KeyMatcher& keys,
                  const TextOptions& options) {
    return Planner(bytes, lines.index, shape, keys, options, lines.condensed() ? &lines : nullptr)
        .plan();
}

std::vector<std::size_t>
critical_lines(std::string_view bytes, const LineIndex& lines, const KeyMatcher& keys) {
    const TextOptions options;
    // Condensed as the rewrite condensed them, so the listing counts what the view counted.
    const CondensedLines runs = condense_runs(bytes, lines);
    return Planner(bytes, runs.index, Shape::text, keys, options,
                   runs.condensed() ? &runs : nullptr)
        .critical();
}

} // namespace sutra::core
