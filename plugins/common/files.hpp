#pragma once
// The file I/O of install and uninstall: reading a file that may be absent, writing one atomically
// with its permissions kept, the FILE.sutra-backup[-N] chain that keeps a user's exact bytes, and
// the "plan, then write" step, so an install that touches several files checks them all before
// writing any. hook_settings.hpp, plugin_files.hpp and mcp_registration.hpp all write through it.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace sutra::plugins::common {

using ojson = nlohmann::ordered_json;

/// The file's bytes; nullopt when it does not exist. Throws on other errors, and for anything
/// but a regular file of at most 64 MiB (a FIFO never blocks the call).
std::optional<std::string> read_text(const std::string& path);

/// Writes via a temporary file and rename, keeping `mode`; creates the parent folder.
void write_atomic(const std::string& path, const std::string& data, mode_t mode);

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
/// bytes `after` holds and which is removed once they are back in place.
struct FilePlan {
    std::string path;
    std::string action; ///< create, modify, restore, delete
    std::optional<std::string> before;
    std::optional<std::string> after;
    std::optional<std::string> restore_from;
    /// A modified file's old bytes go to a fresh backup first, except when uninstall strips our
    /// entry from a file the user edited since install (its backups stay as they are).
    bool backup_before = true;
    /// Permissions of a file install creates (an existing file keeps its own).
    mode_t create_mode = 0644;
};

/// Writes the plans (unless dry_run) and reports them in the shape install/uninstall return:
/// {"ok","changed","files":[…],"messages":[]}. A modified file's old bytes go to a fresh backup
/// first.
ojson apply_plans(const std::vector<FilePlan>& plans, bool dry_run);

} // namespace sutra::plugins::common
