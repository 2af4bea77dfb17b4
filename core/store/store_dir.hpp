#pragma once
// Directory safety for the store's files (core/store/store.hpp states the rules): the store
// directory opened through core/util/posix_io.hpp's checks, and every file made in it O_EXCL under
// a temp name and renamed into place. Internal to core/store/store_*.cpp.

#include "core/store/store.hpp"
#include "core/util/posix_io.hpp"

#include <expected>
#include <string>
#include <string_view>

namespace sutra::core::store_detail {

/// A StoreError as the unexpected value of any store result.
std::unexpected<StoreError> fail(StoreErrc code, std::string message);

/// Opens the existing store directory (not_found when missing); re-tightens a drifted mode.
std::expected<UniqueFd, StoreError> open_store_dir(const std::string& dir);

/// Creates the store directory when missing, then opens it as open_store_dir does.
std::expected<UniqueFd, StoreError> prepare_store_dir(const std::string& dir);

void unlink_quietly(int dirfd, const std::string& name);

/// Creates a fresh 0600 temp file `<prefix>.<random>` (O_CREAT|O_EXCL|O_NOFOLLOW, plus `access`:
/// O_WRONLY or O_RDWR), trying other suffixes when a name is taken; its name goes to `name`.
std::expected<UniqueFd, StoreError> create_temp(
    int dirfd, const StoreOptions& options, std::string_view prefix, int access, std::string& name);

/// Publishes a temp file from create_temp whose bytes are in (`written`): fsync when
/// `options.fsync`, close, rename over `name`. On any failure the temp file is removed.
std::expected<void, StoreError> install_temp(int dirfd,
                                             const StoreOptions& options,
                                             UniqueFd fd,
                                             const std::string& tmp,
                                             const std::string& name,
                                             bool written);

/// Writes a new 0600 file through an exclusive temp file `tmp.<id>.<random>` and renames it over
/// `name`; fsyncs the file first when `options.fsync`.
std::expected<void, StoreError> write_atomically(int dirfd,
                                                 const StoreOptions& options,
                                                 std::string_view id,
                                                 const std::string& name,
                                                 std::string_view bytes);

} // namespace sutra::core::store_detail
