#pragma once
// A JSON reader and writer for the hook's path, giving exactly what nlohmann::json gives, faster.
// A hook call parses a 60 kB payload in the module, writes the output back out as the decode
// answer, and parses that again in the dispatcher. nlohmann's lexer reads a character at a time
// and appends each to its token (about 80 instructions a byte): half of the call's instructions
// were JSON. Here strings are copied in runs between the bytes that need a look (quote, backslash,
// control, non-ASCII), and the rest is the same grammar by hand.
//
// The contract, checked by tests/json_fast_test.cpp over many generated and mutated texts and by
// the fuzz target fuzz/json_fuzz.cpp: `parse_json_fast<J>(text)` accepts exactly the texts that
// `J::parse(text, nullptr, false)` accepts and builds the same tree (the same types: integer,
// unsigned and float apart; duplicate keys keep their first place and last value; a leading BOM
// is skipped; a NUL byte ends the input, as nlohmann reads it), and `dump_json_fast(j)` gives
// `j.dump(-1, ' ', false, error_handler_t::replace)` byte for byte. Header-only: the adapter
// modules, which never link the core, use the same code.

#include <cerrno>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace sutra::core {

namespace json_fast_detail {

/// Length of the well-formed UTF-8 sequence at s[i] (the Unicode standard's table 3-7, which is
/// also what nlohmann accepts), or 0.
inline std::size_t utf8_sequence(std::string_view s, std::size_t i) noexcept {
    const auto at = [&](std::size_t k) -> unsigned {
        return k < s.size() ? static_cast<unsigned char>(s[k]) : 0x100;
    };
    const unsigned b0 = at(i);
    auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
        const unsigned b = at(k);
        return b >= lo && b <= hi;
    };
    if (b0 < 0x80) return 1;
    if (b0 >= 0xC2 && b0 <= 0xDF) return cont(i + 1) ? 2 : 0;
    if (b0 == 0xE0) return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
    if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF)
        return cont(i + 1) && cont(i + 2) ? 3 : 0;
    if (b0 == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
    if (b0 == 0xF0) return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (b0 >= 0xF1 && b0 <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (b0 == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    return 0;
}

/// Bytes a string's text can take as they are: printable ASCII but the quote and the backslash.
inline bool plain(unsigned char c) noexcept {
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/// The end of the run of plain bytes from `i`, eight at a time where all eight are plain.
inline std::size_t plain_run(std::string_view s, std::size_t i) noexcept {
    while (i + 8 <= s.size()) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
        // A byte is flagged when it is >= 0x80, < 0x20, '"' (0x22) or '\\' (0x5C).
        const std::uint64_t high = w & highs;
        const std::uint64_t control = (w - ones * 0x20) & ~w & highs;
        const std::uint64_t q = w ^ (ones * 0x22), b = w ^ (ones * 0x5C);
        const std::uint64_t quote = (q - ones) & ~q & highs, slash = (b - ones) & ~b & highs;
        if ((high | control | quote | slash) != 0) break;
        i += 8;
    }
    while (i < s.size() && plain(static_cast<unsigned char>(s[i]))) ++i;
    return i;
}

template <class Json> class Reader {
public:
    Reader(std::string_view text, std::size_t max_depth) : m_s(text), m_max_depth(max_depth) {}

    bool document(Json& out) {
        // nlohmann skips a UTF-8 byte order mark, and refuses a text that starts like one only.
        if (!m_s.empty() && static_cast<unsigned char>(m_s[0]) == 0xEF) {
            if (m_s.size() < 3 || static_cast<unsigned char>(m_s[1]) != 0xBB ||
                static_cast<unsigned char>(m_s[2]) != 0xBF)
                return false;
            m_i = 3;
        }
        if (!value(out, 0)) return false;
        skip_space();
        // The end of the text, or a NUL byte: nlohmann's lexer reads '\0' as the end of input.
        return m_i == m_s.size() || m_s[m_i] == '\0';
    }

private:
    std::string_view m_s;
    std::size_t m_i = 0;
    std::size_t m_max_depth;

    void skip_space() {
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            ++m_i;
        }
    }

    bool literal(std::string_view word) {
        if (m_s.substr(m_i, word.size()) != word) return false;
        m_i += word.size();
        return true;
    }

    bool value(Json& out, std::size_t depth) {
        skip_space();
        if (m_i >= m_s.size()) return false;
        switch (m_s[m_i]) {
        case '{':
            return object(out, depth + 1);
        case '[':
            return array(out, depth + 1);
        case '"': {
            std::string text;
            if (!string(text)) return false;
            out = Json(std::move(text));
            return true;
        }
        case 't':
            out = Json(true);
            return literal("true");
        case 'f':
            out = Json(false);
            return literal("false");
        case 'n':
            out = Json(nullptr);
            return literal("null");
        default:
            return number(out);
        }
    }

    bool object(Json& out, std::size_t depth) {
        if (depth > m_max_depth) return false;
        ++m_i; // '{'
        out = Json(Json::value_t::object);
        skip_space();
        if (m_i < m_s.size() && m_s[m_i] == '}') {
            ++m_i;
            return true;
        }
        while (true) {
            skip_space();
            if (m_i >= m_s.size() || m_s[m_i] != '"') return false;
            std::string key;
            if (!string(key)) return false;
            skip_space();
            if (m_i >= m_s.size() || m_s[m_i] != ':') return false;
            ++m_i;
            // As nlohmann's DOM parser: a repeated key keeps its first place, takes the last value.
            Json member;
            if (!value(member, depth)) return false;
            out[std::move(key)] = std::move(member);
            skip_space();
            if (m_i >= m_s.size()) return false;
            if (m_s[m_i] == ',') {
                ++m_i;
                continue;
            }
            if (m_s[m_i] != '}') return false;
            ++m_i;
            return true;
        }
    }

    bool array(Json& out, std::size_t depth) {
        if (depth > m_max_depth) return false;
        ++m_i; // '['
        out = Json(Json::value_t::array);
        skip_space();
        if (m_i < m_s.size() && m_s[m_i] == ']') {
            ++m_i;
            return true;
        }
        while (true) {
            Json element;
            if (!value(element, depth)) return false;
            out.push_back(std::move(element));
            skip_space();
            if (m_i >= m_s.size()) return false;
            if (m_s[m_i] == ',') {
                ++m_i;
                continue;
            }
            if (m_s[m_i] != ']') return false;
            ++m_i;
            return true;
        }
    }

    static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    // Four hex digits after "\u" at m_i; -1 when they are not.
    long code_unit() {
        if (m_s.size() - m_i < 4) return -1;
        long v = 0;
        for (int k = 0; k < 4; ++k) {
            const int h = hex(m_s[m_i + static_cast<std::size_t>(k)]);
            if (h < 0) return -1;
            v = v * 16 + h;
        }
        m_i += 4;
        return v;
    }

    static void append_utf8(std::string& out, unsigned long cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    bool escape(std::string& out) {
        if (m_i >= m_s.size()) return false;
        const char c = m_s[m_i++];
        switch (c) {
        case '"':
        case '\\':
        case '/':
            out += c;
            return true;
        case 'b':
            out += '\b';
            return true;
        case 'f':
            out += '\f';
            return true;
        case 'n':
            out += '\n';
            return true;
        case 'r':
            out += '\r';
            return true;
        case 't':
            out += '\t';
            return true;
        case 'u':
            break;
        default:
            return false;
        }
        const long first = code_unit();
        if (first < 0 || (first >= 0xDC00 && first <= 0xDFFF)) return false;
        if (first < 0xD800 || first > 0xDBFF) {
            append_utf8(out, static_cast<unsigned long>(first));
            return true;
        }
        // A high surrogate must be followed by an escaped low one.
        if (m_s.substr(m_i, 2) != "\\u") return false;
        m_i += 2;
        const long second = code_unit();
        if (second < 0xDC00 || second > 0xDFFF) return false;
        append_utf8(out, 0x10000 + ((static_cast<unsigned long>(first) - 0xD800) << 10) +
                             (static_cast<unsigned long>(second) - 0xDC00));
        return true;
    }

    bool string(std::string& out) {
        ++m_i; // the opening quote
        while (true) {
            const std::size_t run_end = plain_run(m_s, m_i);
            out.append(m_s.data() + m_i, run_end - m_i);
            m_i = run_end;
            if (m_i >= m_s.size()) return false;
            const auto c = static_cast<unsigned char>(m_s[m_i]);
            if (c == '"') {
                ++m_i;
                return true;
            }
            if (c == '\\') {
                ++m_i;
                if (!escape(out)) return false;
            } else if (c < 0x20) {
                return false; // a raw control character
            } else {
                const std::size_t n = utf8_sequence(m_s, m_i);
                if (n == 0) return false;
                out.append(m_s.data() + m_i, n);
                m_i += n;
            }
        }
    }

    static bool digit(char c) { return c >= '0' && c <= '9'; }

    bool number(Json& out) {
        const std::size_t start = m_i;
        bool integral = true;
        if (m_s[m_i] == '-') ++m_i;
        if (m_i >= m_s.size() || !digit(m_s[m_i])) return false;
        if (m_s[m_i] == '0') {
            ++m_i;
        } else {
            while (m_i < m_s.size() && digit(m_s[m_i])) ++m_i;
        }
        if (m_i < m_s.size() && m_s[m_i] == '.') {
            integral = false;
            ++m_i;
            if (m_i >= m_s.size() || !digit(m_s[m_i])) return false;
            while (m_i < m_s.size() && digit(m_s[m_i])) ++m_i;
        }
        if (m_i < m_s.size() && (m_s[m_i] == 'e' || m_s[m_i] == 'E')) {
            integral = false;
            ++m_i;
            if (m_i < m_s.size() && (m_s[m_i] == '+' || m_s[m_i] == '-')) ++m_i;
            if (m_i >= m_s.size() || !digit(m_s[m_i])) return false;
            while (m_i < m_s.size() && digit(m_s[m_i])) ++m_i;
        }
        // The token as nlohmann converts it: strtoull or strtoll when integral and in range,
        // else strtod with the locale's decimal point; a result that is not finite is an error.
        std::string token(m_s.substr(start, m_i - start));
        char* end = nullptr;
        if (integral) {
            errno = 0;
            if (token[0] == '-') {
                const long long v = std::strtoll(token.c_str(), &end, 10);
                if (errno == 0) {
                    out = Json(static_cast<typename Json::number_integer_t>(v));
                    return true;
                }
            } else {
                const unsigned long long v = std::strtoull(token.c_str(), &end, 10);
                if (errno == 0) {
                    out = Json(static_cast<typename Json::number_unsigned_t>(v));
                    return true;
                }
            }
        }
        if (const char* point = std::localeconv()->decimal_point;
            point != nullptr && point[0] != '.' && point[0] != '\0' && point[1] == '\0') {
            for (char& ch : token)
                if (ch == '.') ch = point[0];
        }
        const double d = std::strtod(token.c_str(), &end);
        if (!std::isfinite(d)) return false;
        out = Json(static_cast<typename Json::number_float_t>(d));
        return true;
    }
};

/// `s` as a JSON string; false, with `out` half written, when `s` is not well-formed UTF-8
/// (nlohmann then replaces bytes, and the caller leaves the writing to it).
inline bool write_string(std::string& out, std::string_view s) {
    out += '"';
    std::size_t i = 0;
    while (true) {
        // Non-ASCII sequences are written as they are once checked: only quote, backslash and
        // controls escape.
        std::size_t end = plain_run(s, i);
        while (end < s.size() && static_cast<unsigned char>(s[end]) >= 0x80) {
            const std::size_t n = utf8_sequence(s, end);
            if (n == 0) return false;
            end = plain_run(s, end + n);
        }
        out.append(s.data() + i, end - i);
        i = end;
        if (i >= s.size()) break;
        const auto c = static_cast<unsigned char>(s[i++]);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default: {
            static constexpr char digits[] = "0123456789abcdef";
            const char u[6] = {'\\', 'u', '0', '0', digits[c >> 4], digits[c & 0xF]};
            out.append(u, 6);
        }
        }
    }
    out += '"';
    return true;
}

/// Writes `j`; false where nlohmann's writer must do it instead (a string that is not UTF-8,
/// a binary value).
template <class Json> bool write(std::string& out, const Json& j) {
    switch (j.type()) {
    case Json::value_t::object: {
        out += '{';
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first) out += ',';
            first = false;
            if (!write_string(out, it.key())) return false;
            out += ':';
            if (!write(out, it.value())) return false;
        }
        out += '}';
        return true;
    }
    case Json::value_t::array: {
        out += '[';
        bool first = true;
        for (const auto& e : j) {
            if (!first) out += ',';
            first = false;
            if (!write(out, e)) return false;
        }
        out += ']';
        return true;
    }
    case Json::value_t::string:
        return write_string(out, j.template get_ref<const typename Json::string_t&>());
    case Json::value_t::number_integer:
        out += std::to_string(j.template get<typename Json::number_integer_t>());
        return true;
    case Json::value_t::number_unsigned:
        out += std::to_string(j.template get<typename Json::number_unsigned_t>());
        return true;
    case Json::value_t::binary:
        return false;
    default:
        // null, booleans and floats (nlohmann's shortest round-trip form) as nlohmann writes them.
        out += j.dump();
        return true;
    }
}

/// About the bytes `write` gives for `j` (its strings and keys, a few per value), so the output
/// is allocated once: each page a hook touches first costs a fault, and a string grown by
/// doubling touches about twice its size.
template <class Json> std::size_t size_hint(const Json& j) {
    switch (j.type()) {
    case Json::value_t::object: {
        std::size_t n = 2;
        for (auto it = j.begin(); it != j.end(); ++it) n += it.key().size() + 4 + size_hint(*it);
        return n;
    }
    case Json::value_t::array: {
        std::size_t n = 2;
        for (const auto& v : j) n += 1 + size_hint(v);
        return n;
    }
    case Json::value_t::string:
        return j.template get_ref<const typename Json::string_t&>().size() + 2;
    default:
        return 24;
    }
}

} // namespace json_fast_detail

/// `Json::parse(text, nullptr, false)`, with arrays and objects nested at most `max_depth` deep
/// (deeper: discarded, as core/util/json_nesting.hpp's limit): the same answer, built faster.
template <class Json> Json parse_json_fast(std::string_view text, std::size_t max_depth) {
    Json out;
    json_fast_detail::Reader<Json> reader(text, max_depth);
    if (!reader.document(out)) return Json(Json::value_t::discarded);
    return out;
}

/// `j.dump(-1, ' ', false, Json::error_handler_t::replace)`, byte for byte, faster.
template <class Json> std::string dump_json_fast(const Json& j) {
    // One pass: checked as written, and left to nlohmann at the first byte it would replace.
    std::string out;
    const std::size_t hint = json_fast_detail::size_hint(j);
    out.reserve(hint + hint / 16); // room for escapes: a newline is written as two bytes
    if (!json_fast_detail::write(out, j))
        return j.dump(-1, ' ', false, Json::error_handler_t::replace);
    return out;
}

} // namespace sutra::core
