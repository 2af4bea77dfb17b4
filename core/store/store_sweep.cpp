// Sweeps and quotas for the store (core/store/store.hpp states what a sweep may delete). A sweep
// lists the directory once, removes what is dead, broken or planted, then the oldest entries beyond
// the quotas, and restarts the ledger; a write sweeps only when the ledger, the stamp's age or the
// write count says so, so a full store costs a write no listing and no stat per entry.
#include "core/store/store_sweep.hpp"

#include "core/store/store_dir.hpp"
#include "core/store/store_format.hpp"
#include "core/util/posix_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <limits>
#include <map>
#include <optional>
#include <sys/file.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace sutra::core {

namespace store_detail {

namespace {

constexpr std::int64_t k_orphan_age = 60;
constexpr std::int64_t k_sweep_interval = 600;
constexpr unsigned k_sweep_every_writes = 128;
constexpr const char* k_stamp_name = "sweep.stamp";
constexpr const char* k_ledger_name = "sweep.ledger";
constexpr off_t k_max_ledger_bytes = 64 * 1024; // about 5,000 puts between sweeps

// Writes by this process; every 128th one sweeps (reconciles other processes' writes).
std::atomic<unsigned> g_store_writes{0};

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

// What the store holds by the ledger's count: the last sweep's totals plus each write since.
struct Tally {
    std::uint64_t bytes = 0;
    std::uint64_t entries = 0;
};

// The ledger (sweep.ledger, beside the stamp): its first line is what the last sweep left,
// `BYTES ENTRIES`, and each write since appended its size on a line of its own. Checking both
// quotas then costs one small read, not a listing or a stat of every entry, which on a full store
// (2,000 entries) dominated every hook call. A re-put of an existing entry is counted twice, which
// only sweeps early. nullopt (empty, garbled, the older one-number first line) means "sweep now".
std::optional<Tally> parse_ledger(std::string_view text) {
    Tally tally;
    std::uint64_t value = 0;
    bool digits = false;
    int fields = 0; // numbers on the current line
    bool first_line = true;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            if (value > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return std::nullopt;
            value = value * 10 + static_cast<std::uint64_t>(c - '0');
            digits = true;
            continue;
        }
        if (!digits || (c != '\n' && !(c == ' ' && first_line && fields == 0)))
            return std::nullopt; // a torn or foreign line: let a sweep recount
        std::uint64_t& into = first_line && fields == 1 ? tally.entries : tally.bytes;
        if (into > std::numeric_limits<std::uint64_t>::max() - value) return std::nullopt;
        into += value;
        value = 0;
        digits = false;
        ++fields;
        if (c == '\n') {
            if (first_line && fields != 2) return std::nullopt;
            if (!first_line) ++tally.entries;
            first_line = false;
            fields = 0;
        }
    }
    if (digits || first_line) return std::nullopt;
    return tally;
}

// How long a write or a sweep waits for the ledger's lock. A sweep of 2,000 entries holds it
// about 50 ms; a holder that was stopped (a suspended `sutra exec`) must not stall every other
// call, so past this the caller goes on without it (a write racing a sweep may then go uncounted
// until the next sweep, as before the lock).
constexpr int k_ledger_wait_ms = 1000;

// flock(fd, op), waiting at most k_ledger_wait_ms; false past that or on an error.
bool lock_within(int fd, int op) {
    for (int waited_ms = 0;; ++waited_ms) {
        if (::flock(fd, op | LOCK_NB) == 0) return true;
        if ((errno != EWOULDBLOCK && errno != EINTR) || waited_ms >= k_ledger_wait_ms) return false;
        ::usleep(1000);
    }
}

// Checks a write of `size` bytes against both quotas by the ledger and, when it fits, appends
// its line. The check holds the ledger's shared lock; a sweep holds the exclusive one from its
// listing to its restart of the ledger, so no write's line lands between them and is lost. False
// (nothing appended) when the write takes the store over a quota or the ledger cannot be trusted:
// the caller then sweeps.
bool count_write(int dirfd, const StoreOptions& options, std::uint64_t size) {
    UniqueFd fd(
        ::openat(dirfd, k_ledger_name, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    struct stat st {};
    if (!fd.ok() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    lock_within(fd.get(), LOCK_SH); // past the bound, count unlocked
    if (::fstat(fd.get(), &st) != 0 || st.st_size > k_max_ledger_bytes) return false;
    std::string text;
    pread_all(fd.get(), 0, static_cast<std::size_t>(st.st_size), text);
    const auto tally = parse_ledger(text);
    if (!tally || tally->entries >= options.max_entries ||
        tally->bytes > options.max_total_bytes - std::min(size, options.max_total_bytes))
        return false;
    const std::string line = std::to_string(size) + "\n";
    [[maybe_unused]] const ssize_t n = ::write(fd.get(), line.data(), line.size());
    return true;
}

// A sweep that must evict goes a tenth below each quota (ccache's cleanup goes to 80% of its
// limit), so a full store sweeps once in about 200 writes, not on every one: a sweep reads every
// entry's metadata (about 50 ms on 2,000 entries here). Quotas under ten keep their own value.
std::uint64_t low_water(std::uint64_t quota) {
    return quota - quota / 10;
}

bool exists(int dirfd, const std::string& name) {
    struct stat st {};
    return ::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

/// Removes what is expired, broken or planted, then the oldest entries beyond the quotas, never
/// `keep` (the entry a put is about to hand out); returns what it left.
Tally sweep_dir(int dirfd,
                const StoreOptions& options,
                std::int64_t now,
                std::string_view keep = {}) {
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
                (!S_ISREG(st.st_mode) || saturating_age(now, st.st_mtime) > k_orphan_age))
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
            if (saturating_age(now, files.data_mtime) > k_orphan_age && !exists(dirfd, meta_name))
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
    const bool over = count > options.max_entries || bytes > options.max_total_bytes;
    const std::uint64_t entries_goal = over ? low_water(options.max_entries) : options.max_entries;
    const std::uint64_t bytes_goal =
        over ? low_water(options.max_total_bytes) : options.max_total_bytes;
    for (const auto& entry : live) {
        if (count <= entries_goal && bytes <= bytes_goal) break;
        // Oldest first, ties (whole seconds) by id; the entry being written is never its own
        // sweep's victim, whatever its id.
        if (entry.id == keep) continue;
        remove_entry(dirfd, entry.id);
        --count;
        bytes -= entry.size;
    }
    return Tally{bytes, count};
}

// Opens (creating) one of the store's own small files for writing, refusing to follow a link:
// a planted symlink is removed and the file made afresh.
UniqueFd open_own_file(int dirfd, const char* name, int extra_flags) {
    const int flags = O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | extra_flags;
    UniqueFd fd(::openat(dirfd, name, flags, 0600));
    if (!fd.ok() && errno == ELOOP) {
        unlink_quietly(dirfd, name);
        fd = UniqueFd(::openat(dirfd, name, flags | O_EXCL, 0600));
    }
    struct stat st {};
    if (fd.ok() && (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))) return UniqueFd();
    return fd;
}

/// Sweeps with the ledger's exclusive lock held (see count_write), restarts the ledger at what the
/// sweep left and marks the sweep: the stamp's time is the sweep's (the store's clock, so an
/// injected clock stays consistent with it).
void sweep_and_restart(int dirfd,
                       const StoreOptions& options,
                       std::int64_t now,
                       std::string_view keep = {}) {
    UniqueFd ledger = open_own_file(dirfd, k_ledger_name, 0);
    if (ledger.ok()) lock_within(ledger.get(), LOCK_EX); // past the bound, sweep unlocked
    const Tally left = sweep_dir(dirfd, options, now, keep);
    if (ledger.ok() && ::ftruncate(ledger.get(), 0) == 0) {
        const std::string line = fmt::format("{} {}\n", left.bytes, left.entries);
        [[maybe_unused]] const ssize_t n = ::pwrite(ledger.get(), line.data(), line.size(), 0);
    }
    UniqueFd fd = open_own_file(dirfd, k_stamp_name, 0);
    if (!fd.ok()) return;
    const struct timespec times[2] = {{static_cast<time_t>(now), 0}, {static_cast<time_t>(now), 0}};
    ::futimens(fd.get(), times);
}

bool stamp_stale(int dirfd, std::int64_t now) {
    struct stat st {};
    if (::fstatat(dirfd, k_stamp_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return true;
    return saturating_age(now, st.st_mtime) >= k_sweep_interval;
}

} // namespace

std::expected<void, StoreError> finish_entry(int dirfd,
                                             const StoreOptions& options,
                                             const std::string& id,
                                             std::uint64_t size,
                                             std::int64_t t) {
    // One entry must fit the store, or its own sweep would have to take it: refuse it instead.
    if (size > options.max_total_bytes || options.max_entries == 0) {
        unlink_quietly(dirfd, id + ".data");
        return fail(StoreErrc::too_large,
                    fmt::format("store: {} bytes do not fit the store's quota ({} bytes, {} "
                                "entries)",
                                size, options.max_total_bytes, options.max_entries));
    }
    if (auto written = write_meta(dirfd, options, id, size, t); !written) return written;
    if (options.fsync) ::fsync(dirfd);

    const unsigned writes = ++g_store_writes;
    const bool periodic = options.test.sweep_every_128_writes && writes % k_sweep_every_writes == 0;
    // Past the write count or the stamp's age a sweep is due anyway; else the ledger decides.
    if (periodic || stamp_stale(dirfd, t) || !count_write(dirfd, options, size))
        sweep_and_restart(dirfd, options, t, id);
    // An id is handed out only for bytes that exist: another process's sweep may have taken
    // the entry since it was written.
    if (!exists(dirfd, id + ".meta") || !exists(dirfd, id + ".data"))
        return fail(StoreErrc::not_found,
                    fmt::format("store: id {} was swept by another writer before it could be "
                                "handed out",
                                id));
    return {};
}

} // namespace store_detail

void Store::sweep() const {
    try {
        auto dirfd = store_detail::open_store_dir(m_options.dir);
        if (!dirfd) return;
        const std::int64_t t = now();
        store_detail::sweep_and_restart(dirfd->get(), m_options, t);
    } catch (...) {
        // Sweeping is best effort; another process may be doing the same.
    }
}

} // namespace sutra::core
