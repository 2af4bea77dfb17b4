#pragma once
// Line classification: which lines carry signal (errors, failures, warnings, verdicts), which
// continue a diagnostic (carets, indented frames, location lines), and a shape signature under
// which lines that differ only in numbers, hashes or paths compare equal.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

/// How much a line matters. `critical` lines are always kept; `notable` ones while the budget
/// allows.
enum class Level : std::uint8_t { none = 0, notable = 2, critical = 3 };

/// Matches key words case-insensitively. Built once per configuration.
class KeyMatcher {
public:
    /// The built-in words plus `extra` (case-insensitive literals, treated as critical).
    explicit KeyMatcher(const std::vector<std::string>& extra = {});

    Level level(std::string_view line) const;

private:
    struct Word {
        std::string text; ///< lower-case
        Level level;
    };
    std::vector<Word> m_words;
    /// Bit set over lower-cased two-byte prefixes: a quick filter before comparing words.
    std::vector<std::uint64_t> m_prefix;
    /// Prefix -> bucket of word indices (0: no bucket).
    std::vector<std::uint16_t> m_bucket_of;
    std::vector<std::vector<std::uint16_t>> m_buckets;
};

/// Hash of the line's shape (a filter within one process, never stored or shown): runs of digits, hex ids of 7+ characters, and tokens holding a
/// path separator each stand for one placeholder; runs of spaces count once.
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
