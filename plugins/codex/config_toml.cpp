// See config_toml.hpp.

#include "plugins/codex/config_toml.hpp"

#include "core/util/json_nesting.hpp"

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

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

std::string toml_key(const std::string& raw) {
    std::string key = toml_trim(raw);
    if (key.size() >= 2 && (key.front() == '"' || key.front() == '\'') && key.back() == key.front())
        key = key.substr(1, key.size() - 2);
    return key;
}

std::optional<TomlTable> find_server_table(const std::string& text) {
    const auto lines = toml_lines(text);
    std::string current; // the table the line belongs to
    std::optional<TomlTable> found;
    bool open = false; // inside our table or one of its subtables
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string header = toml_header(lines[i].text);
        if (!header.empty()) {
            open = header == "mcp_servers.sutra" || header.rfind("mcp_servers.sutra.", 0) == 0;
            current = header;
            if (header == "mcp_servers.sutra" && !found) found = TomlTable{lines[i].begin, 0};
            if (open && found) found->end = lines[i].end;
            continue;
        }
        const std::string t = toml_trim(lines[i].text);
        if (t.empty() || t[0] == '#') continue; // comments and blanks belong to what follows
        if (open && found) found->end = lines[i].end;
        const std::string key = toml_key(t.substr(0, t.find_first_of("=.")));
        if ((current.empty() && key == "mcp_servers") ||
            (current == "mcp_servers" && key == "sutra"))
            throw std::runtime_error(
                "defines mcp_servers inline, as dotted keys or quoted; add the "
                "sutra server by hand (`codex mcp add`), nothing was changed");
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

namespace {

// Where `key = …` sits among `lines` [from, to): its first line and one past its last (a
// multi-line array runs until its brackets close).
std::optional<std::pair<std::size_t, std::size_t>> key_lines(const std::vector<TomlLine>& lines,
                                                             std::size_t from,
                                                             std::size_t to,
                                                             const std::string& key) {
    for (std::size_t i = from; i < to; ++i) {
        if (!toml_header(lines[i].text).empty()) return std::nullopt; // a subtable starts
        const std::string t = toml_trim(lines[i].text);
        const auto eq = t.find('=');
        if (t.empty() || t[0] == '#' || eq == std::string::npos || toml_key(t.substr(0, eq)) != key)
            continue;
        int depth = 0;
        std::size_t k = i;
        for (; k < to; ++k) {
            char quote = 0;
            const std::string& line = k == i ? t.substr(eq + 1) : lines[k].text;
            for (char c : line) {
                if (quote) {
                    if (c == quote) quote = 0;
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '#') {
                    break;
                } else if (c == '[') {
                    ++depth;
                } else if (c == ']') {
                    --depth;
                }
            }
            if (depth <= 0) break;
        }
        return std::pair{i, std::min(k + 1, to)};
    }
    return std::nullopt;
}

} // namespace

std::string with_server_table(const std::optional<std::string>& original,
                              const std::string& table) {
    const std::string text = original.value_or(std::string());
    if (const auto at = find_server_table(text)) {
        // Our table is there: only its command and args lines change (an upgrade keeps the
        // user's `enabled`, env, timeouts and comments).
        const auto lines = toml_lines(text);
        const auto want = toml_lines(table);
        std::size_t first = 0, last = 0;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (lines[i].begin == at->begin) first = i;
            if (lines[i].end <= at->end) last = i + 1;
        }
        const auto wanted = [&](const char* key) {
            for (const auto& w : want)
                if (const auto eq = w.text.find('=');
                    eq != std::string::npos && toml_trim(w.text.substr(0, eq)) == key)
                    return w.text;
            return std::string();
        };
        const std::string command = wanted("command"), args = wanted("args");
        const auto command_at = key_lines(lines, first + 1, last, "command");
        const auto args_at = key_lines(lines, first + 1, last, "args");
        std::vector<std::string> out;
        for (std::size_t i = 0; i < lines.size();) {
            if (command_at && i == command_at->first) {
                out.push_back(command);
                if (!args_at) out.push_back(args);
                i = command_at->second;
                continue;
            }
            if (args_at && i == args_at->first) {
                out.push_back(args);
                i = args_at->second;
                continue;
            }
            out.push_back(lines[i].text);
            if (i == first && !command_at) {
                out.push_back(command);
                if (!args_at) out.push_back(args);
            }
            ++i;
        }
        std::string result;
        for (std::size_t i = 0; i < out.size(); ++i)
            result +=
                out[i] + (i + 1 < out.size() || text.empty() || text.back() == '\n' ? "\n" : "");
        return result;
    }
    std::string out = text;
    if (!out.empty() && out.back() != '\n') out += '\n';
    if (!out.empty()) out += '\n';
    return out + table;
}

std::string without_server_table(const std::string& text) {
    const auto at = find_server_table(text);
    if (!at) return text;
    std::size_t begin = at->begin, end = at->end;
    // One blank line goes with the table: the one install put before it, else the one after it.
    if (begin >= 2 && text[begin - 1] == '\n' && text[begin - 2] == '\n')
        --begin;
    else if (begin == 0 && end < text.size() && text[end] == '\n')
        ++end;
    return text.substr(0, begin) + text.substr(end);
}

namespace {

toml::table parse_toml(const std::string& text, const std::string& path) {
    try {
        return toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        throw std::runtime_error(
            path + " is not valid TOML (line " + std::to_string(e.source().begin.line) + ": " +
            std::string(e.description()) + "); fix it by hand (nothing was changed)");
    }
}

std::optional<TomlServer> server_of(const toml::table& doc) {
    const auto* t = doc["mcp_servers"]["sutra"].as_table();
    if (t == nullptr) return std::nullopt;
    TomlServer s;
    s.command = (*t)["command"].value_or(std::string());
    if (const auto* a = (*t)["args"].as_array())
        for (const auto& v : *a) s.args.push_back(v.value_or(std::string()));
    return s;
}

// `doc` without mcp_servers.sutra's command and args (or without the whole table).
void forget_ours(toml::table& doc, bool whole) {
    auto* servers = doc["mcp_servers"].as_table();
    if (servers == nullptr) return;
    if (whole) {
        servers->erase("sutra");
    } else if (auto* t = (*servers)["sutra"].as_table()) {
        t->erase("command");
        t->erase("args");
    }
    if (servers->empty()) doc.erase("mcp_servers");
}

} // namespace

std::optional<TomlServer> toml_read_server(const std::string& text, const std::string& path) {
    return server_of(parse_toml(text, path));
}

std::optional<std::int64_t> toml_read_int(const std::string& text, const std::string& key) {
    const toml::table doc = parse_toml(text, "config.toml");
    return doc[key].value<std::int64_t>();
}

std::optional<bool>
toml_read_feature(const std::string& text, const std::string& path, const std::string& name) {
    return parse_toml(text, path)["features"][name].value<bool>();
}

void check_server_edit(const std::optional<std::string>& before,
                       const std::string& after,
                       const std::optional<TomlServer>& want,
                       const std::string& path) {
    toml::table old_doc = parse_toml(before.value_or(std::string()), path);
    toml::table new_doc;
    try {
        new_doc = toml::parse(after, path);
    } catch (const toml::parse_error& e) {
        throw std::runtime_error(path + ": sutra's edit would not be valid TOML (" +
                                 std::string(e.description()) +
                                 "); add the server by hand (nothing was changed)");
    }
    const auto got = server_of(new_doc);
    const bool right =
        want ? got && got->command == want->command && got->args == want->args : !got.has_value();
    // A fresh table replaces nothing of the user's; an update keeps the table's other keys.
    const bool fresh = !server_of(old_doc).has_value();
    forget_ours(old_doc, fresh || !want);
    forget_ours(new_doc, fresh || !want);
    if (!right || old_doc != new_doc)
        throw std::runtime_error(path + ": sutra could not edit [mcp_servers.sutra] without "
                                        "changing something else; edit it by hand (nothing was "
                                        "changed)");
}

void check_key_edit(const std::string& before,
                    const std::string& after,
                    const std::string& key,
                    std::optional<std::int64_t> want,
                    const std::string& path) {
    toml::table old_doc = parse_toml(before, path);
    toml::table new_doc;
    try {
        new_doc = toml::parse(after, path);
    } catch (const toml::parse_error& e) {
        throw std::runtime_error(path + ": sutra's edit of " + key + " would not be valid TOML (" +
                                 std::string(e.description()) + "); nothing was changed");
    }
    const bool right = !want || new_doc[key].value<std::int64_t>() == want;
    old_doc.erase(key);
    new_doc.erase(key);
    if (!right || old_doc != new_doc)
        throw std::runtime_error(path + ": sutra could not edit " + key +
                                 " without changing something else; edit it by hand (nothing "
                                 "was changed)");
}

} // namespace sutra::plugins::codex
