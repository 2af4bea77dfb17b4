#pragma once
// The merge ranks of one encoding: token bytes -> rank (the rank is also the token id).
//
// The table lives in one flat "image" (header, offsets, hash slots, pair table, token bytes)
// that is either built in memory from a `.tiktoken` file or memory-mapped from a `.sutratok`
// file the build wrote beforehand. Mapping costs about a millisecond, where parsing the
// 3.6 MB o200k file costs tens, which matters to short-lived processes such as hooks.
// Read-only after construction, so one table serves every thread.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core::tokenizer {

class RankTable {
public:
    /// Returned by the lookups for byte strings that are not a token.
    static constexpr std::uint32_t k_none = UINT32_MAX;

    /// Parses OpenAI's `.tiktoken` text format: one `BASE64 RANK` line per token. The ranks
    /// must run 0, 1, 2, ... in file order (true of every OpenAI file) and every single byte
    /// must be a token, since BPE starts from bytes. Errors describe the first bad line.
    static std::expected<RankTable, std::string> parse(std::string_view file_text);

    /// Maps an image written from image(). The header, the section sizes and the hash
    /// function are checked, and every lookup is bounds-checked, so a damaged file gives
    /// wrong counts at worst, never a crash; a stale or foreign file is an error.
    static std::expected<RankTable, std::string> map_image(const std::string& path);

    /// The table's bytes, for writing a `.sutratok` file.
    std::string_view image() const noexcept {
        return std::string_view(reinterpret_cast<const char*>(m_image), m_image_size);
    }

    RankTable(RankTable&& other) noexcept;
    RankTable& operator=(RankTable&&) = delete;
    RankTable(const RankTable&) = delete;
    ~RankTable();

    /// The rank of exactly these bytes, or k_none.
    std::uint32_t find(std::string_view bytes) const noexcept;

    /// The rank of the two-byte string `a b`, or k_none. A direct table: BPE asks this for
    /// every adjacent byte pair before it merges anything.
    std::uint32_t find_pair(unsigned char a, unsigned char b) const noexcept {
        return m_pair_rank[(std::size_t{a} << 8) | b];
    }

    /// The rank of one byte; every byte has one.
    std::uint32_t byte_rank(unsigned char b) const noexcept { return m_byte_rank[b]; }

    /// The bytes of the token with this rank; empty when there is no such token.
    std::string_view token(std::uint32_t rank) const noexcept {
        if (rank >= m_count) return {};
        const std::uint32_t begin = m_offset[rank];
        const std::uint32_t end = m_offset[rank + 1];
        if (begin > end || end > m_arena_bytes) return {};
        return std::string_view(m_arena + begin, end - begin);
    }

    /// Number of tokens.
    std::size_t size() const noexcept { return m_count; }

    /// The longest token in bytes: longer byte strings need no lookup.
    std::size_t max_token_bytes() const noexcept { return m_max_token_bytes; }

private:
    RankTable() = default;

    // Points the section views into a complete image after checking its header.
    std::expected<void, std::string> attach(const std::byte* image, std::size_t size);

    // One open-addressing slot. It holds the token's length and first bytes, so most lookups
    // compare in the slot itself and touch one cache line, not three (slot, offset, arena);
    // on a 10 MB log that made lookups, the hottest code, about twice as fast.
    static constexpr std::size_t k_head = 11;
    struct Slot {
        std::uint32_t rank; // k_none when empty
        std::uint8_t size;
        char head[k_head]; // the first min(size, k_head) bytes, zero-padded
    };

    // Owner of the image: a buffer (parse) or a mapping (map_image).
    std::vector<std::uint64_t> m_owned;
    void* m_mapping = nullptr;
    std::size_t m_mapping_size = 0;

    const std::byte* m_image = nullptr;
    std::size_t m_image_size = 0;
    const char* m_arena = nullptr;              // every token's bytes, in rank order
    const std::uint32_t* m_offset = nullptr;    // token r is m_arena[m_offset[r], m_offset[r + 1])
    const Slot* m_slots = nullptr;              // power-of-two count, linear probing
    const std::uint32_t* m_pair_rank = nullptr; // 65,536 entries
    const std::uint32_t* m_byte_rank = nullptr; // 256 entries
    std::uint32_t m_count = 0;
    std::uint32_t m_arena_bytes = 0;
    std::size_t m_slot_mask = 0;
    std::uint32_t m_max_token_bytes = 0;
};

} // namespace sutra::core::tokenizer
