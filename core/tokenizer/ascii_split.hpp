#pragma once
// A regex-free fast path for the pre-tokenizer on ASCII text (see ascii_split.cpp).

#include "core/tokenizer/tokenizer.hpp"

#include <cstddef>
#include <string_view>

namespace sutra::core::tokenizer {

/// The end of the pre-token that starts at text[pos], as the encoding's pattern would match
/// it, or 0 when the answer depends on a non-ASCII character; the caller then asks PCRE2.
/// pos must be < text.size().
std::size_t ascii_piece_end(Encoding encoding, std::string_view text, std::size_t pos);

} // namespace sutra::core::tokenizer
