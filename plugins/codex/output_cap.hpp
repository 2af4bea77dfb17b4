#pragma once
// Codex's output cap, `tool_output_token_limit` in config.toml (docs/adapters.md, "Codex: whole
// outputs"). Codex cuts a shell result to its budget *before* the PostToolUse hook runs: 10,000
// bytes when the key is unset (Codex 0.171.0, a model it does not know), else the smaller of the
// key and exec_command's `max_output_tokens` (10,000 tokens unless the model asks for more),
// counting 4 bytes a token. `sutra install --client codex --raise-output-cap` raises the key to
// k_raised_cap so that sutra, not Codex's head-and-tail cut, decides what the model sees.
//
// Safe by three rules: the cap is raised, and stays raised, only while Codex's own app-server
// reports sutra's hook trusted and enabled with the command sutra wrote (hook_trust.hpp), asked
// again at every install and doctor; otherwise Codex skips the hook silently and a raised cap
// would hand the model whole outputs. The raised line carries the user's own line in its
// comment, so `sutra uninstall` (or an install that finds the hook no longer trusted) puts those
// bytes back exactly, or removes the line when install added it. A line the user edited since
// is left alone.

#include "plugins/codex/hook_trust.hpp"
#include "plugins/common/files.hpp"

#include <cstdint>
#include <functional>
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

/// Asks Codex whether it runs sutra's hook; called only when the answer decides something
/// (starting Codex takes a second or more).
using TrustCheck = std::function<HookTrust()>;

/// `toml` with the cap at k_raised_cap: the user's lower line replaced by sutra's (which keeps
/// it in its comment), or sutra's line added at the top. The same text when nothing is to do.
std::string with_raised_cap(const std::string& toml);

/// `toml` with sutra's cap line put back as the user had it; the same text when there is none.
std::string without_raised_cap(const std::string& toml);

/// The cap's part of an install, added to its plans (editing a config.toml plan already there,
/// else adding one without a backup: the line itself holds what uninstall restores), with what
/// was done or why not in `result`. `hook_changed`: this install (re)wrote the hook, whose trust
/// Codex then asks for again, so a cap sutra raised goes back to the user's line. Otherwise a
/// cap sutra raised goes back too when `trust` is not verified, and `raise`
/// (--raise-output-cap) raises it only when `trust` is.
void plan_output_cap(std::vector<common::FilePlan>& plans,
                     const std::string& config_path,
                     bool hook_changed,
                     bool raise,
                     const TrustCheck& trust,
                     common::ojson& result);

/// True when Codex cuts shell output before sutra's hook sees it: the cap is unset, below
/// k_raised_cap (what --raise-output-cap writes), or not a plain integer.
bool cap_cuts(const CapState& s);

/// What install and doctor print as uncovered for `toml` (config.toml's text):
/// [{"what","command"}] while cap_cuts, else []. The same rule as cap_report's.
common::ojson cap_uncovered(const std::string& toml);

/// The doctor's view: {"tokens","raised_by_sutra","hook_trusted","hook_trust","cuts_before_sutra",
/// "problem","note"}. `trust` is asked only when the cap lets whole outputs through; such a cap
/// without it is a problem ("hook_trust": the status Codex reported, null when not asked).
common::ojson cap_report(const std::string& config_path, const TrustCheck& trust);

} // namespace sutra::plugins::codex
