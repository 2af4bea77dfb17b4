// Entries written and read whole (core/store/store.hpp states the rules): the per-store key and the
// ids it gives, put (data, then metadata, then the quota check), and reads that verify an entry
// before they return a byte of it, deleting what is corrupt or expired.
#include "core/store/store.hpp"
#include "core/store/store_dir.hpp"
#include "core/store/store_format.hpp"
#include "core/store/store_sweep.hpp"
#include "core/util/posix_io.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::core {

using namespace store_detail;

namespace {

constexpr std::size_t k_key_bytes = 32;
constexpr const char* k_key_name = "key";

std::expected<std::string, StoreError> read_key(int dirfd, const std::string& dir) {
    UniqueFd fd(::openat(dirfd, k_key_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd.ok()) {
        const int err = errno;
        if (err == ENOENT) return fail(StoreErrc::not_found, "store: no key yet");
        if (err == ELOOP)
            return fail(StoreErrc::unsafe,
                        fmt::format("store: {}/key is a symlink; refusing to use it", dir));
        return fail(StoreErrc::io,
                    fmt::format("store: cannot open {}/key: {}", dir, errno_text(err)));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        return fail(StoreErrc::io,
                    fmt::format("store: cannot stat {}/key: {}", dir, errno_text(errno)));
    if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid() ||
        st.st_size != static_cast<off_t>(k_key_bytes))
        return fail(StoreErrc::unsafe,
                    fmt::format("store: {}/key is not a 32-byte regular file owned by this user; "
                                "refusing to use it",
                                dir));
    std::string key;
    if (!pread_all(fd.get(), 0, k_key_bytes, key) || key.size() != k_key_bytes)
        return fail(StoreErrc::io, fmt::format("store: cannot read {}/key", dir));
    return key;
}

/// Creates the key through a temp file and link(2), so that when two processes race on a fresh
/// store the loser's link fails with EEXIST and both read the winner's key.
std::expected<void, StoreError> create_key(int dirfd, const std::string& dir) {
    const std::string tmp = "tmp.key." + random_hex(8);
    UniqueFd fd(
        ::openat(dirfd, tmp.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0600));
    if (!fd.ok())
        return fail(StoreErrc::io,
                    fmt::format("store: cannot create a key in {}: {}", dir, errno_text(errno)));
    std::string key(k_key_bytes, '\0');
    randombytes_buf(key.data(), key.size());
    const bool written = write_all(fd.get(), key) && ::fsync(fd.get()) == 0 && fd.close() == 0;
    sodium_memzero(key.data(), key.size());
    if (!written) {
        const int err = errno;
        unlink_quietly(dirfd, tmp);
        return fail(StoreErrc::io,
                    fmt::format("store: cannot write a key in {}: {}", dir, errno_text(err)));
    }
    int rc = ::linkat(dirfd, tmp.c_str(), dirfd, k_key_name, 0);
    if (rc != 0 && (errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS))
        // Filesystems without hard links: an exclusive rename gives the same race semantics.
        rc = ::renameat2(dirfd, tmp.c_str(), dirfd, k_key_name, RENAME_NOREPLACE);
    const int err = errno;
    unlink_quietly(dirfd, tmp);
    if (rc != 0 && err != EEXIST)
        return fail(StoreErrc::io,
                    fmt::format("store: cannot install the key in {}: {}", dir, errno_text(err)));
    return {};
}

std::expected<std::string, StoreError> load_or_create_key(int dirfd, const std::string& dir) {
    auto key = read_key(dirfd, dir);
    if (key || key.error().code != StoreErrc::not_found) return key;
    if (auto made = create_key(dirfd, dir); !made) return std::unexpected(made.error());
    return read_key(dirfd, dir);
}

/// An entry checked for reading: the data file open, its metadata parsed and consistent.
struct OpenEntry {
    UniqueFd dirfd;
    UniqueFd data;
    Meta meta;
};

/// Validates the id, opens both files and checks them; corrupt and expired entries are deleted.
std::expected<OpenEntry, StoreError>
open_entry(const StoreOptions& options, std::int64_t now, std::string_view id) {
    if (!valid_id(id))
        return fail(StoreErrc::bad_id,
                    "store: not a valid id (su_ followed by 32 lowercase hex digits)");
    auto dirfd = open_store_dir(options.dir);
    if (!dirfd) {
        if (dirfd.error().code == StoreErrc::not_found)
            return fail(StoreErrc::not_found, fmt::format("store: id {} not found", id));
        return std::unexpected(dirfd.error());
    }
    OpenEntry entry;
    entry.dirfd = std::move(*dirfd);
    const int dfd = entry.dirfd.get();
    const auto corrupt = [&](const char* why) {
        remove_entry(dfd, id);
        return fail(StoreErrc::corrupt,
                    fmt::format("store: id {} is corrupt ({}); it has been deleted", id, why));
    };
    switch (read_meta(dfd, id, entry.meta)) {
    case MetaRead::missing:
        return fail(StoreErrc::not_found, fmt::format("store: id {} not found", id));
    case MetaRead::bad:
        return corrupt("unreadable metadata");
    case MetaRead::io:
        return fail(StoreErrc::io, fmt::format("store: cannot read the metadata of id {}: {}", id,
                                               errno_text(errno)));
    case MetaRead::ok:
        break;
    }
    const std::string data_name = std::string(id) + ".data";
    entry.data =
        UniqueFd(::openat(dfd, data_name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!entry.data.ok()) {
        if (errno == ENOENT)
            return fail(StoreErrc::not_found, fmt::format("store: id {} not found", id));
        if (errno == ELOOP) return corrupt("data is not a regular file");
        return fail(StoreErrc::io,
                    fmt::format("store: cannot open id {}: {}", id, errno_text(errno)));
    }
    struct stat st {};
    if (::fstat(entry.data.get(), &st) != 0)
        return fail(StoreErrc::io,
                    fmt::format("store: cannot stat id {}: {}", id, errno_text(errno)));
    if (!S_ISREG(st.st_mode)) return corrupt("data is not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) != entry.meta.size)
        return corrupt("size does not match its metadata");
    if (now >= entry.meta.expires) {
        remove_entry(dfd, id);
        return fail(StoreErrc::expired, fmt::format("store: id {} expired", id));
    }
    return entry;
}

} // namespace

std::int64_t Store::now() const {
    return store_now(m_options);
}

// Opens the store: `create` makes a missing directory and key (a write), else both must exist
// already (a read, which must leave nothing behind).
std::expected<Store, StoreError> Store::open_with(const StoreOptions& options, bool create) {
    try {
        if (!sodium_ready()) return fail(StoreErrc::io, "store: libsodium failed to initialise");
        auto dirfd = create ? prepare_store_dir(options.dir) : open_store_dir(options.dir);
        if (!dirfd) return std::unexpected(dirfd.error());
        auto key = create ? load_or_create_key(dirfd->get(), options.dir)
                          : read_key(dirfd->get(), options.dir);
        if (!key) return std::unexpected(key.error());
        Store store;
        store.m_options = options;
        store.m_key = std::move(*key);
        return store;
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

std::expected<Store, StoreError> Store::open(const StoreOptions& options) {
    return open_with(options, true);
}

std::expected<Store, StoreError> Store::open_existing(const StoreOptions& options) {
    return open_with(options, false);
}

std::string Store::id_for(std::string_view content) const {
    static const unsigned char empty = 0;
    unsigned char hash[k_hash_bytes];
    const auto* in =
        content.empty() ? &empty : reinterpret_cast<const unsigned char*>(content.data());
    crypto_generichash(hash, sizeof hash, in, content.size(),
                       reinterpret_cast<const unsigned char*>(m_key.data()), m_key.size());
    return id_from_hash(hash);
}

std::expected<std::string, StoreError> Store::put(std::string_view content) {
    if (content.size() > m_options.max_entry_bytes) return put(content, std::string_view());
    return put(content, id_for(content));
}

std::expected<std::string, StoreError> Store::put(std::string_view content,
                                                  std::string_view known_id) {
    try {
        if (content.size() > m_options.max_entry_bytes)
            return fail(StoreErrc::too_large,
                        fmt::format("store: {} bytes exceed the per-entry limit of {} bytes",
                                    content.size(), m_options.max_entry_bytes));
        if (!valid_id(known_id)) return fail(StoreErrc::bad_id, "store: not a sutra id");
        const std::string id(known_id);
        auto dirfd = prepare_store_dir(m_options.dir);
        if (!dirfd) return std::unexpected(dirfd.error());
        const int dfd = dirfd->get();
        const std::int64_t t = now();

        if (auto written = write_atomically(dfd, m_options, id, id + ".data", content); !written)
            return std::unexpected(written.error());
        if (auto done = finish_entry(dfd, m_options, id, content.size(), t); !done)
            return std::unexpected(done.error());
        return id;
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

std::expected<EntryInfo, StoreError> Store::info(std::string_view id) const {
    try {
        auto entry = open_entry(m_options, now(), id);
        if (!entry) return std::unexpected(entry.error());
        return EntryInfo{entry->meta.size, entry->meta.created, entry->meta.expires};
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

std::expected<std::string, StoreError>
Store::read(std::string_view id, std::uint64_t begin, std::uint64_t end) const {
    try {
        auto entry = open_entry(m_options, now(), id);
        if (!entry) return std::unexpected(entry.error());
        if (begin >= entry->meta.size || begin >= end) return std::string();
        end = std::min({end, entry->meta.size, begin + m_options.max_entry_bytes});
        std::string out;
        if (!pread_all(entry->data.get(), begin, static_cast<std::size_t>(end - begin), out))
            return fail(StoreErrc::io,
                        fmt::format("store: cannot read id {}: {}", id, errno_text(errno)));
        if (out.size() != end - begin)
            return fail(StoreErrc::io, fmt::format("store: id {} changed while being read", id));
        return out;
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

std::expected<std::string, StoreError> Store::read_all(std::string_view id) const {
    try {
        auto entry = open_entry(m_options, now(), id);
        if (!entry) return std::unexpected(entry.error());
        if (entry->meta.size > m_options.max_entry_bytes)
            return fail(StoreErrc::too_large,
                        fmt::format("store: id {} is larger than the per-entry limit", id));
        std::string out;
        if (!pread_all(entry->data.get(), 0, static_cast<std::size_t>(entry->meta.size), out))
            return fail(StoreErrc::io,
                        fmt::format("store: cannot read id {}: {}", id, errno_text(errno)));
        const std::string actual = id_for(out);
        if (out.size() != entry->meta.size ||
            sodium_memcmp(actual.data(), id.data(), actual.size()) != 0) {
            remove_entry(entry->dirfd.get(), id);
            return fail(StoreErrc::corrupt,
                        fmt::format("store: id {} is corrupt (content hash mismatch); it has been "
                                    "deleted",
                                    id));
        }
        return out;
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

} // namespace sutra::core
