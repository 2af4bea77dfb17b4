#pragma once
// Line classification: which lines carry signal (errors, failures, warnings, verdicts), which
// continue a diagnostic (carets, indented frames, location lines), and a shape signature under
// which lines that differ only in numbers, hashes or paths compare equal.

#include "core/rewrite/places.hpp"

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
    /// A log's severity tag (`npm ERR!`, `CRIT`, `SEVERE:`): it counts only in capitals and as a
    /// word of its own, so `err` in `stderr`, `ERR_CODE` or `Err(e)` is no tag.
    bool tag = false;
    /// A run's mark for a failed test (vitest's `×`): it counts only as a line's first mark,
    /// after its blanks, so `3 × 4` in a message is no failure.
    bool lead = false;
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
        bool builtin = true; ///< built-in words do not count inside a flag, path or identifier
        bool tag = false;    ///< in capitals, as a word of its own (KeyWord::tag)
        bool lead = false;   ///< a line's first mark only (KeyWord::lead)
    };
    /// Whether the tag of `len` bytes at p is written in capitals and stands as a word.
    static bool tag_at(const unsigned char* s, std::size_t n, std::size_t p, std::size_t len);
    /// The words starting at line[p] (p + 1 < line.size()) that can beat `best`, best first.
    Level match_at(const unsigned char* s, std::size_t n, std::size_t p, Level best) const;
    /// Stride 2: the words starting at q, or at q - 1, that the flags of the pair at q allow.
    Level match_pair(
        const unsigned char* s, std::size_t n, std::size_t q, std::uint8_t flags, Level best) const;
    /// Whether the word of `len` bytes at p sits inside a flag, a path or an identifier.
    static bool inside_name(const unsigned char* s, std::size_t n, std::size_t p, std::size_t len);
    /// Whether the three bytes at p may open a word (stride 2 only).
    bool may_open(const unsigned char* p) const;

    std::vector<Word> m_words;
    /// Per raw byte pair (first byte low), every case variant: whether a word starts with it,
    /// and, when m_stride is 2, whether it is a word's second and third byte. The scan tests the
    /// pair at every m_stride-th position: a word of 3+ bytes always puts one of those two
    /// pairs at an even offset.
    std::vector<std::uint8_t> m_pair_flags;
    /// When m_stride is 2: a hashed bit set of the words' first three bytes (every case
    /// variant), which a pair hit must pass before words are compared.
    std::vector<std::uint64_t> m_openings;
    std::size_t m_stride = 2;
    /// Lower-cased two-byte prefix -> bucket of word indices (0: no bucket).
    std::vector<std::uint16_t> m_bucket_of;
    std::vector<std::vector<std::uint16_t>> m_buckets;
};

/// Hash of the line's shape (a filter within one process, never stored or shown): runs of digits,
/// hex ids of 7+ characters, and tokens holding a path separator each stand for one placeholder;
/// runs of spaces count once.
std::uint64_t shape_signature(std::string_view line);

/// Hash of the shape of the line's first token (with any space before it): lines with equal
/// shape signatures have equal heads, so unequal heads tell shapes apart for a fraction of the
/// cost. Also a filter within one process only.
std::uint64_t shape_head(std::string_view line);

/// Hash of the line's content, a quick filter before comparing lines (not stable across
/// builds: never stored or shown).
std::uint64_t content_hash(std::string_view line);

/// Where a line's own text starts: past a memory checker's `==PID== ` (or `--PID-- `, `**PID** `)
/// prefix, which every line of its report carries.
std::size_t content_start(std::string_view line);

/// Lines that continue a diagnostic above them: indented, or starting with a caret, pipe,
/// tilde, `>`, `=`, or pytest's `E `; or a location line. A memory checker's prefix is not part
/// of the line's own text: its report's separator (`==PID== ` alone) ends a block.
bool is_continuation(std::string_view line);

/// Blank or whitespace-only.
bool is_blank(std::string_view line);

} // namespace sutra::core
