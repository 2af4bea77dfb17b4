// Byte-pair encoding, the second half of tiktoken's encoder (the first half, splitting text
// into pre-tokens, is pretokenize.cpp).
//
// The algorithm. A pre-token is a short byte string, usually a word with its leading space.
// It starts as one part per byte. Every adjacent pair of parts whose concatenation is a token
// has that token's rank; lower ranks were learned earlier and merge first. Repeat: take the
// pair with the lowest rank, the leftmost one on a tie, and merge it into one part; the ranks
// of the two pairs that now touch the merged part change. Stop when no pair is a token. The
// parts left are the tokens, and their ranks are the token ids. This order is what OpenAI's
// tiktoken (`byte_pair_merge` in its Rust core) implements, and exact counts need exactly it:
// a different tie-break or a merge over a stale rank gives different tokens on real text.
//
// Fast paths, because almost all pieces are short and common:
//   - a piece that is itself a token is one token (one hash lookup, no merging); this is most
//     English words and the common runs of spaces;
//   - the initial pair ranks come from a 65,536-entry direct table, not the hash table;
//   - a concatenation longer than the longest token (128 bytes) is never looked up.
//
// Two merge loops with identical results:
//   - merge_scan, for pieces up to k_scan_limit bytes, mirrors tiktoken: a vector of
//     (start, rank) parts, a linear scan for the minimum and an erase per merge. O(n^2) in the
//     piece length, but tiny constants and no allocation, so it wins for real words.
//   - merge_heap, for longer pieces (a long run of one character, a base64 blob with no
//     spaces), keeps the parts as a linked list over byte offsets and the pair ranks in a
//     binary min-heap keyed (rank, start offset), so a 1 MB piece costs O(n log n), not 10^12.
//     Stale heap entries are not removed; an entry is acted on only if its part is still alive
//     and its pair still has that rank. Such an entry describes a current pair, and since every
//     current pair has an entry, the top valid entry is the global minimum, leftmost on ties:
//     the same choice the scan makes.
//   - merge_sweep (bpe_sweep.cpp), for pieces past k_sweep_from bytes, gives the heap's result
//     in linear time in practice: a 4 MB run of one letter cost ~1.2 s in the heap. When its
//     precondition fails it hands the piece to merge_heap.
//
// Counting a long run of one short unit (a million newlines, " \n" or "\r\n" lines: the
// pre-tokenizer keeps a whitespace run together, so these arrive as one piece of megabytes)
// need not merge all of it. Away from its two ends such a piece merges into one pattern over
// and over: the left end fixes where the tokens fall, and each region of the middle sees the
// same bytes as the next. periodic_count() therefore merges three prefixes that end in the
// piece's own partial unit, of S', S' + C and S' + 2C units (C = k_cycle units, S' at least
// k_settle units and congruent to the piece's unit count modulo C), and adds one cycle's tokens
// per C units the piece has beyond S'. It answers only when the three merges prove the pattern:
// their counts grow by the same number per cycle, and each longer prefix's token boundaries are
// the shorter one's with C units inserted at a boundary x in the middle (equal up to x + C
// units, the rest the same boundaries shifted by C units). That shows the right end's tokens
// not moving with the length and the middle repeating with a period that divides C, which is
// what makes the extrapolation exact; equal counts alone are not enough (tokens of 3 units over
// a cycle of 128 give the counts 43, 43, 42, ...). Anything else, and the whole piece is merged.
// This is checked, not proved for every vocabulary: the tests compare it with the whole merge on
// runs of units of 1 to 8 bytes over a small alphabet (tests/core_tokenizer_test.cpp).

#include "core/tokenizer/bpe.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace sutra::core::tokenizer {
namespace {

constexpr std::size_t k_scan_limit = 128;
// Below this the heap's log factor is small and it allocates less than the sweep's buckets.
constexpr std::size_t k_sweep_from = 4096;
constexpr std::uint32_t k_none = RankTable::k_none;
constexpr std::uint32_t k_dead = UINT32_MAX; // m_next value of a part merged into its left
// periodic_count(): pieces from this long, units up to this long, the settling prefix and the
// cycle, in units.
constexpr std::size_t k_periodic_from = 64 * 1024;
constexpr std::size_t k_periodic_unit = 8;
constexpr std::size_t k_settle = 8192;
constexpr std::size_t k_cycle = 128;

// Whether `longer` is `shorter` with `shift` bytes inserted at the boundary `x`: the same
// boundaries up to x + shift, then shorter's from x on, shifted.
bool spliced(const std::vector<std::uint32_t>& shorter,
             const std::vector<std::uint32_t>& longer,
             std::uint32_t x,
             std::uint32_t shift) {
    const auto p = std::lower_bound(shorter.begin(), shorter.end(), x);
    const auto q = std::lower_bound(longer.begin(), longer.end(), x + shift);
    if (p == shorter.end() || *p != x || q == longer.end() || *q != x + shift) return false;
    const auto head = q - longer.begin();
    const auto rest = shorter.end() - p;
    if (head >= static_cast<std::ptrdiff_t>(shorter.size()) || longer.end() - q != rest ||
        !std::equal(longer.begin(), q + 1, shorter.begin())) {
        return false;
    }
    for (std::ptrdiff_t i = 0; i < rest; ++i) {
        if (q[i] != p[i] + shift) return false;
    }
    return true;
}

} // namespace

std::uint32_t
BytePairEncoder::rank_of(std::string_view piece, std::size_t begin, std::size_t end) const {
    if (end - begin > m_table.max_token_bytes()) return k_none;
    return m_table.find(piece.substr(begin, end - begin));
}

std::size_t BytePairEncoder::count(std::string_view piece) {
    if (piece.size() <= 1) return piece.size();
    if (piece.size() > Memo::k_bytes) {
        if (piece.size() >= k_periodic_from) {
            if (const auto n = periodic_count(piece)) return *n;
        }
        return m_table.find(piece) != k_none ? 1 : merge(piece);
    }
    // Logs say the same short pieces over and over (" PASSED", "::", "test", " ok"): a piece
    // counted before is one probe into a small table that stays in cache, not a walk over the
    // 11 MB rank table. The count is a function of the bytes alone, so the memo is exact.
    if (m_memo.empty()) m_memo.resize(Memo::k_slots);
    Memo& slot = m_memo[memo_hash(piece) & (Memo::k_slots - 1)];
    if (slot.length == piece.size() && std::memcmp(slot.bytes, piece.data(), piece.size()) == 0)
        return slot.count;
    const std::size_t n = m_table.find(piece) != k_none ? 1 : merge(piece);
    slot.length = static_cast<std::uint32_t>(piece.size());
    slot.count = static_cast<std::uint32_t>(n);
    std::memcpy(slot.bytes, piece.data(), piece.size());
    return n;
}

std::optional<std::size_t> BytePairEncoder::periodic_count(std::string_view piece) {
    const std::size_t n = piece.size();
    if (n < k_periodic_from || n > UINT32_MAX / 2) return std::nullopt;
    std::size_t unit = 0; // the shortest period; a mismatch mostly shows in the first bytes
    for (std::size_t length = 1; length <= k_periodic_unit && unit == 0; ++length) {
        if (std::memcmp(piece.data() + length, piece.data(), n - length) == 0) unit = length;
    }
    if (unit == 0) return std::nullopt;
    const std::size_t units = n / unit, tail = n % unit;
    if (units < k_settle + 2 * k_cycle) return std::nullopt;
    const std::size_t settle = k_settle + (units - k_settle) % k_cycle;
    if (units < settle + 2 * k_cycle) return std::nullopt;
    // A prefix of `settle` units plus `cycles` cycles, ending in the piece's partial unit.
    const auto prefix = [&](std::size_t cycles) {
        return piece.substr(0, (settle + cycles * k_cycle) * unit + tail);
    };
    const std::size_t c0 = merge(prefix(0));
    std::vector<std::uint32_t> b0 = m_bounds;
    const std::size_t c1 = merge(prefix(1));
    std::vector<std::uint32_t> b1 = m_bounds;
    const std::size_t c2 = merge(prefix(2));
    if (c1 < c0 || c2 - c1 != c1 - c0) return std::nullopt;
    const auto shift = static_cast<std::uint32_t>(k_cycle * unit);
    const auto x = std::lower_bound(b1.begin(), b1.end(), settle / 2 * unit);
    if (x == b1.end() || !spliced(b0, b1, *x, shift) || !spliced(b1, m_bounds, *x, shift))
        return std::nullopt;
    return c0 + (c1 - c0) * ((units - settle) / k_cycle);
}

std::size_t BytePairEncoder::memo_hash(std::string_view piece) {
    // FNV-1a: pieces are at most Memo::k_bytes long, and a collision only costs a recount.
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : piece) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
}

void BytePairEncoder::encode(std::string_view piece, std::vector<std::uint32_t>& out) {
    if (piece.empty()) return;
    if (piece.size() == 1) {
        out.push_back(m_table.byte_rank(static_cast<unsigned char>(piece[0])));
        return;
    }
    if (const std::uint32_t rank = m_table.find(piece); rank != k_none) {
        out.push_back(rank);
        return;
    }
    merge(piece);
    for (std::size_t i = 0; i + 1 < m_bounds.size(); ++i) {
        // Every part left is a token: it is a single byte or the result of a merge.
        out.push_back(rank_of(piece, m_bounds[i], m_bounds[i + 1]));
    }
}

std::size_t BytePairEncoder::merge(std::string_view piece) {
    if (piece.size() <= k_scan_limit) return merge_scan(piece);
    return merge_using(piece.size() < k_sweep_from ? MergeLoop::heap : MergeLoop::sweep, piece);
}

std::size_t BytePairEncoder::merge_using(MergeLoop loop, std::string_view piece) {
    switch (loop) {
    case MergeLoop::scan:
        return merge_scan(piece);
    case MergeLoop::heap:
        return merge_heap(piece);
    case MergeLoop::sweep:
        break;
    }
    if (const std::size_t parts = merge_sweep(piece); parts != 0) return parts;
    return merge_heap(piece);
}

std::size_t BytePairEncoder::count_using(MergeLoop loop, std::string_view piece) {
    if (piece.size() <= 1) return piece.size();
    return merge_using(loop, piece);
}

std::vector<std::uint32_t> BytePairEncoder::bounds_using(MergeLoop loop, std::string_view piece) {
    if (piece.size() <= 1) return {0, static_cast<std::uint32_t>(piece.size())};
    merge_using(loop, piece);
    return m_bounds;
}

std::size_t BytePairEncoder::merge_scan(std::string_view piece) {
    const std::size_t n = piece.size();
    m_parts.clear();
    std::uint32_t min_rank = k_none;
    std::size_t min_index = 0;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const std::uint32_t rank = m_table.find_pair(static_cast<unsigned char>(piece[i]),
                                                     static_cast<unsigned char>(piece[i + 1]));
        if (rank < min_rank) {
            min_rank = rank;
            min_index = i;
        }
        m_parts.push_back({static_cast<std::uint32_t>(i), rank});
    }
    m_parts.push_back({static_cast<std::uint32_t>(n - 1), k_none});
    m_parts.push_back({static_cast<std::uint32_t>(n), k_none});

    // The rank of parts i and i+1 merged, where part i+1 ends at parts[i + 2].start; parts is
    // read before the erase, so the merged pair spans parts[i] .. parts[i + 3].
    const auto merged_rank = [&](std::size_t i) {
        if (i + 3 >= m_parts.size()) return k_none;
        return rank_of(piece, m_parts[i].start, m_parts[i + 3].start);
    };
    while (min_rank != k_none) {
        const std::size_t i = min_index;
        if (i > 0) m_parts[i - 1].rank = merged_rank(i - 1);
        m_parts[i].rank = merged_rank(i);
        m_parts.erase(m_parts.begin() + static_cast<std::ptrdiff_t>(i) + 1);

        min_rank = k_none;
        for (std::size_t k = 0; k + 1 < m_parts.size(); ++k) {
            if (m_parts[k].rank < min_rank) {
                min_rank = m_parts[k].rank;
                min_index = k;
            }
        }
    }
    m_bounds.clear();
    for (const Part& part : m_parts) m_bounds.push_back(part.start);
    return m_parts.size() - 1;
}

std::size_t BytePairEncoder::merge_heap(std::string_view piece) {
    const std::size_t n = piece.size();
    // Parts are named by their start offset; n is the end sentinel.
    link_parts(n);
    m_pair_rank.assign(n + 1, k_none);
    m_heap.clear();
    const auto key = [](std::uint32_t rank, std::size_t start) {
        return (std::uint64_t{rank} << 32) | start;
    };
    const std::greater<std::uint64_t> min_first;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const std::uint32_t rank = m_table.find_pair(static_cast<unsigned char>(piece[i]),
                                                     static_cast<unsigned char>(piece[i + 1]));
        m_pair_rank[i] = rank;
        if (rank != k_none) m_heap.push_back(key(rank, i));
    }
    std::make_heap(m_heap.begin(), m_heap.end(), min_first);

    // Re-ranks part `at` against its (new) right neighbour.
    const auto rerank = [&](std::uint32_t at) {
        const std::uint32_t right = m_next[at];
        const std::uint32_t rank = right >= n ? k_none : rank_of(piece, at, m_next[right]);
        m_pair_rank[at] = rank;
        if (rank != k_none) {
            m_heap.push_back(key(rank, at));
            std::push_heap(m_heap.begin(), m_heap.end(), min_first);
        }
    };

    std::size_t parts = n;
    while (!m_heap.empty()) {
        std::pop_heap(m_heap.begin(), m_heap.end(), min_first);
        const std::uint64_t top = m_heap.back();
        m_heap.pop_back();
        const auto rank = static_cast<std::uint32_t>(top >> 32);
        const auto at = static_cast<std::uint32_t>(top);
        if (m_next[at] == k_dead || m_pair_rank[at] != rank) continue; // stale

        const std::uint32_t gone = m_next[at];
        m_next[at] = m_next[gone];
        m_prev[m_next[gone]] = at;
        m_next[gone] = k_dead;
        --parts;
        rerank(at);
        if (at > 0) rerank(m_prev[at]);
    }
    m_bounds.clear();
    for (std::uint32_t at = 0; at < n; at = m_next[at]) m_bounds.push_back(at);
    m_bounds.push_back(static_cast<std::uint32_t>(n));
    return parts;
}

void BytePairEncoder::link_parts(std::size_t n) {
    m_next.resize(n + 1);
    m_prev.resize(n + 1);
    for (std::size_t i = 0; i <= n; ++i) {
        m_next[i] = static_cast<std::uint32_t>(i + 1);
        m_prev[i] = static_cast<std::uint32_t>(i - 1); // wraps for i == 0: never read
    }
}

} // namespace sutra::core::tokenizer
