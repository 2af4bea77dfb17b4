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

/// True for a command that is some `sutra` binary (the server entries sutra may replace).
bool is_sutra_program(const std::string& command);

/// The uninstall plan for `path`, whose current text `before` holds our entry. `reinstall(text)`
/// is what install makes of `text` (absent = no file) with the entry now installed; `stripped`
/// is `before` without our entry, used only when the file changed since install.
FilePlan
plan_reverse(const std::string& path,
             const std::string& before,
             const std::function<std::string(const std::optional<std::string>&)>& reinstall,
             const std::string& stripped);

// ---- JSON files: doc[section][name] = entry (Claude Code's .claude.json, OpenCode's
// opencode.json). Formatting is that of hook_settings.hpp: the file's own indentation.

/// Our entry in a parsed config, if any.
std::optional<ojson> json_entry(const ojson& doc, const std::string& section);

/// `original` with doc[section].sutra = entry; the same bytes when it is there already.
std::string with_json_entry(const std::optional<std::string>& original,
                            const std::string& path,
                            const std::string& section,
                            const ojson& entry);

/// The install change for a JSON config; nullopt when already registered. `command_of` reads
/// the command out of an entry, so a "sutra" server that is not a sutra binary is refused.
std::optional<FilePlan>
plan_json_install(const std::string& config_path,
                  const std::string& section,
                  const ojson& entry,
                  const std::function<std::string(const ojson&)>& command_of);

/// The uninstall change for a JSON config; nullopt when our entry is not there.
std::optional<FilePlan> plan_json_uninstall(const std::string& config_path,
                                            const std::string& section);

/// What detect reports about the MCP registration: {"registered","path","command","tool"}.
ojson mcp_status(const std::string& path,
                 const std::optional<std::string>& command,
                 const std::string& restore_tool);

/// Install or uninstall result for a step that has no sutra binary to register.
void note_no_program(ojson& result);

/// Adds one step's result (files and messages) to another's.
void merge_result(ojson& into, const ojson& step);

} // namespace sutra::plugins::common
