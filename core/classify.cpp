#include "core/classify.hpp"

#include <array>
#include <cctype>
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
constexpr KeyWord k_builtin[] = {
    {"error", Level::critical},
    {"fail", Level::critical},
    {"fatal", Level::critical},
    {"panic", Level::critical},
    {"exception", Level::critical},
    {"traceback", Level::critical},
    {"assert", Level::critical},
    {"denied", Level::critical},
    {"not found", Level::critical},
    {"segmentation fault", Level::critical},
    {"segfault", Level::critical},
    {"abort", Level::critical},
    {"undefined reference", Level::critical},
    {"cannot ", Level::critical},
    {"can't ", Level::critical},
    {"could not", Level::critical},
    {"unable to", Level::critical},
    {"no such ", Level::critical},
    {"killed", Level::critical},
    {"timed out", Level::critical},
    {"refused", Level::critical},
    {"exceeded", Level::critical},
    {"\xe2\x97\x8f ", Level::critical}, // "● "
    {"\xe2\x9c\x95", Level::critical},  // "✕"
    {"warn", Level::notable},
    {"deprecat", Level::notable},
    {"note:", Level::notable},
    {"summary", Level::notable},
    {"caused by", Level::critical},
    {"unresolved", Level::critical},
    {"invalid", Level::notable},
    {"expected", Level::notable},
};

std::uint32_t prefix_of(unsigned char a, unsigned char b) {
    return static_cast<std::uint32_t>(k_lower[a]) << 8 | k_lower[b];
}

} // namespace

std::span<const KeyWord> builtin_key_words() {
    return k_builtin;
}

KeyMatcher::KeyMatcher(const std::vector<std::string>& extra)
    : m_pairs(65536 / 64, 0), m_first_pairs(65536 / 64, 0), m_second_pairs(65536 / 64, 0) {
    for (const auto& w : k_builtin) m_words.push_back({std::string(w.text), w.level});
    for (const auto& e : extra) {
        if (e.size() < 2) continue; // a one-letter pattern would keep every line
        std::string lower;
        for (char c : e) lower += static_cast<char>(k_lower[static_cast<unsigned char>(c)]);
        m_words.push_back({lower, Level::critical});
    }
    for (const auto& w : m_words)
        if (w.text.size() < 3) m_stride = 1; // a two-byte word may start at any offset

    // Group the words by their two-byte prefix, so a candidate position compares only the
    // words that can start there.
    m_bucket_of.assign(65536, 0);
    m_buckets.push_back({}); // bucket 0: none
    auto add_pair = [this](std::vector<std::uint64_t>& set, unsigned char a, unsigned char b) {
        // Every case variant, so the scan can test raw bytes without lower-casing them.
        for (unsigned char x : {a, static_cast<unsigned char>(std::toupper(a))})
            for (unsigned char y : {b, static_cast<unsigned char>(std::toupper(b))}) {
                const std::uint32_t raw = static_cast<std::uint32_t>(y) << 8 | x;
                m_pairs[raw / 64] |= 1ull << (raw % 64);
                set[raw / 64] |= 1ull << (raw % 64);
            }
    };
    for (std::size_t i = 0; i < m_words.size(); ++i) {
        const auto* t = reinterpret_cast<const unsigned char*>(m_words[i].text.data());
        const auto p = prefix_of(t[0], t[1]);
        if (!m_bucket_of[p]) {
            m_bucket_of[p] = static_cast<std::uint16_t>(m_buckets.size());
            m_buckets.emplace_back();
        }
        m_buckets[m_bucket_of[p]].push_back(static_cast<std::uint16_t>(i));
        add_pair(m_first_pairs, t[0], t[1]);
        if (m_stride == 2) add_pair(m_second_pairs, t[1], t[2]);
    }
}

Level KeyMatcher::match_at(const unsigned char* s, std::size_t n, std::size_t p, Level best) const {
    const std::uint16_t bucket = m_bucket_of[prefix_of(s[p], s[p + 1])];
    if (!bucket) return best;
    for (const std::uint16_t wi : m_buckets[bucket]) {
        const Word& w = m_words[wi];
        if (w.level <= best || w.text.size() > n - p) continue;
        bool match = true;
        for (std::size_t k = 2; k < w.text.size(); ++k) {
            if (k_lower[s[p + k]] != static_cast<unsigned char>(w.text[k])) {
                match = false;
                break;
            }
        }
        if (match) best = w.level;
    }
    return best;
}

Level KeyMatcher::level(std::string_view line) const {
    // The hot loop of the whole rewrite: one table test per m_stride bytes, words compared only
    // where a pair hits.
    Level best = Level::none;
    const auto* s = reinterpret_cast<const unsigned char*>(line.data());
    const std::size_t n = line.size();
    for (std::size_t q = 0; q + 1 < n; q += m_stride) {
        const std::uint32_t raw = static_cast<std::uint32_t>(s[q + 1]) << 8 | s[q];
        const std::uint64_t bit = 1ull << (raw % 64);
        if (!(m_pairs[raw / 64] & bit)) continue;
        if (q > 0 && (m_second_pairs[raw / 64] & bit)) best = match_at(s, n, q - 1, best);
        if (m_first_pairs[raw / 64] & bit) best = match_at(s, n, q, best);
        if (best == Level::critical) return best;
    }
    return best;
}

std::size_t KeyMatcher::find(std::string_view text, Level at_least) const {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t q = 0; q + 1 < n; q += m_stride) {
        const std::uint32_t raw = static_cast<std::uint32_t>(s[q + 1]) << 8 | s[q];
        const std::uint64_t bit = 1ull << (raw % 64);
        if (!(m_pairs[raw / 64] & bit)) continue;
        if (q > 0 && (m_second_pairs[raw / 64] & bit) &&
            match_at(s, n, q - 1, Level::none) >= at_least)
            return q - 1;
        if ((m_first_pairs[raw / 64] & bit) && match_at(s, n, q, Level::none) >= at_least) return q;
    }
    return std::string_view::npos;
}

namespace {

bool is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}
bool is_space(unsigned char c) {
    return c == ' ' || c == '\t';
}

std::string_view strip_ending(std::string_view line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    return line;
}

} // namespace

namespace {

// Byte classes for the signature, as bits: hex digits (0-9, a-f, A-F) all carry k_hex.
constexpr unsigned char k_space = 1, k_sep = 2, k_digit = 4, k_hex = 8;

constexpr std::array<unsigned char, 256> make_classes() {
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 256; ++c) {
        unsigned char k = 0;
        if (c == ' ' || c == '\t')
            k = k_space;
        else if (c >= '0' && c <= '9')
            k = k_digit | k_hex;
        else if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
            k = k_hex;
        else if (c == '/' || c == '\\')
            k = k_sep;
        t[static_cast<std::size_t>(c)] = k;
    }
    return t;
}
constexpr auto k_class = make_classes();

// A 64-bit hash for in-process filters, inlined because it runs once per line: eight bytes a
// step, each step multiplied in, then murmur's finalizer so similar inputs spread apart.
std::uint64_t hash_bytes(const char* p, std::size_t n) {
    constexpr std::uint64_t k_mul = 0x9e3779b97f4a7c15ull;
    std::uint64_t h = n * k_mul;
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * k_mul;
        h ^= h >> 29;
    }
    if (n > 0) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, n);
        h = (h ^ w) * k_mul;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

// Only the first bytes of a line decide its shape: long lines are rarely alike, and a cap keeps
// the buffer on the stack.
constexpr std::size_t k_signature_span = 512;

} // namespace

std::uint64_t shape_signature(std::string_view raw) {
    // One pass over the bytes, writing the normalised line. A token holding a separator is a
    // path: what was written of it is rewound and one placeholder stands for it. A run of hex
    // digits is written as it is read (digit runs as one '0') and rewound to a single '0' when
    // it turns out to be an id: 7+ long and holding a digit.
    const std::string_view line = strip_ending(raw).substr(0, k_signature_span);
    const auto* s = reinterpret_cast<const unsigned char*>(line.data());
    const std::size_t n = line.size();
    char norm[k_signature_span];
    std::size_t out = 0;
    std::size_t token_out = 0; // where the current token starts in norm
    std::size_t i = 0;
    while (i < n) {
        const unsigned char k = k_class[s[i]];
        if (k == 0) {
            norm[out++] = static_cast<char>(s[i++]);
        } else if (k & k_hex) {
            const std::size_t run_in = i, run_out = out;
            bool any_digit = false, prev_digit = false;
            for (; i < n && (k_class[s[i]] & k_hex); ++i) {
                const bool digit = k_class[s[i]] & k_digit;
                if (!digit)
                    norm[out++] = static_cast<char>(s[i]);
                else if (!prev_digit)
                    norm[out++] = '0';
                any_digit |= digit;
                prev_digit = digit;
            }
            if (any_digit && i - run_in >= 7) {
                out = run_out;
                norm[out++] = '0';
            }
        } else if (k & k_space) {
            while (i < n && (k_class[s[i]] & k_space)) ++i;
            norm[out++] = ' ';
            token_out = out;
        } else { // a separator
            out = token_out;
            norm[out++] = 'P';
            while (i < n && !(k_class[s[i]] & k_space)) ++i;
        }
    }
    return hash_bytes(norm, out);
}

std::uint64_t content_hash(std::string_view line) {
    return std::hash<std::string_view>{}(line);
}

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
