// merge_sweep: byte-pair merging of a long piece in linear time in practice (the essay at the
// top of bpe.cpp describes the other two loops and the order all three must follow).
//
// The heap loop pops pairs one at a time in (rank, offset) order, O(log n) each, and on a 4 MB
// run of one letter its memory traffic cost ~1.2 s. The sweep groups the pending pairs by rank
// instead: one bucket of start offsets per rank, and a small heap of the ranks that have a
// bucket. It takes the lowest rank, and merges the valid pairs of its bucket left to right
// (sorting the bucket first in the rare case it was filled out of order). That is the heap's
// order as long as no merge creates a pair ranked at or below the rank being swept: then no pair
// of that rank appears or revives during the sweep, so each valid entry in turn is the leftmost
// current pair of the lowest rank. A merged part is longer than the token of the pair that made
// it, so the pairs it forms never have that same rank. A lower rank is possible in principle (a
// token reachable by two merge paths); when one appears the sweep gives up and the caller runs
// the heap loop from the start.
//
// Memory: a part is three 32-bit words, not zero-filled, and the buckets are chains of 4 KiB
// blocks taken from a pool and given back as soon as they are swept, so the pool holds the
// entries that are pending, not every entry ever pushed, and nothing is copied as a bucket
// grows. Both live in page_buffer.hpp's huge-page mappings: on this virtual machine, faulting
// in fresh 4 KiB pages cost as much as the merging itself.

#include "core/tokenizer/bpe.hpp"
#include "core/tokenizer/page_buffer.hpp"

#include <algorithm>
#include <functional>
#include <utility>

namespace sutra::core::tokenizer {
namespace {

constexpr std::uint32_t k_none = RankTable::k_none;
constexpr std::uint32_t k_dead = UINT32_MAX;      // `next` of a part merged into its left
constexpr std::uint32_t k_end = UINT32_MAX;       // no block
constexpr std::uint32_t k_block_entries = 254;    // a block is 1 KiB
constexpr std::uint32_t k_blocks_per_slab = 2048; // a slab is 2 MiB, one huge page

struct Block {
    std::uint32_t used = 0;
    std::uint32_t next = k_end;
    std::uint32_t at[k_block_entries]; // start offsets; left uninitialized
};

struct Chain {
    std::uint32_t first = k_end;
    std::uint32_t last = k_end;
    Block* tail = nullptr; // the block `last`, for the hot path of a push
};

} // namespace

struct BytePairEncoder::Sweep {
    struct Part {
        std::uint32_t next, prev;
        std::uint32_t pair_rank; // of this part merged with the next one
    };
    PageBuffer parts_buffer;
    Part* parts = nullptr;

    std::vector<std::unique_ptr<PageBuffer>> slabs;
    std::uint32_t block_count = 0;
    std::vector<std::uint32_t> free_blocks;
    std::vector<Chain> buckets;        // by rank
    std::vector<std::uint32_t> ranks;  // a min-heap of the ranks whose chain is not empty
    std::vector<std::uint32_t> sorted; // a swept chain that was filled out of order

    void reset(std::size_t n) {
        parts = static_cast<Part*>(parts_buffer.reserve((n + 1) * sizeof(Part)));
        // Every chain is empty and every block free again, also after a sweep that gave up.
        for (const std::uint32_t rank : ranks) buckets[rank] = Chain{};
        ranks.clear();
        free_blocks.clear();
        for (std::uint32_t i = 0; i < block_count; ++i) free_blocks.push_back(i);
    }

    Block& block(std::uint32_t index) {
        auto* slab = static_cast<Block*>(slabs[index / k_blocks_per_slab]->data());
        return slab[index % k_blocks_per_slab];
    }

    std::uint32_t take_block() {
        std::uint32_t index;
        if (free_blocks.empty()) {
            if (block_count % k_blocks_per_slab == 0) {
                slabs.push_back(std::make_unique<PageBuffer>());
                slabs.back()->reserve(sizeof(Block) * k_blocks_per_slab);
            }
            index = block_count++;
        } else {
            index = free_blocks.back();
            free_blocks.pop_back();
        }
        block(index).used = 0;
        block(index).next = k_end;
        return index;
    }
};

BytePairEncoder::BytePairEncoder(const RankTable& table) : m_table(table) {}

BytePairEncoder::~BytePairEncoder() = default;

std::size_t BytePairEncoder::merge_sweep(std::string_view piece) {
    // Made on the first long piece: most counts never need it.
    if (!m_sweep) m_sweep = std::make_unique<Sweep>();
    Sweep& s = *m_sweep;
    const std::size_t n = piece.size();
    if (s.buckets.size() < m_table.size()) s.buckets.resize(m_table.size());
    s.reset(n);
    Sweep::Part* const part = s.parts;
    const std::greater<std::uint32_t> min_first;

    const auto push = [&](std::uint32_t rank, std::uint32_t at) {
        Chain& chain = s.buckets[rank];
        if (chain.tail != nullptr && chain.tail->used < k_block_entries) {
            chain.tail->at[chain.tail->used++] = at;
            return;
        }
        if (chain.first == k_end) {
            chain.first = chain.last = s.take_block();
            s.ranks.push_back(rank);
            std::push_heap(s.ranks.begin(), s.ranks.end(), min_first);
        } else {
            const std::uint32_t added = s.take_block();
            chain.tail->next = added;
            chain.last = added;
        }
        chain.tail = &s.block(chain.last);
        chain.tail->at[chain.tail->used++] = at;
    };

    for (std::size_t i = 0; i <= n; ++i) {
        part[i].next = static_cast<std::uint32_t>(i + 1);
        part[i].prev = static_cast<std::uint32_t>(i - 1); // wraps for i == 0: never read
        part[i].pair_rank = k_none;
        if (i + 1 < n) {
            const std::uint32_t rank = m_table.find_pair(static_cast<unsigned char>(piece[i]),
                                                         static_cast<unsigned char>(piece[i + 1]));
            part[i].pair_rank = rank;
            if (rank != k_none) push(rank, static_cast<std::uint32_t>(i));
        }
    }

    // Re-ranks part `at` against its (new) right neighbour; false when the new pair would sort
    // at or before the rank being swept.
    std::uint32_t sweeping = 0;
    const auto rerank = [&](std::uint32_t at) {
        const std::uint32_t right = part[at].next;
        const std::uint32_t rank = right >= n ? k_none : rank_of(piece, at, part[right].next);
        part[at].pair_rank = rank;
        if (rank == k_none) return true;
        if (rank <= sweeping) return false;
        push(rank, at);
        return true;
    };
    // Merges the pair starting at `at` if it is still current; false to give up.
    std::size_t parts = n;
    const auto merge_at = [&](std::uint32_t at) {
        if (part[at].next == k_dead || part[at].pair_rank != sweeping) return true; // stale
        const std::uint32_t gone = part[at].next;
        part[at].next = part[gone].next;
        part[part[gone].next].prev = at;
        part[gone].next = k_dead;
        --parts;
        return rerank(at) && (at == 0 || rerank(part[at].prev));
    };

    while (!s.ranks.empty()) {
        std::pop_heap(s.ranks.begin(), s.ranks.end(), min_first);
        sweeping = s.ranks.back();
        s.ranks.pop_back();
        const Chain chain = std::exchange(s.buckets[sweeping], Chain{});

        bool in_order = true;
        std::uint32_t last = 0;
        for (std::uint32_t b = chain.first; b != k_end && in_order; b = s.block(b).next) {
            const Block& block = s.block(b);
            for (std::uint32_t i = 0; i < block.used && in_order; ++i) {
                in_order = block.at[i] >= last;
                last = block.at[i];
            }
        }
        if (in_order) {
            // A block goes back to the pool once read; pushes below may take it at once.
            for (std::uint32_t b = chain.first; b != k_end;) {
                const Block& block = s.block(b);
                for (std::uint32_t i = 0; i < block.used; ++i) {
                    if (!merge_at(block.at[i])) return 0;
                }
                const std::uint32_t next = block.next;
                s.free_blocks.push_back(b);
                b = next;
            }
        } else {
            s.sorted.clear();
            for (std::uint32_t b = chain.first; b != k_end; b = s.block(b).next) {
                const Block& block = s.block(b);
                s.sorted.insert(s.sorted.end(), block.at, block.at + block.used);
                s.free_blocks.push_back(b);
            }
            std::sort(s.sorted.begin(), s.sorted.end());
            for (const std::uint32_t at : s.sorted) {
                if (!merge_at(at)) return 0;
            }
        }
    }
    m_bounds.clear();
    for (std::uint32_t at = 0; at < n; at = part[at].next) m_bounds.push_back(at);
    m_bounds.push_back(static_cast<std::uint32_t>(n));
    return parts;
}

} // namespace sutra::core::tokenizer
