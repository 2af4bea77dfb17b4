#pragma once
// The words of a command line as the permission guard weighs them (permission_guard.hpp): every
// word after quote removal, and every piece of it between blanks, shell operators, braces,
// commas and `=` (a word may be a whole command run by `bash -c`, `eval`, `xargs`, a brace
// expansion or an option such as `--exec=git`). Here-document bodies and comments are read the
// same way. Nothing is ever dropped: a redirection's target, an assignment and a wrapper's
// options are all words.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::plugins::claude {

struct CommandWords {
    std::vector<std::string> pieces; ///< every piece of every literal word, ASCII-folded
    bool expands = false;            ///< some word or body holds an expansion: it may be any word
    /// The targets of `cd`/`pushd` (folded); "~" for one that is missing, computed or `-`.
    std::vector<std::string> cd_targets;
};

/// The command's words, or why it cannot be read (then nothing about it is known).
std::optional<std::string> command_words(std::string_view command, CommandWords& out);

/// `s` with ASCII letters folded to lower case.
std::string folded(std::string_view s);

/// The part after the last '/'.
std::string_view base_name(std::string_view path);

/// True when some piece could be the program a rule names: the piece begins with `program`, or
/// its last path part begins with the program's last path part (`/usr/bin/git` for `git`). An
/// empty program begins every piece.
bool names_program(const std::vector<std::string>& pieces, std::string_view program);

} // namespace sutra::plugins::claude
