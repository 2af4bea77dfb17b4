// JSON views. A strict RFC 8259 scanner validates the raw bytes (counting nodes), then walks them
// again recording every value and object key in a flat preorder array sized exactly: its byte
// span [begin, end) in the original, the index just past its subtree (its next sibling) and its
// child count; its first byte tells its kind. The renderer re-encodes that tree into a Plan
// without looking at the grammar again: keys and scalars are copied as raw bytes, whitespace is
// normalised (compact when the original has no newline, otherwise 2-space indentation), long
// strings keep a head and tail of their escaped text around an in-string marker, and long arrays
// keep their first and last items around one marker element. When that cannot make the view fit,
// large objects below the top level (maps of records such as dependency trees, flat maps such as
// a registry's timestamps) keep their first and last members around one marker member,
// `"[sutra: …]": null`; a small flat record among them (a linter's finding) keeps the members
// that say what and where instead. Items and members holding a critical key word, or an eslint
// error entry (`"severity": 2`), stay between the markers, and an error's own record (a failed
// test, a diagnostic whose severity is "error") stays whole, its strings at the mode's limit,
// until only the ceiling can shorten it. An elision is made only when its marker is
// shorter than the bytes it replaces. Over the target, the limits are tightened and the view
// re-measured (a handful of linear passes that count bytes rather than build text); over the
// hard ceiling, key items give way (as many as fit, evenly spread, the markers counting the
// rest), then every limit goes to nothing, then the top level folds (fit_ceiling). Only the
// final limits build the Plan. Nothing recurses, so depth costs memory, not stack.
//
// Strictness beyond the grammar: escaped lone surrogates (\uD800 without its pair) are rejected,
// like invalid UTF-8, because they encode no text and common parsers refuse them, and a view must
// parse wherever its original did. A byte-order mark is not whitespace and is rejected too.
//
// It stays one file, over a thousand lines, because the scanner, the flat tree and the tightening
// steps share one array and its invariants (spans, sibling links, kinds); split, each part would
// have to re-state them.

#include "core/rewrite/json_rewrite.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sutra::core {
namespace {

// At 16 bytes a node the tree of a 50 MB document stays small; offsets are 32-bit, so documents
// of 4 GiB or more are not rewritten.
struct Node {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    std::uint32_t next = 0;  // index just past this node's subtree, i.e. its next sibling
    std::uint32_t count = 0; // members of an object, items of an array
};

// ---- scanning -------------------------------------------------------------------------------

bool is_ws(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_continuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The four hex digits at `pos`, or -1.
long hex4(std::string_view s, std::size_t pos) {
    if (pos + 4 > s.size()) return -1;
    long v = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const int h = hex_value(s[pos + i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

bool is_high_surrogate(long v) {
    return v >= 0xD800 && v <= 0xDBFF;
}
bool is_low_surrogate(long v) {
    return v >= 0xDC00 && v <= 0xDFFF;
}

// Length of the well-formed UTF-8 sequence at `pos` (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), or 0.
std::size_t utf8_length(std::string_view s, std::size_t pos) {
    const auto at = [&](std::size_t i) -> unsigned {
        return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u;
    };
    const auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
        const unsigned b = at(i);
        return b >= lo && b <= hi;
    };
    const unsigned c = at(pos);
    if (c >= 0xC2 && c <= 0xDF) return cont(pos + 1) ? 2 : 0;
    if (c == 0xE0) return cont(pos + 1, 0xA0) && cont(pos + 2) ? 3 : 0;
    if (c == 0xED) return cont(pos + 1, 0x80, 0x9F) && cont(pos + 2) ? 3 : 0;
    if (c >= 0xE1 && c <= 0xEF) return cont(pos + 1) && cont(pos + 2) ? 3 : 0;
    if (c == 0xF0) return cont(pos + 1, 0x90) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3) return cont(pos + 1) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
    if (c == 0xF4) return cont(pos + 1, 0x80, 0x8F) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
    return 0;
}

// `pos` is at a backslash; advances past the escape (a surrogate pair counts as one).
bool scan_escape(std::string_view s, std::size_t& pos) {
    if (pos + 1 >= s.size()) return false;
    switch (s[pos + 1]) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
        pos += 2;
        return true;
    case 'u': {
        const long v = hex4(s, pos + 2);
        if (v < 0 || is_low_surrogate(v)) return false;
        pos += 6;
        if (!is_high_surrogate(v)) return true;
        if (pos + 1 >= s.size() || s[pos] != '\\' || s[pos + 1] != 'u') return false;
        if (!is_low_surrogate(hex4(s, pos + 2))) return false;
        pos += 6;
        return true;
    }
    default:
        return false;
    }
}

// `pos` is at the opening quote; on success it is just past the closing quote.
bool scan_string(std::string_view s, std::size_t& pos) {
    ++pos;
    const std::size_t n = s.size();
    while (pos < n) {
        const auto c = static_cast<unsigned char>(s[pos]);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            ++pos;
        } else if (c == '"') {
            ++pos;
            return true;
        } else if (c == '\\') {
            if (!scan_escape(s, pos)) return false;
        } else if (c < 0x20) {
            return false;
        } else {
            const std::size_t len = utf8_length(s, pos);
            if (len == 0) return false;
            pos += len;
        }
    }
    return false;
}

bool scan_digits(std::string_view s, std::size_t& pos) {
    const std::size_t start = pos;
    while (pos < s.size() && is_digit(s[pos])) ++pos;
    return pos > start;
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? ; what may follow is the caller's business.
bool scan_number(std::string_view s, std::size_t& pos) {
    if (s[pos] == '-') ++pos;
    if (pos >= s.size()) return false;
    if (s[pos] == '0') {
        ++pos;
    } else if (!scan_digits(s, pos)) {
        return false;
    }
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        if (!scan_digits(s, pos)) return false;
    }
    if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
        ++pos;
        if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) ++pos;
        if (!scan_digits(s, pos)) return false;
    }
    return true;
}

bool scan_literal(std::string_view s, std::size_t& pos, std::string_view word) {
    if (s.substr(pos, word.size()) != word) return false;
    pos += word.size();
    return true;
}

// Validates a document whose top level is an object or array. With `nodes` it also records the
// tree; without, it only validates and counts nodes (values and keys), so the tree can be sized
// exactly. Containers are tracked on an explicit stack, so depth costs memory, not call frames.
class Scanner {
public:
    /// The document starts at `start` (after lines of text) and runs to the end of `s`; node
    /// offsets are offsets in `s`.
    Scanner(std::string_view s,
            std::uint32_t max_depth,
            std::uint64_t max_nodes,
            std::vector<Node>* nodes,
            std::size_t start = 0)
        : s_(s), pos_(start), max_depth_(max_depth), max_nodes_(max_nodes), nodes_(nodes) {}

    /// Values and keys seen, after run().
    std::uint64_t nodes() const { return nodes_seen_; }

    bool run() {
        skip_ws();
        if (pos_ >= s_.size() || (s_[pos_] != '{' && s_[pos_] != '[')) return false;
        while (!done_) {
            skip_ws();
            if (pos_ >= s_.size()) return false;
            const char c = s_[pos_];
            switch (expect_) {
            case Expect::first_key:
                if (c == '}') {
                    close();
                    break;
                }
                [[fallthrough]];
            case Expect::key:
                if (!key()) return false;
                break;
            case Expect::first_item:
                if (c == ']') {
                    close();
                    break;
                }
                [[fallthrough]];
            case Expect::value:
                if (!value()) return false;
                break;
            case Expect::comma:
                if (c == ',') {
                    ++pos_;
                    expect_ = stack_.back().object ? Expect::key : Expect::value;
                } else if (c == (stack_.back().object ? '}' : ']')) {
                    close();
                } else {
                    return false;
                }
                break;
            }
        }
        skip_ws();
        return pos_ == s_.size();
    }

private:
    enum class Expect { value, first_key, key, first_item, comma };
    struct Open {
        std::uint32_t node;
        bool object;
    };

    void skip_ws() {
        while (pos_ < s_.size() && is_ws(s_[pos_])) ++pos_;
    }

    // Adds a node; its `next` is provisional (right for leaves, fixed on close for containers).
    bool add(std::size_t begin, std::size_t end, std::uint32_t& index) {
        if (++nodes_seen_ >= std::numeric_limits<std::uint32_t>::max()) return false;
        if (!nodes_) return true;
        index = static_cast<std::uint32_t>(nodes_->size());
        nodes_->push_back(
            Node{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), index + 1, 0});
        return true;
    }

    bool key() {
        if (s_[pos_] != '"') return false;
        const std::size_t begin = pos_;
        std::uint32_t index = 0;
        if (!scan_string(s_, pos_) || !add(begin, pos_, index)) return false;
        skip_ws();
        if (pos_ >= s_.size() || s_[pos_] != ':') return false;
        ++pos_;
        expect_ = Expect::value;
        return true;
    }

    bool value() {
        if (++values_ > max_nodes_) return false;
        const std::size_t begin = pos_;
        const char c = s_[pos_];
        std::uint32_t index = 0;
        if (c == '{' || c == '[') {
            if (stack_.size() >= max_depth_) return false;
            const bool object = c == '{';
            if (!add(begin, 0, index)) return false;
            stack_.push_back(Open{index, object});
            ++pos_;
            expect_ = object ? Expect::first_key : Expect::first_item;
            return true;
        }
        bool ok = false;
        if (c == '"') {
            ok = scan_string(s_, pos_);
        } else if (c == '-' || is_digit(c)) {
            ok = scan_number(s_, pos_);
        } else if (c == 't') {
            ok = scan_literal(s_, pos_, "true");
        } else if (c == 'f') {
            ok = scan_literal(s_, pos_, "false");
        } else if (c == 'n') {
            ok = scan_literal(s_, pos_, "null");
        }
        if (!ok || !add(begin, pos_, index)) return false;
        finish_value();
        return true;
    }

    void close() {
        const Open open = stack_.back();
        stack_.pop_back();
        ++pos_;
        if (nodes_) {
            Node& n = (*nodes_)[open.node];
            n.end = static_cast<std::uint32_t>(pos_);
            n.next = static_cast<std::uint32_t>(nodes_->size());
        }
        finish_value();
    }

    void finish_value() {
        if (stack_.empty()) {
            done_ = true;
            return;
        }
        if (nodes_) ++(*nodes_)[stack_.back().node].count;
        expect_ = Expect::comma;
    }

    std::string_view s_;
    std::size_t pos_ = 0;
    std::uint32_t max_depth_;
    std::uint64_t max_nodes_;
    std::vector<Node>* nodes_;
    std::vector<Open> stack_;
    std::uint64_t values_ = 0;
    std::uint64_t nodes_seen_ = 0;
    Expect expect_ = Expect::value;
    bool done_ = false;
};

// ---- cutting strings ------------------------------------------------------------------------

// True when the backslash at `i` starts an escape: an even run of backslashes precedes it.
bool escape_starts(std::string_view c, std::size_t i) {
    std::size_t run = 0;
    while (run < i && c[i - 1 - run] == '\\') ++run;
    return run % 2 == 0;
}

// The escape starting at `i`, as [first, last); a surrogate pair is one unit, found from
// either half (the scanner guarantees halves come in pairs).
std::pair<std::size_t, std::size_t> escape_unit(std::string_view c, std::size_t i) {
    if (c[i + 1] != 'u') return {i, i + 2};
    const long v = hex4(c, i + 2);
    if (is_high_surrogate(v)) return {i, i + 12};
    if (is_low_surrogate(v)) return {i - 6, i + 6};
    return {i, i + 6};
}

// The escape or UTF-8 sequence of validated string content `c` that strictly contains offset
// `at`, or {at, at} when `at` is already a boundary. Only looks around `at`, so cutting the tail
// of a huge string does not rescan it.
std::pair<std::size_t, std::size_t> unit_around(std::string_view c, std::size_t at) {
    if (at == 0 || at >= c.size()) return {at, at};
    // The nearest escape starting before `at` is the only one that can contain it; six bytes
    // back reaches the start of any escape, including a pair's high half.
    for (std::size_t back = 1; back <= 6 && back <= at; ++back) {
        const std::size_t i = at - back;
        if (c[i] != '\\' || !escape_starts(c, i)) continue;
        const auto [first, last] = escape_unit(c, i);
        if (first < at && at < last) return {first, last};
        break;
    }
    if (!is_continuation(c[at])) return {at, at};
    std::size_t first = at;
    while (first > 0 && is_continuation(c[first])) --first;
    std::size_t last = at;
    while (last < c.size() && is_continuation(c[last])) ++last;
    return {first, last};
}

// ---- line numbers ---------------------------------------------------------------------------

// Newlines before each 256-byte block, so any line number costs at most one block's scan.
class Lines {
public:
    explicit Lines(std::string_view s) : s_(s) {
        if (s.find('\n') == std::string_view::npos) return;
        blocks_.reserve(s.size() / k_block + 1);
        std::uint64_t lines = 0;
        for (std::size_t b = 0; b < s.size(); b += k_block) {
            blocks_.push_back(lines);
            const std::size_t e = std::min(s.size(), b + k_block);
            lines += static_cast<std::uint64_t>(std::count(s.data() + b, s.data() + e, '\n'));
        }
    }

    /// 1-based line of byte `pos`.
    std::uint64_t line_of(std::uint64_t pos) const {
        if (blocks_.empty()) return 1;
        const std::size_t block = static_cast<std::size_t>(pos / k_block);
        const std::size_t from = block * k_block;
        const auto within = std::count(s_.data() + from, s_.data() + pos, '\n');
        return 1 + blocks_[block] + static_cast<std::uint64_t>(within);
    }

private:
    static constexpr std::size_t k_block = 256;
    std::string_view s_;
    std::vector<std::uint64_t> blocks_;
};

// ---- rendering ------------------------------------------------------------------------------

struct Limits {
    std::uint64_t max_string = 0;
    std::uint64_t head = 0;
    std::uint64_t tail = 0;
    bool arrays = false;
    /// Also elide the middle members of large objects below the top level (maps of records
    /// such as dependency trees, flat maps such as a registry's timestamps): only once the other
    /// limits could not make the view fit, because an object's keys usually each say something.
    bool objects = false;
    /// The top level's members too: only when nothing else brings the view under the ceiling.
    bool top = false;
    /// Key items one array (or object) keeps between its markers; past it, that many evenly
    /// spread, and the markers count the rest.
    std::uint64_t key_cap = k_unlimited;
    /// Key records (error entries) keep only the members that say what and where (their
    /// message, severity, rule, file, line, column, …) and those holding a key word; the other
    /// members become marker members. Only over the ceiling, before any key record gives way.
    bool key_members = false;
    /// Long strings keep a window around each key word in their cut middle. Off, only strings
    /// that are members of a key record do: over the ceiling, an error record outranks a key
    /// word inside a free string (a file's source text quoted by a linter).
    bool string_windows = true;
    /// An error's own record (Renderer::find_records) keeps its containers whole and its strings
    /// up to this limit, whatever the tightening did to the rest of the document: a failed
    /// test's message, expected and actual values are what the view is for. Zero: records are
    /// tightened like the rest (the last resort over the ceiling).
    std::uint64_t record_string = 0;
    bool operator==(const Limits&) const = default;

    static constexpr std::uint64_t k_unlimited = std::numeric_limits<std::uint64_t>::max();
};

class Renderer {
public:
    /// `s` holds `start` bytes of text, kept as they are, then the document.
    Renderer(std::string_view s,
             std::size_t start,
             const std::vector<Node>& nodes,
             const Lines& lines,
             const MarkerContext& measure,
             const KeyMatcher* keys,
             bool pretty,
             bool trailing_newline)
        : s_(s), start_(start), nodes_(nodes), lines_(lines), measure_(measure),
          options_keys_(keys), pretty_(pretty), trailing_newline_(trailing_newline) {
        if (keys != nullptr) {
            find_key_hits();
            find_records();
        }
    }

    /// The most key items one container held in its middle at the last measure.
    std::uint64_t most_keys() const { return most_keys_; }

    /// The size render() gives the plan for these limits under the measuring context, found
    /// without building the text, so tightening passes over a huge document stay cheap.
    std::uint64_t measure(const Limits& limits) {
        run(limits, true);
        measured_ = limits;
        return size_;
    }

    Plan build(const Limits& limits) {
        run(limits, false);
        plan_.rules.push_back("json");
        const auto has = [&](Reason r) {
            return std::any_of(plan_.elisions.begin(), plan_.elisions.end(),
                               [&](const Elision& e) { return e.reason == r; });
        };
        if (has(Reason::long_string)) plan_.rules.push_back("long-string");
        if (has(Reason::array_items)) plan_.rules.push_back("array-items");
        if (has(Reason::object_members)) plan_.rules.push_back("object-members");
        return std::move(plan_);
    }

private:
    void run(const Limits& limits, bool counting) {
        limits_ = limits;
        counting_ = counting;
        size_ = 0;
        plan_ = Plan{};
        plan_.shape = Shape::json;
        cur_.clear();
        stack_.clear();
        if (counting) {
            segments_.clear();
            segment_start_ = 0;
        }
        next_segment_ = 0;
        most_keys_ = 0;
        reserve_segment();
        emit(s_.substr(0, start_));
        value(0);
        while (!stack_.empty()) step();
        if (trailing_newline_) emit('\n');
        if (counting) segments_.push_back(size_ - segment_start_);
        flush();
    }

    // Building after measuring the same limits, each run of kept text gets its exact size up
    // front: a 50 MB view is written once, not regrown.
    void reserve_segment() {
        if (counting_ || measured_ != limits_ || next_segment_ >= segments_.size()) return;
        cur_.reserve(static_cast<std::size_t>(segments_[next_segment_++]));
    }

    void emit(std::string_view text) {
        if (counting_)
            size_ += text.size();
        else
            cur_ += text;
    }

    void emit(char c) {
        if (counting_)
            ++size_;
        else
            cur_ += c;
    }

    // A run of array items replaced by one marker element.
    struct Gap {
        std::uint64_t first = 0;  // index of its first item
        std::uint32_t resume = 0; // the node just past its last item
        Elision elision;
        std::size_t marker_size = 0;
    };

    // Offsets where a critical key word starts, and where an error entry begins (an object with
    // a member "severity": 2, as eslint writes an error), in order: an item or member holds a key
    // word when one falls inside its span. Found once, so every measure tests an item in
    // logarithmic time however deep it sits.
    void find_key_hits() {
        const std::string_view doc = s_.substr(start_);
        for (std::size_t from = 0; from < doc.size();) {
            const std::size_t at = options_keys_->find(doc.substr(from), Level::critical);
            if (at == std::string_view::npos) break;
            hits_.push_back(static_cast<std::uint32_t>(start_ + from + at));
            from += at + 1;
        }
        // A key word in a member's name says nothing when the value is empty, nor inside a
        // counter's name: jest writes "failing": false, "failureMessages": [] and
        // "numPassingAsserts": 1 into every passing test's record, which made every record an
        // error's. "error": "ENOENT", "failed": true and "errorCount": 2 still count.
        struct Quiet {
            std::uint32_t begin, end;
            bool counter; // a number: a word that opens the name still counts
            bool operator<(const Quiet& o) const { return begin < o.begin; }
        };
        std::vector<Quiet> quiet; // such names, in order
        std::vector<std::uint32_t> records;
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            const Node& n = nodes_[i];
            if (s_[n.begin] != '{') continue;
            std::uint32_t key = static_cast<std::uint32_t>(i + 1);
            bool record = false;
            unsigned located = 0; // the roles a finding's members play (place_role)
            for (std::uint64_t k = 0; k < n.count; ++k) {
                const Node& name = nodes_[key];
                const Node& value = nodes_[name.next];
                if (!record && raw(name) == "\"severity\"" && raw(value) == "2") {
                    records.push_back(n.begin);
                    record = true;
                }
                located |= place_role(raw(name), s_[value.begin]);
                // A finding: its file, its line and its message (pylint's and bandit's JSON,
                // whatever its severity): one at another place is another finding.
                if (!record && located == k_file_line_message &&
                    n.end - n.begin <= k_record_bytes) {
                    records.push_back(n.begin);
                    record = true;
                }
                const char v = s_[value.begin];
                if (is_empty_value(value) || v == '-' || is_digit(v))
                    quiet.push_back({name.begin, name.end, !is_empty_value(value)});
                key = value.next;
            }
        }
        std::sort(quiet.begin(), quiet.end());
        std::size_t q = 0;
        std::erase_if(hits_, [&](std::uint32_t at) {
            while (q < quiet.size() && quiet[q].end <= at) ++q;
            return q < quiet.size() && quiet[q].begin < at &&
                   !(quiet[q].counter && at == quiet[q].begin + 1);
        });
        const std::size_t words = hits_.size();
        hits_.insert(hits_.end(), records.begin(), records.end());
        std::inplace_merge(hits_.begin(), hits_.begin() + static_cast<std::ptrdiff_t>(words),
                           hits_.end());
    }

    // null, false, 0, "", [] or {}.
    bool is_empty_value(const Node& v) const {
        const std::string_view t = raw(v);
        if ((t.front() == '[' || t.front() == '{') && v.count == 0) return true;
        return t == "null" || t == "false" || t == "0" || t == "\"\"";
    }

    bool holds_key(std::uint32_t begin, std::uint32_t end) const {
        const auto it = std::lower_bound(hits_.begin(), hits_.end(), begin);
        return it != hits_.end() && *it < end;
    }

    // Errors' own records: objects that say an error directly, by a key word in a member's
    // name or in a scalar value (biome's `"severity": "error"`, jest's `"status": "failed"`) or
    // as an eslint error entry, no bigger than a record is, and holding no list of such objects
    // (a file's object with its list of results is a collection; its records are found inside
    // it). The outermost ones are taken, so their spans are disjoint and in order.
    void find_records() {
        // Where lists of two or more items, one of them an object that holds a key word, begin.
        std::vector<std::uint32_t> lists;
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            const Node& n = nodes_[i];
            if (s_[n.begin] != '[' || n.count < 2 || !holds_key(n.begin, n.end)) continue;
            std::uint32_t item = static_cast<std::uint32_t>(i + 1);
            for (std::uint64_t k = 0; k < n.count; ++k) {
                const Node& v = nodes_[item];
                if (s_[v.begin] == '{' && holds_key(v.begin, v.end)) {
                    lists.push_back(n.begin);
                    break;
                }
                item = v.next;
            }
        }
        records_.clear();
        for (std::size_t i = 1; i < nodes_.size(); ++i) {
            const Node& n = nodes_[i];
            if (s_[n.begin] != '{' || n.end - n.begin > k_record_bytes) continue;
            if (!records_.empty() && n.begin < records_.back().second) continue; // inside one
            bool direct = std::binary_search(hits_.begin(), hits_.end(), n.begin);
            std::uint32_t key = static_cast<std::uint32_t>(i + 1);
            for (std::uint64_t k = 0; k < n.count && !direct; ++k) {
                const Node& name = nodes_[key];
                const Node& value = nodes_[name.next];
                const char v = s_[value.begin];
                direct = holds_key(name.begin, name.end) ||
                         (v != '{' && v != '[' && says_verdict(raw(name)) &&
                          holds_key(value.begin, value.end));
                key = value.next;
            }
            if (!direct) continue;
            const auto list = std::upper_bound(lists.begin(), lists.end(), n.begin);
            if (list != lists.end() && *list < n.end) continue;
            records_.emplace_back(n.begin, n.end);
        }
    }

    // Whether the byte at `at` is inside an error's record, and the record's protection is on.
    bool in_record(std::uint32_t at) const {
        if (limits_.record_string == 0 || records_.empty()) return false;
        auto it = std::upper_bound(records_.begin(), records_.end(), at,
                                   [](std::uint32_t a, const auto& r) { return a < r.first; });
        return it != records_.begin() && at < std::prev(it)->second;
    }

    // An open container being rendered.
    struct Frame {
        std::uint32_t node = 0;
        std::uint32_t child = 0; // next child node to render
        std::uint64_t k = 0;     // items (members) rendered or skipped so far
        bool object = false;
        std::vector<Gap> gaps; // in order
        std::size_t next_gap = 0;
    };

    std::string_view raw(const Node& n) const {
        return s_.substr(static_cast<std::size_t>(n.begin),
                         static_cast<std::size_t>(n.end - n.begin));
    }

    Elision make_elision(Reason reason, std::uint64_t begin, std::uint64_t end) const {
        Elision e;
        e.reason = reason;
        e.begin = begin;
        e.end = end;
        e.first_line = lines_.line_of(begin);
        e.last_line = lines_.line_of(end - 1);
        return e;
    }

    // Escaped length of the marker this elision would render as: the first marker of a view is
    // spelled in full (with the note on later markers), every later one in its short form
    // (core/rewrite/marker.hpp).
    std::size_t marker_size(const Elision& e) const {
        if (plan_.elisions.empty())
            return json_escape(marker_text(e, measure_)).size() +
                   std::string_view(k_later_markers_note).size();
        return json_escape(short_marker_text(e, measure_)).size();
    }

    void newline(std::size_t depth) {
        if (!pretty_) return;
        if (counting_) {
            size_ += 1 + 2 * depth;
            return;
        }
        cur_ += '\n';
        cur_.append(2 * depth, ' ');
    }

    void flush() {
        if (cur_.empty()) return;
        Piece p;
        p.text = std::move(cur_);
        plan_.pieces.push_back(std::move(p));
        cur_.clear();
    }

    // `size` is the escaped marker's length, already known to the caller.
    void marker(const Elision& e, Piece::Json json, std::size_t size) {
        plan_.elisions.push_back(e);
        if (counting_) {
            segments_.push_back(size_ - segment_start_);
            size_ += size + (json == Piece::Json::element ? 2 : 0);
            segment_start_ = size_;
            return;
        }
        flush();
        reserve_segment();
        Piece p;
        p.elision = static_cast<int>(plan_.elisions.size() - 1);
        p.json = json;
        p.own_line = false;
        plan_.pieces.push_back(std::move(p));
    }

    // Renders a leaf, or opens a container (its children follow from step()).
    void value(std::uint32_t index) {
        const Node& n = nodes_[index];
        const char first = s_[n.begin];
        if (first == '"') {
            string_value(n);
            return;
        }
        if (first != '{' && first != '[') {
            emit(raw(n));
            return;
        }
        const bool object = first == '{';
        if (n.count == 0) {
            emit(object ? "{}" : "[]");
            return;
        }
        emit(object ? '{' : '[');
        Frame f;
        f.node = index;
        f.child = index + 1;
        f.object = object;
        plan_gaps(n, f);
        stack_.push_back(f);
    }

    // Decides whether a long array loses its middle items (or, with limits_.objects, a large
    // object its middle members), with one walk over its children (two under a key cap): the
    // middle becomes marker elements (members named by the marker, with a null value), except
    // the items that hold a key word, which stay between the markers; past limits_.key_cap,
    // that many of them evenly spread, and the markers count the others.
    void plan_gaps(const Node& n, Frame& f) {
        if (limits_.key_members && f.object && f.node != 0 && is_key_record(f.node)) {
            plan_record_gaps(n, f);
            return;
        }
        const std::uint64_t count = n.count;
        // An error's record keeps its members and its small lists whole.
        if (in_record(n.begin)) return;
        // count > head + tail + 1, written so that huge limits cannot overflow
        if (!limits_.arrays || count <= limits_.head || count - limits_.head <= limits_.tail ||
            count - limits_.head - limits_.tail <= 1)
            return;
        // The top level keeps every key, so the view's outline stays the original's, unless
        // nothing else brings the view under the ceiling.
        if (f.object && (!limits_.objects || (f.node == 0 && !limits_.top))) return;
        // An error entry is shown whole: a key word never starts at its brace, so a hit there
        // is one (find_key_hits).
        if (f.object && std::binary_search(hits_.begin(), hits_.end(), n.begin)) return;
        // A flat record (a linter's finding: its message, rule and place beside flags and
        // offsets) keeps the members that say what and where rather than its first and last.
        if (f.object && f.node != 0 && is_flat_record(f.node)) {
            plan_record_gaps(n, f);
            return;
        }
        const std::uint64_t first = limits_.head;
        const std::uint64_t last = count - limits_.tail - 1;
        // An item, or a member from its key to the end of its value: its span and the node
        // after it.
        struct Span {
            std::uint32_t begin, end, next;
        };
        const auto span = [&](std::uint32_t child) {
            const Node& head = nodes_[child];
            const Node& item = f.object ? nodes_[head.next] : head;
            return Span{head.begin, item.end, item.next};
        };
        std::uint64_t keys = 0; // key items of the middle, counted only under a cap
        if (!hits_.empty() && limits_.key_cap != Limits::k_unlimited) {
            std::uint32_t child = f.child;
            for (std::uint64_t k = 0; k <= last; ++k) {
                const Span item = span(child);
                if (k >= first && holds_key(item.begin, item.end)) ++keys;
                child = item.next;
            }
        }
        KeyRuns runs(keys, limits_.key_cap);
        std::uint32_t child = f.child;
        std::uint64_t seen = 0;  // key items of the middle so far
        std::optional<Gap> open; // the gap being extended
        std::uint64_t open_end = 0;
        auto close = [&](std::uint32_t resume) {
            if (!open) return;
            open->resume = resume;
            open->elision.end = open_end;
            f.gaps.push_back(*open);
            open.reset();
        };
        for (std::uint64_t k = 0; k <= last; ++k) {
            const Span item = span(child);
            if (k >= first) {
                const bool key = !hits_.empty() && holds_key(item.begin, item.end);
                bool kept = key;
                if (key) {
                    kept = runs.keeps(seen++);
                }
                if (kept) {
                    close(child);
                } else {
                    if (!open) {
                        open.emplace();
                        open->first = k;
                        open->elision.begin = item.begin;
                    }
                    open_end = item.end;
                    ++open->elision.items;
                    if (key) ++open->elision.keys;
                }
            }
            child = item.next;
        }
        close(child);
        most_keys_ = std::max(most_keys_, seen);
        drop_costly_gaps(f);
    }

    // A key record: an object below the top level that holds a key word or is an error entry,
    // and whose containers hold none (an error entry, not a file's list of them).
    bool is_key_record(std::uint32_t index) const {
        const Node& n = nodes_[index];
        if (!holds_key(n.begin, n.end)) return false;
        std::uint32_t key = index + 1;
        for (std::uint64_t k = 0; k < n.count; ++k) {
            const Node& value = nodes_[nodes_[key].next];
            const char first = s_[value.begin];
            if ((first == '{' || first == '[') && holds_key(value.begin, value.end)) return false;
            key = value.next;
        }
        return true;
    }

    // An object whose members are scalars or small values, one of them saying what or where.
    bool is_flat_record(std::uint32_t index) const {
        const Node& n = nodes_[index];
        std::uint32_t key = index + 1;
        bool says = false;
        for (std::uint64_t k = 0; k < n.count; ++k) {
            const Node& value = nodes_[nodes_[key].next];
            if (value.end - value.begin > k_small_value) return false;
            says = says || says_what_or_where(raw(nodes_[key]));
            key = value.next;
        }
        return says;
    }

    // The role a member plays in a finding's record: 1 its file (a string), 2 its line (a
    // number), 4 its message (a string); 0 none.
    static constexpr unsigned k_file_line_message = 7;
    static unsigned place_role(std::string_view quoted_key, char first) {
        static constexpr std::string_view k_files[] = {"file", "filename", "filepath", "path",
                                                       "uri"};
        static constexpr std::string_view k_lines[] = {"line", "lineno", "linenumber", "startline",
                                                       "row"};
        static constexpr std::string_view k_messages[] = {"message",   "msg",         "text",
                                                          "issuetext", "description", "title"};
        if (quoted_key.size() < 4 || quoted_key.size() > 16) return 0;
        const std::string name = normalized_name(quoted_key);
        const auto in = [&](const auto& names) {
            return std::find(std::begin(names), std::end(names), name) != std::end(names);
        };
        if (first == '"') return in(k_files) ? 1u : in(k_messages) ? 4u : 0u;
        return is_digit(first) && in(k_lines) ? 2u : 0u;
    }

    // A member's name in lower case without its quotes, '_' and '-'.
    static std::string normalized_name(std::string_view quoted_key) {
        std::string name;
        for (const char c : quoted_key.substr(1, quoted_key.size() - 2)) {
            if (c == '_' || c == '-') continue;
            name += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        return name;
    }

    // Whether a member name says how a check or a test came out, so that a key word in its value
    // is the record's verdict (`"severity": "error"`, `"status": "failed"`), not one in its
    // free text (a package's description that mentions errors).
    static bool says_verdict(std::string_view quoted_key) {
        static constexpr std::string_view k_names[] = {
            "severity", "level", "status",  "outcome",    "result",
            "state",    "type",  "kind",    "category",   "exception",
            "failure",  "fault", "verdict", "conclusion", "loglevel"};
        if (quoted_key.size() < 6 || quoted_key.size() > 14) return false;
        const std::string name = normalized_name(quoted_key);
        return std::find(std::begin(k_names), std::end(k_names), name) != std::end(k_names);
    }

    // Whether a member name says what a finding is or where (any tool's spelling: compared in
    // lower case without '_' and '-').
    static bool says_what_or_where(std::string_view quoted_key) {
        static constexpr std::string_view k_names[] = {
            "message", "msg", "text", "description", "detail", "details", "reason", "error",
            "errors", "severity", "level", "rule", "ruleid", "code", "file", "filename", "filepath",
            "path", "uri", "url", "line", "lineno", "column", "col", "row", "location", "loc",
            "status", "title", "name", "kind", "category", "type", "test", "outcome",
            // Where, in the spellings of LSP, SARIF and rubocop (pyright's "range": {"start":
            // {"line": 12, …}}), and a failed test's values (jest's "failureMessages").
            "range", "start", "end", "region", "position", "span", "locations", "physicallocation",
            "startline", "startcolumn", "copname", "fullname", "failuremessages", "expected",
            "symbol", "actual", "received", "version"};
        if (quoted_key.size() < 3 || quoted_key.size() > 24) return false;
        const std::string name = normalized_name(quoted_key);
        return std::find(std::begin(k_names), std::end(k_names), name) != std::end(k_names);
    }

    // A key record's members that neither say what or where nor hold a key word become marker
    // members, each run of them one marker.
    void plan_record_gaps(const Node& n, Frame& f) {
        std::uint32_t child = f.child;
        std::optional<Gap> open;
        for (std::uint64_t k = 0; k < n.count; ++k) {
            const Node& key = nodes_[child];
            const Node& value = nodes_[key.next];
            const bool kept = says_what_or_where(raw(key)) || holds_key(key.begin, value.end);
            if (kept && open) {
                open->resume = child;
                f.gaps.push_back(*open);
                open.reset();
            }
            if (!kept) {
                if (!open) {
                    open.emplace();
                    open->first = k;
                    open->elision.begin = key.begin;
                }
                open->elision.end = value.end;
                ++open->elision.items;
            }
            child = value.next;
        }
        if (open) {
            open->resume = child;
            f.gaps.push_back(*open);
        }
        // One record's gap pays for its short marker; judged by the full one (the view's
        // first), no record would ever be trimmed before some other marker came.
        drop_costly_gaps(f, true);
    }

    // A gap whose marker would not save anything is shown instead.
    void drop_costly_gaps(Frame& f, bool short_form = false) {
        const Reason reason = f.object ? Reason::object_members : Reason::array_items;
        const std::size_t extra = 2 + (f.object ? member_value().size() : 0);
        std::erase_if(f.gaps, [&](Gap& g) {
            const std::uint64_t items = g.elision.items;
            const std::uint64_t gap_keys = g.elision.keys;
            g.elision = make_elision(reason, g.elision.begin, g.elision.end);
            g.elision.items = items;
            g.elision.keys = gap_keys;
            g.marker_size = short_form ? json_escape(short_marker_text(g.elision, measure_)).size()
                                       : marker_size(g.elision);
            return g.marker_size + extra >= g.elision.end - g.elision.begin;
        });
    }

    // Under a cap, which of a container's `keys` key items stay: `cap` of them in runs of up to
    // k_key_run, the runs spread evenly over the keys (a run costs one marker after it, so runs
    // of a few keep more of them within the ceiling than single items would).
    class KeyRuns {
    public:
        KeyRuns(std::uint64_t keys, std::uint64_t cap)
            : keys_(keys), cap_(cap),
              runs_(keys > cap ? std::max<std::uint64_t>(1, (cap + k_key_run - 1) / k_key_run)
                               : 0) {}

        /// Whether the j-th key item (j counts up from 0 at each call) stays.
        bool keeps(std::uint64_t j) {
            if (runs_ == 0) return true;
            while (run_ + 1 < runs_ && j >= (run_ + 1) * keys_ / runs_) ++run_;
            const std::uint64_t start = run_ * keys_ / runs_;
            const std::uint64_t length = (run_ + 1) * cap_ / runs_ - run_ * cap_ / runs_;
            return j - start < length;
        }

    private:
        std::uint64_t keys_, cap_, runs_;
        std::uint64_t run_ = 0;
    };

    // What follows a marker that stands for object members: the marker is the member's key.
    std::string_view member_value() const { return pretty_ ? ": null" : ":null"; }

    // Renders the next child of the innermost open container, or closes it.
    void step() {
        Frame& f = stack_.back();
        const Node& n = nodes_[f.node];
        if (f.child == n.next) {
            const bool object = f.object;
            stack_.pop_back();
            newline(stack_.size());
            emit(object ? '}' : ']');
            return;
        }
        if (f.k > 0) emit(',');
        newline(stack_.size());
        if (f.next_gap < f.gaps.size() && f.k == f.gaps[f.next_gap].first) {
            const Gap& g = f.gaps[f.next_gap++];
            const bool object = f.object;
            // Sized now, not when planned: the view's first marker is the full one, wherever
            // it falls.
            marker(g.elision, Piece::Json::element, marker_size(g.elision));
            if (object) emit(member_value());
            f.child = g.resume;
            f.k += g.elision.items;
            return;
        }
        std::uint32_t item = f.child;
        if (f.object) {
            emit(raw(nodes_[item])); // keys are never elided
            emit(pretty_ ? ": " : ":");
            item = nodes_[item].next;
        }
        f.child = nodes_[item].next;
        ++f.k;
        value(item); // may push a frame, so `f` is not used after this
    }

    // Keeps about half the limit of the escaped text, two thirds as head and one third as tail,
    // and never cuts through an escape or a UTF-8 sequence.
    void string_value(const Node& n) {
        const std::string_view whole = raw(n);
        const std::uint64_t limit = in_record(n.begin)
                                        ? std::max(limits_.max_string, limits_.record_string)
                                        : limits_.max_string;
        // No marker is this short, so a string this short is never worth cutting.
        if (whole.size() <= std::max<std::uint64_t>(limit, k_shortest_marker)) {
            emit(whole);
            return;
        }
        const std::string_view content = whole.substr(1, whole.size() - 2);
        const std::uint64_t keep = limit / 2;
        const std::uint64_t head_keep = keep * 2 / 3;
        const std::uint64_t tail_keep = keep - head_keep;
        const std::size_t head = unit_around(content, static_cast<std::size_t>(head_keep)).first;
        const std::size_t tail_at =
            content.size() > tail_keep ? content.size() - static_cast<std::size_t>(tail_keep) : 0;
        const std::size_t tail = unit_around(content, tail_at).second;
        if (tail <= head) {
            emit(whole);
            return;
        }
        // The cut middle keeps a window around each key word in it (at most k_key_windows).
        const bool windows = options_keys_ != nullptr &&
                             (limits_.string_windows || (!stack_.empty() && stack_.back().object &&
                                                         is_key_record(stack_.back().node)));
        std::vector<std::pair<std::size_t, std::size_t>> cuts; // elided [from, to) of content
        std::size_t from = head;
        while (windows && cuts.size() < k_key_windows && from < tail) {
            const std::size_t at =
                options_keys_->find(content.substr(from, tail - from), Level::critical);
            if (at == std::string_view::npos) break;
            const std::size_t word = from + at;
            const std::size_t w_begin =
                unit_around(content, word > from + k_window_before ? word - k_window_before : from)
                    .first;
            const std::size_t w_end =
                unit_around(content, std::min(tail, word + k_window_after)).second;
            if (w_begin > from) cuts.emplace_back(from, w_begin);
            from = std::max(w_end, w_begin);
        }
        if (from < tail) cuts.emplace_back(from, tail);

        std::vector<std::pair<Elision, std::size_t>> marks;
        std::uint64_t saved = 0;
        for (const auto& [a, b] : cuts) {
            const Elision e = make_elision(Reason::long_string, n.begin + 1 + a, n.begin + 1 + b);
            const std::size_t size = marker_size(e);
            marks.emplace_back(e, size);
            saved += b - a > size ? b - a - size : 0;
        }
        if (saved == 0) { // the markers would not save anything
            emit(whole);
            return;
        }
        emit('"');
        std::size_t shown = 0;
        for (std::size_t i = 0; i < cuts.size(); ++i) {
            const auto [a, b] = cuts[i];
            if (marks[i].second >= b - a) continue; // cheaper to show: stays in the text
            emit(content.substr(shown, a - shown));
            marker(marks[i].first, Piece::Json::inside_string, marks[i].second);
            shown = b;
        }
        emit(content.substr(shown));
        emit('"');
    }

    // Key-word exceptions: how many windows of one string stay, and a window's reach around
    // its word.
    static constexpr std::size_t k_key_windows = 3;
    static constexpr std::uint64_t k_key_run = 8;
    static constexpr std::size_t k_window_before = 80;
    static constexpr std::size_t k_window_after = 160;
    // Fewer bytes than any marker takes ("[sutra: 1 bytes of this string elided …]").
    static constexpr std::uint64_t k_shortest_marker = 64;
    // A member value this small is part of a flat record (is_flat_record): a place, a range.
    static constexpr std::uint32_t k_small_value = 256;
    // An object larger than this is a collection, not one error's record.
    static constexpr std::uint32_t k_record_bytes = 16384;

    std::string_view s_;
    std::size_t start_; // bytes of text before the document
    const std::vector<Node>& nodes_;
    const Lines& lines_;
    const MarkerContext& measure_;
    const KeyMatcher* options_keys_;
    std::vector<std::uint32_t> hits_;                              // see find_key_hits()
    std::vector<std::pair<std::uint32_t, std::uint32_t>> records_; // see find_records()
    std::uint64_t most_keys_ = 0;
    bool pretty_;
    bool trailing_newline_;
    Limits limits_;
    Plan plan_;
    bool counting_ = false;
    std::uint64_t size_ = 0; // bytes emitted while counting
    // Kept-text sizes between markers from the last measure, for the limits in `measured_`.
    std::vector<std::uint64_t> segments_;
    std::uint64_t segment_start_ = 0;
    std::size_t next_segment_ = 0;
    std::optional<Limits> measured_;
    std::string cur_; // kept text since the last marker
    std::vector<Frame> stack_;
};

// One step tighter: halve the string limit, shrink array head and tail; floors never raise a
// limit the caller set lower.
Limits tighten(const Limits& l, const Limits& floor) {
    Limits t = l;
    t.max_string = std::max(floor.max_string, l.max_string / 2);
    if (l.arrays) {
        if (t.head > floor.head) --t.head;
        if (t.tail > floor.tail) --t.tail;
    }
    return t;
}

} // namespace

bool is_json_document(std::string_view bytes, std::uint32_t max_depth, std::uint64_t max_nodes) {
    try {
        return Scanner(bytes, max_depth, max_nodes, nullptr).run();
    } catch (...) {
        return false;
    }
}

namespace {

// An error record's strings keep at least this much before records give way (fit_ceiling).
constexpr std::uint64_t k_short_record_string = 256;

// Over the ceiling, in order, until the view fits: key records keep only the members that say
// what and where, and errors' records shorten their strings; strings outside key records lose their
// key-word windows; key items give way (as many stay as fit, evenly spread); strings lose all but
// their key-word windows, and arrays and objects their items from the ends (first the last, then
// the first); then the top level's members fold too. Each step keeps the most key items that fit.
// When nothing fits, the last limits are returned and the caller decides.
Limits fit_ceiling(Renderer& renderer, Limits limits, const JsonOptions& options) {
    const auto fits = [&](const Limits& l) { return renderer.measure(l) <= options.max_bytes; };
    const auto cap_keys = [&](Limits l) -> std::optional<Limits> {
        l.key_cap = Limits::k_unlimited;
        if (fits(l)) return l;
        std::uint64_t over = renderer.most_keys(); // key_cap >= most_keys() changes nothing
        l.key_cap = 0;
        if (over == 0 || !fits(l)) return std::nullopt;
        std::uint64_t under = 0; // fits
        while (over - under > 1) {
            l.key_cap = under + (over - under) / 2;
            (fits(l) ? under : over) = l.key_cap;
        }
        l.key_cap = under;
        return l;
    };
    // Key records first lose the members that neither say what nor where; then, still over,
    // key records give way.
    limits.key_members = true;
    Limits uncapped = limits;
    uncapped.key_cap = Limits::k_unlimited;
    if (fits(uncapped)) return uncapped;
    // Then their strings shorten, down to what a message and its values usually take; then
    // records are tightened like everything else.
    while (uncapped.record_string > k_short_record_string) {
        uncapped.record_string = std::max(k_short_record_string, uncapped.record_string / 2);
        if (fits(uncapped)) return uncapped;
    }
    // The rest of the document gives way before the records do: free strings lose their
    // windows and then their text, lists and objects their ends.
    if (uncapped.record_string > 0) {
        uncapped.string_windows = false;
        if (fits(uncapped)) return uncapped;
        uncapped.max_string = 0;
        if (fits(uncapped)) return uncapped;
        if (uncapped.arrays) {
            uncapped.objects = true;
            for (const std::uint64_t ends : {1, 0}) {
                uncapped.head = std::min<std::uint64_t>(uncapped.head, 1);
                uncapped.tail = std::min<std::uint64_t>(uncapped.tail, ends);
                if (fits(uncapped)) return uncapped;
            }
            uncapped.head = 0;
            if (fits(uncapped)) return uncapped;
        }
    }
    limits.record_string = 0;
    limits.string_windows = false;
    if (auto l = cap_keys(limits)) return *l;
    limits.max_string = 0;
    if (!limits.arrays) return limits;
    limits.objects = true;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ends = {
        {std::min<std::uint64_t>(limits.head, 1), std::min<std::uint64_t>(limits.tail, 1)},
        {std::min<std::uint64_t>(limits.head, 1), 0},
        {0, 0}};
    for (const bool top : {false, true}) {
        if (top) {
            limits.top = true;
            ends.insert(ends.begin(), {options.array_head, options.array_tail});
        }
        for (const auto& [head, tail] : ends) {
            limits.head = head;
            limits.tail = tail;
            if (auto l = cap_keys(limits)) return *l;
        }
    }
    limits.key_cap = 0;
    return limits;
}

// Plans the view of the document that starts at `start` of `bytes` and runs to its end; the
// text before it stays as it is.
std::optional<Plan>
plan_json(std::string_view bytes, std::size_t start, const JsonOptions& options) {
    try {
        if (bytes.size() >= std::numeric_limits<std::uint32_t>::max()) return {};
        Scanner check(bytes, options.max_depth, options.max_nodes, nullptr, start);
        if (!check.run()) return {};
        std::vector<Node> nodes;
        nodes.reserve(static_cast<std::size_t>(check.nodes()));
        if (!Scanner(bytes, options.max_depth, options.max_nodes, &nodes, start).run()) return {};
        // Layout: indented when the document spans lines (a newline after it does not count).
        const std::string_view doc =
            bytes.substr(nodes[0].begin, static_cast<std::size_t>(nodes[0].end - nodes[0].begin));
        const bool pretty = doc.find('\n') != std::string_view::npos;
        const bool trailing_newline =
            pretty &&
            bytes.find('\n', static_cast<std::size_t>(nodes[0].end)) != std::string_view::npos;
        const Lines lines(bytes);
        Renderer renderer(bytes, start, nodes, lines, options.measure, options.keys, pretty,
                          trailing_newline);

        Limits limits{options.max_string_bytes, options.array_head, options.array_tail,
                      options.elide_arrays};
        limits.record_string = options.max_string_bytes;
        const Limits floor{std::min<std::uint64_t>(limits.max_string, 64),
                           std::min<std::uint64_t>(limits.head, 1),
                           std::min<std::uint64_t>(limits.tail, 1), limits.arrays};
        std::uint64_t size = renderer.measure(limits);
        while (size > options.target_bytes) {
            Limits next = tighten(limits, floor);
            if (next == limits) {
                // Nothing left to tighten. Large objects may then lose members too, starting
                // again from the given head and tail; after that, the ceiling decides.
                if (limits.objects || !limits.arrays) break;
                next = limits;
                next.objects = true;
                next.head = options.array_head;
                next.tail = options.array_tail;
            }
            limits = next;
            size = renderer.measure(limits);
        }
        if (size > options.max_bytes) limits = fit_ceiling(renderer, limits, options);
        Plan plan = renderer.build(limits);
        if (plan.elisions.empty()) return {};
        return plan;
    } catch (...) {
        return {};
    }
}

} // namespace

std::optional<Plan> rewrite_json(std::string_view bytes, const JsonOptions& options) {
    return plan_json(bytes, 0, options);
}

std::optional<Plan>
rewrite_json_after_text(std::string_view bytes, std::size_t start, const JsonOptions& options) {
    if (start == 0 || start >= bytes.size() || bytes[start - 1] != '\n') return {};
    return plan_json(bytes, start, options);
}

} // namespace sutra::core
