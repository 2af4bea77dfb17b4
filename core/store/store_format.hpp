#pragma once
// The on-disk shape of an entry: `<id>.data` (the bytes) and `<id>.meta` (size and lifetime, no
// output), the id's form, and removing an entry. Internal to core/store/store_*.cpp; the sweep and the
// readers both build on it, so it sits below them.

#include "core/store/store.hpp"

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <utility>

namespace sutra::core::store_detail {

constexpr std::size_t k_hash_bytes = 16;

/// "su_" + lowercase hex of a k_hash_bytes keyed hash.
std::string id_from_hash(const unsigned char (&hash)[k_hash_bytes]);

/// Splits `<id>.data` / `<id>.meta` into id and extension; an empty id for any other name.
std::pair<std::string_view, std::string_view> entry_name(std::string_view name);

/// The store's clock: options.clock when a test set one, else the time.
std::int64_t store_now(const StoreOptions& options);

/// a + b clamped to the int64 range, so `created + ttl` never wraps into the past.
std::int64_t saturating_add(std::int64_t a, std::int64_t b);

/// now - then clamped to the int64 range: a planted file's time can be anything.
std::int64_t saturating_age(std::int64_t now, std::int64_t then);

struct Meta {
    std::uint64_t size = 0;
    std::int64_t created = 0;
    std::int64_t expires = 0;
};

enum class MetaRead { ok, missing, bad, io };

/// Reads `<id>.meta` (a regular file, at most 4 KiB) and parses it. `bad` means the entry is
/// corrupt; `io` is a system error (say, out of descriptors) that says nothing about the entry.
MetaRead read_meta(int dirfd, std::string_view id, Meta& meta);

/// Writes `<id>.meta` for data of `size` bytes created at `t`; when that fails removes
/// `<id>.data`, so nothing half-made is left.
std::expected<void, StoreError> write_meta(int dirfd,
                                           const StoreOptions& options,
                                           const std::string& id,
                                           std::uint64_t size,
                                           std::int64_t t);

/// Metadata first: without it a reader sees not_found, and leftover data is a pruned orphan.
void remove_entry(int dirfd, std::string_view id);

} // namespace sutra::core::store_detail
