#include "core/classify.hpp"

#include <array>
#include <cstring>
#include <functional>

namespace sutra::core {
namespace {

constexpr std::array<unsigned char, 256> make_lower() {
    std::array<unsigned char, 256> t{};
    for (int i = 0; i < 256; ++i)
        t[static_cast<std::size_t>(i)] =
            static_cast<unsigned char>(i >= 'A' && i <= 'Z' ? i + 32 : i);
    return t;
}
constexpr auto k_lower = make_lower();

// Words that mark a line as signal. Over-keeping only costs bytes; missing one hides an error,
// so the critical list is broad. Non-ASCII marks are jest's failure bullets.
struct BuiltinWord {
    const char* text;
    Level level;
};
constexpr BuiltinWord k_builtin[] = {
    {"error", Level::critical},        {"fail", Level::critical},
    {"fatal", Level::critical},        {"panic", Level::critical},
    {"exception", Level::critical},    {"traceback", Level::critical},
    {"assert", Level::critical},       {"denied", Level::critical},
    {"not found", Level::critical},    {"segmentation fault", Level::critical},
    {"segfault", Level::critical},     {"abort", Level::critical},
    {"undefined reference", Level::critical}, {"cannot ", Level::critical},
    {"can't ", Level::critical},       {"could not", Level::critical},
    {"unable to", Level::critical},    {"no such ", Level::critical},
    {"killed", Level::critical},       {"timed out", Level::critical},
    {"refused", Level::critical},      {"\xe2\x97\x8f ", Level::critical}, // "● "
    {"\xe2\x9c\x95", Level::critical},                                    // "✕"
    {"warn", Level::notable},          {"deprecat", Level::notable},
    {"note:", Level::notable},         {"summary", Level::notable},
    {"caused by", Level::critical},    {"unresolved", Level::critical},
    {"invalid", Level::notable},       {"expected", Level::notable},
};

std::uint32_t prefix_of(unsigned char a, unsigned char b) {
    return static_cast<std::uint32_t>(k_lower[a]) << 8 | k_lower[b];
}

} // namespace

KeyMatcher::KeyMatcher(const std::vector<std::string>& extra) : m_prefix(65536 / 64, 0) {
    for (const auto& w : k_builtin) m_words.push_back({w.text, w.level});
    for (const auto& e : extra) {
        if (e.size() < 2) continue; // a one-letter pattern would keep every line
        std::string lower;
        for (char c : e) lower += static_cast<char>(k_lower[static_cast<unsigned char>(c)]);
        m_words.push_back({lower, Level::critical});
    }
    // Group the words by their two-byte prefix, so a candidate position compares only the
    // words that can start there.
    std::vector<std::uint32_t> prefixes;
    for (const auto& w : m_words)
        prefixes.push_back(prefix_of(static_cast<unsigned char>(w.text[0]),
                                     static_cast<unsigned char>(w.text[1])));
    m_bucket_of.assign(65536, 0);
    m_buckets.push_back({}); // bucket 0: none
    for (std::size_t i = 0; i < m_words.size(); ++i) {
        const auto p = prefixes[i];
        if (!m_bucket_of[p]) {
            m_bucket_of[p] = static_cast<std::uint16_t>(m_buckets.size());
            m_buckets.emplace_back();
        }
        m_buckets[m_bucket_of[p]].push_back(static_cast<std::uint16_t>(i));
        m_prefix[p / 64] |= 1ull << (p % 64);
    }
}

Level KeyMatcher::level(std::string_view line) const {
    Level best = Level::none;
    const auto* s = reinterpret_cast<const unsigned char*>(line.data());
    const std::size_t n = line.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const auto p = prefix_of(s[i], s[i + 1]);
        if (!(m_prefix[p / 64] & (1ull << (p % 64)))) continue;
        for (const std::uint16_t wi : m_buckets[m_bucket_of[p]]) {
            const Word& w = m_words[wi];
            if (w.level <= best || w.text.size() > n - i) continue;
            bool match = true;
            for (std::size_t k = 2; k < w.text.size(); ++k) {
                if (k_lower[s[i + k]] != static_cast<unsigned char>(w.text[k])) {
                    match = false;
                    break;
                }
            }
            if (match) {
                best = w.level;
                if (best == Level::critical) return best;
            }
        }
    }
    return best;
}

namespace {

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_space(unsigned char c) { return c == ' ' || c == '\t'; }

std::string_view strip_ending(std::string_view line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    return line;
}

} // namespace

namespace {

enum Cls : unsigned char { other, space, digit, hexletter, sep };

constexpr std::array<unsigned char, 256> make_classes() {
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 256; ++c) {
        unsigned char k = other;
        if (c == ' ' || c == '\t') k = space;
        else if (c >= '0' && c <= '9') k = digit;
        else if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) k = hexletter;
        else if (c == '/' || c == '\\') k = sep;
        t[static_cast<std::size_t>(c)] = k;
    }
    return t;
}
constexpr auto k_class = make_classes();

// Only the first bytes of a line decide its shape: long lines are rarely alike, and a cap keeps
// the buffer on the stack.
constexpr std::size_t k_signature_span = 512;

} // namespace

std::uint64_t shape_signature(std::string_view raw) {
    // One pass. A token holding a separator is a path: what was written of it is rewound and
    // one placeholder stands for it.
    const std::string_view line = strip_ending(raw).substr(0, k_signature_span);
    const auto* s = reinterpret_cast<const unsigned char*>(line.data());
    const std::size_t n = line.size();
    char norm[k_signature_span];
    std::size_t out = 0;
    std::size_t token_out = 0; // where the current token starts in norm
    std::size_t i = 0;
    while (i < n) {
        const unsigned char k = k_class[s[i]];
        if (k == space) {
            while (i < n && k_class[s[i]] == space) ++i;
            norm[out++] = ' ';
            token_out = out;
        } else if (k == sep) {
            out = token_out;
            norm[out++] = 'P';
            while (i < n && k_class[s[i]] != space) ++i;
        } else if (k == other) {
            norm[out++] = static_cast<char>(s[i++]);
        } else {
            // A run of hex holding a digit, 7+ long, is an id or hash: one placeholder.
            // Otherwise digit runs collapse and letters stay.
            std::size_t e = i;
            bool any_digit = false;
            while (e < n && (k_class[s[e]] == digit || k_class[s[e]] == hexletter))
                any_digit |= k_class[s[e++]] == digit;
            if (any_digit && e - i >= 7) {
                norm[out++] = '0';
                i = e;
                continue;
            }
            while (i < e) {
                if (k_class[s[i]] == digit) {
                    while (i < e && k_class[s[i]] == digit) ++i;
                    norm[out++] = '0';
                } else {
                    norm[out++] = static_cast<char>(s[i++]);
                }
            }
        }
    }
    return std::_Hash_bytes(norm, out, 0x9e3779b97f4a7c15ull);
}

std::uint64_t content_hash(std::string_view line) { return std::hash<std::string_view>{}(line); }

bool is_blank(std::string_view line) {
    for (char c : line)
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
    return true;
}

bool is_location(std::string_view line) {
    line = strip_ending(line);
    if (line.size() > 600) line = line.substr(0, 600);
    if (line.find("File \"") != std::string_view::npos &&
        line.find("\", line ") != std::string_view::npos)
        return true;
    // name.ext:DIGITS or name.ext(DIGITS,DIGITS) (tsc)
    for (std::size_t i = 1; i + 1 < line.size(); ++i) {
        const char c = line[i];
        if ((c != ':' && c != '(') || !is_digit(static_cast<unsigned char>(line[i + 1]))) continue;
        // Walk back over the file name; it must have an extension.
        std::size_t k = i;
        bool dot = false;
        while (k > 0) {
            const auto p = static_cast<unsigned char>(line[k - 1]);
            if (p == '.') dot = true;
            if (is_space(p) || p == '(' || p == '"' || p == '\'' || p == '[' || p == '<') break;
            --k;
        }
        if (dot && k < i && line[i - 1] != '.') return true;
    }
    return false;
}

bool is_continuation(std::string_view line) {
    if (line.empty() || is_blank(line)) return false;
    const char c = line[0];
    if (c == ' ' || c == '\t' || c == '|' || c == '^' || c == '~' || c == '>' || c == '=')
        return true;
    if (line.size() >= 2 && c == 'E' && line[1] == ' ') return true;
    return is_location(line);
}

} // namespace sutra::core
