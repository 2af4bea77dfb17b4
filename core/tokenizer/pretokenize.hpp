#pragma once
// Splitting text into pre-tokens with the encoding's regular expression, as tiktoken does
// before byte-pair encoding. PCRE2 stays inside pretokenize.cpp; this header only names it.

#include "core/tokenizer/tokenizer.hpp"

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

struct pcre2_real_code_8;
struct pcre2_real_match_data_8;

namespace sutra::core::tokenizer {

/// One encoding's compiled pre-tokenizer pattern. Immutable after create(), so one instance
/// serves every thread; each thread iterates with its own PieceCursor.
class Pretokenizer {
public:
    /// Compiles the encoding's pattern (UTF, UCP, JIT when the platform has it). Errors carry
    /// PCRE2's message.
    static std::expected<Pretokenizer, std::string> create(Encoding encoding);

    Pretokenizer(Pretokenizer&& other) noexcept;
    Pretokenizer& operator=(Pretokenizer&&) = delete;
    Pretokenizer(const Pretokenizer&) = delete;
    ~Pretokenizer();

    /// The pattern as given to PCRE2 (tiktoken's, with the White_Space rewrite).
    static std::string pattern(Encoding encoding);

private:
    friend class PieceCursor;
    Pretokenizer(Encoding encoding, pcre2_real_code_8* code, bool jit)
        : m_encoding(encoding), m_code(code), m_jit(jit) {}

    Encoding m_encoding;
    pcre2_real_code_8* m_code;
    bool m_jit;
};

/// Walks the pre-tokens of one text. The text must be valid UTF-8 (see
/// sanitize_utf8); the pattern is matched without PCRE2's per-call validity check, which would
/// otherwise rescan the rest of the text at every piece. Pieces starting in ASCII text are
/// found by ascii_split.cpp unless `ascii_fast_path` is false (tests compare the two).
class PieceCursor {
public:
    PieceCursor(const Pretokenizer& pretokenizer,
                std::string_view text,
                bool ascii_fast_path = true);
    PieceCursor(const PieceCursor&) = delete;
    PieceCursor& operator=(const PieceCursor&) = delete;
    ~PieceCursor();

    /// The next pre-token, or nullopt at the end. Pieces are contiguous and cover the text.
    std::optional<std::string_view> next();

private:
    const Pretokenizer& m_pretokenizer;
    std::string_view m_text;
    std::size_t m_pos = 0;
    bool m_fast;
    pcre2_real_match_data_8* m_match = nullptr; // created on the first non-ASCII piece
};

/// Returns `text` itself when it is valid UTF-8. Otherwise writes into `storage` a copy with
/// each maximal ill-formed subsequence replaced by U+FFFD (the WHATWG / Unicode "maximal
/// subpart" rule, as Node's and Python's decoders do) and returns a view of it.
std::string_view sanitize_utf8(std::string_view text, std::string& storage);

} // namespace sutra::core::tokenizer
