#pragma once
// Shell words both ways: quoting a word for the command lines sutra writes into hook entries and
// reports, and reading back which sutra subcommand a shell command runs (so the adapters never
// compress `sutra restore` output, or a `sutra exec` view, a second time).

#include <string>
#include <vector>

namespace sutra::plugins::common {

/// Shell-quotes one word when it needs it.
std::string shell_word(const std::string& word);

/// The words of a command line, shell-quoted where needed, for reports.
std::string command_line(const std::vector<std::string>& words);

/// The subcommand of a shell command that runs sutra (`sutra restore …` gives "restore",
/// `'/opt/x/sutra' exec …` gives "exec"); "" for any other command. Leading variable
/// assignments are skipped and a single-quoted program path is read as one word.
std::string sutra_subcommand(const std::string& command);

/// True for a shell command that runs `sutra restore …` (its output must never be re-compressed).
bool is_restore_command(const std::string& command);

} // namespace sutra::plugins::common
