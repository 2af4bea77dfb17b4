// See mcp_registration.hpp.

#include "plugins/common/mcp_registration.hpp"

#include "plugins/common/hook_settings.hpp"
#include "plugins/common/paths.hpp"

#include <stdexcept>

namespace sutra::plugins::common {

std::vector<std::string> mcp_args(const std::string& restore_tool,
                                  const std::string& store_namespace,
                                  const std::vector<std::string>& extra_tools) {
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

bool is_sutra_program(const std::string& command) {
    const auto slash = command.rfind('/');
    return (slash == std::string::npos ? command : command.substr(slash + 1)) == "sutra";
}

FilePlan
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

std::optional<ojson> json_entry(const ojson& doc, const std::string& section) {
    const auto s = doc.find(section);
    if (s == doc.end() || !s->is_object()) return std::nullopt;
    const auto e = s->find(k_mcp_name);
    if (e == s->end()) return std::nullopt;
    return *e;
}

std::string with_json_entry(const std::optional<std::string>& original,
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

std::optional<FilePlan>
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

std::optional<FilePlan> plan_json_uninstall(const std::string& config_path,
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

ojson mcp_status(const std::string& path,
                 const std::optional<std::string>& command,
                 const std::string& restore_tool) {
    return ojson{{"registered", command.has_value()},
                 {"path", path},
                 {"command", command ? ojson(*command) : ojson(nullptr)},
                 {"tool", restore_tool}};
}

void note_no_program(ojson& result) {
    result["messages"].push_back("no sutra binary given: the MCP server was not registered");
}

void merge_result(ojson& into, const ojson& step) {
    for (const auto& f : step.value("files", ojson::array())) into["files"].push_back(f);
    for (const auto& m : step.value("messages", ojson::array())) into["messages"].push_back(m);
    if (step.value("changed", false)) into["changed"] = true;
}

} // namespace sutra::plugins::common
