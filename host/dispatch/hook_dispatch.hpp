#pragma once
// One hook call: payload in, the exact stdout bytes out, for `sutra-host --adapter` (and the
// tests and fuzz targets that drive a module in process). `sutra doctor` does not call it: it runs
// the installed hook command itself through the shell (popen, host/cli/cli_install.cpp
// run_sample), so it checks what the host will really run. Fail open: every error yields ""
// (print nothing), with the reason in `why`.

#include "core/compress.hpp"
#include "core/config.hpp"

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace sutra::host {

class Plugin;

/// How a host names its persisted outputs: `prefix`, 1-120 of [A-Za-z0-9_-], `suffix`. The
/// module states it in its decode answer (`read_file.name_prefix`, `read_file.name_suffix`;
/// default: no prefix, ".txt").
struct PersistedName {
    std::string prefix;
    std::string suffix = ".txt";
};

/// The largest host-persisted output read. Past the store's per-entry quota (32 MiB) the core
/// still makes a bounded view, so a large log reaches the model as a view, not as the host's cut.
inline constexpr std::uint64_t k_persisted_output_cap = 256ull << 20;

/// Reads a host-persisted full output under every check: `path` absolute, named as `naming`
/// says, directly inside `allowed_dir` (no `.`/`..` components), lstat a regular file of exactly
/// `expected_size` bytes, opened with O_NOFOLLOW, at most `limit` bytes, valid UTF-8. Any failed
/// check is an error naming it; the caller then passes through.
std::expected<std::string, std::string>
read_persisted_output(const std::string& path,
                      std::uint64_t expected_size,
                      const std::string& allowed_dir,
                      std::uint64_t limit = k_persisted_output_cap,
                      const PersistedName& naming = {});

/// Runs decode → (checked file read) → core::compress → encode, or returns the adapter's own
/// answer when decode says "respond" (Claude Code's PreToolUse rewrite). Returns the bytes to
/// print; "" means pass through, and `why` then says why (for SUTRA_DEBUG).
std::string run_hook(const Plugin& plugin, std::string_view payload, std::string& why);

/// What a hook call leaves to do once its answer is out: a rewrite's exact token counts for the
/// stats log (core::log_counted), with the texts and configuration they come from.
struct HookAfter {
    core::StatsLater stats; ///< stats.due: the counts are still to be made
    std::string original;
    std::string view;
    core::Config config;
};

/// As run_hook, but a rewrite's token counts are left in `after` instead of being made before
/// the answer (`sutra-host` makes them once the answer is written).
std::string
run_hook(const Plugin& plugin, std::string_view payload, std::string& why, HookAfter& after);

} // namespace sutra::host
