// The pre-tokenizer: tiktoken's split patterns run by PCRE2.
//
// tiktoken cuts text into pieces with one regular expression per encoding, then encodes each
// piece on its own (bpe.cpp), so the pieces must match tiktoken's exactly. The patterns need
// Unicode properties (\p{Lu}, \p{N}, ...) and a lookahead, which rules out std::regex; PCRE2
// with UTF + UCP matches them, with one fix: under UCP, PCRE2's \s also matches U+180E
// (MONGOLIAN VOWEL SEPARATOR), while tiktoken's Rust regex means Unicode White_Space. So \s
// and \S are rewritten to \p{White_Space} and \P{White_Space} (stack.md §5.3; the vector
// " \u180e겮" in tests/data/token_vectors.json catches a regression).
//
// The one known difference left: PCRE2 10.42 has Unicode 14 property tables, so letters
// added in Unicode 15 and later are not \p{L} here and split differently (docs/tokens.md).
//
// Every code point matches some alternative of both patterns (letters, numbers, whitespace,
// and "anything else" each have one), so the matches of tiktoken's find_iter are contiguous.
// That is why the pattern is compiled anchored: each match starts where the last one ended,
// and the matcher never scans ahead. It also lets a piece be found by other means: pieces
// that start in ASCII text come from ascii_split.cpp, which is several times faster and
// defers to PCRE2 whenever a non-ASCII character could change the answer.

#include "core/tokenizer/pretokenize.hpp"

#include "core/tokenizer/ascii_split.hpp"

#include <cstdint>
#include <cstring>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace sutra::core::tokenizer {
namespace {

// The `pat_str` of tiktoken 1.0.22's encoders/{o200k,cl100k}_base.json, unchanged.
constexpr std::string_view k_o200k_pattern =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr std::string_view k_cl100k_pattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3})"
    R"(| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// \s -> \p{White_Space}, \S -> \P{White_Space}; other escapes are copied as they are.
std::string rewrite_whitespace(std::string_view pattern) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '\\' && i + 1 < pattern.size()) {
            const char c = pattern[++i];
            if (c == 's') {
                out += "\\p{White_Space}";
            } else if (c == 'S') {
                out += "\\P{White_Space}";
            } else {
                out += '\\';
                out += c;
            }
        } else {
            out += pattern[i];
        }
    }
    return out;
}

// The length of the well-formed UTF-8 sequence at s[0..n), or 0 if it is not one.
// Lead-byte ranges per Unicode Table 3-7 (no overlongs, surrogates or values past U+10FFFF).
std::size_t valid_sequence(const unsigned char* s, std::size_t n, std::size_t* valid_prefix) {
    const unsigned char b = s[0];
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xbf;
    if (b < 0x80) return 1;
    if (b >= 0xc2 && b <= 0xdf) {
        len = 2;
    } else if (b >= 0xe0 && b <= 0xef) {
        len = 3;
        if (b == 0xe0) lo = 0xa0;
        if (b == 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
        len = 4;
        if (b == 0xf0) lo = 0x90;
        if (b == 0xf4) hi = 0x8f;
    } else {
        *valid_prefix = 1;
        return 0;
    }
    std::size_t i = 1;
    for (; i < len && i < n; ++i) {
        const unsigned char c = s[i];
        const unsigned char min = i == 1 ? lo : 0x80;
        const unsigned char max = i == 1 ? hi : 0xbf;
        if (c < min || c > max) break;
    }
    if (i == len) return len;
    *valid_prefix = i; // the lead byte and the continuation bytes that fit: one U+FFFD
    return 0;
}

} // namespace

std::string Pretokenizer::pattern(Encoding encoding) {
    return rewrite_whitespace(encoding == Encoding::o200k ? k_o200k_pattern : k_cl100k_pattern);
}

std::expected<Pretokenizer, std::string> Pretokenizer::create(Encoding encoding) {
    const std::string pat = pattern(encoding);
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* code =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pat.data()), pat.size(),
                      PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED, &error, &offset, nullptr);
    if (code == nullptr) {
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(error, message, sizeof message);
        return std::unexpected(
            "pre-tokenizer pattern: " + std::string(reinterpret_cast<const char*>(message)) +
            " at offset " + std::to_string(offset));
    }
    // Without JIT (an unsupported CPU) the interpreter gives the same matches, only slower.
    const bool jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    return Pretokenizer(encoding, code, jit);
}

Pretokenizer::Pretokenizer(Pretokenizer&& other) noexcept
    : m_encoding(other.m_encoding), m_code(other.m_code), m_jit(other.m_jit) {
    other.m_code = nullptr;
}

Pretokenizer::~Pretokenizer() {
    pcre2_code_free(m_code);
}

PieceCursor::PieceCursor(const Pretokenizer& pretokenizer,
                         std::string_view text,
                         bool ascii_fast_path)
    : m_pretokenizer(pretokenizer), m_text(text), m_fast(ascii_fast_path) {}

PieceCursor::~PieceCursor() {
    pcre2_match_data_free(m_match);
}

std::optional<std::string_view> PieceCursor::next() {
    if (m_pos >= m_text.size()) return std::nullopt;
    if (m_fast) {
        if (const std::size_t end = ascii_piece_end(m_pretokenizer.m_encoding, m_text, m_pos)) {
            const std::string_view piece = m_text.substr(m_pos, end - m_pos);
            m_pos = end;
            return piece;
        }
    }
    if (m_match == nullptr)
        m_match = pcre2_match_data_create_from_pattern(m_pretokenizer.m_code, nullptr);
    const auto subject = reinterpret_cast<PCRE2_SPTR>(m_text.data());
    int rc = PCRE2_ERROR_NOMATCH;
    if (m_match != nullptr) {
        rc = m_pretokenizer.m_jit ? pcre2_jit_match(m_pretokenizer.m_code, subject, m_text.size(),
                                                    m_pos, 0, m_match, nullptr)
                                  : -1;
        // The interpreter also serves when JIT is missing or ran out of its stack.
        if (rc < 0 && (!m_pretokenizer.m_jit || rc == PCRE2_ERROR_JIT_STACKLIMIT))
            rc = pcre2_match(m_pretokenizer.m_code, subject, m_text.size(), m_pos,
                             PCRE2_NO_UTF_CHECK, m_match, nullptr);
    }
    std::size_t end = m_pos;
    if (rc > 0) end = pcre2_get_ovector_pointer(m_match)[1];
    if (end <= m_pos) {
        // Unreachable for valid UTF-8 (see the top of this file), but a resource error must
        // not loop or drop text: take one code point as its own piece.
        end = m_pos + 1;
        while (end < m_text.size() && (static_cast<unsigned char>(m_text[end]) & 0xc0) == 0x80)
            ++end;
    }
    const std::string_view piece = m_text.substr(m_pos, end - m_pos);
    m_pos = end;
    return piece;
}

std::string_view sanitize_utf8(std::string_view text, std::string& storage) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    bool copying = false;
    while (i < n) {
        if (!copying) {
            // Valid so far, so nothing is copied yet: skip ASCII eight bytes at a time.
            while (i + 8 <= n) {
                std::uint64_t word;
                std::memcpy(&word, s + i, 8);
                if (word & 0x8080808080808080ull) break;
                i += 8;
            }
            if (i >= n) break;
        }
        if (s[i] < 0x80) {
            if (copying) storage.push_back(static_cast<char>(s[i]));
            ++i;
            continue;
        }
        std::size_t bad = 0;
        const std::size_t len = valid_sequence(s + i, n - i, &bad);
        if (len > 0) {
            if (copying) storage.append(text.substr(i, len));
            i += len;
            continue;
        }
        if (!copying) {
            storage.assign(text.substr(0, i));
            storage.reserve(n + 16);
            copying = true;
        }
        storage += "\xef\xbf\xbd";
        i += bad;
    }
    return copying ? std::string_view(storage) : text;
}

} // namespace sutra::core::tokenizer
