// See plugin_files.hpp.

#include "plugins/common/plugin_files.hpp"

#include "core/util/json_nesting.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace sutra::plugins::common {

std::optional<FilePlan>
plan_owned_install(const std::string& path, const std::string& content, const std::string& marker) {
    const auto before = read_text(path);
    if (before && *before == content) return std::nullopt;
    if (before && before->find(marker) == std::string::npos)
        throw std::runtime_error(path + " exists and is not sutra's; move it away first "
                                        "(nothing was changed)");
    FilePlan plan{path, before ? "modify" : "create", before, content, std::nullopt};
    plan.backup_before = false; // the file is sutra's: an upgrade keeps no copy of the old one
    return plan;
}

std::optional<FilePlan> plan_owned_uninstall(const std::string& path, const std::string& marker) {
    const auto before = read_text(path);
    if (!before || before->find(marker) == std::string::npos) return std::nullopt;
    // Install never backs up a file sutra owns (it refuses one that is not sutra's), so no
    // backup beside it is sutra's to restore; only what a record names goes (files.hpp).
    FilePlan plan{path, "delete", before, std::nullopt, std::nullopt};
    plan.remove_after = recorded_leftovers(path);
    return plan;
}

std::string
bake_string(std::string text, const std::string& placeholder, const std::string& value) {
    const std::string literal =
        nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
    for (auto at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + literal.size()))
        text.replace(at, placeholder.size(), literal);
    return text;
}

std::optional<std::string> baked_string(const std::string& text, const std::string& prefix) {
    const auto at = text.find(prefix);
    if (at == std::string::npos) return std::nullopt;
    const auto start = at + prefix.size();
    const auto end = text.find('\n', start);
    std::string literal = text.substr(start, end == std::string::npos ? end : end - start);
    while (!literal.empty() && literal.back() != '"') literal.pop_back();
    const auto value = sutra::core::parse_within_nesting<nlohmann::json>(literal);
    if (!value.is_string()) return std::nullopt;
    return value.get<std::string>();
}

} // namespace sutra::plugins::common
