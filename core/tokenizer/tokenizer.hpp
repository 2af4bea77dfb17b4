#pragma once
// Exact token counts for OpenAI's o200k_base and cl100k_base encodings: the same numbers
// tiktoken gives for `encode(text, allowed_special=[], disallowed_special=[])`, i.e. special
// tokens such as <|endoftext|> count as the plain text they are. docs/tokens.md has the
// method, the data's provenance and the one known limit (Unicode 15+ letters).

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core::tokenizer {

enum class Encoding { o200k, cl100k };

/// "o200k_base" or "cl100k_base".
std::string_view encoding_name(Encoding encoding);

/// Accepts "o200k", "o200k_base", "cl100k" and "cl100k_base"; nullopt for anything else.
std::optional<Encoding> parse_encoding(std::string_view name);

/// False when this build was configured without the rank files (the npm registry could not
/// be reached, or SUTRA_TOKENIZER_DATA=OFF). Every call below then returns an error.
bool has_rank_data();

/// Loads an encoding now. The data is `<name>.sutratok` (the table image the build compiles,
/// memory-mapped) or else `<name>.tiktoken` (parsed), from $SUTRA_TOKEN_DATA when that is set,
/// else from share/sutra/ beside or above the executable's folder. Each encoding is loaded
/// once per process, on first use, by whichever thread comes first; a failure is remembered.
/// Error messages name the file, never a path.
std::expected<void, std::string> load(Encoding encoding);

/// The number of tokens in `text`. Any bytes are accepted: ill-formed UTF-8 is counted as
/// the U+FFFD replacement characters a decoder would show in its place (one per maximal
/// ill-formed subsequence), which is what a model receives when such output is sent as
/// text; NUL bytes are ordinary characters. Thread-safe. Errors only when the encoding
/// cannot be loaded.
std::expected<std::size_t, std::string> count_tokens(std::string_view text,
                                                     Encoding encoding = Encoding::o200k);

/// A cut for counting a stream in pieces: the last position p in `text` such that counting
/// text[0, p) and then whatever follows from p gives the same total as counting it all at once,
/// or 0 when `text` has none. Such a cut sits just after a '\n' that is followed by an ASCII
/// letter or digit: no pre-token can span it, and it never splits a UTF-8 sequence.
std::size_t chunk_boundary(std::string_view text);

/// The token ids of `text`, under the same rules as count_tokens.
std::expected<std::vector<std::uint32_t>, std::string> encode(std::string_view text,
                                                              Encoding encoding);

/// The bytes of the tokens `ids`, concatenated; an error for an id that is not a token.
/// decode(encode(text)) is text for valid UTF-8.
std::expected<std::string, std::string> decode(const std::vector<std::uint32_t>& ids,
                                               Encoding encoding);

} // namespace sutra::core::tokenizer
