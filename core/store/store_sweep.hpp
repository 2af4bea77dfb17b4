#pragma once
// Sweeps and quotas: what a sweep may delete, when a write sweeps, and the byte ledger that
// spares a write a stat of every entry. Internal to core/store/store_*.cpp.

#include "core/store/store.hpp"

#include <cstdint>
#include <expected>
#include <string>

namespace sutra::core::store_detail {

/// After `<id>.data` is in place: writes the metadata (removing the data when that fails), then
/// sweeps when a quota, the sweep interval or the write count says so, else adds `size` to the
/// ledger.
std::expected<void, StoreError> finish_entry(int dirfd,
                                             const StoreOptions& options,
                                             const std::string& id,
                                             std::uint64_t size,
                                             std::int64_t t);

} // namespace sutra::core::store_detail
