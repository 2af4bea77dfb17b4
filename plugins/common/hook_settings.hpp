#pragma once
// Install and uninstall of one command hook in a JSON settings file of the Claude Code shape
// ({"hooks":{"PostToolUse":[{"matcher":…,"hooks":[{"type":"command","command":…}]}]}}), shared
// by the Claude Code and Codex adapters.
//
// Byte-identity. Rewriting JSON normalizes its formatting, so install keeps the original bytes in
// a backup (FILE.sutra-backup, then -2, -3 …). Uninstall restores those bytes exactly when the file
// is still what install made of them, and removes the file when install created it; only when
// the user edited the file since does it strip our entry and write the rest back re-serialized.

#include "plugins/common/files.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sutra::plugins::common {

/// What to install: one hook under `event`.
struct HookSpec {
    std::string event = "PostToolUse";
    std::string matcher;
    std::string command; ///< full command line, e.g. "/usr/bin/sutra-host --adapter claude"
    std::string adapter; ///< adapter name; identifies our entries
    int timeout = 30;
    /// Not a hook but a top-level setting of the same form, `"KEY": {"type": "command",
    /// "command": …}` (Claude Code's statusLine): set only where the user has none, ours when its
    /// command runs `sutra ADAPTER` (adapter then names the sutra subcommand).
    std::string setting;
};

/// True when `command` is exactly what `spec` installs, from any prefix: a hook command as
/// is_our_command says, `SUTRA NAME` for a setting (no more words, nothing piped).
bool is_ours(const std::string& command, const HookSpec& spec);

/// True for a hook command of exactly the shape sutra writes, `[SUTRA_BASH_ROUTE=always]
/// [SUTRA_PROGRAM=SUTRA] SUTRA-HOST --adapter NAME`, each path quoted as shell_word quotes it
/// and at any location; a user's command that merely runs sutra-host is not.
bool is_our_command(const std::string& command, const std::string& adapter);

/// Indentation of the file's first indented line (default two spaces).
std::pair<int, char> detect_indent(const std::string& text);

/// `doc` as text in the indentation of `original`, ending in '\n' when it did (or is absent).
std::string serialize(const ojson& doc, const std::optional<std::string>& original);

/// Parses settings text (absent = empty object). Throws with a message on malformed JSON.
ojson parse_settings(const std::optional<std::string>& text, const std::string& path);

/// Removes our hook objects; drops groups and the event array that this leaves empty.
bool strip_ours(ojson& doc, const HookSpec& spec);

/// The command of our installed hook, if any.
std::optional<std::string> our_command(const ojson& doc, const HookSpec& spec);

/// The text install makes of `original` (absent = no file): our entries of `removed` taken out,
/// each entry's command updated in place or the entry appended, in the order given; the
/// original bytes when nothing is to change. Refuses (throws) a `hooks` or event value of another
/// type than sutra writes.
std::string with_hooks(const std::optional<std::string>& original,
                       const std::string& path,
                       const std::vector<HookSpec>& specs,
                       const std::vector<HookSpec>& removed = {});
std::string with_hook(const std::optional<std::string>& original,
                      const std::string& path,
                      const HookSpec& spec);

/// True when `text` parses and holds none of the given entries (a clean pre-install state).
bool has_none_of(const std::optional<std::string>& text,
                 const std::string& path,
                 const std::vector<HookSpec>& specs);

/// The change that installs `specs` and takes out our entries of `removed` (nullopt when the
/// file is already so): our hook
/// updated in place on an upgrade, the user's keys kept. Throws, naming the file, where the host
/// would not run the hook or the file's shape is not one sutra edits.
std::optional<FilePlan> plan_hooks_install(const std::string& settings_path,
                                           const std::vector<HookSpec>& specs,
                                           const std::vector<HookSpec>& removed = {});

/// The change that removes our hooks (nullopt when none is there); see plan_reverse.
std::optional<FilePlan> plan_hooks_uninstall(const std::string& settings_path,
                                             const std::vector<HookSpec>& specs);

/// Installs `specs` into the settings file at `path` in one write. Result: {"ok","changed",
/// "files":[…], "messages":[…]} or {"ok":false,"error"}.
ojson install_hooks(const std::string& settings_path,
                    const std::vector<HookSpec>& specs,
                    bool dry_run);
ojson install_hook(const std::string& settings_path, const HookSpec& spec, bool dry_run);

/// Removes our hooks from the settings file at `path` (see the file comment). Each install that
/// changed the file left a backup; the newest one without any of our entries from which install
/// makes exactly the current text is the user's own file, and is put back with the newer ones
/// (our intermediate states) removed.
ojson uninstall_hooks(const std::string& settings_path,
                      const std::vector<HookSpec>& specs,
                      bool dry_run);
ojson uninstall_hook(const std::string& settings_path, const HookSpec& spec, bool dry_run);

} // namespace sutra::plugins::common
