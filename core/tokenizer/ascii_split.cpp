// The pre-tokenizer's patterns, evaluated by hand for ASCII.
//
// Profiling a 10 MB log showed PCRE2's JIT matcher at two thirds of the counting time, almost
// all of it on plain ASCII, where the patterns reduce to a few character classes:
//   letter = [A-Za-z] (upper [A-Z], lower [a-z]; ASCII has no Lt, Lm, Lo or M)
//   digit  = [0-9]
//   space  = [\t\n\v\f\r ] (White_Space)
//   other  = everything else, control characters included
// This file decides each alternative of tiktoken's patterns in their order, with the result
// PCRE2's backtracking would reach (worked out per alternative below). Whenever that result
// depends on a byte >= 0x80, which might be a letter, a digit, a space (U+00A0, U+3000) or
// a case variant (U+017F folds to 's' in the contractions), it gives up and returns 0; the
// caller then runs PCRE2 from the same position, so mixed text stays exact. The test
// TokenizerAsciiSplit.MatchesPcre2 compares the two on random text.

#include "core/tokenizer/ascii_split.hpp"

#include <array>
#include <cstdint>

namespace sutra::core::tokenizer {
namespace {

enum : std::uint8_t {
    k_upper = 1,
    k_lower = 2,
    k_digit = 4,
    k_space = 8,
    k_newline = 16, // \r or \n
    k_high = 32,    // not ASCII: unknown here
};

constexpr std::array<std::uint8_t, 256> make_classes() {
    std::array<std::uint8_t, 256> c{};
    for (int b = 'A'; b <= 'Z'; ++b) c[static_cast<std::size_t>(b)] = k_upper;
    for (int b = 'a'; b <= 'z'; ++b) c[static_cast<std::size_t>(b)] = k_lower;
    for (int b = '0'; b <= '9'; ++b) c[static_cast<std::size_t>(b)] = k_digit;
    for (int b = 9; b <= 13; ++b) c[static_cast<std::size_t>(b)] = k_space;
    c[' '] = k_space;
    c['\r'] |= k_newline;
    c['\n'] |= k_newline;
    for (std::size_t b = 0x80; b < 256; ++b) c[b] = k_high;
    return c;
}
constexpr std::array<std::uint8_t, 256> k_classes = make_classes();
constexpr std::uint8_t k_letter = k_upper | k_lower;
constexpr std::uint8_t k_word = k_letter | k_digit;

// Reads classes with an end sentinel: past the end is "no class", which ends every run.
struct Scanner {
    const unsigned char* s;
    std::size_t n;
    bool gave_up = false;

    std::uint8_t at(std::size_t i) {
        if (i >= n) return 0;
        const std::uint8_t c = k_classes[s[i]];
        if (c & k_high) gave_up = true;
        return c;
    }
    // [^\r\n\p{L}\p{N}]: anything but a newline, letter or digit (so spaces and tabs too).
    bool prefix_char(std::size_t i) {
        const std::uint8_t c = at(i);
        return i < n && !(c & (k_newline | k_word | k_high));
    }
    // [^\s\p{L}\p{N}]
    bool other_char(std::size_t i) {
        const std::uint8_t c = at(i);
        return i < n && !(c & (k_space | k_word | k_high));
    }
    char lower(std::size_t i) {
        const std::uint8_t c = at(i);
        if (i >= n || (c & k_high)) return '\0';
        return static_cast<char>(s[i] | ((c & k_upper) ? 0x20 : 0));
    }
    // (?i:'s|'t|'re|'ve|'m|'ll|'d) at i: its end, or i when it does not match.
    std::size_t contraction(std::size_t i) {
        if (i >= n || s[i] != '\'') return i;
        const char c1 = lower(i + 1);
        if (c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd') return i + 2;
        if (c1 == 'r' || c1 == 'v' || c1 == 'l') {
            const char c2 = lower(i + 2);
            if ((c1 == 'r' && c2 == 'e') || (c1 == 'v' && c2 == 'e') || (c1 == 'l' && c2 == 'l'))
                return i + 3;
        }
        return i;
    }
    std::size_t skip(std::size_t i, std::uint8_t classes) {
        while (at(i) & classes) ++i;
        return i;
    }
    // \p{N}{1,3} at a digit.
    std::size_t digits(std::size_t p) {
        std::size_t i = p + 1;
        while (i < p + 3 && (at(i) & k_digit)) ++i;
        return i;
    }
    // ` ?[^\s\p{L}\p{N}]+` then `[\r\n/]*` (o200k) or `[\r\n]*` (cl100k); p when it fails.
    // The optional space is tried first; without it a space is not `other`, so it fails.
    std::size_t punctuation(std::size_t p, bool slash) {
        std::size_t i = s[p] == ' ' ? p + 1 : p;
        if (!other_char(i)) return p;
        while (other_char(i)) ++i;
        while (i < n && (s[i] == '\r' || s[i] == '\n' || (slash && s[i] == '/'))) ++i;
        return i;
    }
    // The three whitespace alternatives at a space character:
    //   \s*[\r\n]+  backtracks \s* to the last newline of the run and ends after it;
    //   \s+(?!\S)   takes the whole run at the end of text, else all of it but the last
    //               character (which must then be followed by a non-space), if that
    //               leaves at least one;
    //   \s+         the run, now a single space before a non-space.
    std::size_t whitespace(std::size_t p) {
        std::size_t i = p;
        std::size_t last_newline = 0;
        bool newline = false;
        while (at(i) & k_space) {
            if (s[i] == '\r' || s[i] == '\n') {
                newline = true;
                last_newline = i;
            }
            ++i;
        }
        if (newline) return last_newline + 1;
        if (i >= n) return i;
        return i - p >= 2 ? i - 1 : i;
    }
};

// o200k_base:
//   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|...)?
//   |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|...)?
//   |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
std::size_t o200k_end(Scanner& sc, std::size_t p) {
    // The letter alternatives. With the prefix character or without, the letters start at
    // q (a character that may be a prefix is never a letter, so "without" cannot succeed
    // where "with" failed). In ASCII the first needs uppers then at least one lower; giving
    // uppers back never helps it, as they are not lowers. Failing that, the second needs at
    // least one upper, and no lower follows.
    const std::size_t q = sc.prefix_char(p) ? p + 1 : p;
    const std::size_t uppers_end = sc.skip(q, k_upper);
    const std::size_t lowers_end = sc.skip(uppers_end, k_lower);
    if (lowers_end > q) return sc.contraction(lowers_end);
    if (sc.at(p) & k_digit) return sc.digits(p);
    if (const std::size_t end = sc.punctuation(p, true); end > p) return end;
    return sc.whitespace(p);
}

// cl100k_base:
//   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
//   | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
std::size_t cl100k_end(Scanner& sc, std::size_t p) {
    if (const std::size_t end = sc.contraction(p); end > p) return end;
    const std::size_t q = sc.prefix_char(p) ? p + 1 : p;
    if (const std::size_t end = sc.skip(q, k_letter); end > q) return end;
    if (sc.at(p) & k_digit) return sc.digits(p);
    if (const std::size_t end = sc.punctuation(p, false); end > p) return end;
    return sc.whitespace(p);
}

} // namespace

std::size_t ascii_piece_end(Encoding encoding, std::string_view text, std::size_t pos) {
    Scanner sc{reinterpret_cast<const unsigned char*>(text.data()), text.size()};
    if (sc.at(pos) & k_high) return 0;
    const std::size_t end = encoding == Encoding::o200k ? o200k_end(sc, pos) : cl100k_end(sc, pos);
    return sc.gave_up || end <= pos ? 0 : end;
}

} // namespace sutra::core::tokenizer
