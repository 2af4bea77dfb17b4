#pragma once
// Every setting's value, and where it came from (core/config.cpp loads them; the setting table in
// core/config_settings.hpp names and checks them). A header of its own so the readers of the
// settings (config_settings, config_file) need not include the loader.

#include "core/request.hpp"
#include "core/trust.hpp"

#include <cstdint>
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

} // namespace sutra::core
