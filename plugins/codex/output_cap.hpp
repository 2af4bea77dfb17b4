#pragma once
// Codex's output cap, `tool_output_token_limit` in config.toml (docs/adapters.md, "Codex: whole
// outputs"). Codex cuts a shell result to its budget *before* the PostToolUse hook runs: 10,000
// bytes when the key is unset (Codex 0.171.0, a model it does not know), else the smaller of the
// key and exec_command's `max_output_tokens` (10,000 tokens unless the model asks for more),
// counting 4 bytes a token. `sutra install --client codex --raise-output-cap` raises the key to
// k_raised_cap so that sutra, not Codex's head-and-tail cut, decides what the model sees.
//
// Safe by three rules: the cap is raised only while Codex has recorded trust for sutra's hook
// (a `[hooks.state."<hooks.json>:post_tool_use:G:H"]` table with a `trusted_hash`, which Codex
// writes when the user approves the hook in /hooks) and the hook was not just (re)written;
// otherwise a raised cap would hand the model whole outputs. The raised line carries the user's
// own line in its comment, so `sutra uninstall` puts those bytes back exactly (or removes the
// line when install added it). A line the user edited since is left alone.

#include "plugins/common/files.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sutra::plugins::codex {

/// Tokens; Codex counts 4 bytes a token, so 256 KiB of output reach the hook whole.
inline constexpr std::uint64_t k_raised_cap = 65536;

/// What config.toml says about the cap, and whether sutra raised it.
struct CapState {
    std::optional<std::uint64_t> tokens; ///< the top-level value; nullopt when unset
    bool raised_by_sutra = false;        ///< the line carries sutra's marker
    bool readable = true;                ///< false: a value that is not a plain integer
};

CapState read_cap(const std::string& toml);

/// The key Codex files the trust of our PostToolUse hook under, from hooks.json's text and path
/// ("<path>:post_tool_use:<group>:<handler>"); nullopt when our hook is not in it.
std::optional<std::string> hook_trust_key(const std::string& hooks_json, const std::string& path);

/// True when config.toml records trust (a trusted_hash) for `key`.
bool hook_trusted(const std::string& toml, const std::string& key);

/// `toml` with the cap at k_raised_cap: the user's lower line replaced by sutra's (which keeps
/// it in its comment), or sutra's line added at the top. The same text when nothing is to do.
std::string with_raised_cap(const std::string& toml);

/// `toml` with sutra's cap line put back as the user had it; the same text when there is none.
std::string without_raised_cap(const std::string& toml);

/// Adds the cap to the install's plans (editing a config.toml plan already there, else adding
/// one without a backup: the line itself holds what uninstall restores) and says in `result`
/// what was done or why not. `hook_changed`: this install (re)wrote the hook, whose trust Codex
/// then asks for again.
void plan_raised_cap(std::vector<common::FilePlan>& plans,
                     const std::string& config_path,
                     const std::string& hooks_path,
                     bool hook_changed,
                     common::ojson& result);

/// For an install that (re)writes the hook, whose trust Codex then asks for again: a cap sutra
/// raised goes back to the user's own line in the same plans (editing a config.toml plan already
/// there, else adding one), and `result` says so.
void plan_lowered_cap(std::vector<common::FilePlan>& plans,
                      const std::string& config_path,
                      common::ojson& result);

/// True when Codex cuts shell output before sutra's hook sees it: the cap is unset, below
/// k_raised_cap (what --raise-output-cap writes), or not a plain integer.
bool cap_cuts(const CapState& s);

/// What install and doctor print as uncovered for `toml` (config.toml's text):
/// [{"what","command"}] while cap_cuts, else []. The same rule as cap_report's.
common::ojson cap_uncovered(const std::string& toml);

/// The doctor's view: {"tokens","raised_by_sutra","hook_trusted","cuts_before_sutra","note"}.
common::ojson cap_report(const std::string& config_path, const std::string& hooks_path);

} // namespace sutra::plugins::codex
