#pragma once
// BLAKE2b (RFC 7693), keyed, in one call: the store's ids (core/store_entry.cpp). It gives the
// same bytes as libsodium's crypto_generichash (tests/core_blake2b_test.cpp holds them
// together); plain 64-bit code hashes about twice as fast as libsodium's AVX2 code on the
// development machine (AMD EPYC), and a 30 MB output's id was a fifth of `sutra compress`.

#include <cstddef>
#include <string_view>

namespace sutra::core {

/// Writes the BLAKE2b hash of `data` under `key` to out[0, out_bytes). out_bytes is 1-64 and
/// the key at most 64 bytes (empty: unkeyed).
void blake2b(unsigned char* out,
             std::size_t out_bytes,
             std::string_view data,
             std::string_view key) noexcept;

} // namespace sutra::core
