#pragma once
// Whether Codex runs sutra's hook, as Codex itself says (app_server.hpp, `hooks/list`): the
// PostToolUse entry of $CODEX_HOME/hooks.json whose command is the one sutra wrote, trusted and
// enabled. Codex skips an untrusted or disabled hook silently, so this is what a raised output
// cap depends on (output_cap.hpp); anything short of that answer, including no answer at all,
// counts as not verified.

#include "plugins/codex/app_server.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace sutra::plugins::codex {

struct HookTrust {
    bool verified = false; ///< Codex lists the hook trusted, enabled, with sutra's command
    /// Codex's trustStatus ("trusted", "modified", "untrusted", …) when it lists the hook, else
    /// what stood in the way ("disabled", "not listed", "another command", "no codex", "no
    /// answer").
    std::string status;
    std::string why; ///< one clause for messages, naming what Codex reported
};

/// Judges a `hooks/list` result for the PostToolUse hook of `hooks_path` running `command`.
HookTrust judge_hooks_list(const nlohmann::json& result,
                           const std::string& hooks_path,
                           const std::string& command);

/// Asks the codex program (find_codex) about the hook under `codex_home`/hooks.json.
HookTrust check_hook_trust(const std::string& codex_home,
                           const std::string& command,
                           std::chrono::milliseconds timeout = k_app_server_timeout);

} // namespace sutra::plugins::codex
