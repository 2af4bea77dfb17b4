#include "core/blake2b.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

namespace sutra::core {
namespace {

constexpr std::uint64_t k_iv[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};

constexpr std::uint8_t k_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

constexpr std::size_t k_block = 128;

std::uint64_t load64(const unsigned char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::big) w = std::byteswap(w);
    return w;
}

// The mixing function G on four words of the state, with the message words of round R.
template <int R, int I>
[[gnu::always_inline]] inline void
g(const std::uint64_t* m, std::uint64_t& a, std::uint64_t& b, std::uint64_t& c, std::uint64_t& d) {
    a = a + b + m[k_sigma[R][2 * I]];
    d = std::rotr(d ^ a, 32);
    c = c + d;
    b = std::rotr(b ^ c, 24);
    a = a + b + m[k_sigma[R][2 * I + 1]];
    d = std::rotr(d ^ a, 16);
    c = c + d;
    b = std::rotr(b ^ c, 63);
}

// One round: the columns, then the diagonals. Unrolled so each message index is a constant.
template <int R>
[[gnu::always_inline]] inline void mix_round(const std::uint64_t* m, std::uint64_t* v) {
    g<R, 0>(m, v[0], v[4], v[8], v[12]);
    g<R, 1>(m, v[1], v[5], v[9], v[13]);
    g<R, 2>(m, v[2], v[6], v[10], v[14]);
    g<R, 3>(m, v[3], v[7], v[11], v[15]);
    g<R, 4>(m, v[0], v[5], v[10], v[15]);
    g<R, 5>(m, v[1], v[6], v[11], v[12]);
    g<R, 6>(m, v[2], v[7], v[8], v[13]);
    g<R, 7>(m, v[3], v[4], v[9], v[14]);
}

// One block into the state h; `bytes` counts the input so far, this block included.
void compress(std::uint64_t h[8], const unsigned char* block, std::uint64_t bytes, bool last) {
    std::uint64_t m[16];
    for (int i = 0; i < 16; ++i) m[i] = load64(block + 8 * i);
    std::uint64_t v[16];
    for (int i = 0; i < 8; ++i) {
        v[i] = h[i];
        v[i + 8] = k_iv[i];
    }
    v[12] ^= bytes; // the counter's high word stays 0 below 2^64 bytes
    if (last) v[14] = ~v[14];
    mix_round<0>(m, v);
    mix_round<1>(m, v);
    mix_round<2>(m, v);
    mix_round<3>(m, v);
    mix_round<4>(m, v);
    mix_round<5>(m, v);
    mix_round<6>(m, v);
    mix_round<7>(m, v);
    mix_round<8>(m, v);
    mix_round<9>(m, v);
    mix_round<10>(m, v);
    mix_round<11>(m, v);
    for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

} // namespace

void blake2b(unsigned char* out,
             std::size_t out_bytes,
             std::string_view data,
             std::string_view key) noexcept {
    std::uint64_t h[8];
    for (int i = 0; i < 8; ++i) h[i] = k_iv[i];
    h[0] ^= 0x01010000ull ^ (static_cast<std::uint64_t>(key.size()) << 8) ^ out_bytes;

    const auto* p = reinterpret_cast<const unsigned char*>(data.data());
    std::size_t left = data.size();
    std::uint64_t bytes = 0;
    unsigned char block[k_block];
    if (!key.empty()) { // the key, zero-padded, is the first block
        std::memset(block, 0, k_block);
        std::memcpy(block, key.data(), key.size());
        bytes = k_block;
        compress(h, block, bytes, left == 0);
    }
    // Every full block but the last; the last block (full or not, or the empty message's)
    // carries the final flag.
    for (; left > k_block; p += k_block, left -= k_block) {
        bytes += k_block;
        compress(h, p, bytes, false);
    }
    if (left > 0 || key.empty()) {
        std::memset(block, 0, k_block);
        if (left > 0) std::memcpy(block, p, left);
        bytes += left;
        compress(h, block, bytes, true);
    }
    unsigned char full[64];
    for (int i = 0; i < 8; ++i) {
        std::uint64_t w = h[i];
        if constexpr (std::endian::native == std::endian::big) w = std::byteswap(w);
        std::memcpy(full + 8 * i, &w, 8);
    }
    std::memcpy(out, full, out_bytes);
}

} // namespace sutra::core
