#pragma once
// Registration of sutra's MCP server (`sutra mcp`) in a host's own config file, shared by the
// adapters. Each host keeps its MCP servers in a different format (Claude Code and OpenCode:
// JSON, Codex: TOML, Hermes: YAML); what they share is the backup rule of hook_settings.hpp:
// uninstall puts the user's exact bytes back when the file is still what install made of them,
// deletes it when install created it, and only otherwise strips our entry from what is there.
// Header-only, like the rest of plugins/common.

#include "plugins/common/hook_settings.hpp"
#include "plugins/common/plugin_files.hpp"

#include <nlohmann/json.hpp>

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
inline std::vector<std::string> mcp_args(const std::string& restore_tool,
                                         const std::string& store_namespace = {},
                                         const std::vector<std::string>& extra_tools = {}) {
    std::vector<std::string> args{"mcp", "--restore-tool", restore_tool};
    if (!store_namespace.empty()) {
        args.push_back("--namespace");
        args.push_back(store_namespace);
    }
    if (!extra_tools.empty()) {
        std::string list = "restore,compress,stats";
        for (const auto& t : extra_tools) list += "," + t;
        args.push_back("--tools");
        args.push_back(list);
    }
    return args;
}

/// True for a command that is some `sutra` binary (the server entries sutra may replace).
inline bool is_sutra_program(const std::string& command) {
    const auto slash = command.rfind('/');
    return (slash == std::string::npos ? command : command.substr(slash + 1)) == "sutra";
}

/// The uninstall plan for `path`, whose current text `before` holds our entry. `reinstall(text)`
/// is what install makes of `text` (absent = no file) with the entry now installed; `stripped`
/// is `before` without our entry, used only when the file changed since install.
inline FilePlan
plan_reverse(const std::string& path,
             const std::string& before,
             const std::function<std::string(const std::optional<std::string>&)>& reinstall,
             const std::string& stripped) {
    const auto same = [&](const std::optional<std::string>& text) {
        try {
            return reinstall(text) == before;
        } catch (const std::exception&) {
            return false; // a backup we cannot read the same way is not the original
        }
    };
    if (const auto backup = latest_backup(path)) {
        const auto backup_text = read_text(*backup);
        if (backup_text && same(backup_text))
            return FilePlan{path, "restore", before, backup_text, backup};
    }
    if (same(std::nullopt)) return FilePlan{path, "delete", before, std::nullopt, std::nullopt};
    FilePlan plan{path, "modify", before, stripped, std::nullopt};
    plan.backup_before = false; // the user edited the file: leave every backup as it is
    return plan;
}

// ---- JSON files: doc[section][name] = entry (Claude Code's .claude.json, OpenCode's
// opencode.json). Formatting is that of hook_settings.hpp: the file's own indentation.

/// Our entry in a parsed config, if any.
inline std::optional<ojson> json_entry(const ojson& doc, const std::string& section) {
    const auto s = doc.find(section);
    if (s == doc.end() || !s->is_object()) return std::nullopt;
    const auto e = s->find(k_mcp_name);
    if (e == s->end()) return std::nullopt;
    return *e;
}

/// `original` with doc[section].sutra = entry; the same bytes when it is there already.
inline std::string with_json_entry(const std::optional<std::string>& original,
                                   const std::string& path,
                                   const std::string& section,
                                   const ojson& entry) {
    ojson doc = parse_settings(original, path);
    if (json_entry(doc, section) == entry) return original.value_or(std::string());
    if (doc.contains(section) && !doc[section].is_object())
        throw std::runtime_error(path + ": \"" + section +
                                 "\" is not an object; fix it by hand, nothing was changed");
    doc[section][k_mcp_name] = entry;
    return serialize(doc, original);
}

/// The install change for a JSON config; nullopt when already registered. `command_of` reads
/// the command out of an entry, so a "sutra" server that is not a sutra binary is refused.
inline std::optional<FilePlan>
plan_json_install(const std::string& config_path,
                  const std::string& section,
                  const ojson& entry,
                  const std::function<std::string(const ojson&)>& command_of) {
    const std::string path = real_target(config_path);
    const auto before = read_text(path);
    const ojson doc = parse_settings(before, path);
    if (const auto old = json_entry(doc, section); old && !is_sutra_program(command_of(*old)))
        throw std::runtime_error(path + " already has an MCP server named \"sutra\" that does not "
                                        "run sutra; rename or remove it first (nothing was "
                                        "changed)");
    const std::string after = with_json_entry(before, path, section, entry);
    if (before && after == *before) return std::nullopt;
    return FilePlan{path, before ? "modify" : "create", before, after, std::nullopt};
}

/// The uninstall change for a JSON config; nullopt when our entry is not there.
inline std::optional<FilePlan> plan_json_uninstall(const std::string& config_path,
                                                   const std::string& section) {
    const std::string path = real_target(config_path);
    const auto before = read_text(path);
    if (!before) return std::nullopt;
    ojson doc = parse_settings(before, path);
    const auto installed = json_entry(doc, section);
    if (!installed) return std::nullopt;
    doc[section].erase(k_mcp_name);
    if (doc[section].empty()) doc.erase(section);
    return plan_reverse(
        path, *before,
        [&](const std::optional<std::string>& text) {
            return with_json_entry(text, path, section, *installed);
        },
        serialize(doc, before));
}

/// The words of a command line, shell-quoted where needed, for reports.
inline std::string command_line(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + shell_word(w);
    return out;
}

/// What detect reports about the MCP registration: {"registered","path","command","tool"}.
inline ojson mcp_status(const std::string& path,
                        const std::optional<std::string>& command,
                        const std::string& restore_tool) {
    return ojson{{"registered", command.has_value()},
                 {"path", path},
                 {"command", command ? ojson(*command) : ojson(nullptr)},
                 {"tool", restore_tool}};
}

/// Install or uninstall result for a step that has no sutra binary to register.
inline void note_no_program(ojson& result) {
    result["messages"].push_back("no sutra binary given: the MCP server was not registered");
}

/// Adds one step's result (files and messages) to another's.
inline void merge_result(ojson& into, const ojson& step) {
    for (const auto& f : step.value("files", ojson::array())) into["files"].push_back(f);
    for (const auto& m : step.value("messages", ojson::array())) into["messages"].push_back(m);
    if (step.value("changed", false)) into["changed"] = true;
}

} // namespace sutra::plugins::common
