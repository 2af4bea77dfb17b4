// See config_toml.hpp.

#include "plugins/codex/config_toml.hpp"

#include "core/json_nesting.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace sutra::plugins::codex {

std::string toml_string(const std::string& value) {
    return nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

std::string toml_server_table(const std::string& command, const std::vector<std::string>& args) {
    std::string list;
    for (const auto& a : args) list += (list.empty() ? "" : ", ") + toml_string(a);
    return "[mcp_servers.sutra]\ncommand = " + toml_string(command) + "\nargs = [" + list + "]\n";
}

std::string toml_trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string toml_header(const std::string& line) {
    std::string t = toml_trim(line);
    if (t.empty() || t[0] != '[') return {};
    if (const auto hash = t.find('#'); hash != std::string::npos) t = toml_trim(t.substr(0, hash));
    if (t.size() < 2 || t.front() != '[' || t.back() != ']') return {};
    std::string name;
    for (char c : t.substr(1, t.size() - 2))
        if (c != ' ' && c != '\t' && c != '"' && c != '\'' && c != '[' && c != ']') name += c;
    return name;
}

std::vector<TomlLine> toml_lines(const std::string& text) {
    std::vector<TomlLine> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto nl = text.find('\n', start);
        const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
        out.push_back(
            {start, end, text.substr(start, (nl == std::string::npos ? end : nl) - start)});
        start = end;
    }
    return out;
}

std::optional<TomlTable> find_server_table(const std::string& text) {
    const auto lines = toml_lines(text);
    std::string current; // the table the line belongs to
    std::optional<TomlTable> found;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string header = toml_header(lines[i].text);
        if (!header.empty()) {
            if (found && found->end == 0 && header.rfind("mcp_servers.sutra.", 0) != 0)
                found->end = lines[i].begin;
            current = header;
            if (header == "mcp_servers.sutra" && !found) found = TomlTable{lines[i].begin, 0};
            continue;
        }
        const std::string t = toml_trim(lines[i].text);
        if (t.empty() || t[0] == '#') continue;
        const std::string key = toml_trim(t.substr(0, t.find_first_of("=.")));
        if ((current.empty() && key == "mcp_servers") ||
            (current == "mcp_servers" && (key == "sutra" || key == "\"sutra\"")))
            throw std::runtime_error("config.toml defines mcp_servers inline; add the sutra "
                                     "server by hand (`codex mcp add`), nothing was changed");
    }
    if (found && found->end == 0) found->end = text.size();
    return found;
}

std::optional<std::string> toml_table_raw(const std::string& table, const std::string& key) {
    for (const auto& line : toml_lines(table)) {
        const std::string t = toml_trim(line.text);
        const auto eq = t.find('=');
        if (eq == std::string::npos || toml_trim(t.substr(0, eq)) != key) continue;
        return toml_trim(t.substr(eq + 1));
    }
    return std::nullopt;
}

std::optional<std::string> toml_table_string(const std::string& table, const std::string& key) {
    const auto value = toml_table_raw(table, key);
    if (!value) return std::nullopt;
    if (value->size() >= 2 && value->front() == '\'')
        return value->substr(1, value->find('\'', 1) - 1);
    const auto parsed = sutra::core::parse_within_nesting<nlohmann::json>(*value);
    if (parsed.is_string()) return parsed.get<std::string>();
    return std::nullopt;
}

std::vector<std::string> toml_table_strings(const std::string& table, const std::string& key) {
    std::vector<std::string> out;
    const auto value = toml_table_raw(table, key);
    if (!value) return out;
    const auto parsed = sutra::core::parse_within_nesting<nlohmann::json>(*value);
    if (parsed.is_array())
        for (const auto& a : parsed)
            if (a.is_string()) out.push_back(a.get<std::string>());
    return out;
}

bool toml_table_disabled(const std::string& table) {
    for (const auto& line : toml_lines(table)) {
        const std::string t = toml_trim(line.text);
        const auto eq = t.find('=');
        if (eq != std::string::npos && toml_trim(t.substr(0, eq)) == "enabled" &&
            toml_trim(t.substr(eq + 1)).rfind("false", 0) == 0)
            return true;
    }
    return false;
}

std::string with_server_table(const std::optional<std::string>& original,
                              const std::string& table) {
    const std::string text = original.value_or(std::string());
    if (const auto at = find_server_table(text)) {
        std::string existing = text.substr(at->begin, at->end - at->begin);
        // The table's own lines, without the blank lines before the next table.
        std::string body = existing;
        while (body.size() >= 2 && body.back() == '\n' && body[body.size() - 2] == '\n')
            body.pop_back();
        if (body == table) return text;
        return text.substr(0, at->begin) + table + existing.substr(body.size()) +
               text.substr(at->end);
    }
    std::string out = text;
    if (!out.empty() && out.back() != '\n') out += '\n';
    if (!out.empty()) out += '\n';
    return out + table;
}

std::string without_server_table(const std::string& text) {
    const auto at = find_server_table(text);
    if (!at) return text;
    std::size_t begin = at->begin;
    if (begin >= 2 && text[begin - 1] == '\n' && text[begin - 2] == '\n') --begin;
    return text.substr(0, begin) + text.substr(at->end);
}

} // namespace sutra::plugins::codex
