#pragma once
// Effective settings: built-in defaults, then the user's TOML file, then SUTRA_* variables.
// Each value remembers where it came from so `sutra config` can say so.

#include "core/request.hpp"
#include "core/trust.hpp"

#include <cstdint>
#include <expected>
#include <map>
#include <string>
#include <vector>

namespace sutra::core {

struct Config {
    // [compress]
    Mode mode = Mode::automatic;
    std::uint64_t min_bytes = 8192; ///< smaller results pass through unchanged
    std::uint64_t min_lines = 20;   ///< … and so do results with fewer lines (when not huge)
    std::uint64_t max_view_bytes = 65536;       ///< hard ceiling on every view
    std::uint64_t max_input_bytes = 1ull << 30; ///< larger inputs pass through unchanged
    std::uint32_t min_saving_percent = 10;      ///< a view must be at least this much smaller
    std::vector<std::string> keep_patterns; ///< extra key-line words (case-insensitive literals)

    // [store]
    bool store_enabled = true;
    std::string
        store_dir; ///< empty: $SUTRA_HOME, else $XDG_STATE_HOME/sutra, else ~/.local/state/sutra
    std::uint64_t max_entry_bytes = 32ull << 20;
    std::uint64_t max_total_bytes = 128ull << 20;
    std::uint64_t max_entries = 2000;
    std::int64_t ttl_seconds = 7 * 24 * 3600;
    bool fsync = false; ///< fsync each entry: survives power loss, costs ~10-20 ms a write

    // [restore]
    std::uint64_t restore_max_bytes = 8192; ///< default response bound (hard cap 64 KiB)

    // [stats]
    bool stats_enabled = true;
    std::uint64_t stats_max_bytes = 4ull << 20; ///< the JSONL log rotates past this size
    /// Count o200k tokens of each rewrite's original and view for `sutra stats` (exact BPE,
    /// ~100 MB/s; originals over k_stats_token_max_bytes are left uncounted, never estimated).
    bool stats_count_tokens = true;

    /// Setting name -> where its value came from ("default", "FILE:LINE", "env SUTRA_X").
    std::map<std::string, std::string> sources;
    /// The user config file consulted (may not exist).
    std::string config_path;
    /// The project's `.sutra.toml` found from the working directory, and what became of it.
    ProjectRules project;
};

constexpr std::uint64_t k_restore_hard_cap = 65536;
constexpr std::uint64_t k_stats_token_max_bytes = 16ull << 20;

/// Loads the effective configuration. A file that does not parse, or a setting of the wrong
/// type or out of range, gives an error naming the file and line; the caller decides whether
/// that is fatal (the CLI) or means pass-through (a hook).
std::expected<Config, std::string> load_config();

/// As load_config, but from explicit text (tests) with `path` used in messages, and with
/// `env` consulted instead of the process environment.
std::expected<Config, std::string> load_config_from(const std::string& toml_text,
                                                    const std::string& path,
                                                    const std::map<std::string, std::string>& env);

/// As load_config, with an explicit working directory (where the project file is looked for)
/// and environment. Layers: defaults, the user's file, a trusted project file, the environment.
std::expected<Config, std::string> load_config_in(const std::string& cwd,
                                                  const std::map<std::string, std::string>& env);

/// The settings a project file may set: compression only, never the store, retention, restore
/// or stats (a repository must not move or keep the user's data).
bool project_may_set(std::string_view setting);

/// The directory the store lives in, resolved from the config and environment.
std::string resolve_store_dir(const Config&);

/// `name = value  # source` lines for `sutra config`.
std::string describe_config(const Config&);

} // namespace sutra::core
