#pragma once
// Registration of sutra's MCP server (`sutra mcp`) in a host's own config file, shared by the
// adapters. Each host keeps its MCP servers in a different format (Claude Code and OpenCode:
// JSON, Codex: TOML, Hermes: YAML); what they share is the backup rule of hook_settings.hpp:
// uninstall puts the user's exact bytes back when the file is still what install made of them,
// deletes it when install created it, and only otherwise strips our entry from what is there.

#include "plugins/common/files.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sutra::plugins::common {

/// The server name sutra registers under; hosts derive the model's tool names from it.
inline constexpr const char* k_mcp_name = "sutra";

/// The `sutra mcp` command line a host should spawn: markers name `restore_tool`, the host's
/// spelling of sutra_restore, and calls that name no namespace use `store_namespace`. The server
/// offers only restore, compress and stats unless install was asked for more: `extra_tools`
/// may hold "files" (outline, symbol, read: inside the project folder) and "exec" (a shell that
/// the host's own Bash rules do not govern).
std::vector<std::string> mcp_args(const std::string& restore_tool,
                                  const std::string& store_namespace = {},
                                  const std::vector<std::string>& extra_tools = {});

/// True for a command that is some `sutra` binary.
bool is_sutra_program(const std::string& command);

/// True for a server entry sutra wrote: a `sutra` binary run as `mcp … --restore-tool …` (the
/// flag only install writes). Only such entries are ever replaced or removed; any other server
/// named "sutra", even one that runs sutra, is the user's.
bool is_our_server(const std::string& program, const std::vector<std::string>& args);

/// The uninstall plan for `path`, whose current text `before` holds our entry. `reinstall(text)`
/// is what install makes of `text` (absent = no file) with the entry now installed; `stripped`
/// is `before` without our entry, used only when the file changed since install; `has_ours`
/// tells a backup of the user's own file from one taken after an install. The backups install
/// recorded go, whichever way the file is put back; no other (files.hpp, backup_record).
FilePlan
plan_reverse(const std::string& path,
             const std::string& before,
             const std::function<std::string(const std::optional<std::string>&)>& reinstall,
             const std::string& stripped,
             const std::function<bool(const std::string&)>& has_ours);

// ---- JSON files: doc[section][name] = entry (Claude Code's .claude.json, OpenCode's
// opencode.json or opencode.jsonc). Edits are textual (json_text.hpp): comments and layout stay.

/// Our entry in a parsed config, if any.
std::optional<ojson> json_entry(const ojson& doc, const std::string& section);

/// `old` updated to `entry`: sutra's keys set, the user's own keys and `enabled` choice kept.
ojson merged_entry(const std::optional<ojson>& old, const ojson& entry);

/// Parses a host config in its grammar (JSONC when `jsonc`); absent or blank = {}. Throws
/// naming `path` when the host could not read it either.
ojson parse_config(const std::optional<std::string>& text, const std::string& path, bool jsonc);

/// Throws as parse_config does when the host could not read `text`, without building it.
void check_config(const std::optional<std::string>& text, const std::string& path, bool jsonc);

/// `original` with doc[section].sutra = merged_entry(old, entry); the same bytes when it is there
/// already. The result is re-parsed and must hold exactly that change, else this throws.
std::string with_json_entry(const std::optional<std::string>& original,
                            const std::string& path,
                            const std::string& section,
                            const ojson& entry,
                            bool jsonc = false);

/// The install change for a JSON config; nullopt when already registered. A "sutra" server
/// that `is_ours` rejects is refused.
std::optional<FilePlan> plan_json_install(const std::string& config_path,
                                          const std::string& section,
                                          const ojson& entry,
                                          const std::function<bool(const ojson&)>& is_ours,
                                          bool jsonc = false);

/// The uninstall change for a JSON config; nullopt when our entry is not there.
std::optional<FilePlan> plan_json_uninstall(const std::string& config_path,
                                            const std::string& section,
                                            const std::function<bool(const ojson&)>& is_ours,
                                            bool jsonc = false);

/// What detect reports about the MCP registration: {"registered","path","command","tool"}.
ojson mcp_status(const std::string& path,
                 const std::optional<std::string>& command,
                 const std::string& restore_tool);

/// Install or uninstall result for a step that has no sutra binary to register.
void note_no_program(ojson& result);

/// Install's word on the MCP step: no binary given, or `path` already registering this server
/// (nothing planned for it); silent when a change was planned.
void note_mcp_install(ojson& result,
                      const std::string& sutra_program,
                      bool planned,
                      const std::string& path);

/// Adds one step's result (files and messages) to another's.
void merge_result(ojson& into, const ojson& step);

} // namespace sutra::plugins::common
