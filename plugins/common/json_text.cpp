// See json_text.hpp.

#include "plugins/common/json_text.hpp"

#include "core/util/json_nesting.hpp"
#include "plugins/common/hook_settings.hpp"

#include <array>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <unordered_set>
#include <vector>

namespace sutra::plugins::common {

namespace {

using ojson = nlohmann::ordered_json;

struct Member {
    std::string key;
    std::size_t key_begin, value_begin, value_end;
};

struct Object {
    std::size_t open = 0, close = 0; // the braces
    std::vector<Member> members;
};

std::runtime_error bad() {
    return std::runtime_error("not valid JSON");
}

// Positions in a text already known to parse: whitespace and comments are skipped alike.
class Scanner {
public:
    explicit Scanner(const std::string& text) : t(text) {}

    std::size_t skip(std::size_t i) const {
        while (i < t.size()) {
            const char c = t[i];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                ++i;
            } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
                i = t.find('\n', i);
                if (i == std::string::npos) return t.size();
            } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
                const auto end = t.find("*/", i + 2);
                if (end == std::string::npos) throw bad();
                i = end + 2;
            } else {
                break;
            }
        }
        return i;
    }

    std::size_t string_end(std::size_t i) const {
        for (std::size_t k = i + 1; k < t.size(); ++k) {
            if (t[k] == '\\') {
                ++k;
            } else if (t[k] == '"') {
                return k + 1;
            }
        }
        throw bad();
    }

    std::size_t value_end(std::size_t i, std::size_t depth = 0) const {
        if (i >= t.size() || depth > sutra::core::k_max_config_nesting) throw bad();
        if (t[i] == '"') return string_end(i);
        if (t[i] == '{' || t[i] == '[') {
            const bool is_object = t[i] == '{';
            const char close = is_object ? '}' : ']';
            std::size_t k = skip(i + 1);
            while (k < t.size() && t[k] != close) {
                if (is_object) {
                    if (t[k] != '"') throw bad();
                    k = skip(string_end(k));
                    if (k >= t.size() || t[k] != ':') throw bad();
                    k = skip(k + 1);
                }
                k = skip(value_end(k, depth + 1));
                if (k < t.size() && t[k] == ',')
                    k = skip(k + 1);
                else if (k >= t.size() || t[k] != close)
                    throw bad();
            }
            if (k >= t.size()) throw bad();
            return k + 1;
        }
        std::size_t k = i;
        while (k < t.size() && std::strchr(",}] \t\r\n/", t[k]) == nullptr) ++k;
        if (k == i) throw bad();
        return k;
    }

    Object object(std::size_t open) const {
        if (open >= t.size() || t[open] != '{') throw bad();
        Object o;
        o.open = open;
        std::size_t k = skip(open + 1);
        while (k < t.size() && t[k] != '}') {
            Member m{};
            m.key_begin = k;
            const std::size_t key_end = string_end(k);
            m.key = ojson::parse(t.substr(k, key_end - k)).get<std::string>();
            k = skip(key_end) + 1; // past ':'
            m.value_begin = skip(k);
            m.value_end = value_end(m.value_begin);
            o.members.push_back(m);
            k = skip(m.value_end);
            if (k < t.size() && t[k] == ',') k = skip(k + 1);
        }
        if (k >= t.size()) throw bad();
        o.close = k;
        return o;
    }

    std::size_t line_start(std::size_t i) const {
        const auto nl = t.rfind('\n', i == 0 ? 0 : i - 1);
        return i == 0 || nl == std::string::npos ? 0 : nl + 1;
    }

    // The blanks before `i` on its line, when only blanks precede it there.
    std::optional<std::string> own_line_pad(std::size_t i) const {
        const std::size_t ls = line_start(i);
        const std::string pad = t.substr(ls, i - ls);
        if (pad.find_first_not_of(" \t") != std::string::npos) return std::nullopt;
        return pad;
    }

    // True when only blanks and a line comment follow `i` up to the end of its line.
    bool rest_of_line_free(std::size_t i) const {
        while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r')) ++i;
        return i >= t.size() || t[i] == '\n' || t.compare(i, 2, "//") == 0;
    }

    const std::string& t;
};

std::string indent_unit(const std::string& text) {
    const auto [width, ch] = detect_indent(text);
    return std::string(static_cast<std::size_t>(width), ch);
}

// `value` as multi-line JSON whose continuation lines start with `pad`.
std::string formatted(const ojson& value, const std::string& pad, const std::string& unit) {
    const std::string one = value.dump(static_cast<int>(unit.size()), unit.empty() ? ' ' : unit[0],
                                       false, ojson::error_handler_t::strict);
    std::string out;
    for (char c : one) {
        out += c;
        if (c == '\n') out += pad;
    }
    return out;
}

std::string member_text(const std::string& key,
                        const ojson& value,
                        const std::string& pad,
                        const std::string& unit) {
    return ojson(key).dump() + ": " + formatted(value, pad, unit);
}

// The pieces joined with one allocation: an edit of an 8 MB config makes one new copy of it, not
// one for each `+`.
std::string joined(std::initializer_list<std::string_view> parts) {
    std::size_t size = 0;
    for (const std::string_view p : parts) size += p.size();
    std::string out;
    out.reserve(size);
    for (const std::string_view p : parts) out.append(p);
    return out;
}

// `text` with `"key": value` added as the last member of `o`.
std::string insert_member(const std::string& text,
                          const Scanner& s,
                          const Object& o,
                          const std::string& key,
                          const ojson& value) {
    const std::string_view t(text);
    const std::string unit = indent_unit(text);
    const std::size_t ls = s.line_start(o.open);
    const std::string outer = text.substr(ls, text.find_first_not_of(" \t", ls) - ls);
    const bool multi_line = text.find('\n', o.open) < o.close;
    if (o.members.empty()) {
        const std::string pad = outer + unit;
        return joined({t.substr(0, o.open), "{\n", pad, member_text(key, value, pad, unit), "\n",
                       outer, "}", t.substr(o.close + 1)});
    }
    const Member& last = o.members.back();
    std::size_t at = last.value_end;
    const std::size_t next = s.skip(at);
    const bool has_comma = next < text.size() && text[next] == ',';
    if (has_comma) at = next + 1;
    const auto pad = s.own_line_pad(last.key_begin);
    if (multi_line && pad && s.rest_of_line_free(at)) {
        const auto nl = text.find('\n', at);
        if (nl != std::string::npos && nl < o.close) {
            return joined({t.substr(0, at), has_comma ? "" : ",", t.substr(at, nl + 1 - at), *pad,
                           member_text(key, value, *pad, unit), "\n", t.substr(nl + 1)});
        }
    }
    return joined({t.substr(0, at), has_comma ? " " : ", ", ojson(key).dump(), ": ",
                   value.dump(-1, ' ', false, ojson::error_handler_t::strict), t.substr(at)});
}

// `text` without member `index` of `o`: its own line(s) when it has them, and one comma.
std::string
remove_member(const std::string& text, const Scanner& s, const Object& o, std::size_t index) {
    const Member& m = o.members[index];
    const bool own_line = s.own_line_pad(m.key_begin).has_value();
    std::size_t begin = own_line ? s.line_start(m.key_begin) : m.key_begin;
    std::size_t end = m.value_end;
    std::optional<std::size_t> prev_comma;
    if (const std::size_t next = s.skip(end); next < text.size() && text[next] == ',') {
        end = next + 1;
    } else if (index > 0) {
        // The last member: the comma after the one before it goes instead.
        const std::size_t comma = s.skip(o.members[index - 1].value_end);
        if (text[comma] == ',') {
            if (own_line)
                prev_comma = comma;
            else
                begin = comma; // on one line: `, "key": value`
        }
    }
    if (own_line && s.rest_of_line_free(end)) {
        std::size_t k = end;
        while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r')) ++k;
        if (k < text.size() && text[k] == '\n') end = k + 1;
    }
    std::string out = text;
    out.erase(begin, end - begin);
    if (prev_comma) out.erase(*prev_comma, 1); // before `begin`: its offset is unchanged
    return out;
}

// `text` as plain JSON: for JSONC, trailing commas out (outside strings and comments) and
// comments blanked, so offsets, and the parser's line and column, stay. Throws on an
// unterminated string or comment.
std::string plain_json(const std::string& text, bool jsonc) {
    if (!jsonc) return text;
    const Scanner s(text);
    std::string plain;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '"') {
            const std::size_t e = s.string_end(i);
            plain += text.substr(i, e - i);
            i = e;
        } else if (c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
            const std::size_t e = s.skip(i);
            plain += std::string(e - i, ' ');
            i = e;
        } else if (c == ',') {
            const std::size_t n = s.skip(i + 1);
            plain += (n < text.size() && (text[n] == '}' || text[n] == ']')) ? ' ' : ',';
            ++i;
        } else {
            plain += c;
            ++i;
        }
    }
    return plain;
}

// The first position from `k` whose byte `wanted` says is one, or t.size(). With SSE2 (every
// x86-64) sixteen bytes are compared at a time: an 8 MB `.claude.json` is scanned on every hook
// call once sutra's server is registered, and a byte at a time that was most of the call.
template <class Wanted> std::size_t next_of(std::string_view t, std::size_t k, Wanted wanted) {
#if defined(__SSE2__)
    while (k + 16 <= t.size()) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + k));
        const int mask = _mm_movemask_epi8(wanted(v));
        if (mask != 0)
            return k + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
        k += 16;
    }
#endif
    while (k < t.size() && !wanted(static_cast<unsigned char>(t[k]))) ++k;
    return k;
}

// A string's quote or backslash.
struct QuoteOrEscape {
#if defined(__SSE2__)
    __m128i operator()(__m128i v) const {
        return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                            _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    }
#endif
    bool operator()(unsigned char c) const {
        return c == '"' || c == '\\';
    }
};

// A quote or a bracket: '[' and '{' (0x5B, 0x7B) are one byte with bit 0x20 set, as are ']' and
// '}' (0x5D, 0x7D).
struct QuoteOrBracket {
#if defined(__SSE2__)
    __m128i operator()(__m128i v) const {
        const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
        return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                            _mm_or_si128(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{')),
                                         _mm_cmpeq_epi8(folded, _mm_set1_epi8('}'))));
    }
#endif
    bool operator()(unsigned char c) const {
        return c == '"' || c == '{' || c == '}' || c == '[' || c == ']';
    }
};

// The end of the JSON string opening at `i` (past its closing quote), or npos. A backslash
// escapes the byte after it.
std::size_t quoted_end(std::string_view t, std::size_t i) {
    for (std::size_t k = next_of(t, i + 1, QuoteOrEscape{}); k < t.size();
         k = next_of(t, k + 2, QuoteOrEscape{})) {
        if (t[k] == '"') return k + 1;
    }
    return std::string_view::npos;
}

bool json_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skip_blanks(std::string_view t, std::size_t i) {
    while (i < t.size() && json_blank(t[i])) ++i;
    return i;
}

// The bytes of the 16 at t[base..] that a container's scan stops at (quotes, backslashes,
// brackets), one bit each; past the text's end, none.
unsigned stops_at(std::string_view t, std::size_t base) {
#if defined(__SSE2__)
    if (base + 16 <= t.size()) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + base));
        return static_cast<unsigned>(
            _mm_movemask_epi8(_mm_or_si128(QuoteOrEscape{}(v), QuoteOrBracket{}(v))));
    }
#endif
    unsigned mask = 0;
    for (std::size_t k = base; k < t.size() && k < base + 16; ++k) {
        const auto c = static_cast<unsigned char>(t[k]);
        if (QuoteOrEscape{}(c) || QuoteOrBracket{}(c)) mask |= 1u << (k - base);
    }
    return mask;
}

// The end of the value starting at `i`: strings by their quotes, objects and arrays by their
// brackets' depth (strings inside skipped whole), scalars up to a delimiter; npos when the text
// ends first or a bracket closes what it did not open. A container is read sixteen bytes at a
// time, stepping only from one quote, backslash or bracket to the next.
std::size_t value_end(std::string_view t, std::size_t i) {
    if (i >= t.size()) return std::string_view::npos;
    if (t[i] == '"') return quoted_end(t, i);
    if (t[i] != '{' && t[i] != '[') {
        std::size_t k = i;
        while (k < t.size() && !json_blank(t[k]) && t[k] != ',' && t[k] != '}' && t[k] != ']') ++k;
        return k == i ? std::string_view::npos : k;
    }
    std::string open; // the brackets still open, innermost last
    bool in_string = false;
    std::size_t escaped = 0; // a byte before this one is never a stop (the one after a backslash)
    for (std::size_t base = i; base < t.size(); base += 16) {
        for (unsigned mask = stops_at(t, base); mask != 0; mask &= mask - 1) {
            const std::size_t k = base + static_cast<std::size_t>(__builtin_ctz(mask));
            if (k < escaped) continue;
            const char c = t[k];
            if (in_string) {
                if (c == '\\')
                    escaped = k + 2;
                else if (c == '"')
                    in_string = false;
            } else if (c == '"') {
                in_string = true;
            } else if (c == '{' || c == '[') {
                if (open.size() >= sutra::core::k_max_config_nesting) return std::string_view::npos;
                open += c == '{' ? '}' : ']';
            } else if (c == '}' || c == ']') {
                if (open.empty() || open.back() != c) return std::string_view::npos;
                open.pop_back();
                if (open.empty()) return k + 1;
            }
        }
    }
    return std::string_view::npos;
}

} // namespace

std::size_t bom_length(const std::string& text) {
    return text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
}

std::optional<ojson> parse_json_text(const std::string& text, bool jsonc) {
    try {
        // nlohmann skips a leading byte-order mark itself.
        ojson doc = sutra::core::parse_within_nesting<ojson>(plain_json(text, jsonc),
                                                             sutra::core::k_max_config_nesting);
        if (doc.is_discarded()) return std::nullopt;
        return doc;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::optional<std::vector<TopMember>> json_top_members(const std::string& text, bool jsonc) {
    try {
        const Scanner s(text);
        const std::size_t start = s.skip(bom_length(text));
        if (start >= text.size()) {
            // Blank is {} to parse_config; a text of comments only is left to it to refuse.
            if (text.find_first_not_of(" \t\r\n", bom_length(text)) == std::string::npos)
                return std::vector<TopMember>{};
            return std::nullopt;
        }
        if (text[start] != '{' ||
            !sutra::core::json_nesting_within(text, sutra::core::k_max_config_nesting) ||
            !(jsonc ? ojson::accept(plain_json(text, true)) : ojson::accept(text)))
            return std::nullopt;
        const Object top = s.object(start);
        std::vector<TopMember> members;
        members.reserve(top.members.size());
        std::unordered_set<std::string_view> keys;
        for (const Member& m : top.members) {
            if (!keys.insert(m.key).second) return std::nullopt;
            members.push_back(
                {m.key, std::string_view(text).substr(m.value_begin, m.value_end - m.value_begin)});
        }
        return members;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::optional<std::string_view> json_member_text(std::string_view object, std::string_view key) {
    constexpr auto npos = std::string_view::npos;
    std::size_t k = skip_blanks(object, object.starts_with("\xEF\xBB\xBF") ? 3 : 0);
    if (k >= object.size() || object[k] != '{') return std::nullopt;
    std::optional<std::string_view> found;
    k = skip_blanks(object, k + 1);
    while (k < object.size() && object[k] != '}') {
        if (object[k] != '"') return std::nullopt;
        const std::size_t key_end = quoted_end(object, k);
        if (key_end == npos) return std::nullopt;
        const std::string_view raw = object.substr(k + 1, key_end - k - 2);
        bool match = raw == key;
        if (!match && raw.find('\\') != npos) { // an escaped key: compare what it says
            try {
                match = ojson::parse(object.substr(k, key_end - k)).get<std::string>() == key;
            } catch (const std::exception&) {
                return std::nullopt;
            }
        }
        k = skip_blanks(object, key_end);
        if (k >= object.size() || object[k] != ':') return std::nullopt;
        const std::size_t begin = skip_blanks(object, k + 1);
        const std::size_t end = value_end(object, begin);
        if (end == npos) return std::nullopt;
        if (match) found = object.substr(begin, end - begin);
        k = skip_blanks(object, end);
        if (k < object.size() && object[k] == ',') k = skip_blanks(object, k + 1);
    }
    if (k >= object.size()) return std::nullopt;
    return found;
}

std::string json_text_problem(const std::string& text, bool jsonc) {
    if (!sutra::core::json_nesting_within(text, sutra::core::k_max_config_nesting))
        return "nests deeper than " + std::to_string(sutra::core::k_max_config_nesting) +
               " levels, more than sutra reads";
    const std::string grammar = jsonc ? "JSONC" : "JSON";
    try {
        const ojson parsed = ojson::parse(plain_json(text, jsonc));
        return parsed.is_discarded() ? "is not valid " + grammar : std::string();
    } catch (const ojson::exception& e) {
        // "[json.exception.parse_error.101] parse error at line 2, column 8: …": the reason.
        const std::string what = e.what();
        const auto tag = what.find("] ");
        return "is not valid " + grammar + " (" +
               (tag == std::string::npos ? what : what.substr(tag + 2)) + ")";
    } catch (const std::exception&) {
        return "is not valid " + grammar + " (an unterminated string or comment)";
    }
}

std::string json_text_set(const std::string& text,
                          const std::string& section,
                          const std::string& name,
                          const ojson& value) {
    const Scanner s(text);
    const std::size_t bom = bom_length(text);
    const std::size_t start = s.skip(bom);
    if (start >= text.size())
        return text.substr(0, bom) +
               ojson{{section, ojson{{name, value}}}}.dump(2, ' ', false,
                                                           ojson::error_handler_t::strict) +
               "\n";
    if (text[start] != '{') throw std::runtime_error("not a JSON object");
    const Object top = s.object(start);
    for (const Member& sec : top.members) {
        if (sec.key != section) continue;
        if (text[sec.value_begin] != '{')
            throw std::runtime_error("\"" + section + "\" is not an object");
        const Object inner = s.object(sec.value_begin);
        for (const Member& m : inner.members) {
            if (m.key != name) continue;
            const std::string pad = s.own_line_pad(m.key_begin).value_or("");
            const std::string_view t(text);
            return joined({t.substr(0, m.value_begin), formatted(value, pad, indent_unit(text)),
                           t.substr(m.value_end)});
        }
        return insert_member(text, s, inner, name, value);
    }
    return insert_member(text, s, top, section, ojson{{name, value}});
}

std::string
json_text_remove(const std::string& text, const std::string& section, const std::string& name) {
    const Scanner s(text);
    const std::size_t start = s.skip(bom_length(text));
    if (start >= text.size() || text[start] != '{') return text;
    const Object top = s.object(start);
    for (std::size_t i = 0; i < top.members.size(); ++i) {
        const Member& sec = top.members[i];
        if (sec.key != section || text[sec.value_begin] != '{') continue;
        const Object inner = s.object(sec.value_begin);
        for (std::size_t k = 0; k < inner.members.size(); ++k) {
            if (inner.members[k].key != name) continue;
            // The section held only our entry: it goes with it.
            if (inner.members.size() == 1) return remove_member(text, s, top, i);
            return remove_member(text, s, inner, k);
        }
    }
    return text;
}

} // namespace sutra::plugins::common
