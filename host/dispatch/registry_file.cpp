// Parsing of adapters.toml: the only place toml++ is used on the host side.
//
//   [adapters.claude]
//   module = "libsutra_claude.so"   # relative: the registry's plugins folder
//   description = "Claude Code"

#include "host/dispatch/plugin_registry.hpp"

#include <fmt/core.h>
#include <toml++/toml.h>

#include <filesystem>

namespace sutra::host {
namespace {

bool valid_name(std::string_view name) {
    if (name.empty() || name.size() > 32) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
    return true;
}

} // namespace

std::expected<RegistryFile, std::string> read_registry_file(const std::string& text,
                                                            const std::string& path,
                                                            const std::string& plugins_dir) {
    toml::table root;
    try {
        root = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        return std::unexpected(
            fmt::format("{}:{}: {}", path, e.source().begin.line, std::string(e.description())));
    }
    RegistryFile out;
    const toml::node* adapters = root.get("adapters");
    if (adapters == nullptr) return out;
    const toml::table* table = adapters->as_table();
    if (table == nullptr)
        return std::unexpected(fmt::format("{}: 'adapters' must be a table", path));
    for (const auto& [key, node] : *table) {
        const std::string name(key.str());
        const auto line = node.source().begin.line;
        if (!valid_name(name)) {
            out.problems.push_back(fmt::format(
                "{}:{}: adapter name '{}' must be 1-32 of [a-z0-9_-]", path, line, name));
            continue;
        }
        const toml::table* entry = node.as_table();
        if (entry == nullptr) {
            out.problems.push_back(
                fmt::format("{}:{}: adapters.{} must be a table", path, line, name));
            continue;
        }
        const auto module = (*entry)["module"].value<std::string>();
        if (!module || module->empty()) {
            out.problems.push_back(
                fmt::format("{}:{}: adapters.{} needs module = \"FILE.so\"", path, line, name));
            continue;
        }
        std::filesystem::path module_path(*module);
        if (module_path.is_relative())
            module_path = std::filesystem::path(plugins_dir) / module_path;
        out.entries.push_back(RegistryEntry{name, module_path.lexically_normal().string(),
                                            (*entry)["description"].value_or(std::string()), path});
    }
    return out;
}

std::expected<std::vector<RegistryEntry>, std::string>
parse_registry(const std::string& text, const std::string& path, const std::string& plugins_dir) {
    auto file = read_registry_file(text, path, plugins_dir);
    if (!file) return std::unexpected(std::move(file.error()));
    if (!file->problems.empty()) return std::unexpected(std::move(file->problems.front()));
    return std::move(file->entries);
}

} // namespace sutra::host
