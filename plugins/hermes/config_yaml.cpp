// See config_yaml.hpp.

#include "plugins/hermes/config_yaml.hpp"

#include "core/util/json_nesting.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace sutra::plugins::hermes {

YamlLines split_yaml(const std::string& text) {
    YamlLines y;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto nl = text.find('\n', start);
        if (nl == std::string::npos) {
            y.lines.push_back(text.substr(start));
            y.final_newline = false;
            break;
        }
        y.lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    if (!y.lines.empty() && !y.lines[0].empty() && y.lines[0].back() == '\r') y.cr = "\r";
    return y;
}

std::string join_yaml(const YamlLines& y) {
    std::string out;
    for (std::size_t i = 0; i < y.lines.size(); ++i) {
        out += y.lines[i];
        if (i + 1 < y.lines.size() || y.final_newline) out += '\n';
    }
    return out;
}

std::string yaml_trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::size_t yaml_indent(const std::string& line) {
    const auto n = line.find_first_not_of(' ');
    return n == std::string::npos ? line.size() : n;
}

bool yaml_skip(const std::string& line) {
    const std::string t = yaml_trim(line);
    return t.empty() || t[0] == '#';
}

std::string yaml_value(const std::string& s) {
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t'))
            return yaml_trim(s.substr(0, i));
    return yaml_trim(s);
}

std::string yaml_unquote(std::string s) {
    if (s.size() >= 2 && (s[0] == '"' || s[0] == '\'') && s.back() == s[0])
        return s.substr(1, s.size() - 2);
    return s;
}

bool yaml_key(const std::string& line,
              std::size_t indent,
              const std::string& key,
              std::string& rest) {
    if (yaml_indent(line) != indent || line.compare(indent, key.size(), key) != 0) return false;
    const std::size_t colon = indent + key.size();
    if (colon >= line.size() || line[colon] != ':') return false;
    if (colon + 1 < line.size() && line[colon + 1] != ' ' && line[colon + 1] != '\t' &&
        line[colon + 1] != '\r')
        return false;
    rest = line.substr(colon + 1);
    return true;
}

YamlList find_plugins_list(const YamlLines& y, const std::string& key) {
    YamlList l;
    std::string rest;
    for (std::size_t i = 0; i < y.lines.size(); ++i) {
        if (!yaml_key(y.lines[i], 0, "plugins", rest)) continue;
        if (!yaml_value(rest).empty())
            throw std::runtime_error("`plugins:` is not a block mapping; edit it by hand");
        l.plugins_line = i;
        break;
    }
    if (!l.plugins_line) return l;
    std::size_t end = *l.plugins_line + 1;
    bool child_seen = false;
    while (end < y.lines.size() && (yaml_skip(y.lines[end]) || yaml_indent(y.lines[end]) > 0)) {
        if (!child_seen && !yaml_skip(y.lines[end])) {
            l.child_indent = yaml_indent(y.lines[end]);
            child_seen = true;
        }
        ++end;
    }
    l.block_end = end;
    l.item_indent = l.child_indent + 2;
    for (std::size_t i = *l.plugins_line + 1; i < end; ++i) {
        if (!yaml_key(y.lines[i], l.child_indent, key, rest)) continue;
        l.key_line = i;
        const std::string value = yaml_value(rest);
        if (value.empty()) {
            l.kind = YamlList::Kind::block;
            for (std::size_t k = i + 1; k < end; ++k) {
                const std::string& line = y.lines[k];
                if (yaml_skip(line)) continue;
                const std::string t = yaml_trim(line);
                const bool dash = t == "-" || t.rfind("- ", 0) == 0;
                if (yaml_indent(line) < l.child_indent ||
                    (yaml_indent(line) == l.child_indent && !dash))
                    break;
                if (!dash) throw std::runtime_error("`plugins." + key + "` has an unusual shape");
                if (l.item_lines.empty()) l.item_indent = yaml_indent(line);
                l.items.push_back(yaml_unquote(yaml_value(t.size() > 1 ? t.substr(2) : "")));
                l.item_lines.push_back(k);
            }
        } else if (value.front() == '[' && value.back() == ']') {
            l.kind = YamlList::Kind::flow;
            std::string inner = value.substr(1, value.size() - 2);
            std::size_t start = 0;
            while (yaml_trim(inner).size() > 0 && start <= inner.size()) {
                const auto comma = inner.find(',', start);
                const std::string item = yaml_unquote(yaml_trim(inner.substr(
                    start, comma == std::string::npos ? std::string::npos : comma - start)));
                if (!item.empty()) l.items.push_back(item);
                if (comma == std::string::npos) break;
                start = comma + 1;
            }
        } else {
            throw std::runtime_error("`plugins." + key +
                                     "` is neither a list nor empty; edit it by hand");
        }
        break;
    }
    return l;
}

bool yaml_lists(const std::optional<std::string>& text,
                const std::string& key,
                const std::string& name) {
    if (!text) return false;
    const YamlList l = find_plugins_list(split_yaml(*text), key);
    for (const auto& item : l.items)
        if (item == name) return true;
    return false;
}

std::string yaml_enable(const std::optional<std::string>& text, const std::string& name) {
    YamlLines y = split_yaml(text.value_or(std::string()));
    if (!text || text->empty()) y = YamlLines{};
    const YamlList l = find_plugins_list(y, "enabled");
    for (const auto& item : l.items)
        if (item == name) return text.value_or(std::string());
    const std::string cr = y.cr;
    auto pad = [](std::size_t n) { return std::string(n, ' '); };
    if (!l.plugins_line) {
        std::string out = text.value_or(std::string());
        if (!out.empty() && out.back() != '\n') out += cr + "\n";
        return out + "plugins:" + cr + "\n  enabled:" + cr + "\n    - " + name + cr + "\n";
    }
    auto& lines = y.lines;
    if (!l.key_line) {
        lines.insert(
            lines.begin() + static_cast<std::ptrdiff_t>(*l.plugins_line + 1),
            {pad(l.child_indent) + "enabled:" + cr, pad(l.child_indent + 2) + "- " + name + cr});
    } else if (l.kind == YamlList::Kind::block) {
        const std::size_t after = l.item_lines.empty() ? *l.key_line : l.item_lines.back();
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(after + 1),
                     pad(l.item_indent) + "- " + name + cr);
    } else {
        std::string& line = lines[*l.key_line];
        const auto hash = line.find(" #");
        const auto close = line.rfind(']', hash);
        line.insert(close, l.items.empty() ? name : ", " + name);
    }
    return join_yaml(y);
}

std::string yaml_disable(const std::string& text, const std::string& name) {
    YamlLines y = split_yaml(text);
    const YamlList l = find_plugins_list(y, "enabled");
    if (l.kind == YamlList::Kind::block) {
        for (std::size_t i = l.items.size(); i-- > 0;)
            if (l.items[i] == name)
                y.lines.erase(y.lines.begin() + static_cast<std::ptrdiff_t>(l.item_lines[i]));
    } else if (l.kind == YamlList::Kind::flow) {
        std::string& line = y.lines[*l.key_line];
        const auto open = line.find('[');
        const auto close = line.rfind(']', line.find(" #"));
        std::string inner;
        for (const auto& item : l.items) {
            if (item == name) continue;
            inner += (inner.empty() ? "" : ", ") + item;
        }
        line = line.substr(0, open + 1) + inner + line.substr(close);
    }
    return join_yaml(y);
}

YamlServer find_server(const YamlLines& y, const std::string& name) {
    YamlServer s;
    std::string rest;
    for (std::size_t i = 0; i < y.lines.size(); ++i) {
        if (!yaml_key(y.lines[i], 0, "mcp_servers", rest)) continue;
        const std::string value = yaml_value(rest);
        if (value == "{}") {
            s.flow_empty = true;
        } else if (!value.empty()) {
            throw std::runtime_error("`mcp_servers:` is not a block mapping; add the sutra "
                                     "server by hand");
        }
        s.section_line = i;
        break;
    }
    if (!s.section_line) return s;
    s.last_content = *s.section_line;
    bool child_seen = false;
    for (std::size_t i = *s.section_line + 1; i < y.lines.size(); ++i) {
        const std::string& line = y.lines[i];
        if (yaml_skip(line)) continue;
        if (yaml_indent(line) == 0) break;
        if (!child_seen) {
            s.child_indent = yaml_indent(line);
            child_seen = true;
        }
        s.last_content = i;
        if (yaml_indent(line) == s.child_indent) {
            if (s.begin && s.end == 0) s.end = i;
            std::string key = yaml_trim(line.substr(0, line.find(':')));
            if (yaml_unquote(key) == name && !s.begin) s.begin = i;
        }
    }
    if (s.begin && s.end == 0) s.end = s.last_content + 1;
    if (s.begin) // the child ends at its last content line, not at trailing comments
        while (s.end > *s.begin + 1 && yaml_skip(y.lines[s.end - 1])) --s.end;
    return s;
}

std::vector<std::string> yaml_server_block(const std::string& name,
                                           const std::string& command,
                                           const std::vector<std::string>& args) {
    const auto literal = [](const std::string& v) {
        return nlohmann::json(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
    };
    std::string list;
    for (const auto& a : args) list += (list.empty() ? "" : ", ") + literal(a);
    return {name + ":", "  command: " + literal(command), "  args: [" + list + "]"};
}

std::optional<std::vector<std::string>> yaml_server_lines(const std::optional<std::string>& text,
                                                          const std::string& name) {
    if (!text) return std::nullopt;
    const YamlLines y = split_yaml(*text);
    const YamlServer s = find_server(y, name);
    if (!s.begin) return std::nullopt;
    std::vector<std::string> out;
    for (std::size_t i = *s.begin; i < s.end; ++i) {
        std::string line = y.lines[i];
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.push_back(line.substr(std::min(yaml_indent(line), s.child_indent)));
    }
    return out;
}

std::optional<std::string> yaml_server_command(const std::optional<std::string>& text,
                                               const std::string& name) {
    const auto lines = yaml_server_lines(text, name);
    if (!lines) return std::nullopt;
    for (const auto& line : *lines) {
        std::string rest;
        const std::string t = yaml_trim(line);
        if (t.rfind("command:", 0) != 0) continue;
        std::string v = yaml_value(t.substr(8));
        if (v.size() >= 2 && v.front() == '"') {
            const auto parsed = sutra::core::parse_within_nesting<nlohmann::json>(v);
            return parsed.is_string() ? std::optional<std::string>(parsed.get<std::string>())
                                      : std::nullopt;
        }
        return yaml_unquote(v);
    }
    return std::nullopt;
}

std::string yaml_set_server(const std::optional<std::string>& text,
                            const std::string& name,
                            const std::vector<std::string>& block) {
    YamlLines y = split_yaml(text.value_or(std::string()));
    if (!text || text->empty()) y = YamlLines{};
    const YamlServer s = find_server(y, name);
    const std::string cr = y.cr;
    auto indented = [&](std::size_t indent) {
        std::vector<std::string> out;
        for (const auto& line : block) out.push_back(std::string(indent, ' ') + line + cr);
        return out;
    };
    auto& lines = y.lines;
    if (!s.section_line) {
        std::string out = text.value_or(std::string());
        if (!out.empty() && out.back() != '\n') out += cr + "\n";
        out += "mcp_servers:" + cr + "\n";
        for (const auto& line : indented(2)) out += line + "\n";
        return out;
    }
    const auto at = [](std::size_t i) { return static_cast<std::ptrdiff_t>(i); };
    const auto at_ = at;
    if (s.begin) {
        // Our block is there: only its command and args lines change.
        const std::size_t inner =
            *s.begin + 1 < s.end ? yaml_indent(lines[*s.begin + 1]) : s.child_indent + 2;
        std::size_t after_header = *s.begin + 1;
        for (std::size_t b = 1; b < block.size(); ++b) {
            const std::string line = block[b].substr(yaml_indent(block[b]));
            const std::string key = line.substr(0, line.find(':'));
            const std::string want = std::string(inner, ' ') + line + cr;
            YamlServer now = find_server(y, name);
            std::optional<std::size_t> found;
            std::string rest;
            for (std::size_t i = *now.begin + 1; i < now.end && !found; ++i)
                if (yaml_key(lines[i], inner, key, rest)) found = i;
            if (!found) {
                lines.insert(lines.begin() + at_(after_header), want);
                ++after_header;
                continue;
            }
            std::size_t stop = *found + 1; // a block list under the key goes with it
            if (yaml_value(rest).empty())
                while (stop < now.end &&
                       (yaml_skip(lines[stop]) || yaml_indent(lines[stop]) > inner ||
                        yaml_trim(lines[stop]).rfind("- ", 0) == 0))
                    ++stop;
            lines.erase(lines.begin() + at_(*found), lines.begin() + at_(stop));
            lines.insert(lines.begin() + at_(*found), want);
            after_header = *found + 1;
        }
        const std::string out = join_yaml(y);
        return out == text.value_or(std::string()) ? *text : out;
    } else {
        if (s.flow_empty) lines[*s.section_line] = "mcp_servers:" + cr;
        const auto want = indented(s.child_indent);
        lines.insert(lines.begin() + at(s.last_content + 1), want.begin(), want.end());
        if (y.lines.size() == s.last_content + 1 + want.size() && !y.final_newline)
            y.final_newline = true; // appended after a last line that had no '\n'
    }
    return join_yaml(y);
}

std::string yaml_remove_server(const std::string& text, const std::string& name) {
    YamlLines y = split_yaml(text);
    const YamlServer s = find_server(y, name);
    if (!s.begin) return text;
    y.lines.erase(y.lines.begin() + static_cast<std::ptrdiff_t>(*s.begin),
                  y.lines.begin() + static_cast<std::ptrdiff_t>(s.end));
    return join_yaml(y);
}

std::optional<std::vector<std::string>> yaml_server_args(const std::optional<std::string>& text,
                                                         const std::string& name) {
    const auto lines = yaml_server_lines(text, name);
    if (!lines) return std::nullopt;
    for (const auto& line : *lines) {
        const std::string t = yaml_trim(line);
        if (t.rfind("args:", 0) != 0) continue;
        const auto parsed =
            sutra::core::parse_within_nesting<nlohmann::json>(yaml_value(t.substr(5)));
        if (!parsed.is_array()) return std::nullopt;
        std::vector<std::string> out;
        for (const auto& a : parsed) {
            if (!a.is_string()) return std::nullopt;
            out.push_back(a.get<std::string>());
        }
        return out;
    }
    return std::nullopt;
}

std::pair<std::string, std::string> yaml_document(const std::string& text) {
    const auto multi = [] {
        return std::runtime_error("holds more than one YAML document (`---`/`...` markers); "
                                  "edit it by hand (nothing was changed)");
    };
    bool content = false;
    std::optional<std::size_t> end_marker;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto nl = text.find('\n', start);
        const std::size_t stop = nl == std::string::npos ? text.size() : nl + 1;
        std::string line = text.substr(start, stop - start);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        const bool marker_end = line == "..." || line.rfind("... ", 0) == 0;
        const bool marker_start = line == "---" || line.rfind("--- ", 0) == 0;
        if (end_marker) {
            if (!yaml_skip(line)) throw multi();
        } else if (marker_end) {
            end_marker = start;
        } else if (marker_start) {
            if (content) throw multi();
            content =
                yaml_trim(line.substr(3)).rfind('#', 0) != 0 && !yaml_trim(line.substr(3)).empty();
        } else if (!yaml_skip(line)) {
            content = true;
        }
        start = stop;
    }
    if (!end_marker) return {text, std::string()};
    return {text.substr(0, *end_marker), text.substr(*end_marker)};
}

} // namespace sutra::plugins::hermes
