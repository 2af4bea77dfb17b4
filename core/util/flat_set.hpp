#pragma once
// An insert-only hash set of line numbers in one array (open addressing, linear probing), for
// the rewrite's "said before" passes over up to millions of error lines. std::unordered_set
// allocates a node per key and rehashes as it grows: on a million distinct error lines that was
// most of the rewrite's time. A slot holds 64 bits of a key's hash and the line it came from;
// the caller says when two lines hold the same key. Sized up front for the lines it will see,
// it never outgrows half its slots.

#include "core/rewrite/lines.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sutra::core {

class LineSet {
public:
    /// Room for `lines` insertions without growing.
    explicit LineSet(std::size_t lines) { m_slots = make_slots(2 * lines); }

    /// True when no line already in the set is `same` as `line` (whose key hashes to `hash`);
    /// the line is in the set then. `same(a, b)` compares the keys of two lines.
    template <class Same> bool insert(std::uint64_t hash, std::uint32_t line, Same&& same) {
        if (2 * (m_size + 1) > m_slots.size()) grow();
        // The slot from the hash's low bits, a tag from its high ones (never 0: 0 is empty).
        const auto h = static_cast<std::uint32_t>(hash >> 32) | 1;
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
            Slot& at = m_slots[i];
            if (at.hash == 0) {
                at = Slot{h, line, static_cast<std::uint32_t>(hash)};
                ++m_size;
                return true;
            }
            if (at.hash == h && same(at.line, line)) return false;
        }
    }

private:
    struct Slot {
        std::uint32_t hash = 0; ///< the tag; 0: empty
        std::uint32_t line = 0;
        std::uint32_t home = 0; ///< the low bits of the hash: where a grown set puts it
    };
    std::vector<Slot> m_slots;
    std::size_t m_size = 0;

    // Empty slots, a power of two of them, at least `at_least`; huge pages asked for when large
    // (faulting in a fresh 4 KiB page at a time was most of the cost of a large set).
    static std::vector<Slot> make_slots(std::size_t at_least) {
        std::size_t capacity = 16;
        while (capacity < at_least) capacity *= 2;
        std::vector<Slot> slots;
        reserve_huge(slots, capacity);
        slots.resize(capacity);
        return slots;
    }

    void grow() {
        std::vector<Slot> old = make_slots(2 * m_slots.size());
        old.swap(m_slots);
        const std::size_t mask = m_slots.size() - 1;
        for (const Slot& s : old) {
            if (s.hash == 0) continue;
            std::size_t i = s.home & mask;
            while (m_slots[i].hash != 0) i = (i + 1) & mask;
            m_slots[i] = s;
        }
    }
};

} // namespace sutra::core
