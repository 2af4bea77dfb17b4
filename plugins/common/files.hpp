#pragma once
// The file I/O of install and uninstall: reading a file that may be absent, writing one atomically
// with its permissions kept, the FILE.sutra-backup[-N] chain that keeps a user's exact bytes, and
// the "plan, then write" step, so an install that touches several files checks them all before
// writing any. hook_settings.hpp, plugin_files.hpp and mcp_registration.hpp all write through it.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace sutra::plugins::common {

using ojson = nlohmann::ordered_json;

/// The file's bytes; nullopt when it does not exist. Throws on other errors, and for anything
/// but a regular file of at most 64 MiB (a FIFO never blocks the call).
std::optional<std::string> read_text(const std::string& path);

/// A file's bytes mapped read-only, by read_text's rules (opened O_NONBLOCK, a regular file, at
/// most 64 MiB), for a large file a hook reads on every call: Claude Code's `.claude.json` (8 MB
/// after long use). Copying it into a buffer, with that buffer's page faults, was a third of the
/// call (15 ms -> 9-10 ms per call, docs/benchmark.md, session 17). A file truncated while
/// mapped faults (SIGBUS) on a read past its new end; `sutra-host` then ends quietly, which is a
/// pass-through.
class MappedText {
public:
    MappedText() = default;
    MappedText(const void* data, std::size_t size) : m_data(data), m_size(size) {}
    MappedText(MappedText&& other) noexcept;
    MappedText& operator=(MappedText&& other) noexcept;
    MappedText(const MappedText&) = delete;
    MappedText& operator=(const MappedText&) = delete;
    ~MappedText();
    std::string_view text() const { return {static_cast<const char*>(m_data), m_size}; }

private:
    const void* m_data = nullptr; ///< null for an empty file
    std::size_t m_size = 0;
};

/// The file mapped (MappedText); nullopt when it does not exist. Throws as read_text does.
std::optional<MappedText> map_text(const std::string& path);

/// Writes via a temporary file and rename, keeping `mode`; creates the parent folder. Errors
/// name `path`, never the temporary file.
void write_atomic(const std::string& path, const std::string& data, mode_t mode);

/// Throws when the existing file at `path` has no owner write bit: a file the user made
/// read-only is refused, not replaced by rename (which the folder's permissions would allow).
void check_writable(const std::string& path);

/// The file's permission bits; `fallback` when it cannot be read (no such file).
mode_t file_mode(const std::string& path, mode_t fallback);

/// One entry of a result's "files": {"path","action","before","after"} (absent = null).
ojson file_change(const std::string& path,
                  const std::string& action,
                  const std::optional<std::string>& before,
                  const std::optional<std::string>& after);

/// FILE.sutra-backup, FILE.sutra-backup-2, … that exist, oldest first.
std::vector<std::string> backups(const std::string& path);

/// The newest FILE.sutra-backup[-N], if any.
std::optional<std::string> latest_backup(const std::string& path);

/// The first FILE.sutra-backup[-N] that does not exist yet: where the next backup goes.
std::string next_backup(const std::string& path);

/// One file's intended change: after = nullopt deletes it; restore_from names a backup whose
/// bytes `after` holds. Paths are written through symlinks (paths.hpp, real_target), never
/// replacing the link.
struct FilePlan {
    std::string path;
    std::string action; ///< create, modify, restore, delete
    std::optional<std::string> before;
    std::optional<std::string> after;
    std::optional<std::string> restore_from;
    /// A modified file's old bytes go to a fresh backup first. Planners clear it when `before`
    /// already holds a sutra entry (an upgrade or reinstall): only the user's own bytes, from
    /// before any install, are worth keeping, so there is one backup per file at most.
    bool backup_before = true;
    /// Backups removed once every file is written: uninstall leaves none behind.
    std::vector<std::string> remove_after{};
    /// Permissions of a file install creates (an existing file keeps its own).
    mode_t create_mode = 0644;
};

/// Which backups are sutra's. Neither a backup's name nor its bytes tell: a user may keep a
/// FILE.sutra-backup of their own, an earlier install's backup stays the user's once they took
/// sutra's entry out by hand, and install re-serializes JSON, so two different files can install
/// to the same text. So install records the name of the backup it writes in FILE.sutra-backups,
/// beside the file (it moves with the file, and outlives any sutra prefix or state folder), and
/// uninstall restores from and removes only the backups the record names, then the record. An
/// install into a file without sutra's entries starts the record afresh (every backup already
/// there pre-existed it); an upgrade keeps it.
std::string backup_record(const std::string& path);

/// The backups of `path` its record names and that exist, oldest first; nullopt without a record
/// (an install by an older sutra, or one cut short before its record was written: uninstall then
/// removes only the backup it restores, the newest from which install makes the current text).
std::optional<std::vector<std::string>> recorded_backups(const std::string& path);

/// What uninstall removes beside `path`: the recorded backups, then the record itself.
std::vector<std::string> recorded_leftovers(const std::string& path);

/// `plans` and, after them, the change to each file's record: naming only the backup a plan
/// writes, or gone when a plan creates the file. Written after the files in the same all or
/// nothing step, so a record never names a backup that a failed install rolled back.
std::vector<FilePlan> with_backup_records(std::vector<FilePlan> plans);

/// Writes the plans (unless dry_run) and reports them in the shape install/uninstall return:
/// {"ok","changed","files":[…],"messages":[]}. All or nothing: every file is checked first
/// (a read-only one is refused), and when a write fails the files already written get their
/// old bytes back and the error names the file that failed.
ojson apply_plans(std::vector<FilePlan> plans, bool dry_run);

/// apply_plans for an install: the plans with their backup records (with_backup_records).
ojson apply_install_plans(std::vector<FilePlan> plans, bool dry_run);

} // namespace sutra::plugins::common
