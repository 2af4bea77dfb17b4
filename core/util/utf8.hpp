#pragma once
// Byte-level helpers: where a cut may fall without splitting a UTF-8 character, and whether
// bytes look like text at all.

#include <cstddef>
#include <string_view>

namespace sutra::core {

/// True when the bytes are well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool valid_utf8(std::string_view bytes);

/// The largest position <= pos that does not fall inside a UTF-8 sequence (continuation bytes
/// are stepped over, at most 3). Positions past the end are clamped to the size.
std::size_t utf8_floor(std::string_view bytes, std::size_t pos);

/// The smallest position >= pos that does not fall inside a UTF-8 sequence.
std::size_t utf8_ceil(std::string_view bytes, std::size_t pos);

/// The bytes at the end of `bytes` that begin a UTF-8 sequence cut short (0-3).
std::size_t split_utf8_tail(std::string_view bytes);

/// Offset of the first byte that does not begin a well-formed UTF-8 sequence (or the size).
std::size_t first_invalid_utf8(std::string_view bytes);

/// True when the bytes are not text: a NUL byte, or many control or invalid bytes, in the
/// first 64 KiB. Such input passes through unchanged.
bool looks_binary(std::string_view bytes);

} // namespace sutra::core
