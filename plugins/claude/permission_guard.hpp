#pragma once
// The Bash route must never weaken a permission. Claude Code matches its deny and ask rules
// against the command it finally runs, which after the route is the wrapper's text
// (`… sutra exec … --sh '…'`), so a rule such as `Bash(git push:*)` would no longer match. Before
// wrapping, the adapter reads every deny and ask rule Claude Code could apply and leaves
// unwrapped any command such a rule could match; the host then judges the original command as
// it would without sutra (docs/adapters.md, "The Bash route and permission rules").
//
// The test is deliberately coarser than the host's own matching, so that it errs only towards
// not wrapping: a Bash rule refuses a command when the rule's first literal fragment appears
// anywhere in the command text (quotes and backslashes removed, blanks folded, case folded), so
// compound commands, leading assignments and wrappers such as `env`, `timeout` or `xargs` are
// all covered. A file rule (Read, Edit, …) refuses when its last literal path piece appears in
// the command or the working directory. A rule with no literal fragment (`Bash`, `Bash(*)`), a
// settings file that cannot be read, or a host started with permission options the hook cannot
// see (`--disallowedTools`, `--settings`, an SDK's initialize message) refuses every command.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::plugins::claude {

/// Every deny and ask rule found, and any reason to doubt that these are all of them.
struct PermissionRules {
    struct Rule {
        std::string tool;    ///< `Bash`, `Read`, …
        std::string pattern; ///< what stands in the parentheses; empty for a whole-tool rule
        bool whole_tool = false;
        std::string source; ///< the settings file (or flag) it came from, for the refusal
    };
    std::vector<Rule> rules;
    std::vector<std::string> doubts;
};

/// Where the rules live. The defaults are the host's own paths; tests point them elsewhere.
struct RuleScopes {
    std::string config_dir;                       ///< $CLAUDE_CONFIG_DIR or ~/.claude
    std::string managed_dir = "/etc/claude-code"; ///< managed-settings.json and .d/
    std::vector<std::string> project_dirs; ///< cwd, $CLAUDE_PROJECT_DIR: each and its parents
    bool read_process_flags = true;        ///< look at the host's command line
};

/// Adds the deny and ask rules of one settings document; a document that is not a JSON object
/// (or nests deeper than any settings file does) adds a doubt instead.
void add_settings_rules(PermissionRules& into, std::string_view text, const std::string& source);

/// Reads every scope: managed (file and drop-ins), user, and the project and local settings of
/// every project directory and its parents; then the flags the host process was started with.
PermissionRules load_permission_rules(const RuleScopes& scopes);

/// Why `command` must stay unwrapped under these rules; nullopt when no rule could match it.
/// `cwd` is the session's working directory (a file rule may name it rather than the command).
std::optional<std::string>
permission_refusal(std::string_view command, std::string_view cwd, const PermissionRules& rules);

} // namespace sutra::plugins::claude
