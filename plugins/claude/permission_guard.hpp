#pragma once
// The Bash route must never weaken a permission. Claude Code judges the command it finally runs,
// which after the route is the wrapper's text (`'…/sutra' exec … --sh '…'`): a rule such as
// `Bash(git push:*)` would no longer match it, an allow rule naming sutra would match every
// wrapped command, and the host's own checks of the paths a command writes would see one quoted
// argument. So before wrapping, the adapter asks this guard, and a command it refuses stays as
// written; the host then judges it exactly as it would without sutra.
//
// The guard decides on words, coarser than the host by construction (docs/security.md, "The
// Bash route's guard"): the command is read with the shell lexer, every word after quote removal
// is split again at blanks and shell operators (so `bash -c 'git push'` still shows `git`), and
// a word holding an expansion stands for any word. Redirections, assignments, wrappers, empty
// expansions and separators never hide a word, because no word is ever dropped and the rule is
// tested against each word on its own, never against a joined string. A Bash rule could match
// when its program (its first literal word) begins some word of the command; a rule whose
// program is a wildcard matches everything. Any rule, of any kind, whose program begins a word
// of the wrapper itself refuses too, and so does any source of rules that could not be read.

#include "plugins/claude/permission_rules.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::plugins::claude {

/// What the guard judges a command against, beside the rules.
struct GuardContext {
    std::string cwd;                        ///< the session's working directory
    std::string home;                       ///< the user's home folder
    std::vector<std::string> config_dirs;   ///< the host's configuration folders
    std::vector<std::string> wrapper_words; ///< the words the wrapper adds (sutra, exec, …)
};

/// Why `command` must stay unwrapped under these rules; nullopt when no rule could match it,
/// no rule could match the wrapper, and the host's own path checks would not look at it.
std::optional<std::string>
permission_refusal(std::string_view command, const PermissionRules& rules, const GuardContext& ctx);

/// Why the host's own checks, which it makes whatever the rules allow, could look at `command`:
/// a path the host guards (its settings and credentials, dot-files such as .git, .bashrc or
/// .mcp.json, key and credential files), the home folder, the working directory or a folder
/// above it, the root or a top folder, or a removal with a computed argument. Wrapped, the host
/// would see only a quoted argument and skip those checks.
std::optional<std::string> host_check_refusal(std::string_view command, const GuardContext& ctx);

} // namespace sutra::plugins::claude
