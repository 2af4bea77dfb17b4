#pragma once
// Trusted project rules. A repository may carry its own `.sutra.toml`, but a cloned repository
// must not change what the agent sees: the file is ignored until the user runs `sutra trust`,
// which records its SHA-256 with its canonical path in a user-owned file. Any change to the
// project file makes it untrusted again. See docs/configuration.md ("Project rules").

#include <cstdint>
#include <expected>
#include <map>
#include <string>
#include <vector>

namespace sutra::core {

inline constexpr const char* k_project_file_name = ".sutra.toml";
inline constexpr std::size_t k_max_project_file_bytes = 64 * 1024;

/// What became of the project file found from the working directory.
enum class ProjectState {
    none,      ///< no `.sutra.toml` between the working directory and $HOME or /
    untrusted, ///< found, never trusted: ignored
    changed,   ///< trusted once, but its content changed since: ignored
    refused,   ///< unsafe (symlink, not ours, writable by others, too large, unreadable): ignored
    invalid,   ///< trusted, but does not parse or sets a key a project may not set: ignored
    applied,   ///< trusted and applied
};

struct ProjectRules {
    ProjectState state = ProjectState::none;
    std::string path;   ///< canonical path of the file (empty for `none`)
    std::string reason; ///< why it was refused or is invalid; one line
    std::string text;   ///< the checked content (for `untrusted`, `changed`, `applied`, `invalid`)
    std::string hash;   ///< "sha256:" + hex of `text`
};

/// One recorded trust: the canonical path and the hash of the content the user trusted.
struct TrustEntry {
    std::string path;
    std::string hash;
};

/// The first `.sutra.toml` (any kind of file, a symlink included) in `cwd` or a parent, up to and
/// including `home` when `cwd` is below it, else up to `/`. Empty when there is none.
std::string find_project_file(const std::string& cwd, const std::string& home);

/// Reads and checks a project file: not a symlink, a regular file owned by this user and not
/// writable by group or others, at most 64 KiB. Fills path (canonical), text and hash; on a
/// failed check returns state `refused` with the reason.
ProjectRules inspect_project_file(const std::string& path);

/// Where trusts are recorded: $XDG_CONFIG_HOME/sutra/trusted-projects, else
/// ~/.config/sutra/trusted-projects (empty when no home can be found).
std::string trust_file_path(const std::map<std::string, std::string>& env);

/// The recorded trusts. A missing file is an empty list; a file that is a symlink, not ours,
/// writable by others or malformed is an error (and so trusts nothing).
std::expected<std::vector<TrustEntry>, std::string> read_trusts(const std::string& trust_file);

/// Replaces the trust file atomically (0600 temp file, fsync, rename); creates its folder 0700.
std::expected<void, std::string> write_trusts(const std::string& trust_file,
                                              const std::vector<TrustEntry>& entries);

/// Finds the project file from `cwd`, checks it and compares it with the recorded trusts.
/// Never fails: every problem is a state that ignores the file.
ProjectRules resolve_project_rules(const std::string& cwd,
                                   const std::map<std::string, std::string>& env);

/// A short word for the state ("trusted, applied", "not trusted: ignored", ...).
std::string describe_project_state(const ProjectRules& rules);

} // namespace sutra::core
