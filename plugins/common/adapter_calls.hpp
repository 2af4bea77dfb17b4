#pragma once
// What every adapter's entry points do with their arguments and results: read the options that
// `sutra install` passes to install/uninstall, answer "pass" with a reason, and turn an exception
// into {"ok":false,"error"} for the CLI. Used by all four adapters, also those with no hook
// settings file (OpenCode, Hermes), hence apart from hook_settings.hpp.

#include <nlohmann/json.hpp>

#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::plugins::common {

/// Options every install/uninstall gets: {"host_program": "/abs/sutra-host", "sutra_program":
/// "/abs/sutra" (the MCP server's binary; empty = register none), "dry_run": bool}.
struct Options {
    std::string host_program;
    std::string sutra_program;
    bool dry_run = false;
    /// Claude Code's PreToolUse route for Bash: "auto" (wrap only where wrapping cannot change
    /// a permission outcome), "always" (--wrap-bash: wherever the guard allows), "off"
    /// (--no-wrap-bash), or "" (not said: "always" stays when installed, else "auto").
    std::string bash_route;
    bool raise_output_cap = false;      ///< Codex: raise tool_output_token_limit (opt-in)
    bool statusline = false;            ///< Claude Code: sutra's statusLine, where there is none
    std::vector<std::string> mcp_tools; ///< MCP tools beyond the default: "files", "exec"
};

/// The options in `json_text`; defaults for what is missing, or for all when it is not an object.
Options parse_options(std::string_view json_text);

/// The string at `key`, or "" when it is missing or of another type (a host's optional field,
/// such as its session id, never costs the call).
std::string string_field(const nlohmann::json& object, const char* key);

/// Pass-through decode result with a reason (for SUTRA_DEBUG).
std::string pass(const std::string& reason);

/// Runs an install/uninstall/detect/doctor step; an exception becomes {"ok":false,"error"} so
/// the CLI can print it. A template: `f` is each caller's own lambda.
template <class F> std::string guarded(F&& f) {
    try {
        return f().dump();
    } catch (const std::exception& e) {
        return nlohmann::json{{"ok", false}, {"error", e.what()}}.dump();
    }
}

} // namespace sutra::plugins::common
