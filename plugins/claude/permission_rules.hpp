#pragma once
// Every permission rule Claude Code could apply to a Bash command, read from every place the host
// reads them (docs/security.md, "The Bash route's guard"): managed settings (the system folder,
// its drop-ins and the folder CLAUDE_CODE_MANAGED_SETTINGS_PATH names), remote settings, user
// settings in every folder CLAUDE_CONFIG_DIR could mean (absolute, `~`, or relative to any
// working directory the host may have had), project and local settings of every project folder
// and its parents, rules passed through the environment (CLAUDE_BG_SESSION_PERMISSION_RULES) and
// the host's command line (--allowedTools, --disallowedTools, --settings, --permission-mode).
// Whatever cannot be read, or is known to carry rules the hook cannot see, is a doubt, and any
// doubt keeps every command unwrapped.

#include <string>
#include <string_view>
#include <vector>

namespace sutra::plugins::claude {

struct PermissionRule {
    enum class Kind { deny, ask, allow };
    Kind kind = Kind::deny;
    std::string tool;    ///< `Bash`, `Read`, …
    std::string pattern; ///< what stands in the parentheses; empty for a whole-tool rule
    bool whole_tool = false;
    std::string source; ///< the settings file, variable or flag it came from
    /// The host applies it whatever its other settings (an allow rule of a source that the host
    /// may not read, such as a parent folder's project settings, is read but not relied on).
    bool surely_applies = true;
};

struct PermissionRules {
    std::vector<PermissionRule> rules;
    std::vector<std::string> doubts;
    bool bypass = false; ///< the host was started with permissions bypassed

    /// True when an allow rule admits every Bash command (`Bash`, `Bash(*)`).
    bool bash_allowed_whole() const;
};

/// One process of the chain the hook runs under: its arguments, working directory and
/// environment (`NAME=value` strings).
struct HostProcess {
    std::vector<std::string> args;
    std::string cwd;
    std::vector<std::string> environment;
};

/// The hook's own process (its environment and working directory), then its ancestors up to
/// the first one owned by another user or unreadable, at most a few levels.
std::vector<HostProcess> host_processes();

/// Where to look. The adapter fills it from the hook payload and host_processes(); tests point
/// it at a temporary tree.
struct RuleScopes {
    std::string home;                   ///< the user's home folder
    std::string payload_cwd;            ///< the session's working directory
    std::vector<HostProcess> processes; ///< host_processes(), or a test's
    std::string system_managed_dir = "/etc/claude-code";
};

/// Adds the rules of one settings document; a document that is not a JSON object (or nests
/// deeper than any settings file does) adds a doubt instead.
void add_settings_rules(PermissionRules& into, std::string_view text, const std::string& source);

/// Reads every source the scopes name.
PermissionRules load_permission_rules(const RuleScopes& scopes);

/// Every folder the host could be using as its configuration folder (the user settings and
/// remote settings live there): each value of CLAUDE_CONFIG_DIR found, resolved as the host may
/// resolve it, else ~/.claude.
std::vector<std::string> config_dirs(const RuleScopes& scopes);

} // namespace sutra::plugins::claude
