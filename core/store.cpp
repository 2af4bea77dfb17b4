#include "core/store.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <exception>
#include <fcntl.h>
#include <limits>
#include <map>
#include <optional>
#include <sys/stat.h>
#include <sys/types.h>
#include <tuple>
#include <unistd.h>
#include <utility>
#include <vector>

namespace sutra::core {

namespace detail {
// Test seam: when set, supplies temp-file suffixes so a test can plant a symlink at the exact
// temp path a put will use. Never set outside tests.
std::string (*g_test_temp_suffix)() = nullptr;
// Writes by this process; every 128th one sweeps (reconciles other processes' writes).
std::atomic<unsigned> g_store_writes{0};
} // namespace detail

namespace {

constexpr std::size_t k_key_bytes = 32;
constexpr std::size_t k_hash_bytes = 16;
constexpr std::size_t k_max_meta_bytes = 4096;
constexpr std::int64_t k_orphan_age = 60;
constexpr std::int64_t k_sweep_interval = 600;
constexpr unsigned k_sweep_every_writes = 128;
constexpr const char* k_key_name = "key";
constexpr const char* k_stamp_name = "sweep.stamp";
constexpr const char* k_ledger_name = "sweep.ledger";
constexpr off_t k_max_ledger_bytes = 64 * 1024; // about 5,000 puts between sweeps

class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd(Fd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
    Fd& operator=(Fd&& other) noexcept {
        if (this != &other) {
            reset();
            m_fd = std::exchange(other.m_fd, -1);
        }
        return *this;
    }
    ~Fd() { reset(); }

    int get() const { return m_fd; }
    bool ok() const { return m_fd >= 0; }
    void reset() {
        if (m_fd >= 0) ::close(m_fd);
        m_fd = -1;
    }
    /// Closes and reports the close error (a write error may only show up here).
    int close() { return ::close(std::exchange(m_fd, -1)); }

private:
    int m_fd = -1;
};

std::unexpected<StoreError> fail(StoreErrc code, std::string message) {
    return std::unexpected(StoreError{code, std::move(message)});
}

std::string errno_text(int err) {
    return std::strerror(err);
}

bool sodium_ready() {
    static const bool ready = sodium_init() >= 0;
    return ready;
}

std::string random_hex(std::size_t bytes) {
    std::string raw(bytes, '\0');
    randombytes_buf(raw.data(), raw.size());
    std::string hex(bytes * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), reinterpret_cast<const unsigned char*>(raw.data()),
                   raw.size());
    hex.pop_back();
    return hex;
}

std::string temp_suffix() {
    if (detail::g_test_temp_suffix) return detail::g_test_temp_suffix();
    return random_hex(8);
}

bool write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

/// Reads up to `length` bytes at `offset`; fewer only at end of file.
bool pread_all(int fd, std::uint64_t offset, std::size_t length, std::string& out) {
    out.assign(length, '\0');
    std::size_t done = 0;
    while (done < length) {
        const ssize_t n =
            ::pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    out.resize(done);
    return true;
}

void unlink_quietly(int dirfd, const std::string& name) {
    ::unlinkat(dirfd, name.c_str(), 0);
}

void remove_entry(int dirfd, std::string_view id) {
    // Metadata first: without it a reader sees not_found, and leftover data is a pruned orphan.
    unlink_quietly(dirfd, std::string(id) + ".meta");
    unlink_quietly(dirfd, std::string(id) + ".data");
}

/// The path without trailing slashes: with one, lstat and O_NOFOLLOW would resolve a symlink.
std::string without_trailing_slashes(const std::string& dir) {
    const auto last = dir.find_last_not_of('/');
    return last == std::string::npos ? dir.substr(0, 1) : dir.substr(0, last + 1);
}

/// Opens the store directory without following a symlink at its last component and checks it
/// is ours; re-tightens its mode when it drifted.
std::expected<Fd, StoreError> open_dir(const std::string& dir) {
    const std::string path = without_trailing_slashes(dir);
    Fd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd.ok()) {
        const int err = errno;
        if (err == ELOOP)
            return fail(StoreErrc::unsafe,
                        fmt::format("store: {} is a symlink; refusing to use it", dir));
        if (err == ENOTDIR)
            return fail(StoreErrc::unsafe,
                        fmt::format("store: {} is not a directory; refusing to use it", dir));
        if (err == ENOENT)
            return fail(StoreErrc::not_found, fmt::format("store: {} does not exist", dir));
        return fail(StoreErrc::io, fmt::format("store: cannot open {}: {}", dir, errno_text(err)));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        return fail(StoreErrc::io,
                    fmt::format("store: cannot stat {}: {}", dir, errno_text(errno)));
    if (!S_ISDIR(st.st_mode))
        return fail(StoreErrc::unsafe,
                    fmt::format("store: {} is not a directory; refusing to use it", dir));
    if (st.st_uid != ::geteuid())
        return fail(
            StoreErrc::unsafe,
            fmt::format("store: {} is owned by uid {}, not by this user; refusing to use it", dir,
                        st.st_uid));
    if ((st.st_mode & 07777) != 0700 && ::fchmod(fd.get(), 0700) != 0)
        return fail(StoreErrc::io,
                    fmt::format("store: cannot set {} to mode 0700: {}", dir, errno_text(errno)));
    return fd;
}

/// Creates the directory and any missing parents, each 0700.
std::expected<void, StoreError> make_dirs(const std::string& dir) {
    std::size_t pos = 0;
    while (pos != std::string::npos) {
        pos = dir.find('/', pos + 1);
        const std::string prefix = dir.substr(0, pos);
        if (prefix.empty() || prefix == "/") continue;
        if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
            return fail(StoreErrc::io,
                        fmt::format("store: cannot create {}: {}", prefix, errno_text(errno)));
    }
    return {};
}

/// lstat checks, creation, then the fd-based checks (which also catch a swap in between).
std::expected<Fd, StoreError> prepare_dir(const std::string& dir) {
    if (dir.empty()) return fail(StoreErrc::io, "store: no store directory configured");
    const std::string path = without_trailing_slashes(dir);
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            return fail(StoreErrc::io,
                        fmt::format("store: cannot stat {}: {}", dir, errno_text(errno)));
        if (auto made = make_dirs(dir); !made) return std::unexpected(made.error());
        if (::lstat(path.c_str(), &st) != 0)
            return fail(StoreErrc::io,
                        fmt::format("store: cannot stat {}: {}", dir, errno_text(errno)));
    }
    if (S_ISLNK(st.st_mode))
        return fail(StoreErrc::unsafe,
                    fmt::format("store: {} is a symlink; refusing to use it", dir));
    if (!S_ISDIR(st.st_mode))
        return fail(StoreErrc::unsafe,
                    fmt::format("store: {} is not a directory; refusing to use it", dir));
    if (st.st_uid != ::geteuid())
        return fail(
            StoreErrc::unsafe,
            fmt::format("store: {} is owned by uid {}, not by this user; refusing to use it", dir,
                        st.st_uid));
    auto fd = open_dir(dir);
    if (!fd) return fd;
    struct stat opened {};
    if (::fstat(fd->get(), &opened) != 0 || opened.st_dev != st.st_dev ||
        opened.st_ino != st.st_ino)
        return fail(StoreErrc::unsafe,
                    fmt::format("store: {} changed while being opened; refusing to use it", dir));
    return fd;
}

std::expected<std::string, StoreError> read_key(int dirfd, const std::string& dir) {
    Fd fd(::openat(dirfd, k_key_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
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
    Fd fd(::openat(dirfd, tmp.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0600));
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

/// Writes a new 0600 file through an exclusive temp file and renames it over `name`.
std::expected<void, StoreError> write_atomically(int dirfd,
                                                 const std::string& dir,
                                                 std::string_view id,
                                                 const std::string& name,
                                                 std::string_view bytes,
                                                 bool sync) {
    std::string tmp;
    Fd fd;
    // A collision on a 64-bit random suffix means someone planted the name; try a few others.
    for (int attempt = 0; attempt < 4 && !fd.ok(); ++attempt) {
        tmp = fmt::format("tmp.{}.{}", id, temp_suffix());
        fd = Fd(::openat(dirfd, tmp.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC,
                         0600));
        if (!fd.ok() && errno != EEXIST) break;
    }
    if (!fd.ok())
        return fail(StoreErrc::io, fmt::format("store: cannot create a temp file in {}: {}", dir,
                                               errno_text(errno)));
    bool ok = write_all(fd.get(), bytes);
    if (ok && sync) ok = ::fsync(fd.get()) == 0;
    if (ok) ok = fd.close() == 0;
    if (ok) ok = ::renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) == 0;
    if (!ok) {
        const int err = errno;
        unlink_quietly(dirfd, tmp);
        return fail(StoreErrc::io,
                    fmt::format("store: cannot write {}/{}: {}", dir, name, errno_text(err)));
    }
    return {};
}

struct Meta {
    std::uint64_t size = 0;
    std::int64_t created = 0;
    std::int64_t expires = 0;
};

std::optional<Meta> parse_meta(std::string_view text) {
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object()) return std::nullopt;
    const auto v = json.find("v");
    const auto size = json.find("size");
    const auto created = json.find("created");
    const auto expires = json.find("expires");
    if (v == json.end() || size == json.end() || created == json.end() || expires == json.end())
        return std::nullopt;
    if (!v->is_number_integer() || v->get<std::int64_t>() != 1) return std::nullopt;
    if (!size->is_number_unsigned() || !created->is_number_integer() ||
        !expires->is_number_integer())
        return std::nullopt;
    return Meta{size->get<std::uint64_t>(), created->get<std::int64_t>(),
                expires->get<std::int64_t>()};
}

enum class MetaRead { ok, missing, bad, io };

/// Reads `<id>.meta` (regular file, at most 4 KiB) and parses it. `bad` means the entry is
/// corrupt; `io` is a system error (say, out of descriptors) that says nothing about the entry.
MetaRead read_meta(int dirfd, std::string_view id, Meta& meta) {
    const std::string name = std::string(id) + ".meta";
    Fd fd(::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd.ok()) {
        if (errno == ENOENT) return MetaRead::missing;
        return errno == ELOOP ? MetaRead::bad : MetaRead::io;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return MetaRead::io;
    if (!S_ISREG(st.st_mode) || st.st_size > static_cast<off_t>(k_max_meta_bytes))
        return MetaRead::bad;
    std::string text;
    if (!pread_all(fd.get(), 0, k_max_meta_bytes, text)) return MetaRead::io;
    const auto parsed = parse_meta(text);
    if (!parsed) return MetaRead::bad;
    meta = *parsed;
    return MetaRead::ok;
}

/// An entry checked for reading: the data file open, its metadata parsed and consistent.
struct OpenEntry {
    Fd dirfd;
    Fd data;
    Meta meta;
};

} // namespace

bool valid_id(std::string_view id) {
    if (id.size() != 3 + 2 * k_hash_bytes || id.substr(0, 3) != "su_") return false;
    return std::all_of(id.begin() + 3, id.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::int64_t Store::now() const {
    return m_options.clock ? m_options.clock() : static_cast<std::int64_t>(std::time(nullptr));
}

std::expected<Store, StoreError> Store::open(const StoreOptions& options) {
    try {
        if (!sodium_ready()) return fail(StoreErrc::io, "store: libsodium failed to initialise");
        auto dirfd = prepare_dir(options.dir);
        if (!dirfd) return std::unexpected(dirfd.error());
        auto key = load_or_create_key(dirfd->get(), options.dir);
        if (!key) return std::unexpected(key.error());
        Store store;
        store.m_options = options;
        store.m_key = std::move(*key);
        return store;
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

std::string Store::id_for(std::string_view content) const {
    static const unsigned char empty = 0;
    unsigned char hash[k_hash_bytes];
    const auto* in =
        content.empty() ? &empty : reinterpret_cast<const unsigned char*>(content.data());
    crypto_generichash(hash, sizeof hash, in, content.size(),
                       reinterpret_cast<const unsigned char*>(m_key.data()), m_key.size());
    char hex[2 * k_hash_bytes + 1];
    sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
    return std::string("su_") + hex;
}

namespace {

/// Validates the id, opens both files and checks them; corrupt and expired entries are deleted.
std::expected<OpenEntry, StoreError>
open_entry(const StoreOptions& options, std::int64_t now, std::string_view id) {
    if (!valid_id(id))
        return fail(StoreErrc::bad_id,
                    "store: not a valid id (su_ followed by 32 lowercase hex digits)");
    auto dirfd = open_dir(options.dir);
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
        Fd(::openat(dfd, data_name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
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

std::vector<std::string> list_dir(int dirfd) {
    std::vector<std::string> names;
    // fdopendir takes ownership of the fd it is given, so give it its own.
    const int fd = ::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return names;
    DIR* d = ::fdopendir(fd);
    if (!d) {
        ::close(fd);
        return names;
    }
    while (const dirent* e = ::readdir(d)) {
        const std::string_view name = e->d_name;
        if (name != "." && name != "..") names.emplace_back(name);
    }
    ::closedir(d);
    return names;
}

/// Splits `<id>.data` / `<id>.meta` into id and kind; empty id for anything else.
std::pair<std::string_view, std::string_view> entry_name(std::string_view name) {
    if (name.size() != 35 + 5) return {};
    const auto id = name.substr(0, 35);
    const auto ext = name.substr(35);
    if (!valid_id(id) || (ext != ".data" && ext != ".meta")) return {};
    return {id, ext};
}

// Entries in the folder, from the names alone: one readdir, no stat per entry.
std::uint64_t count_entries(int dirfd) {
    std::uint64_t count = 0;
    for (const auto& name : list_dir(dirfd)) {
        const auto [id, ext] = entry_name(name);
        if (!id.empty() && ext == ".data") ++count;
    }
    return count;
}

// The byte ledger (sweep.ledger, beside the stamp): its first line is the total the last sweep
// left, and each put since appended its size. Checking the byte quota then costs one small read,
// not a stat of every entry, which on a full store (2,000 entries) dominated every hook call. A put
// that races a sweep's rewrite of the stamp can go uncounted until the next sweep (at most
// k_sweep_interval later); a re-put of an existing entry is counted twice, which only sweeps
// early. nullopt (missing, planted, oversized or garbled) means "sweep now".
std::optional<std::uint64_t> ledger_bytes(int dirfd) {
    Fd fd(::openat(dirfd, k_ledger_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    struct stat st {};
    if (!fd.ok() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_size > k_max_ledger_bytes)
        return std::nullopt;
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    if (text.empty()) return std::nullopt;
    std::uint64_t total = 0;
    std::uint64_t value = 0;
    bool digits = false;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            if (value > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return std::nullopt;
            value = value * 10 + static_cast<std::uint64_t>(c - '0');
            digits = true;
        } else if (c == '\n' && digits) {
            if (total > std::numeric_limits<std::uint64_t>::max() - value) return std::nullopt;
            total += value;
            value = 0;
            digits = false;
        } else {
            return std::nullopt; // a torn or foreign line: let a sweep recount
        }
    }
    return digits ? std::nullopt : std::optional<std::uint64_t>(total);
}

// Appends one put's size to the ledger (O_APPEND: a short write lands whole). No ledger yet
// means no sweep has run, and the caller's check sweeps.
void ledger_add(int dirfd, std::uint64_t size) {
    Fd fd(
        ::openat(dirfd, k_ledger_name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    struct stat st {};
    if (!fd.ok() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    const std::string line = std::to_string(size) + "\n";
    [[maybe_unused]] const ssize_t n = ::write(fd.get(), line.data(), line.size());
}

bool exists(int dirfd, const std::string& name) {
    struct stat st {};
    return ::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

/// Removes what is expired, broken or planted, then the oldest entries beyond the quotas;
/// returns the bytes of the entries left.
std::uint64_t sweep_dir(int dirfd, const StoreOptions& options, std::int64_t now) {
    struct Files {
        bool data = false;
        bool meta = false;
        std::uint64_t data_size = 0;
        std::int64_t data_mtime = 0;
    };
    std::map<std::string, Files> entries; // ordered by id, for a deterministic sweep
    for (const auto& name : list_dir(dirfd)) {
        struct stat st {};
        if (name.starts_with("tmp.")) {
            // A temp file older than a minute belongs to a writer that died.
            if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                (!S_ISREG(st.st_mode) || now - st.st_mtime > k_orphan_age))
                unlink_quietly(dirfd, name);
            continue;
        }
        const auto [id, ext] = entry_name(name);
        if (id.empty()) continue;
        if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (!S_ISREG(st.st_mode)) {
            // Only we create files here; anything else was planted.
            unlink_quietly(dirfd, name);
            continue;
        }
        auto& files = entries[std::string(id)];
        if (ext == ".data") {
            files.data = true;
            files.data_size = static_cast<std::uint64_t>(st.st_size);
            files.data_mtime = st.st_mtime;
        } else {
            files.meta = true;
        }
    }

    struct Live {
        std::int64_t created;
        std::string id;
        std::uint64_t size;
    };
    std::vector<Live> live;
    for (const auto& [id, files] : entries) {
        const std::string meta_name = id + ".meta";
        const std::string data_name = id + ".data";
        if (files.data && !files.meta) {
            // Young data without metadata is probably a put in progress; leave it a minute.
            if (now - files.data_mtime > k_orphan_age && !exists(dirfd, meta_name))
                unlink_quietly(dirfd, data_name);
            continue;
        }
        if (files.meta && !files.data) {
            // A put writes data first, so this metadata lost its data; re-check against a race.
            if (!exists(dirfd, data_name)) unlink_quietly(dirfd, meta_name);
            continue;
        }
        Meta meta;
        const MetaRead read = read_meta(dirfd, id, meta);
        if (read == MetaRead::missing || read == MetaRead::io) continue;
        if (read == MetaRead::bad || meta.size != files.data_size || now >= meta.expires) {
            remove_entry(dirfd, id);
            continue;
        }
        live.push_back(Live{meta.created, id, files.data_size});
    }

    std::sort(live.begin(), live.end(), [](const Live& a, const Live& b) {
        return std::tie(a.created, a.id) < std::tie(b.created, b.id);
    });
    std::uint64_t count = live.size();
    std::uint64_t bytes = 0;
    for (const auto& entry : live) bytes += entry.size;
    for (const auto& entry : live) {
        if (count <= options.max_entries && bytes <= options.max_total_bytes) break;
        remove_entry(dirfd, entry.id);
        --count;
        bytes -= entry.size;
    }
    return bytes;
}

// Opens (creating) one of the store's own small files for writing, refusing to follow a link:
// a planted symlink is removed and the file made afresh.
Fd open_own_file(int dirfd, const char* name, int extra_flags) {
    const int flags = O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | extra_flags;
    Fd fd(::openat(dirfd, name, flags, 0600));
    if (!fd.ok() && errno == ELOOP) {
        unlink_quietly(dirfd, name);
        fd = Fd(::openat(dirfd, name, flags | O_EXCL, 0600));
    }
    struct stat st {};
    if (fd.ok() && (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))) return Fd();
    return fd;
}

/// Marks a sweep: the stamp's time is the sweep's (the store's clock, so an injected clock stays
/// consistent with it), and the byte ledger restarts at `bytes`.
void touch_stamp(int dirfd, std::int64_t now, std::uint64_t bytes) {
    if (Fd ledger = open_own_file(dirfd, k_ledger_name, O_TRUNC); ledger.ok()) {
        const std::string line = std::to_string(bytes) + "\n";
        [[maybe_unused]] const ssize_t n = ::write(ledger.get(), line.data(), line.size());
    }
    Fd fd = open_own_file(dirfd, k_stamp_name, 0);
    if (!fd.ok()) return;
    const struct timespec times[2] = {{static_cast<time_t>(now), 0}, {static_cast<time_t>(now), 0}};
    ::futimens(fd.get(), times);
}

bool stamp_stale(int dirfd, std::int64_t now) {
    struct stat st {};
    if (::fstatat(dirfd, k_stamp_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return true;
    return now - st.st_mtime >= k_sweep_interval;
}

/// After `<id>.data` is in place: writes the metadata (removing the data when that fails, so
/// nothing half-made is left), then sweeps when a quota or the sweep interval says so.
std::expected<void, StoreError> finish_entry(int dfd,
                                             const StoreOptions& options,
                                             const std::string& id,
                                             std::uint64_t size,
                                             std::int64_t t) {
    const nlohmann::json meta = {
        {"v", 1}, {"size", size}, {"created", t}, {"expires", t + options.ttl_seconds}};
    if (auto written =
            write_atomically(dfd, options.dir, id, id + ".meta", meta.dump(), options.fsync);
        !written) {
        unlink_quietly(dfd, id + ".data");
        return std::unexpected(written.error());
    }
    if (options.fsync) ::fsync(dfd);

    const unsigned writes = ++detail::g_store_writes;
    bool sweep_now = writes % k_sweep_every_writes == 0 || stamp_stale(dfd, t);
    if (!sweep_now) {
        const auto bytes = ledger_bytes(dfd);
        sweep_now = !bytes ||
                    *bytes > options.max_total_bytes - std::min(size, options.max_total_bytes) ||
                    count_entries(dfd) > options.max_entries;
        if (!sweep_now) ledger_add(dfd, size);
    }
    if (sweep_now) touch_stamp(dfd, t, sweep_dir(dfd, options, t));
    return {};
}

} // namespace

std::expected<std::string, StoreError> Store::put(std::string_view content) {
    try {
        if (content.size() > m_options.max_entry_bytes)
            return fail(StoreErrc::too_large,
                        fmt::format("store: {} bytes exceed the per-entry limit of {} bytes",
                                    content.size(), m_options.max_entry_bytes));
        const std::string id = id_for(content);
        auto dirfd = prepare_dir(m_options.dir);
        if (!dirfd) return std::unexpected(dirfd.error());
        const int dfd = dirfd->get();
        const std::int64_t t = now();

        const std::string data_name = id + ".data";
        if (auto written =
                write_atomically(dfd, m_options.dir, id, data_name, content, m_options.fsync);
            !written)
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

void Store::sweep() const {
    try {
        auto dirfd = open_dir(m_options.dir);
        if (!dirfd) return;
        const std::int64_t t = now();
        touch_stamp(dirfd->get(), t, sweep_dir(dirfd->get(), m_options, t));
    } catch (...) {
        // Sweeping is best effort; another process may be doing the same.
    }
}

// ---- streaming writes ----------------------------------------------------------------------

struct StoreWriter::State {
    StoreOptions options;
    std::string key;
    Fd dir;
    Fd file; ///< the temp file, open for reading and writing
    std::string tmp;
    crypto_generichash_state hash{};
    std::uint64_t seen = 0;
    std::uint64_t retained = 0;
    std::string stopped;
    bool finished = false;
};

namespace {

constexpr std::size_t k_copy_chunk = 1 << 20;

/// When another process's sweep removed our temp file (a writer quiet for over a minute): the
/// bytes are still in our descriptor, so copy them into a fresh exclusive temp and rename that.
std::expected<void, StoreError> copy_into_place(int dirfd,
                                                const std::string& dir,
                                                int from,
                                                std::uint64_t size,
                                                const std::string& name,
                                                bool sync) {
    std::string tmp;
    Fd fd;
    for (int attempt = 0; attempt < 4 && !fd.ok(); ++attempt) {
        tmp = fmt::format("tmp.stream.{}", temp_suffix());
        fd = Fd(::openat(dirfd, tmp.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC,
                         0600));
        if (!fd.ok() && errno != EEXIST) break;
    }
    if (!fd.ok())
        return fail(StoreErrc::io, fmt::format("store: cannot create a temp file in {}: {}", dir,
                                               errno_text(errno)));
    bool ok = true;
    std::string buf;
    for (std::uint64_t at = 0; ok && at < size; at += buf.size()) {
        const auto want =
            static_cast<std::size_t>(std::min<std::uint64_t>(k_copy_chunk, size - at));
        ok = pread_all(from, at, want, buf) && buf.size() == want && write_all(fd.get(), buf);
    }
    if (ok && sync) ok = ::fsync(fd.get()) == 0;
    if (ok) ok = fd.close() == 0;
    if (ok) ok = ::renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) == 0;
    if (!ok) {
        const int err = errno;
        unlink_quietly(dirfd, tmp);
        return fail(StoreErrc::io,
                    fmt::format("store: cannot write {}/{}: {}", dir, name, errno_text(err)));
    }
    return {};
}

} // namespace

std::expected<StoreWriter, StoreError> Store::begin_put() const {
    try {
        auto state = std::make_unique<StoreWriter::State>();
        state->options = m_options;
        state->key = m_key;
        auto dirfd = prepare_dir(m_options.dir);
        if (!dirfd) return std::unexpected(dirfd.error());
        state->dir = std::move(*dirfd);
        for (int attempt = 0; attempt < 4 && !state->file.ok(); ++attempt) {
            state->tmp = fmt::format("tmp.stream.{}", temp_suffix());
            state->file = Fd(::openat(state->dir.get(), state->tmp.c_str(),
                                      O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0600));
            if (!state->file.ok() && errno != EEXIST) break;
        }
        if (!state->file.ok())
            return fail(StoreErrc::io, fmt::format("store: cannot create a temp file in {}: {}",
                                                   m_options.dir, errno_text(errno)));
        crypto_generichash_init(&state->hash,
                                reinterpret_cast<const unsigned char*>(state->key.data()),
                                state->key.size(), k_hash_bytes);
        return StoreWriter(std::move(state));
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

StoreWriter::StoreWriter(std::unique_ptr<State> state) : m_state(std::move(state)) {}
StoreWriter::StoreWriter(StoreWriter&&) noexcept = default;
StoreWriter& StoreWriter::operator=(StoreWriter&& other) noexcept {
    if (this != &other) {
        abort();
        m_state = std::move(other.m_state);
    }
    return *this;
}
StoreWriter::~StoreWriter() {
    abort();
}

bool StoreWriter::append(std::string_view bytes) {
    State& s = *m_state;
    s.seen += bytes.size();
    if (!s.stopped.empty() || s.finished) return false;
    const std::uint64_t room = s.options.max_entry_bytes - s.retained;
    if (bytes.size() > room) {
        bytes = bytes.substr(0, static_cast<std::size_t>(room));
        s.stopped = "quota";
    }
    // Hash exactly what reached the file, so a failed write leaves a consistent prefix.
    while (!bytes.empty()) {
        const ssize_t n = ::write(s.file.get(), bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            s.stopped = n < 0 ? errno_text(errno) : "short write";
            return false;
        }
        crypto_generichash_update(&s.hash, reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<std::size_t>(n));
        s.retained += static_cast<std::uint64_t>(n);
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return s.stopped.empty();
}

std::uint64_t StoreWriter::seen() const {
    return m_state->seen;
}
std::uint64_t StoreWriter::retained() const {
    return m_state->retained;
}
const std::string& StoreWriter::stopped() const {
    return m_state->stopped;
}

void StoreWriter::keep_alive() {
    if (m_state && m_state->file.ok()) ::futimens(m_state->file.get(), nullptr);
}

std::expected<std::string, StoreError> StoreWriter::commit() {
    try {
        State& s = *m_state;
        if (s.finished || !s.file.ok())
            return fail(StoreErrc::io, "store: writer already finished");
        s.finished = true;
        unsigned char hash[k_hash_bytes];
        crypto_generichash_final(&s.hash, hash, sizeof hash);
        char hex[2 * k_hash_bytes + 1];
        sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
        const std::string id = std::string("su_") + hex;
        const std::string data_name = id + ".data";
        const int dfd = s.dir.get();

        bool ok = !s.options.fsync || ::fsync(s.file.get()) == 0;
        if (ok && ::renameat(dfd, s.tmp.c_str(), dfd, data_name.c_str()) != 0) {
            if (errno != ENOENT)
                ok = false;
            else if (auto copied = copy_into_place(dfd, s.options.dir, s.file.get(), s.retained,
                                                   data_name, s.options.fsync);
                     !copied)
                return std::unexpected(copied.error());
        }
        if (!ok) {
            const int err = errno;
            unlink_quietly(dfd, s.tmp);
            return fail(StoreErrc::io, fmt::format("store: cannot write {}/{}: {}", s.options.dir,
                                                   data_name, errno_text(err)));
        }
        s.file.reset();
        const std::int64_t t =
            s.options.clock ? s.options.clock() : static_cast<std::int64_t>(std::time(nullptr));
        if (auto done = finish_entry(dfd, s.options, id, s.retained, t); !done)
            return std::unexpected(done.error());
        return id;
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

void StoreWriter::abort() {
    if (!m_state || !m_state->file.ok()) return;
    m_state->file.reset();
    m_state->finished = true;
    unlink_quietly(m_state->dir.get(), m_state->tmp);
}

} // namespace sutra::core
