#pragma once
// Claude Code's PreToolUse route for Bash: the command is rewritten to run under `sutra exec`, so
// that its output is compressed even when it fails (failures never reach PostToolUse; see
// docs/adapters.md, "Claude Code", failing commands). The rewrite must not change what the
// command means, so it is refused whenever it could: the child shell cannot move the host's
// working directory (`cd`, `pushd`, `popd` outside a subshell; leading `cd DIR &&` segments
// stay in the host's shell instead, see plan_route), cannot see the user's shell functions and
// aliases (every command word must be a builtin, a keyword, a path or a program on PATH), and
// must not leave a background job holding the output pipe (`&`). Anything the small lexer
// below does not understand is refused too.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::plugins::claude {

/// Says whether a command name resolves to a program (PATH lookup in the real adapter).
using ProgramLookup = std::function<bool(std::string_view name)>;

/// A routed command in two parts: `keep`, the leading directory changes (`cd DIR && `, as
/// written), which run in the host's own shell so that they persist, and `run`, the rest, which
/// runs under `sutra exec`. `keep` is empty for a command without a leading `cd`.
struct Route {
    std::string keep;
    std::string run;
};

/// The route for `command`, or why it must run unwrapped (`refusal`).
struct RoutePlan {
    std::optional<Route> route;
    std::string refusal;
};

/// Splits off leading `cd WORDS &&` segments when that provably keeps the command's meaning (the
/// rest is one `&&`-joined list, so a failing `cd` skips exactly what it skipped before), then
/// checks the rest as `route_refusal` does.
RoutePlan plan_route(std::string_view command, const ProgramLookup& on_path);

/// Why `command` must not be routed through `sutra exec` as a whole; nullopt when it may be.
std::optional<std::string> route_refusal(std::string_view command, const ProgramLookup& on_path);

/// What the wrapped command runs: the sutra binary, the shell that runs the line, the MCP restore
/// tool markers should name (empty: the `sutra restore` command) and a cap on the view's size.
struct Wrapper {
    std::string sutra;
    std::string shell;
    std::string mcp_tool;
    std::uint64_t max_view_bytes = 8192;
    /// For a command that exits 0: Claude Code shows up to 30,000 characters of a success inline.
    std::uint64_t max_view_bytes_on_success = 28000;
    std::string session = {}; ///< the host's session id, for sutra's stats log ("": none)
};

/// `'SUTRA' exec --shell SHELL --max-view-bytes N --max-view-bytes-on-success M
/// --no-status-line [--mcp-tool T] --sh 'CMD'`: Claude Code shows "Exit code N" itself, cuts a
/// failure's text near 10,000 characters and shows a success's up to 30,000.
std::string wrap_command(const Wrapper& w, std::string_view command);

/// The words wrap_command adds around the command (the sutra program, its options, the shell),
/// which a permission rule could match in the wrapped text (permission_guard.hpp).
std::vector<std::string> wrapper_words(const Wrapper& w);

/// `route.keep` followed by the wrapped `route.run`.
std::string wrap_route(const Wrapper& w, const Route& route);

/// True when PATH (as given) holds an executable regular file called `name`.
bool program_on_path(std::string_view name, std::string_view path_variable);

} // namespace sutra::plugins::claude
