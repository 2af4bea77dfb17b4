#pragma once
// Byte-pair encoding of one pre-token (see the essay at the top of bpe.cpp).

#include "core/tokenizer/rank_table.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace sutra::core::tokenizer {

/// Splits pre-tokens into tokens exactly as tiktoken's byte_pair_merge does. Holds scratch
/// buffers that are reused from piece to piece, so use one per thread; the table is shared.
class BytePairEncoder {
public:
    explicit BytePairEncoder(const RankTable& table);
    ~BytePairEncoder();

    /// The number of tokens `piece` encodes to. An empty piece has none.
    std::size_t count(std::string_view piece);

    /// Appends the token ids (ranks) of `piece` to `out`.
    void encode(std::string_view piece, std::vector<std::uint32_t>& out);

    /// The merge loops (bpe.cpp says how they differ). count() picks one by length; tests run
    /// each on the same pieces to prove they agree.
    enum class MergeLoop { scan, heap, sweep };
    std::size_t count_using(MergeLoop loop, std::string_view piece);
    /// The token boundaries of `piece` (start offsets, then its end) under `loop`.
    std::vector<std::uint32_t> bounds_using(MergeLoop loop, std::string_view piece);

    /// count()'s fast path for a long piece that is one short unit repeated (bpe.cpp says how
    /// and why it is exact): the count the whole merge gives, from three merges of prefixes, or
    /// nullopt when it does not apply (too short, not periodic, or the prefixes do not show a
    /// settled cycle) and count() merges the whole piece. Never used by encode().
    std::optional<std::size_t> periodic_count(std::string_view piece);

private:
    // Splits `piece` into token boundaries, leaving them in m_bounds (start offsets plus the
    // end); returns the token count.
    std::size_t merge(std::string_view piece);
    std::size_t merge_using(MergeLoop loop, std::string_view piece);
    std::size_t merge_scan(std::string_view piece);
    std::size_t merge_heap(std::string_view piece);
    // 0 when it had to stop (see bpe.cpp); merge_using then runs merge_heap.
    std::size_t merge_sweep(std::string_view piece);
    void link_parts(std::size_t n);
    std::uint32_t rank_of(std::string_view piece, std::size_t begin, std::size_t end) const;

    const RankTable& m_table;

    // count()'s memo of short pieces already counted: direct-mapped, 64 KiB, made on first use.
    struct Memo {
        static constexpr std::size_t k_bytes = 24, k_slots = 2048;
        std::uint32_t length = 0; // 0: empty (a piece of 0 or 1 bytes never reaches it)
        std::uint32_t count = 0;
        char bytes[k_bytes];
    };
    static std::size_t memo_hash(std::string_view piece);
    std::vector<Memo> m_memo;

    struct Part {
        std::uint32_t start;
        std::uint32_t rank; // of this part merged with the next one
    };
    std::vector<Part> m_parts;
    std::vector<std::uint32_t> m_bounds;
    // Heap path only: a doubly linked list over byte offsets, and the pending merges.
    std::vector<std::uint32_t> m_next, m_prev, m_pair_rank;
    std::vector<std::uint64_t> m_heap;
    struct Sweep; // merge_sweep's scratch (bpe_sweep.cpp)
    std::unique_ptr<Sweep> m_sweep;
};

} // namespace sutra::core::tokenizer
