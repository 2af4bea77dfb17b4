// See output_cap.hpp.

#include "plugins/codex/output_cap.hpp"

#include "core/json_nesting.hpp"
#include "plugins/codex/config_toml.hpp"
#include "plugins/common/hook_settings.hpp"
#include "plugins/common/paths.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace sutra::plugins::codex {

namespace {

constexpr const char* k_key = "tool_output_token_limit";
// sutra's line: `tool_output_token_limit = 65536 # sutra --raise-output-cap[, was: "<line>"]`.
const std::string k_ours =
    std::string(k_key) + " = " + std::to_string(k_raised_cap) + " # sutra --raise-output-cap";
constexpr const char* k_was = ", was: ";

// The top-level line that sets the cap (before the first table header), if any.
std::optional<TomlLine> cap_line(const std::string& toml) {
    for (const auto& line : toml_lines(toml)) {
        if (!toml_header(line.text).empty()) break;
        const std::string t = toml_trim(line.text);
        const auto eq = t.find('=');
        if (eq == std::string::npos) continue;
        std::string key = toml_trim(t.substr(0, eq));
        if (key.size() >= 2 && (key.front() == '"' || key.front() == '\''))
            key = key.substr(1, key.size() - 2);
        if (key == k_key) return line;
    }
    return std::nullopt;
}

std::string without_newline(const TomlLine& line) {
    std::string t = line.text;
    if (!t.empty() && t.back() == '\r') t.pop_back();
    return t;
}

} // namespace

CapState read_cap(const std::string& toml) {
    CapState s;
    const auto line = cap_line(toml);
    if (!line) return s;
    const std::string text = without_newline(*line);
    s.raised_by_sutra = text == k_ours || text.starts_with(k_ours + k_was);
    std::string value = toml_trim(text.substr(text.find('=') + 1));
    if (const auto hash = value.find('#'); hash != std::string::npos)
        value = toml_trim(value.substr(0, hash));
    std::uint64_t n = 0;
    bool digits = !value.empty();
    for (char c : value) {
        if (c == '_') continue;
        if (c < '0' || c > '9' || n > (UINT64_MAX - 9) / 10) {
            digits = false;
            break;
        }
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (digits)
        s.tokens = n;
    else
        s.readable = false;
    return s;
}

std::optional<std::string> hook_trust_key(const std::string& hooks_json, const std::string& path) {
    const auto doc = sutra::core::parse_within_nesting<nlohmann::json>(hooks_json);
    if (!doc.is_object() || !doc.contains("hooks") || !doc["hooks"].is_object())
        return std::nullopt;
    const auto groups = doc["hooks"].find("PostToolUse");
    if (groups == doc["hooks"].end() || !groups->is_array()) return std::nullopt;
    for (std::size_t g = 0; g < groups->size(); ++g) {
        const auto& group = (*groups)[g];
        if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) continue;
        for (std::size_t h = 0; h < group["hooks"].size(); ++h) {
            const auto& hook = group["hooks"][h];
            if (hook.is_object() && hook.contains("command") && hook["command"].is_string() &&
                common::is_our_command(hook["command"].get<std::string>(), "codex"))
                return path + ":post_tool_use:" + std::to_string(g) + ":" + std::to_string(h);
        }
    }
    return std::nullopt;
}

bool hook_trusted(const std::string& toml, const std::string& key) {
    const std::string quoted = "\"" + key + "\"";
    std::string wanted; // the table name as toml_header spells it: no quotes, no blanks
    for (char c : "hooks.state." + key)
        if (c != ' ' && c != '\t') wanted += c;
    bool in_table = false;
    for (const auto& line : toml_lines(toml)) {
        const std::string header = toml_header(line.text);
        if (!header.empty()) {
            in_table = header == wanted;
            continue;
        }
        const std::string t = toml_trim(line.text);
        if (t.starts_with("#")) continue;
        // In the table itself, or an inline table or dotted key that names it.
        if ((in_table || t.find(quoted) != std::string::npos) && t.find("trusted_hash") == 0)
            return true;
        if (t.find(quoted) != std::string::npos && t.find("trusted_hash") != std::string::npos)
            return true;
    }
    return false;
}

std::string with_raised_cap(const std::string& toml) {
    const CapState s = read_cap(toml);
    if (!s.readable)
        throw std::runtime_error(std::string(k_key) +
                                 " in config.toml is not a plain integer; raise it by hand "
                                 "(nothing was changed)");
    if (s.raised_by_sutra || (s.tokens && *s.tokens >= k_raised_cap)) return toml;
    if (const auto line = cap_line(toml)) {
        const std::string own = without_newline(*line);
        const std::string was =
            nlohmann::json(own).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
        return toml.substr(0, line->begin) + k_ours + k_was + was +
               toml.substr(line->begin + own.size());
    }
    return k_ours + "\n" + toml;
}

std::string without_raised_cap(const std::string& toml) {
    const auto line = cap_line(toml);
    if (!line) return toml;
    const std::string text = without_newline(*line);
    if (text == k_ours) return toml.substr(0, line->begin) + toml.substr(line->end);
    if (!text.starts_with(k_ours + k_was)) return toml; // the user's own line, or edited since
    const auto own = nlohmann::json::parse(text.substr(k_ours.size() + std::string(k_was).size()),
                                           nullptr, false);
    if (!own.is_string()) return toml;
    return toml.substr(0, line->begin) + own.get<std::string>() +
           toml.substr(line->begin + text.size());
}

void plan_raised_cap(std::vector<common::FilePlan>& plans,
                     const std::string& config_path,
                     const std::string& hooks_path,
                     bool hook_changed,
                     common::ojson& result) {
    const std::string how = "open codex, run /hooks and trust the sutra-host entry, then run "
                            "`sutra install --client codex --raise-output-cap` again";
    if (hook_changed) {
        result["messages"].push_back(
            config_path +
            ": output cap not raised: Codex has not trusted the hook just written "
            "(a raised cap would hand the model whole outputs); " +
            how);
        return;
    }
    const std::string path = common::real_target(config_path);
    common::FilePlan* existing = nullptr;
    for (auto& p : plans)
        if (p.path == path) existing = &p;
    const auto before = existing ? existing->after : common::read_text(path);
    const std::string text = before.value_or(std::string());
    const auto hooks = common::read_text(hooks_path);
    const auto key = hooks ? hook_trust_key(*hooks, hooks_path) : std::nullopt;
    if (!key || !hook_trusted(text, *key)) {
        result["messages"].push_back(config_path + ": output cap not raised: Codex has not " +
                                     "recorded trust for sutra's hook" +
                                     (key ? " (" + *key + ")" : std::string()) + "; " + how);
        return;
    }
    const std::string after = with_raised_cap(text);
    // Re-read as Codex would: nothing but the cap may change.
    if (after != text)
        check_key_edit(text, after, k_key, static_cast<std::int64_t>(k_raised_cap), path);
    if (after == text) {
        result["messages"].push_back(config_path + ": " + k_key + " already lets " +
                                     std::to_string(k_raised_cap) + " tokens or more through");
        return;
    }
    if (existing) {
        existing->after = after;
    } else {
        common::FilePlan plan{path, before ? "modify" : "create", before, after, std::nullopt};
        plan.backup_before = false; // the line itself holds what uninstall puts back
        plans.push_back(std::move(plan));
    }
    result["messages"].push_back(
        config_path + ": " + k_key + " raised to " + std::to_string(k_raised_cap) +
        " tokens: shell outputs up to 256 KiB reach sutra's hook whole (exec_command still stops "
        "at 10,000 tokens, about 40 KB, unless the model asks for more)");
}

void plan_lowered_cap(std::vector<common::FilePlan>& plans,
                      const std::string& config_path,
                      common::ojson& result) {
    const std::string path = common::real_target(config_path);
    common::FilePlan* existing = nullptr;
    for (auto& p : plans)
        if (p.path == path) existing = &p;
    const auto before = existing ? existing->after : common::read_text(path);
    if (!before || !read_cap(*before).raised_by_sutra) return;
    const std::string after = without_raised_cap(*before);
    if (after == *before) return;
    check_key_edit(*before, after, k_key, std::nullopt, path);
    if (existing) {
        existing->after = after;
    } else {
        common::FilePlan plan{path, "modify", before, after, std::nullopt};
        plan.backup_before = false; // the raised line held the user's own
        plans.push_back(std::move(plan));
    }
    result["messages"].push_back(
        config_path + ": " + k_key +
        " put back as it was: Codex does not run the hook just written until you trust it, and "
        "a raised cap would hand the model whole outputs meanwhile; open codex, run /hooks and "
        "trust the sutra-host entry, then run `sutra install --client codex --raise-output-cap` "
        "again");
}

bool cap_cuts(const CapState& s) {
    return !s.readable || !(s.tokens && *s.tokens >= k_raised_cap);
}

common::ojson cap_uncovered(const std::string& toml) {
    const CapState s = read_cap(toml);
    common::ojson out = common::ojson::array();
    if (!cap_cuts(s)) return out;
    const std::string cap = !s.readable ? std::string(k_key) + " is not a plain integer"
                            : s.tokens
                                ? std::string(k_key) + " = " + std::to_string(*s.tokens) + " tokens"
                                : std::string(k_key) + " unset: 10,000 bytes";
    out.push_back(
        {{"what", "shell output beyond Codex's output cap (" + cap +
                      "): Codex cuts it before the hook runs"},
         {"command", s.readable ? "sutra install --client codex --raise-output-cap"
                                : "set " + std::string(k_key) + " = " +
                                      std::to_string(k_raised_cap) + " in config.toml by hand"}});
    return out;
}

common::ojson cap_report(const std::string& config_path, const std::string& hooks_path) {
    const auto text = common::read_text(common::real_target(config_path)).value_or("");
    const CapState s = read_cap(text);
    const auto hooks = common::read_text(hooks_path);
    const auto key = hooks ? hook_trust_key(*hooks, hooks_path) : std::nullopt;
    const bool trusted = key && hook_trusted(text, *key);
    const bool cuts = cap_cuts(s);
    std::string note;
    if (!s.readable)
        note = std::string(k_key) + " is not a plain integer; Codex's cut before sutra's hook is "
                                    "unknown";
    else if (s.raised_by_sutra && !trusted)
        note = std::string(k_key) + " was raised by sutra, but Codex has not recorded trust for "
                                    "sutra's hook: until you trust it (open codex, run /hooks), "
                                    "the model gets whole outputs that sutra never shortens";
    else if (cuts)
        note = "Codex cuts shell output to " +
               (s.tokens ? std::to_string(*s.tokens) + " tokens (about " +
                               std::to_string(*s.tokens * 4) + " bytes, " + k_key + ")"
                         : std::string("10,000 bytes (") + k_key + " unset)") +
               " before sutra's hook sees it: the middle of a longer output never reaches sutra "
               "or the model. Raise it: sutra install --client codex --raise-output-cap (once "
               "the hook is trusted in /hooks)";
    else
        note = std::string(k_key) + " = " + std::to_string(*s.tokens) + ": outputs up to " +
               std::to_string(*s.tokens * 4 / 1024) +
               " KiB reach sutra's hook whole (exec_command stops at 10,000 tokens unless the "
               "model asks for more)";
    return common::ojson{{"tokens", s.tokens ? common::ojson(*s.tokens) : common::ojson(nullptr)},
                         {"raised_by_sutra", s.raised_by_sutra},
                         {"hook_trusted", trusted},
                         {"cuts_before_sutra", cuts},
                         {"problem", s.raised_by_sutra && !trusted},
                         {"note", note}};
}

} // namespace sutra::plugins::codex
