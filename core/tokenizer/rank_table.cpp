// Building, mapping and querying RankTable (see rank_table.hpp).
//
// The image layout, every section 64-byte aligned, all integers in native (little-endian)
// order:
//   ImageHeader                        magic, version, counts, total size
//   uint32 offset[count + 1]           token r is arena[offset[r], offset[r + 1])
//   Slot   slot[slot_count]            open addressing, at most half full; 16 bytes each
//   uint32 pair_rank[65536]            rank of each two-byte string, or k_none
//   uint32 byte_rank[256]              rank of each single byte
//   char   arena[arena_bytes]          the token bytes, in rank order
// The header records hash_bytes() of a fixed string, so an image written by a build with a
// different hash function is refused instead of silently missing every lookup.

#include "core/tokenizer/rank_table.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace sutra::core::tokenizer {
namespace {

// 1 to 7 bytes as one word, without a variable-length memcpy (a libc call): two overlapping
// 4-byte loads, or three byte loads. Distinct strings of one length give distinct words.
inline std::uint64_t load_short(const char* p, std::size_t n) noexcept {
    if (n >= 4) {
        std::uint32_t head, tail;
        std::memcpy(&head, p, 4);
        std::memcpy(&tail, p + n - 4, 4);
        return (std::uint64_t{head} << 32) | tail;
    }
    const auto* u = reinterpret_cast<const unsigned char*>(p);
    return (std::uint64_t{u[0]} << 16) | (std::uint64_t{u[n >> 1]} << 8) | u[n - 1];
}

// Equality of two n-byte strings; inline word compares for the usual short tokens.
inline bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
    if (n > 16) return std::memcmp(a, b, n) == 0;
    if (n >= 8) {
        std::uint64_t a1, b1, a2, b2;
        std::memcpy(&a1, a, 8);
        std::memcpy(&b1, b, 8);
        std::memcpy(&a2, a + n - 8, 8);
        std::memcpy(&b2, b + n - 8, 8);
        return ((a1 ^ b1) | (a2 ^ b2)) == 0;
    }
    return n == 0 || load_short(a, n) == load_short(b, n);
}

// A small multiply-xorshift hash over 8-byte words. Keys are short (mostly under 16 bytes), so
// this beats std::hash's byte-at-a-time loop, and the table's keys are fixed, so it need not
// resist adversarial input: a collision costs a longer probe, never a wrong answer.
std::uint64_t hash_bytes(std::string_view bytes) noexcept {
    const char* p = bytes.data();
    std::size_t n = bytes.size();
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        h = (h ^ word) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    if (n > 0) {
        h = (h ^ load_short(p, n)) * 0x94d049bb133111ebull;
        h ^= h >> 29;
    }
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
}

constexpr std::array<signed char, 256> make_base64_table() {
    std::array<signed char, 256> table{};
    for (auto& v : table) v = -1;
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i)
        table[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
    return table;
}
constexpr std::array<signed char, 256> k_base64 = make_base64_table();

// Appends the decoded bytes of standard, padded base64; false on any malformed input.
bool decode_base64(std::string_view in, std::string& out) {
    if (in.empty() || in.size() % 4 != 0) return false;
    for (std::size_t i = 0; i < in.size(); i += 4) {
        int v[4];
        int pad = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = in[i + static_cast<std::size_t>(k)];
            if (c == '=' && i + 4 == in.size() && k >= 2) {
                v[k] = 0;
                ++pad;
                continue;
            }
            if (pad > 0) return false; // data after padding
            v[k] = k_base64[static_cast<unsigned char>(c)];
            if (v[k] < 0) return false;
        }
        const std::uint32_t triple =
            static_cast<std::uint32_t>(v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3]);
        out.push_back(static_cast<char>(triple >> 16));
        if (pad < 2) out.push_back(static_cast<char>((triple >> 8) & 0xff));
        if (pad < 1) out.push_back(static_cast<char>(triple & 0xff));
    }
    return true;
}

bool parse_rank(std::string_view digits, std::uint32_t& rank) {
    if (digits.empty() || digits.size() > 9) return false;
    std::uint32_t value = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') return false;
        value = value * 10 + static_cast<std::uint32_t>(c - '0');
    }
    rank = value;
    return true;
}

constexpr char k_magic[8] = {'S', 'U', 'T', 'R', 'A', 'T', 'O', 'K'};
constexpr std::uint32_t k_version = 2; // bump when the layout changes
constexpr std::uint32_t k_byte_order = 0x01020304;
constexpr std::string_view k_probe = "sutra rank table";

struct ImageHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t byte_order;
    std::uint64_t hash_probe;
    std::uint32_t count;
    std::uint32_t arena_bytes;
    std::uint32_t slot_count;
    std::uint32_t max_token_bytes;
    std::uint64_t total_size;
};

constexpr std::uint64_t k_slot_bytes = 16;

struct Layout {
    std::uint64_t offsets, slots, pairs, bytes, arena, total;
};

constexpr std::uint64_t align64(std::uint64_t n) {
    return (n + 63) & ~std::uint64_t{63};
}

Layout layout_for(std::uint64_t count, std::uint64_t arena_bytes, std::uint64_t slot_count) {
    Layout l{};
    l.offsets = align64(sizeof(ImageHeader));
    l.slots = align64(l.offsets + (count + 1) * 4);
    l.pairs = align64(l.slots + slot_count * k_slot_bytes);
    l.bytes = align64(l.pairs + 65536 * 4);
    l.arena = align64(l.bytes + 256 * 4);
    l.total = l.arena + arena_bytes;
    return l;
}

} // namespace

std::expected<RankTable, std::string> RankTable::parse(std::string_view file_text) {
    std::string arena;
    std::vector<std::uint32_t> offset;
    arena.reserve(file_text.size() / 2);
    offset.reserve(file_text.size() / 16);
    offset.push_back(0);

    std::size_t line_number = 0;
    while (!file_text.empty()) {
        ++line_number;
        const std::size_t eol = file_text.find('\n');
        std::string_view line = file_text.substr(0, eol);
        file_text.remove_prefix(eol == std::string_view::npos ? file_text.size() : eol + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;

        const std::size_t space = line.find(' ');
        std::uint32_t rank = 0;
        const auto bad = [&](const char* what) {
            return std::unexpected("rank file line " + std::to_string(line_number) + ": " + what);
        };
        if (space == std::string_view::npos || !parse_rank(line.substr(space + 1), rank))
            return bad("expected 'BASE64 RANK'");
        if (rank != offset.size() - 1) return bad("ranks must run 0, 1, 2, ... in order");
        if (!decode_base64(line.substr(0, space), arena)) return bad("bad base64");
        if (arena.size() > UINT32_MAX / 2) return bad("file too large");
        offset.push_back(static_cast<std::uint32_t>(arena.size()));
    }
    const std::size_t count = offset.size() - 1;
    if (count == 0) return std::unexpected("rank file is empty");
    const auto token = [&](std::size_t r) {
        return std::string_view(arena).substr(offset[r], offset[r + 1] - offset[r]);
    };

    // At most half full, so a miss (the common case while merging) ends after a probe or two.
    const std::size_t slot_count = std::bit_ceil(count * 2);
    const Layout layout = layout_for(count, arena.size(), slot_count);
    RankTable table;
    table.m_owned.assign((layout.total + 7) / 8, 0);
    auto* base = reinterpret_cast<std::byte*>(table.m_owned.data());

    ImageHeader header{};
    std::memcpy(header.magic, k_magic, sizeof k_magic);
    header.version = k_version;
    header.byte_order = k_byte_order;
    header.hash_probe = hash_bytes(k_probe);
    header.count = static_cast<std::uint32_t>(count);
    header.arena_bytes = static_cast<std::uint32_t>(arena.size());
    header.slot_count = static_cast<std::uint32_t>(slot_count);
    std::uint32_t max_bytes = 0;
    for (std::size_t r = 0; r < count; ++r)
        max_bytes = std::max(max_bytes, offset[r + 1] - offset[r]);
    header.max_token_bytes = max_bytes;
    header.total_size = layout.total;
    std::memcpy(base, &header, sizeof header);
    std::memcpy(base + layout.offsets, offset.data(), offset.size() * 4);
    std::memcpy(base + layout.arena, arena.data(), arena.size());

    auto* slots = reinterpret_cast<Slot*>(base + layout.slots);
    std::fill(slots, slots + slot_count, Slot{k_none, 0, {}});
    const std::size_t mask = slot_count - 1;
    std::vector<std::uint64_t> hashes(count);
    for (std::size_t r = 0; r < count; ++r) hashes[r] = hash_bytes(token(r));
    // Insert in order of home slot (a counting sort on its top bits), so the slots are
    // written front to back rather than by one cache miss per token.
    const int shift = std::max(0, static_cast<int>(std::bit_width(mask)) - 12);
    std::vector<std::uint32_t> start((mask >> shift) + 2, 0);
    for (const std::uint64_t h : hashes) ++start[((h & mask) >> shift) + 1];
    for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
    std::vector<std::uint32_t> order(count);
    for (std::uint32_t r = 0; r < count; ++r) order[start[(hashes[r] & mask) >> shift]++] = r;
    for (const std::uint32_t r : order) {
        std::size_t i = hashes[r] & mask;
        while (slots[i].rank != k_none) {
            if (token(slots[i].rank) == token(r))
                return std::unexpected("rank file: token " + std::to_string(r) + " is a duplicate");
            i = (i + 1) & mask;
        }
        const std::string_view t = token(r);
        if (t.size() > 255)
            return std::unexpected("rank file: token " + std::to_string(r) +
                                   " is longer than 255 bytes");
        Slot slot{r, static_cast<std::uint8_t>(t.size()), {}};
        std::memcpy(slot.head, t.data(), std::min(t.size(), k_head));
        slots[i] = slot;
    }

    auto* pairs = reinterpret_cast<std::uint32_t*>(base + layout.pairs);
    auto* bytes = reinterpret_cast<std::uint32_t*>(base + layout.bytes);
    std::fill(pairs, pairs + 65536, k_none);
    std::fill(bytes, bytes + 256, k_none);
    for (std::uint32_t r = 0; r < count; ++r) {
        const std::string_view t = token(r);
        const auto b0 = t.empty() ? 0u : static_cast<unsigned char>(t[0]);
        if (t.size() == 1) bytes[b0] = r;
        if (t.size() == 2) pairs[b0 << 8 | static_cast<unsigned char>(t[1])] = r;
    }
    for (unsigned b = 0; b < 256; ++b) {
        if (bytes[b] == k_none)
            return std::unexpected("rank file: byte " + std::to_string(b) + " is not a token");
    }

    if (auto attached = table.attach(base, layout.total); !attached)
        return std::unexpected(attached.error());
    return table;
}

std::expected<RankTable, std::string> RankTable::map_image(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::unexpected(std::string(std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(ImageHeader))) {
        ::close(fd);
        return std::unexpected("not a rank table image");
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    // MAP_POPULATE maps every page in one call: counting a 60 kB output probes a thousand or
    // more scattered pages of the 11 MB table, and faulting them in one by one cost ~10 ms of
    // a hook call on the development machine.
    void* mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    ::close(fd);
    if (mapping == MAP_FAILED) return std::unexpected(std::string(std::strerror(errno)));
    RankTable table;
    table.m_mapping = mapping;
    table.m_mapping_size = size;
    if (auto attached = table.attach(static_cast<const std::byte*>(mapping), size); !attached)
        return std::unexpected(attached.error()); // ~RankTable unmaps
    return table;
}

std::expected<void, std::string> RankTable::attach(const std::byte* image, std::size_t size) {
    static_assert(sizeof(Slot) == k_slot_bytes && alignof(Slot) <= 64);
    ImageHeader h{};
    if (size < sizeof h) return std::unexpected("not a rank table image");
    std::memcpy(&h, image, sizeof h);
    if (std::memcmp(h.magic, k_magic, sizeof k_magic) != 0)
        return std::unexpected("not a rank table image");
    if (h.version != k_version || h.byte_order != k_byte_order ||
        h.hash_probe != hash_bytes(k_probe))
        return std::unexpected("rank table image from an incompatible build");
    // slot_count > count leaves an empty slot, which is what ends every probe sequence.
    if (h.count == 0 || !std::has_single_bit(h.slot_count) || h.slot_count <= h.count ||
        h.max_token_bytes > h.arena_bytes ||
        layout_for(h.count, h.arena_bytes, h.slot_count).total != size || h.total_size != size)
        return std::unexpected("rank table image is damaged");

    const Layout l = layout_for(h.count, h.arena_bytes, h.slot_count);
    m_image = image;
    m_image_size = size;
    m_offset = reinterpret_cast<const std::uint32_t*>(image + l.offsets);
    m_slots = reinterpret_cast<const Slot*>(image + l.slots);
    m_pair_rank = reinterpret_cast<const std::uint32_t*>(image + l.pairs);
    m_byte_rank = reinterpret_cast<const std::uint32_t*>(image + l.bytes);
    m_arena = reinterpret_cast<const char*>(image + l.arena);
    m_count = h.count;
    m_arena_bytes = h.arena_bytes;
    m_slot_mask = h.slot_count - 1;
    m_max_token_bytes = h.max_token_bytes;
    return {};
}

RankTable::RankTable(RankTable&& other) noexcept
    : m_owned(std::move(other.m_owned)), // the buffer moves, so the views stay valid
      m_mapping(std::exchange(other.m_mapping, nullptr)), m_mapping_size(other.m_mapping_size),
      m_image(other.m_image), m_image_size(other.m_image_size), m_arena(other.m_arena),
      m_offset(other.m_offset), m_slots(other.m_slots), m_pair_rank(other.m_pair_rank),
      m_byte_rank(other.m_byte_rank), m_count(other.m_count), m_arena_bytes(other.m_arena_bytes),
      m_slot_mask(other.m_slot_mask), m_max_token_bytes(other.m_max_token_bytes) {}

RankTable::~RankTable() {
    if (m_mapping != nullptr) ::munmap(m_mapping, m_mapping_size);
}

std::uint32_t RankTable::find(std::string_view bytes) const noexcept {
    if (bytes.size() > m_max_token_bytes) return k_none;
    const std::uint64_t h = hash_bytes(bytes);
    const std::size_t n = bytes.size();
    const std::size_t head = std::min(n, k_head);
    // The probe bound only matters for a damaged image with no empty slot left.
    std::size_t i = h & m_slot_mask;
    for (std::size_t probes = 0; probes <= m_slot_mask; ++probes, i = (i + 1) & m_slot_mask) {
        const Slot& slot = m_slots[i];
        if (slot.rank == k_none) return k_none;
        if (slot.size != n || !same_bytes(slot.head, bytes.data(), head)) continue;
        if (n <= k_head) return slot.rank;
        const std::string_view rest = token(slot.rank);
        if (rest.size() == n && same_bytes(rest.data() + k_head, bytes.data() + k_head, n - k_head))
            return slot.rank;
    }
    return k_none;
}

} // namespace sutra::core::tokenizer
