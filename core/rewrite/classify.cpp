// Line classification, the hot loop of every rewrite: the key-word levels (which lines are
// critical or notable, with the flag/path/identifier rule), the shape signatures that decide what
// folds, and the location and continuation tests. One file because all three share the same
// word-at-a-time byte helpers and are tuned together (docs/benchmark.md, "Speed and memory").

#include "core/rewrite/classify.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <functional>

namespace sutra::core {
namespace {

// Word-at-a-time helpers for the signature and key-word scans. A word is eight bytes read as a
// little-endian number on any host (byte k in bits 8k to 8k + 7); a mask holds the high bit of each
// byte that passes a test. The tests are exact: bytes never carry or borrow into one another.
namespace swar {

constexpr std::uint64_t k_ones = 0x0101010101010101ull;
constexpr std::uint64_t k_highs = 0x8080808080808080ull;

std::uint64_t load(const void* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::big) w = std::byteswap(w);
    return w;
}

// Index of the first byte a non-zero mask flags.
unsigned first(std::uint64_t mask) {
    return static_cast<unsigned>(std::countr_zero(mask)) / 8;
}

std::uint64_t equal(std::uint64_t w, unsigned char c) {
    const std::uint64_t t = w ^ (k_ones * c);
    return ~(((t & ~k_highs) + ~k_highs) | t) & k_highs;
}

// ASCII bytes up to hi (hi < 0x80).
std::uint64_t at_most(std::uint64_t w, unsigned char hi) {
    return (k_ones * (0x80u + hi) - (w & ~k_highs)) & ~w & k_highs;
}

// ASCII bytes in [lo, hi] (both < 0x80).
std::uint64_t in_range(std::uint64_t w, unsigned char lo, unsigned char hi) {
    return ((w & ~k_highs) + k_ones * (0x80u - lo)) & at_most(w, hi);
}

} // namespace swar

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
    // Memory checkers (valgrind, the sanitizers): a leak, a bad access, an uninitialised read.
    {"definitely lost", Level::critical},
    {"memory leak", Level::critical},
    {"invalid read", Level::critical},
    {"invalid write", Level::critical},
    {"invalid free", Level::critical},
    {"uninitialised", Level::critical},
    {"uninitialized", Level::critical},
    {"use-after-free", Level::critical},
    {"double free", Level::critical},
    {"buffer-overflow", Level::critical},
    {"stack-overflow", Level::critical},
    // Verdicts that name no failure but close a run: a process's exit, a build's configure
    // step, a package manager's summary.
    {"exited with", Level::critical},
    {"build files have been written", Level::critical},
    {"newly installed", Level::critical},
    {"fetched ", Level::critical},
    {"\xe2\x97\x8f ", Level::critical},              // "● "
    {"\xe2\x9c\x95", Level::critical},               // "✕"
    {"\xe2\x9c\x96", Level::critical},               // "✖" (stylelint's, eslint's error mark)
    {"\xe2\x9c\x97", Level::critical},               // "✗"
    {"\xe2\x9c\x98", Level::critical},               // "✘"
    {"\xc3\x97 ", Level::critical, false, true},     // "× " (vitest's failed test)
    {"\xe2\xa8\xaf ", Level::critical, false, true}, // "⨯ " (pytest-sugar's)
    {"\xe2\x9a\xa0", Level::notable},                // "⚠" (a warning mark)
    {"warn", Level::notable},
    {"deprecat", Level::notable},
    {"note:", Level::notable},
    {"summary", Level::notable},
    // A checker's verdict about a file it would change (black's `would reformat PATH`).
    {"would reformat", Level::critical},
    {"would be reformatted", Level::critical},
    // Logs' severity tags for errors, in capitals as words of their own (npm's `npm ERR!`,
    // logrus' `ERRO`, syslog's `CRIT`/`EMERG`, Python's `CRITICAL:`, java.util.logging's
    // `SEVERE:`, zap's `FATL`).
    {"err", Level::critical, true},
    {"erro", Level::critical, true},
    {"crit", Level::critical, true},
    {"critical", Level::critical, true},
    {"emerg", Level::critical, true},
    {"severe", Level::critical, true},
    {"fatl", Level::critical, true},
    // git's `CONFLICT (content): Merge conflict in a.txt`, in capitals as a word of its own.
    {"conflict", Level::critical, true},
    // git status's unmerged paths, each a file whose conflict is still to resolve.
    {"both modified:", Level::critical},
    {"both added:", Level::critical},
    {"both deleted:", Level::critical},
    {"deleted by us:", Level::critical},
    {"deleted by them:", Level::critical},
    {"added by us:", Level::critical},
    {"added by them:", Level::critical},
    {"caused by", Level::critical},
    {"unresolved", Level::critical},
    // Concurrency checkers' findings (helgrind's `Possible data race during read …`, `Lock
    // order "0x… before 0x…" violated`, ThreadSanitizer's and Go's `DATA RACE`).
    {"data race", Level::critical},
    {"deadlock", Level::critical},
    {"violated", Level::critical},
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

namespace {

constexpr std::uint8_t k_pair_starts = 1; // a word starts with the pair
constexpr std::uint8_t k_pair_second = 2; // the pair is a word's second and third byte

// ASCII upper case; the key words are matched case-insensitively in ASCII only.
unsigned char ascii_upper(unsigned char c) {
    return static_cast<unsigned char>(c >= 'a' && c <= 'z' ? c - 32 : c);
}

// The pair of bytes at p as the filter indexes it: p[0] | p[1] << 8.
std::uint32_t pair_at(const unsigned char* p) {
    return static_cast<std::uint32_t>(p[1]) << 8 | p[0];
}

// Where the three bytes at p fall in KeyMatcher's filter of word openings.
std::uint32_t opening_slot(const unsigned char* p) {
    const std::uint32_t t = pair_at(p) | static_cast<std::uint32_t>(p[2]) << 16;
    return (t * 0x9E3779B1u) >> 16;
}

} // namespace

KeyMatcher::KeyMatcher(const std::vector<std::string>& extra)
    : m_pair_flags(65536, 0), m_openings(65536 / 64, 0) {
    for (const auto& w : k_builtin)
        m_words.push_back({std::string(w.text), w.level, true, w.tag, w.lead});
    for (const auto& e : extra) {
        if (e.size() < 2) continue; // a one-letter pattern would keep every line
        std::string lower;
        for (char c : e) lower += static_cast<char>(k_lower[static_cast<unsigned char>(c)]);
        m_words.push_back({lower, Level::critical, false});
    }
    for (const auto& w : m_words)
        if (w.text.size() < 3) m_stride = 1; // a two-byte word may start at any offset

    // Group the words by their two-byte prefix, so a candidate position compares only the
    // words that can start there.
    m_bucket_of.assign(65536, 0);
    m_buckets.push_back({}); // bucket 0: none
    auto add_pair = [this](std::uint8_t flag, unsigned char a, unsigned char b) {
        // Every case variant, so the scan can test raw bytes without lower-casing them.
        for (unsigned char x : {a, ascii_upper(a)})
            for (unsigned char y : {b, ascii_upper(b)})
                m_pair_flags[static_cast<std::uint32_t>(y) << 8 | x] |= flag;
    };
    for (std::size_t i = 0; i < m_words.size(); ++i) {
        const auto* t = reinterpret_cast<const unsigned char*>(m_words[i].text.data());
        const auto p = prefix_of(t[0], t[1]);
        if (!m_bucket_of[p]) {
            m_bucket_of[p] = static_cast<std::uint16_t>(m_buckets.size());
            m_buckets.emplace_back();
        }
        m_buckets[m_bucket_of[p]].push_back(static_cast<std::uint16_t>(i));
        add_pair(k_pair_starts, t[0], t[1]);
        if (m_stride == 2) {
            add_pair(k_pair_second, t[1], t[2]);
            for (unsigned char x : {t[0], ascii_upper(t[0])})
                for (unsigned char y : {t[1], ascii_upper(t[1])})
                    for (unsigned char z : {t[2], ascii_upper(t[2])}) {
                        const unsigned char opening[3] = {x, y, z};
                        const std::uint32_t slot = opening_slot(opening);
                        m_openings[slot / 64] |= 1ull << (slot % 64);
                    }
        }
    }
}

namespace {

bool separates(unsigned char c) {
    switch (c) {
    case ' ':
    case '\t':
    case '"':
    case '\'':
    case '`':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case ',':
    case ';':
    case '<':
    case '>':
    case '|':
    case '\n':
    case '\r':
        return true;
    default:
        return false;
    }
}

bool is_letter(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_alnum(unsigned char c) {
    return is_letter(c) || (c >= '0' && c <= '9');
}

// "No syntax errors detected", "0 errors", "without warnings": a key word that one of the two
// words before it negates names no failure (php -l prints the first for every clean file).
bool negated(const unsigned char* s, std::size_t p) {
    auto is_word = [&](std::size_t b, std::size_t e, std::string_view w) {
        if (e - b != w.size()) return false;
        for (std::size_t i = 0; i < w.size(); ++i)
            if ((s[b + i] | 0x20) != static_cast<unsigned char>(w[i])) return false;
        return true;
    };
    std::size_t q = p;
    for (int k = 0; k < 2; ++k) {
        if (q < 2 || s[q - 1] != ' ') return false;
        const std::size_t e = q - 1;
        std::size_t b = e;
        while (b > 0 && (is_letter(s[b - 1]) || (s[b - 1] >= '0' && s[b - 1] <= '9'))) --b;
        if (b == e) return false;
        if ((e - b == 1 && s[b] == '0') || is_word(b, e, "no") || is_word(b, e, "zero") ||
            is_word(b, e, "without"))
            return true;
        q = b;
    }
    return false;
}

bool only_blanks_before(const unsigned char* s, std::size_t p) {
    for (std::size_t k = 0; k < p; ++k)
        if (s[k] != ' ' && s[k] != '\t') return false;
    return true;
}

bool letters_and_slashes(const unsigned char* s, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (!is_letter(s[i]) && s[i] != '/') return false;
    return n > 0;
}

bool name_bytes(const unsigned char* s, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_') return false;
    return true;
}

bool has_hyphen(const unsigned char* s, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (s[i] == '-') return true;
    return false;
}

} // namespace

// A key word inside a flag, a path or an identifier names no failure (`-Wno-error=x`, `-Werror`,
// `--fail-fast`, `src/error/`, `include/errors.h`, `on_error`, `error_code`): the token around
// it (up to blanks, quotes, brackets and commas) starts with a dash, holds a slash, or joins the
// word to another with an underscore or a hyphen (unless a colon follows, as after an error
// code), or the word (with its trailing letters) is a file's stem. A token longer than k_name_reach
// on either side of the word (a base64 blob, a minified bundle) is a name too, and is not scanned
// further: scanning each hit's whole token made a 4 MB blob quadratic.
bool KeyMatcher::inside_name(const unsigned char* s,
                             std::size_t n,
                             std::size_t p,
                             std::size_t len) {
    constexpr std::size_t k_name_reach = 256;
    std::size_t a = p;
    while (a > 0 && !separates(s[a - 1])) {
        if (p - a == k_name_reach) return true;
        --a;
    }
    std::size_t b = p + len;
    while (b < n && !separates(s[b])) {
        if (b - (p + len) == k_name_reach) return true;
        ++b;
    }
    if (s[a] == '-' && a + 1 < b && (is_letter(s[a + 1]) || s[a + 1] == '-')) return true;
    // A line's first token ending with a colon is a label, not a path or a name, when it is
    // letters and slashes (rspec's `Failure/Error: expect(x).to eq(3)`) or opens with the word
    // (verilator's `%Warning-WIDTH: rtl/a.v:16:19: …`, after an optional `%`).
    if (s[b - 1] == ':' && only_blanks_before(s, a) &&
        (letters_and_slashes(s + a, b - a - 1) ||
         ((p == a || (p == a + 1 && s[a] == '%')) && name_bytes(s + p, b - p - 1))))
        return false;
    for (std::size_t i = a; i < b; ++i)
        if (s[i] == '/') return true;
    std::size_t e = p + len;
    while (e < b && is_letter(s[e])) ++e;
    if (e < b && s[e] == ':') return false; // a label: `quota_exceeded: …`, `E_FAIL:`
    if (p > a && s[p - 1] == '_') return true;
    if (e < b && s[e] == '_') return true;
    // A hyphen joining the word to another names a package or a rule (`http-errors@2.0.0`,
    // `libgpg-error0`, `error-prone`); words that hold a hyphen themselves (`use-after-free`,
    // as in `heap-use-after-free`) are compound terms and stay.
    if (!has_hyphen(s + p, len)) {
        if (p > a + 1 && s[p - 1] == '-' && is_alnum(s[p - 2])) return true;
        if (e + 1 < b && s[e] == '-' && is_alnum(s[e + 1])) return true;
    }
    return e + 1 < b && s[e] == '.' && is_letter(s[e + 1]);
}

bool KeyMatcher::tag_at(const unsigned char* s, std::size_t n, std::size_t p, std::size_t len) {
    const auto word_byte = [](unsigned char c) { return is_alnum(c) || c == '_'; };
    if ((p > 0 && word_byte(s[p - 1])) || (p + len < n && word_byte(s[p + len]))) return false;
    for (std::size_t k = p; k < p + len; ++k)
        if (s[k] >= 'a' && s[k] <= 'z') return false;
    return true;
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
        if (!match) continue;
        if (w.lead) {
            if (only_blanks_before(s, p)) best = w.level;
        } else if (w.tag ? tag_at(s, n, p, w.text.size())
                         : !(w.builtin && (inside_name(s, n, p, w.text.size()) || negated(s, p)))) {
            best = w.level;
        }
    }
    return best;
}

bool KeyMatcher::may_open(const unsigned char* p) const {
    const std::uint32_t slot = opening_slot(p);
    return (m_openings[slot / 64] >> (slot % 64)) & 1;
}

Level KeyMatcher::match_pair(
    const unsigned char* s, std::size_t n, std::size_t q, std::uint8_t flags, Level best) const {
    // Words are 3+ bytes here: one starting at q - 1 or q must open with the three bytes there.
    if ((flags & k_pair_second) && q > 0 && may_open(s + q - 1)) best = match_at(s, n, q - 1, best);
    if ((flags & k_pair_starts) && q + 2 < n && may_open(s + q)) best = match_at(s, n, q, best);
    return best;
}

Level KeyMatcher::level(std::string_view line) const {
    // The hot loop of the whole rewrite: one table test per m_stride bytes, words compared only
    // where a pair hits (and, at stride 2, the three bytes there may open a word).
    Level best = Level::none;
    const auto* s = reinterpret_cast<const unsigned char*>(line.data());
    const std::size_t n = line.size();
    const std::uint8_t* flags = m_pair_flags.data();
    if (m_stride == 1) {
        for (std::size_t q = 0; q + 1 < n; ++q) {
            if (!(flags[pair_at(s + q)] & k_pair_starts)) continue;
            best = match_at(s, n, q, best);
            if (best == Level::critical) return best;
        }
        return best;
    }
    // Eight bytes a step: the four pairs at even offsets are looked up together, and most steps
    // end there.
    std::size_t q = 0;
    for (; q + 8 <= n; q += 8) {
        const std::uint64_t w = swar::load(s + q);
        std::uint32_t hits = static_cast<std::uint32_t>(flags[w & 0xFFFF]) |
                             static_cast<std::uint32_t>(flags[(w >> 16) & 0xFFFF]) << 8 |
                             static_cast<std::uint32_t>(flags[(w >> 32) & 0xFFFF]) << 16 |
                             static_cast<std::uint32_t>(flags[w >> 48]) << 24;
        if (!hits) continue;
        for (std::size_t p = q; hits; p += 2, hits >>= 8)
            if (hits & 0xFF) best = match_pair(s, n, p, static_cast<std::uint8_t>(hits), best);
        if (best == Level::critical) return best;
    }
    for (; q + 1 < n; q += 2) {
        const std::uint8_t f = flags[pair_at(s + q)];
        if (!f) continue;
        best = match_pair(s, n, q, f, best);
        if (best == Level::critical) return best;
    }
    return best;
}

std::size_t KeyMatcher::find(std::string_view text, Level at_least) const {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t q = 0; q + 1 < n; q += m_stride) {
        const std::uint8_t f = m_pair_flags[pair_at(s + q)];
        if (!f) continue;
        if ((f & k_pair_second) && q > 0 && match_at(s, n, q - 1, Level::none) >= at_least)
            return q - 1;
        if ((f & k_pair_starts) && match_at(s, n, q, Level::none) >= at_least) return q;
    }
    return std::string_view::npos;
}

namespace {

bool is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
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

// A superset of the bytes the signature treats specially (spaces, tabs, digits, separators):
// control bytes and ' ' (up to 0x20), '/' and digits (0x2F-0x39), '\'. A false alarm only
// sends one byte down the exact path.
std::uint64_t maybe_special(std::uint64_t w) {
    return swar::at_most(w, 0x20) | swar::in_range(w, '/', '9') | swar::equal(w, '\\');
}

// First position >= i holding a space or tab, or n. Bytes up to 0x20 are the candidates.
std::size_t skip_to_space(const unsigned char* s, std::size_t i, std::size_t n) {
    while (i < n) {
        if (i + 8 <= n) {
            const std::uint64_t m = swar::at_most(swar::load(s + i), 0x20);
            if (!m) {
                i += 8;
                continue;
            }
            i += swar::first(m);
        }
        if (k_class[s[i]] & k_space) return i;
        ++i;
    }
    return n;
}

// Only the first bytes of a line decide its shape: long lines are rarely alike, and a cap keeps
// the buffer on the stack.
constexpr std::size_t k_signature_span = 512;

// A 64-bit hash for in-process filters: eight bytes a step, each step multiplied in, then
// murmur's finalizer so similar inputs spread apart. The eight bytes after the input must be
// readable and zero: a last partial word is read whole.
std::uint64_t hash_padded(const char* p, std::size_t n) {
    constexpr std::uint64_t k_mul = 0x9e3779b97f4a7c15ull;
    std::uint64_t h = n * k_mul;
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * k_mul;
        h ^= h >> 29;
    }
    if (n > 0) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * k_mul;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

// Writes the normalised line (the signature's input) to norm, which has room for
// k_signature_span bytes, and returns its length. A token holding a separator is a path: what
// was written of it is rewound and one placeholder stands for it. A run of hex characters
// (0-9, a-f, A-F) holding a digit is written with each digit run as one '0', or as a single '0'
// when it is an id: 7+ long. Runs of hex letters alone are copied like any other byte, so plain
// bytes are copied eight at a time up to the next byte that may be special; a digit then steps
// back over the hex letters copied just before it, which start its run.
//
// With `first_token`, stops before the space run that ends the first token (after any leading
// run): what is written up to there is final, as later tokens never rewind into earlier ones.
std::size_t normalize(std::string_view line, char* norm, bool first_token) {
    const auto* s = reinterpret_cast<const unsigned char*>(line.data());
    const std::size_t n = line.size();
    std::size_t out = 0;       // never more than i: each byte writes at most one
    std::size_t token_out = 0; // where the current token starts in norm
    std::size_t i = 0;
    while (i < n) {
        if (i + 8 <= n) {
            std::memcpy(norm + out, s + i, 8); // out + 8 <= i + 8 <= n: inside norm
            const std::uint64_t m = maybe_special(swar::load(s + i));
            if (!m) {
                i += 8, out += 8;
                continue;
            }
            const unsigned plain = swar::first(m);
            i += plain, out += plain;
        }
        const unsigned char k = k_class[s[i]];
        if (!(k & (k_space | k_sep | k_digit))) {
            norm[out++] = static_cast<char>(s[i++]);
        } else if (k & k_digit) {
            std::size_t run_in = i;
            while (run_in > 0 && k_class[s[run_in - 1]] == k_hex) --run_in;
            const std::size_t run_out = out - (i - run_in); // its letters were copied as they were
            out = run_out;
            i = run_in;
            while (i < n) {
                const unsigned char c = k_class[s[i]];
                if (c & k_digit) {
                    norm[out++] = '0';
                    do ++i;
                    while (i < n && (k_class[s[i]] & k_digit));
                } else if (c == k_hex) {
                    norm[out++] = static_cast<char>(s[i++]);
                } else {
                    break;
                }
            }
            if (i - run_in >= 7) { // an id (the run holds a digit)
                out = run_out;
                norm[out++] = '0';
            }
        } else if (k & k_space) {
            if (first_token && out > 0) return out;
            do ++i;
            while (i < n && (k_class[s[i]] & k_space));
            norm[out++] = ' ';
            token_out = out;
        } else { // a separator
            out = token_out;
            norm[out++] = 'P';
            i = skip_to_space(s, i, n);
        }
    }
    return out;
}

std::uint64_t hash_normalized(std::string_view raw, bool first_token) {
    const std::string_view line = strip_ending(raw).substr(0, k_signature_span);
    char norm[k_signature_span + 8]; // room for the hash's zero padding
    const std::size_t n = normalize(line, norm, first_token);
    std::memset(norm + n, 0, 8);
    return hash_padded(norm, n);
}

} // namespace

std::uint64_t shape_signature(std::string_view line) {
    return hash_normalized(line, false);
}

std::uint64_t shape_head(std::string_view line) {
    return hash_normalized(line, true);
}

std::uint64_t content_hash(std::string_view line) {
    return std::hash<std::string_view>{}(line);
}

bool is_blank(std::string_view line) {
    for (char c : line)
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
    return true;
}

// The prefix of a memory checker's report lines: `==1234== `, `--1234-- `, `**1234** ` (ASan
// writes `==1234==ERROR:` with no blank).
std::size_t content_start(std::string_view l) {
    if (l.size() < 5) return 0;
    const char c = l[0];
    if ((c != '=' && c != '-' && c != '*') || l[1] != c ||
        !is_digit(static_cast<unsigned char>(l[2])))
        return 0;
    std::size_t i = 2;
    while (i < l.size() && is_digit(static_cast<unsigned char>(l[i]))) ++i;
    if (i + 1 >= l.size() || l[i] != c || l[i + 1] != c) return 0;
    i += 2;
    return i < l.size() && l[i] == ' ' ? i + 1 : i;
}

bool is_continuation(std::string_view line) {
    line.remove_prefix(content_start(line));
    if (line.empty() || is_blank(line)) return false;
    const char c = line[0];
    if (c == ' ' || c == '\t' || c == '|' || c == '^' || c == '~' || c == '>' || c == '=')
        return true;
    if (line.size() >= 2 && c == 'E' && line[1] == ' ') return true;
    return is_file_place(line);
}

} // namespace sutra::core
