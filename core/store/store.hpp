#pragma once
// The local store of originals: each view's elided bytes, kept so a marker can be redeemed.
//
// Its rules, each kept by one file:
// - Permissions (core/util/posix_io.cpp, core/store/store_dir.cpp). The directory is the user's own
// and
//   0700: created so with each missing parent, an existing one lstat'ed and opened
//   O_DIRECTORY|O_NOFOLLOW, refused (`unsafe`) when it is a symlink, not a directory, another
//   user's or swapped while being opened; a drifted mode is tightened. Every later operation is
//   relative to that descriptor (openat, renameat, unlinkat, fstatat(AT_SYMLINK_NOFOLLOW)).
// - O_NOFOLLOW everywhere. No file in the store is opened through a link; a link planted at the
//   stamp or the ledger is removed and the file made afresh.
// - O_EXCL. Every file is born 0600 under a temp name with a random suffix, O_CREAT|O_EXCL, then
//   renamed into place: nothing is ever written through an existing name, and a collision (a
//   planted name) is retried with another suffix. The key is linked into place so two first opens
//   agree on it (core/store/store_entry.cpp).
// - Validated ids. An id is "su_" + 32 hex digits of a keyed BLAKE2b-128 of the content under a
//   per-store secret; valid_id is checked before any path is built from one, and whole reads
//   check the content against it (core/store/store_format.cpp, core/store/store_entry.cpp).
// - Data before id. `<id>.data`, then `<id>.meta`, and only then is the id returned; a failed
//   metadata write removes the data. Streamed entries (StoreWriter, core/store/store_writer.cpp)
//   are invisible until commit.
// - Bounded reads. Metadata at most 4 KiB, the ledger at most 64 KiB, `read` only the asked range,
//   `read_all` at most the per-entry quota.
// - What a sweep may delete (core/store/store_sweep.cpp): `tmp.*` files older than a minute (a dead
//   writer's) or not regular, data without metadata older than a minute, metadata without data,
//   anything not a regular file at an entry's name (planted), corrupt or expired entries, then the
//   oldest entries of a store over a quota until it is a tenth below each quota (so a full store
//   sweeps once in ~200 writes, not on each), never the entry the sweeping put is
//   about to hand out (and a put re-checks its entry after sweeping: an id is handed out only
//   for bytes that exist). Nothing else in the directory: not the key, the stamp, the ledger, the
//   stats log or ns/.
// - Reads create nothing: open_existing finds a store or fails `not_found`.
// - The ledger. `sweep.ledger` holds `BYTES ENTRIES` the last sweep left, then one line per put
//   since (O_APPEND); a put checks both quotas from it, with no listing and no stat per entry,
//   under its shared flock (a sweep holds the exclusive one until it has restarted the ledger).
//   Missing, garbled or oversized, it makes the put sweep, which restarts it. A put also sweeps
//   every 128 writes of a process and when `sweep.stamp` is over ten minutes old.
// docs/store.md has the same rules with their reasons.

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace sutra::core {

/// Seams for tests, so none has to reach into the store's internals. Never set outside tests.
struct StoreTestHooks {
    /// Supplies temp-file suffixes, so a test can plant a file at the exact temp path a put uses.
    std::function<std::string()> temp_suffix;
    /// False: only a quota or the stamp's age makes a put sweep, not the every-128-writes rule.
    bool sweep_every_128_writes = true;
};

struct StoreOptions {
    std::string dir; ///< the store directory (created 0700 if missing)
    std::uint64_t max_entry_bytes = 32ull << 20;
    std::uint64_t max_total_bytes = 128ull << 20;
    std::uint64_t max_entries = 2000;
    std::int64_t ttl_seconds = 7 * 24 * 3600;
    bool fsync = false; ///< fsync each entry: survives power loss, costs ~10-20 ms a write
    /// Seconds since the epoch; tests replace it to move time.
    std::function<std::int64_t()> clock;
    StoreTestHooks test; ///< empty outside tests
};

enum class StoreErrc {
    bad_id,    ///< not ^su_[0-9a-f]{32}$
    not_found, ///< unknown id (or already swept)
    expired,   ///< older than the TTL
    corrupt,   ///< metadata unreadable, size mismatch or content hash mismatch (entry deleted)
    too_large, ///< over the per-entry quota
    unsafe,    ///< directory is a symlink, not a directory, or owned by another user
    io,        ///< any other system error
};

struct StoreError {
    StoreErrc code;
    std::string message; ///< one line, no tool output
};

struct EntryInfo {
    std::uint64_t size = 0;
    std::int64_t created = 0; ///< seconds since the epoch
    std::int64_t expires = 0;
};

/// True for `su_` followed by exactly 32 lowercase hex digits. Checked before any path is built.
bool valid_id(std::string_view id);

class StoreWriter;

/// An open store. Cheap to copy; holds the directory path and the key, no file descriptors.
class Store {
public:
    /// Creates or validates the directory and its key. Fails with `unsafe` for a symlink,
    /// a non-directory or another user's directory; tightens an existing one to 0700.
    static std::expected<Store, StoreError> open(const StoreOptions& options);

    /// As open, but creates nothing: a missing directory or key is `not_found`. Reads (restore)
    /// use it, so a read never makes a store, a namespace or a key as a side effect.
    static std::expected<Store, StoreError> open_existing(const StoreOptions& options);

    /// The id the content would get: "su_" + hex of a 16-byte keyed BLAKE2b hash.
    std::string id_for(std::string_view content) const;

    /// Writes the content (data, then metadata, each temp + rename) and returns its id only once
    /// both are on disk. Storing the same content again refreshes its lifetime. May sweep.
    std::expected<std::string, StoreError> put(std::string_view content);

    /// Starts an entry written as it streams (see StoreWriter): a private temp file now, the
    /// entry itself only at commit.
    std::expected<StoreWriter, StoreError> begin_put() const;

    /// Size and lifetime of an entry; expired or corrupt entries are refused (corrupt ones
    /// deleted).
    std::expected<EntryInfo, StoreError> info(std::string_view id) const;

    /// Reads bytes [begin, end) of an entry, end clamped to its size. Verifies the entry first.
    std::expected<std::string, StoreError>
    read(std::string_view id, std::uint64_t begin, std::uint64_t end) const;

    /// Reads the whole entry (bounded by the per-entry quota) and verifies its content hash.
    std::expected<std::string, StoreError> read_all(std::string_view id) const;

    /// Removes expired entries, orphans and stale temp files, then the oldest entries until the
    /// count and byte quotas hold. Errors are ignored: another process may be sweeping too.
    void sweep() const;

    const std::string& dir() const { return m_options.dir; }
    const StoreOptions& options() const { return m_options; }

private:
    StoreOptions m_options;
    std::string m_key; ///< 32 secret bytes
    std::int64_t now() const;
    static std::expected<Store, StoreError> open_with(const StoreOptions& options, bool create);
    /// put with its id, which must be id_for(content): a wrong one would name other bytes.
    std::expected<std::string, StoreError> put(std::string_view content, std::string_view id);
};

/// One entry written as it streams (`sutra exec`): each append goes to a 0600 temp file created
/// O_CREAT|O_EXCL|O_NOFOLLOW in the store directory and into an incremental keyed BLAKE2b, so
/// the committed id equals `id_for` of the retained bytes. Bytes past the per-entry quota, or
/// after a write error, are counted but not retained: the entry holds exactly bytes
/// [0, retained()) of the stream. Nothing is visible under an id until commit (data, then
/// metadata, each renamed into place); destruction without commit removes the temp file.
class StoreWriter {
public:
    StoreWriter(StoreWriter&&) noexcept;
    StoreWriter& operator=(StoreWriter&&) noexcept;
    ~StoreWriter();

    /// Appends bytes. Returns false once retention has stopped (quota reached or a write
    /// failed); the bytes are still counted in seen().
    bool append(std::string_view bytes);

    std::uint64_t seen() const;     ///< bytes appended in all
    std::uint64_t retained() const; ///< bytes written to the entry: a prefix of the stream
    /// Why retention stopped early: empty while everything is retained; "quota" at the
    /// per-entry quota; else the write error.
    const std::string& stopped() const;

    /// Refreshes the temp file's time so a sweep by another process does not take it for a
    /// dead writer's leftover during a long quiet run.
    void keep_alive();

    /// Publishes the retained bytes and returns their id. The writer is finished afterwards.
    std::expected<std::string, StoreError> commit();

    /// Removes the temp file; nothing is stored.
    void abort();

private:
    struct State;
    explicit StoreWriter(std::unique_ptr<State> state);
    std::unique_ptr<State> m_state;
    friend class Store;
};

} // namespace sutra::core
