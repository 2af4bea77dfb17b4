// The only file that includes toml++: it is slow to compile.
#include "core/config_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

namespace sutra::core::detail {

namespace {

std::string_view type_name(toml::node_type t) {
    switch (t) {
    case toml::node_type::table:
        return "a table";
    case toml::node_type::array:
        return "an array";
    case toml::node_type::string:
        return "a string";
    case toml::node_type::integer:
        return "an integer";
    case toml::node_type::floating_point:
        return "a float";
    case toml::node_type::boolean:
        return "a boolean";
    case toml::node_type::date:
        return "a date";
    case toml::node_type::time:
        return "a time";
    case toml::node_type::date_time:
        return "a date-time";
    case toml::node_type::none:
        break;
    }
    return "nothing";
}

std::string_view expected_name(SettingType t) {
    switch (t) {
    case SettingType::integer:
        return "an integer";
    case SettingType::boolean:
        return "a boolean";
    case SettingType::string:
        return "a string";
    case SettingType::string_array:
        return "an array of strings";
    }
    return "?";
}

// Walks the parsed document. toml++ iterates tables in key order, not file order, so every
// problem is checked and the one earliest in the file is reported.
class Reader {
public:
    Reader(Config& config, const std::string& path) : m_config(config), m_path(path) {}

    void report(const toml::source_region& where, std::string_view what) {
        if (!m_error.empty() && where.begin.line >= m_error_line) return;
        m_error_line = where.begin.line;
        m_error = fmt::format("{}:{}: {}", m_path, where.begin.line, what);
    }

    const std::string& error() const { return m_error; }

    void section(std::string_view name, const toml::node& node) {
        const toml::table* table = node.as_table();
        if (table == nullptr) {
            report(node.source(),
                   fmt::format("[{}] must be a table, got {}", name, type_name(node.type())));
            return;
        }
        for (auto&& [key, value] : *table) {
            std::string dotted = fmt::format("{}.{}", name, key.str());
            const SettingInfo* setting = find_setting(dotted);
            if (setting == nullptr)
                report(key.source(), fmt::format("unknown key '{}'", dotted));
            else
                apply(*setting, key.source(), value);
        }
    }

private:
    Config& m_config;
    const std::string& m_path;
    std::string m_error;
    toml::source_index m_error_line = 0;

    void wrong_type(const toml::node& node, std::string_view name, SettingType want) {
        report(node.source(), fmt::format("{} must be {}, got {}", name, expected_name(want),
                                          type_name(node.type())));
    }

    // One key of a section; `where` is the key's own location, used for the source.
    void
    apply(const SettingInfo& setting, const toml::source_region& where, const toml::node& node) {
        std::string error;
        switch (setting.type) {
        case SettingType::integer: {
            const auto* v = node.as_integer();
            if (v == nullptr) return wrong_type(node, setting.name, setting.type);
            error = set_integer(m_config, setting.name, v->get());
            break;
        }
        case SettingType::boolean: {
            const auto* v = node.as_boolean();
            if (v == nullptr) return wrong_type(node, setting.name, setting.type);
            error = set_boolean(m_config, setting.name, v->get());
            break;
        }
        case SettingType::string: {
            const auto* v = node.as_string();
            if (v == nullptr) return wrong_type(node, setting.name, setting.type);
            error = set_string(m_config, setting.name, v->get());
            break;
        }
        case SettingType::string_array: {
            const auto* arr = node.as_array();
            if (arr == nullptr) return wrong_type(node, setting.name, setting.type);
            std::vector<std::string> items;
            // Check each element here so the error points at its own line.
            for (const toml::node& item : *arr) {
                const auto* str = item.as_string();
                if (str == nullptr)
                    return report(item.source(), fmt::format("{} must contain only strings, got {}",
                                                             setting.name, type_name(item.type())));
                std::string item_error = check_keep_pattern(str->get());
                if (!item_error.empty()) return report(item.source(), item_error);
                items.push_back(str->get());
            }
            error = set_string_array(m_config, setting.name, items);
            break;
        }
        }
        if (!error.empty()) return report(node.source(), error);
        m_config.sources[std::string(setting.name)] =
            fmt::format("{}:{}", m_path, where.begin.line);
    }
};

bool known_section(std::string_view name) {
    return name == "compress" || name == "store" || name == "restore" || name == "stats";
}

} // namespace

std::string apply_toml(Config& config, std::string_view text, const std::string& path) {
    toml::table root;
    try {
        root = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        return fmt::format("{}:{}:{}: {}", path, e.source().begin.line, e.source().begin.column,
                           e.description());
    }
    Reader reader(config, path);
    for (auto&& [key, node] : root) {
        if (known_section(key.str()))
            reader.section(key.str(), node);
        else if (node.is_table())
            reader.report(key.source(), fmt::format("unknown section [{}]", key.str()));
        else
            reader.report(key.source(), fmt::format("unknown key '{}' (settings belong in "
                                                    "[compress], [store], [restore] or [stats])",
                                                    key.str()));
    }
    return reader.error();
}

std::string apply_project_toml(Config& config, std::string_view text, const std::string& path) {
    toml::table root;
    try {
        root = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        return fmt::format("{}:{}:{}: {}", path, e.source().begin.line, e.source().begin.column,
                           e.description());
    }
    // The earliest forbidden key in the file, for a stable message.
    std::string error;
    toml::source_index error_line = 0;
    auto forbid = [&](const toml::source_region& where, const std::string& name) {
        if (!error.empty() && where.begin.line >= error_line) return;
        error_line = where.begin.line;
        error = fmt::format("{}:{}: {} may not be set by a project file (only compress.mode, "
                            "keep_patterns, min_bytes, min_lines, max_view_bytes, "
                            "min_saving_percent)",
                            path, where.begin.line, name);
    };
    for (auto&& [key, node] : root) {
        const toml::table* table = node.as_table();
        if (table == nullptr) {
            forbid(key.source(), std::string(key.str()));
            continue;
        }
        for (auto&& [sub, value] : *table) {
            const std::string dotted = fmt::format("{}.{}", key.str(), sub.str());
            if (!project_may_set(dotted)) forbid(sub.source(), dotted);
        }
    }
    if (!error.empty()) return error;
    Config scratch = config;
    error = apply_toml(scratch, text, path);
    if (!error.empty()) return error;
    if (scratch.keep_patterns != config.keep_patterns) {
        std::vector<std::string> merged = config.keep_patterns;
        merged.insert(merged.end(), scratch.keep_patterns.begin(), scratch.keep_patterns.end());
        scratch.keep_patterns = std::move(merged);
    }
    config = std::move(scratch);
    return {};
}

} // namespace sutra::core::detail
