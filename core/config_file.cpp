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

struct Reader {
    Config& config;
    const std::string& path;

    std::string at(const toml::source_region& where, std::string_view what) const {
        return fmt::format("{}:{}: {}", path, where.begin.line, what);
    }

    std::string wrong_type(const toml::node& node, std::string_view name, SettingType want) const {
        return at(node.source(), fmt::format("{} must be {}, got {}", name, expected_name(want),
                                             type_name(node.type())));
    }

    // One key of a section; `where` is the key's own location, used for the source.
    std::string apply(const SettingInfo& setting,
                      const toml::source_region& where,
                      const toml::node& node) const {
        std::string error;
        switch (setting.type) {
        case SettingType::integer: {
            const auto* v = node.as_integer();
            if (v == nullptr) return wrong_type(node, setting.name, setting.type);
            error = set_integer(config, setting.name, v->get());
            break;
        }
        case SettingType::boolean: {
            const auto* v = node.as_boolean();
            if (v == nullptr) return wrong_type(node, setting.name, setting.type);
            error = set_boolean(config, setting.name, v->get());
            break;
        }
        case SettingType::string: {
            const auto* v = node.as_string();
            if (v == nullptr) return wrong_type(node, setting.name, setting.type);
            error = set_string(config, setting.name, v->get());
            break;
        }
        case SettingType::string_array: {
            const auto* arr = node.as_array();
            if (arr == nullptr) return wrong_type(node, setting.name, setting.type);
            std::vector<std::string> items;
            // Check each element here so the error points at its own line.
            for (const toml::node& item : *arr) {
                const auto* s = item.as_string();
                if (s == nullptr)
                    return at(item.source(), fmt::format("{} must contain only strings, got {}",
                                                         setting.name, type_name(item.type())));
                std::string item_error = check_keep_pattern(s->get());
                if (!item_error.empty()) return at(item.source(), item_error);
                items.push_back(s->get());
            }
            error = set_string_array(config, setting.name, items);
            break;
        }
        }
        if (!error.empty()) return at(node.source(), error);
        config.sources[std::string(setting.name)] = fmt::format("{}:{}", path, where.begin.line);
        return {};
    }

    std::string section(std::string_view name, const toml::node& node) const {
        const toml::table* table = node.as_table();
        if (table == nullptr)
            return at(node.source(),
                      fmt::format("[{}] must be a table, got {}", name, type_name(node.type())));
        for (auto&& [key, value] : *table) {
            std::string dotted = fmt::format("{}.{}", name, key.str());
            const SettingInfo* setting = find_setting(dotted);
            if (setting == nullptr)
                return at(key.source(), fmt::format("unknown key '{}'", dotted));
            std::string error = apply(*setting, key.source(), value);
            if (!error.empty()) return error;
        }
        return {};
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
    Reader reader{config, path};
    for (auto&& [key, node] : root) {
        if (!known_section(key.str())) {
            if (node.is_table())
                return reader.at(key.source(), fmt::format("unknown section [{}]", key.str()));
            return reader.at(key.source(), fmt::format("unknown key '{}' (settings belong in "
                                                       "[compress], [store], [restore] or [stats])",
                                                       key.str()));
        }
        std::string error = reader.section(key.str(), node);
        if (!error.empty()) return error;
    }
    return {};
}

} // namespace sutra::core::detail
