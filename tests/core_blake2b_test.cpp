// core/blake2b.hpp gives the store's ids, and StoreWriter (core/store_writer.cpp) makes the same
// ids with libsodium's incremental hash: the two must agree on every length, key and output
// size, or `sutra exec`'s entries would read back as corrupt.

#include "core/blake2b.hpp"

#include <gtest/gtest.h>
#include <sodium.h>

#include <random>
#include <string>

namespace sutra::core {
namespace {

std::string hex(const unsigned char* p, std::size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

TEST(Blake2b, MatchesTheRfc7693Example) {
    unsigned char out[64];
    blake2b(out, sizeof out, "abc", {});
    EXPECT_EQ(hex(out, sizeof out),
              "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
              "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
}

// Every length up to five blocks (each block boundary and the empty message), then random
// lengths, under no key, the store's 32-byte key and other key sizes, for each output size.
TEST(Blake2b, AgreesWithLibsodiumOnEveryLengthKeyAndOutputSize) {
    ASSERT_GE(sodium_init(), 0);
    std::mt19937 rng(15);
    int checked = 0;
    for (int t = 0; t < 6000; ++t) {
        const std::size_t n = t < 660 ? static_cast<std::size_t>(t) : rng() % 20000;
        std::string data(n, '\0');
        for (char& c : data) c = static_cast<char>(rng());
        const std::size_t key_bytes = t % 3 == 0 ? 0 : t % 3 == 1 ? 32 : 1 + rng() % 64;
        std::string key(key_bytes, '\0');
        for (char& c : key) c = static_cast<char>(rng());
        const std::size_t out_bytes = t % 4 == 0 ? 1 + rng() % 64 : 16;
        unsigned char ours[64], theirs[64];
        blake2b(ours, out_bytes, data, key);
        ASSERT_EQ(crypto_generichash(
                      theirs, out_bytes, reinterpret_cast<const unsigned char*>(data.data()), n,
                      key.empty() ? nullptr : reinterpret_cast<const unsigned char*>(key.data()),
                      key.size()),
                  0);
        ASSERT_EQ(hex(ours, out_bytes), hex(theirs, out_bytes))
            << "length " << n << ", key " << key_bytes << ", output " << out_bytes;
        ++checked;
    }
    EXPECT_EQ(checked, 6000);
}

TEST(Blake2b, AgreesWithLibsodiumOnALargeInput) {
    ASSERT_GE(sodium_init(), 0);
    std::string data((3u << 20) + 77, '\0');
    std::mt19937 rng(7);
    for (char& c : data) c = static_cast<char>(rng());
    const std::string key(32, 'k');
    unsigned char ours[16], theirs[16];
    blake2b(ours, sizeof ours, data, key);
    crypto_generichash(theirs, sizeof theirs, reinterpret_cast<const unsigned char*>(data.data()),
                       data.size(), reinterpret_cast<const unsigned char*>(key.data()), key.size());
    EXPECT_EQ(hex(ours, 16), hex(theirs, 16));
}

} // namespace
} // namespace sutra::core
