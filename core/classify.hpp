#pragma once
// Line classification: which lines carry signal (errors, failures, warnings, verdicts), which
// continue a diagnostic (carets, indented frames, location lines), and a shape signature under
// which lines that differ only in numbers, hashes or paths compare equal.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

/// How much a line matters. `critical` lines are always kept; `notable` ones while the budget
/// allows.
enum class Level : std::uint8_t { none = 0, notable = 2, critical = 3 };

/// A built-in key word (lower case) and the level a line holding it gets.
struct KeyWord {
    std::string_view text;
    Level level;
};

/// The built-in key words, the list `sutra config` and docs/contract.md describe.
std::span<const KeyWord> builtin_key_words();

/// Matches key words case-insensitively. Built once per configuration.
class KeyMatcher {
public:
    /// The built-in words plus `extra` (case-insensitive literals, treated as critical).
    explicit KeyMatcher(const std::vector<std::string>& extra = {});

    Level level(std::string_view line) const;

    /// Offset of the first key word of at least `at_least` in `text`, or npos. For text that is
    /// not split into lines, such as a JSON string.
    std::size_t find(std::string_view text, Level at_least) const;

private:
    struct Word {
        std::string text; ///< lower-case
        Level level;
    };
    /// The words starting at line[p] (p + 1 < line.size()) that can beat `best`, best first.
    Level match_at(const unsigned char* s, std::size_t n, std::size_t p, Level best) const;

    std::vector<Word> m_words;
    /// Bit set over raw byte pairs (every case variant) that can occur at the start of a word
    /// or, when m_stride is 2, one byte into it: the filter the scan tests at every m_stride-th
    /// position. A word of 3+ bytes always puts one of those two pairs at an even offset.
    std::vector<std::uint64_t> m_pairs;
    /// The part of m_pairs from words' first two bytes, and from their second and third: a hit
    /// tells which start (the pair's own position, or the byte before) is worth comparing.
    std::vector<std::uint64_t> m_first_pairs;
    std::vector<std::uint64_t> m_second_pairs;
    std::size_t m_stride = 2;
    /// Lower-cased two-byte prefix -> bucket of word indices (0: no bucket).
    std::vector<std::uint16_t> m_bucket_of;
    std::vector<std::vector<std::uint16_t>> m_buckets;
};

/// Hash of the line's shape (a filter within one process, never stored or shown): runs of digits,
/// hex ids of 7+ characters, and tokens holding a path separator each stand for one placeholder;
/// runs of spaces count once.
std::uint64_t shape_signature(std::string_view line);

/// Hash of the line's content, a quick filter before comparing lines (not stable across
/// builds: never stored or shown).
std::uint64_t content_hash(std::string_view line);

/// Lines that continue a diagnostic above them: indented, or starting with a caret, pipe,
/// tilde, `>`, `=`, or pytest's `E `; or a location line.
bool is_continuation(std::string_view line);

/// `path/file.ext:12`, `file.ext:12:5`, `(File.java:12)`, `File "x.py", line 12`, `--> a.rs:1:2`.
bool is_location(std::string_view line);

/// Blank or whitespace-only.
bool is_blank(std::string_view line);

} // namespace sutra::core
