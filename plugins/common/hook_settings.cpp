// See hook_settings.hpp.

#include "plugins/common/hook_settings.hpp"

#include "plugins/common/json_text.hpp"
#include "plugins/common/mcp_registration.hpp"
#include "plugins/common/paths.hpp"
#include "plugins/common/shell_words.hpp"

#include <filesystem>
#include <stdexcept>

namespace sutra::plugins::common {

namespace fs = std::filesystem;

namespace {

// The words of `command` as split at single spaces, quotes kept; nullopt for an open quote.
std::optional<std::vector<std::string>> raw_words(const std::string& command) {
    std::vector<std::string> words(1);
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == ' ') {
            words.emplace_back();
        } else if (c == '\\' && i + 1 < command.size()) {
            words.back() += command.substr(i++, 2);
        } else if (c == '\'') {
            const auto end = command.find('\'', i + 1);
            if (end == std::string::npos) return std::nullopt;
            words.back() += command.substr(i, end - i + 1);
            i = end;
        } else {
            words.back() += c;
        }
    }
    return words;
}

// The value of a word quoted exactly as shell_word quotes it (so as sutra writes it); nullopt
// for any other spelling.
std::optional<std::string> written_value(const std::string& word) {
    std::string value;
    for (std::size_t i = 0; i < word.size(); ++i) {
        if (word[i] == '\'') {
            const auto end = word.find('\'', i + 1);
            if (end == std::string::npos) return std::nullopt;
            value += word.substr(i + 1, end - i - 1);
            i = end;
        } else if (word[i] == '\\' && i + 1 < word.size()) {
            value += word[++i];
        } else {
            value += word[i];
        }
    }
    if (shell_word(value) != word) return std::nullopt;
    return value;
}

// True when `word` is written as sutra writes a path to the program `name`, from any prefix.
bool names_program(const std::string& word, const std::string& name) {
    const auto path = written_value(word);
    if (!path) return false;
    const auto slash = path->rfind('/');
    return (slash == std::string::npos ? *path : path->substr(slash + 1)) == name;
}

// A string field of `j`; "" when absent or not a string.
std::string text_field(const ojson& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

// Sutra writes `[SUTRA_BASH_ROUTE=always] [SUTRA_PROGRAM=SUTRA] HOST --adapter NAME` (the Claude
// Code route adds the first two), each path quoted by shell_word. Only that exact shape is
// ours: a user's wrapper that merely runs sutra-host, or passes it more, stays theirs; the
// paths may differ (an install from another prefix is still sutra's, and upgrades in place).
bool is_our_command(const std::string& command, const std::string& adapter) {
    const auto words = raw_words(command);
    if (!words) return false;
    std::size_t i = 0;
    const auto word = [&](std::size_t k) { return k < words->size() ? (*words)[k] : ""; };
    if (word(i) == "SUTRA_BASH_ROUTE=always") ++i;
    const std::string assign = "SUTRA_PROGRAM=";
    if (word(i).starts_with(assign)) {
        if (!names_program(word(i).substr(assign.size()), "sutra")) return false;
        ++i;
    }
    return words->size() == i + 3 && names_program(word(i), "sutra-host") &&
           word(i + 1) == "--adapter" && word(i + 2) == adapter;
}

bool is_ours(const std::string& command, const HookSpec& spec) {
    if (spec.setting.empty()) return is_our_command(command, spec.adapter);
    // A setting: exactly `SUTRA SUBCOMMAND` (`sutra statusline`), never one piped further.
    const auto words = raw_words(command);
    return words && words->size() == 2 && names_program((*words)[0], "sutra") &&
           (*words)[1] == spec.adapter;
}

namespace {

// A setting spec's object when it is ours.
const ojson* our_setting(const ojson& doc, const HookSpec& spec) {
    const auto it = doc.find(spec.setting);
    // Exactly what sutra writes: a user's own entry that merely runs sutra stays theirs.
    if (it == doc.end() || !it->is_object() || it->size() != 2 ||
        it->value("type", std::string()) != "command")
        return nullptr;
    const auto cmd = it->find("command");
    return cmd != it->end() && cmd->is_string() && is_ours(cmd->get<std::string>(), spec) ? &*it
                                                                                          : nullptr;
}

// True for a hook object in `group` of the shape sutra writes for `spec`: its matcher, type and
// command (from any prefix). Its timeout and keys the user added stay the user's to change.
bool is_our_hook(const ojson& group, const ojson& hook, const HookSpec& spec) {
    return group.is_object() && hook.is_object() && text_field(group, "matcher") == spec.matcher &&
           text_field(hook, "type") == "command" &&
           is_our_command(text_field(hook, "command"), spec.adapter);
}

} // namespace

std::pair<int, char> detect_indent(const std::string& text) {
    const auto nl = text.find('\n');
    if (nl == std::string::npos || nl + 1 >= text.size()) return {2, ' '};
    const char c = text[nl + 1];
    if (c != ' ' && c != '\t') return {2, ' '};
    int n = 0;
    for (std::size_t i = nl + 1; i < text.size() && text[i] == c; ++i) ++n;
    return {n, c};
}

std::string serialize(const ojson& doc, const std::optional<std::string>& original) {
    const auto [width, ch] = original ? detect_indent(*original) : std::pair<int, char>{2, ' '};
    // A byte-order mark stays: the host wrote or accepts it, and uninstall compares bytes.
    std::string out = original ? original->substr(0, bom_length(*original)) : std::string();
    out += doc.dump(width, ch, false, ojson::error_handler_t::strict);
    if (!original || (!original->empty() && original->back() == '\n')) out += '\n';
    return out;
}

ojson parse_settings(const std::optional<std::string>& text, const std::string& path) {
    if (!text || text->find_first_not_of(" \t\r\n") == std::string::npos) return ojson::object();
    const auto parsed = parse_json_text(*text, false);
    if (!parsed)
        throw std::runtime_error(path + " " + json_text_problem(*text, false) +
                                 "; fix it by hand (nothing was changed)");
    ojson doc = *parsed;
    if (!doc.is_object())
        throw std::runtime_error(path + " is not a JSON object; fix it by hand (nothing was "
                                        "changed)");
    return doc;
}

bool strip_ours(ojson& doc, const HookSpec& spec) {
    if (!spec.setting.empty()) {
        if (!our_setting(doc, spec)) return false;
        doc.erase(spec.setting);
        return true;
    }
    bool changed = false;
    auto hooks = doc.find("hooks");
    if (hooks == doc.end() || !hooks->is_object()) return false;
    auto event = hooks->find(spec.event);
    if (event == hooks->end() || !event->is_array()) return false;
    ojson kept = ojson::array();
    for (auto& group : *event) {
        if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) {
            kept.push_back(group);
            continue;
        }
        ojson inner = ojson::array();
        bool removed = false;
        for (auto& h : group["hooks"]) {
            if (is_our_hook(group, h, spec)) {
                removed = true;
                continue;
            }
            inner.push_back(h);
        }
        changed = changed || removed;
        if (removed && inner.empty()) continue;
        group["hooks"] = inner;
        kept.push_back(group);
    }
    if (!changed) return false;
    if (kept.empty()) {
        hooks->erase(spec.event);
        if (hooks->empty()) doc.erase("hooks");
    } else {
        *event = kept;
    }
    return true;
}

std::optional<std::string> our_command(const ojson& doc, const HookSpec& spec) {
    if (!spec.setting.empty()) {
        const ojson* s = our_setting(doc, spec);
        return s ? std::optional<std::string>((*s)["command"].get<std::string>()) : std::nullopt;
    }
    const auto hooks = doc.find("hooks");
    if (hooks == doc.end() || !hooks->is_object()) return std::nullopt;
    const auto event = hooks->find(spec.event);
    if (event == hooks->end() || !event->is_array()) return std::nullopt;
    for (const auto& group : *event)
        if (group.is_object() && group.contains("hooks") && group["hooks"].is_array())
            for (const auto& h : group["hooks"])
                if (is_our_hook(group, h, spec)) return text_field(h, "command");
    return std::nullopt;
}

namespace {

// Our hook object under spec.event (or our setting), if any.
ojson* our_hook(ojson& doc, const HookSpec& spec) {
    if (!spec.setting.empty()) return const_cast<ojson*>(our_setting(doc, spec));
    const auto hooks = doc.find("hooks");
    if (hooks == doc.end() || !hooks->is_object()) return nullptr;
    const auto event = hooks->find(spec.event);
    if (event == hooks->end() || !event->is_array()) return nullptr;
    for (auto& group : *event)
        if (group.is_object() && group.contains("hooks") && group["hooks"].is_array())
            for (auto& h : group["hooks"])
                if (is_our_hook(group, h, spec)) return &h;
    return nullptr;
}

} // namespace

std::string with_hooks(const std::optional<std::string>& original,
                       const std::string& path,
                       const std::vector<HookSpec>& specs,
                       const std::vector<HookSpec>& removed) {
    ojson doc = parse_settings(original, path);
    bool changed = false;
    for (const HookSpec& spec : removed) changed = strip_ours(doc, spec) || changed;
    std::vector<const HookSpec*> check; // what the re-read must find
    for (const HookSpec& spec : specs) {
        if (ojson* ours = our_hook(doc, spec)) {
            // An upgrade or reinstall: only the command changes; the user's own keys stay.
            if ((*ours)["command"] != spec.command) {
                (*ours)["command"] = spec.command;
                changed = true;
            }
            check.push_back(&spec);
            continue;
        }
        if (!spec.setting.empty()) {
            if (doc.contains(spec.setting)) continue; // the user's own: never replaced
            doc[spec.setting] = ojson{{"type", "command"}, {"command", spec.command}};
            changed = true;
            check.push_back(&spec);
            continue;
        }
        check.push_back(&spec);
        changed = true;
        if (doc.contains("hooks") && !doc["hooks"].is_object())
            throw std::runtime_error(path + ": \"hooks\" is not an object; fix it by hand "
                                            "(nothing was changed)");
        ojson& hooks = doc["hooks"];
        if (hooks.is_null()) hooks = ojson::object();
        if (hooks.contains(spec.event) && !hooks[spec.event].is_array())
            throw std::runtime_error(path + ": \"hooks." + spec.event +
                                     "\" is not a list; fix it by hand (nothing was changed)");
        ojson& event = hooks[spec.event];
        if (event.is_null()) event = ojson::array();
        ojson group = ojson::object();
        if (!spec.matcher.empty()) group["matcher"] = spec.matcher;
        group["hooks"] = ojson::array(
            {ojson{{"type", "command"}, {"command", spec.command}, {"timeout", spec.timeout}}});
        event.push_back(group);
    }
    if (!changed) return original.value_or(std::string());
    const std::string after = serialize(doc, original);
    // Re-read as the host would: every entry there, with the command asked for.
    const ojson reread = parse_settings(after, path);
    for (const HookSpec* spec : check)
        if (our_command(reread, *spec) != spec->command)
            throw std::runtime_error(path + ": sutra could not add its hook safely; nothing was "
                                            "changed");
    for (const HookSpec& spec : removed)
        if (our_command(reread, spec))
            throw std::runtime_error(path + ": sutra could not remove its hook safely; nothing "
                                            "was changed");
    return after;
}

std::string with_hook(const std::optional<std::string>& original,
                      const std::string& path,
                      const HookSpec& spec) {
    return with_hooks(original, path, {spec});
}

bool has_none_of(const std::optional<std::string>& text,
                 const std::string& path,
                 const std::vector<HookSpec>& specs) {
    try {
        const ojson doc = parse_settings(text, path);
        for (const HookSpec& spec : specs)
            if (our_command(doc, spec)) return false;
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

std::optional<FilePlan> plan_hooks_install(const std::string& settings_path,
                                           const std::vector<HookSpec>& specs,
                                           const std::vector<HookSpec>& removed) {
    const std::string path = real_target(settings_path);
    const auto before = read_text(path);
    const ojson doc = parse_settings(before, path);
    if (doc.value("disableAllHooks", false) == true)
        throw std::runtime_error(path +
                                 " sets \"disableAllHooks\": true; sutra's hook would never run. "
                                 "Remove that setting first (nothing was changed).");
    const std::string after = with_hooks(before, path, specs, removed);
    if (before && after == *before) return std::nullopt;
    FilePlan plan{path, before ? "modify" : "create", before, after, std::nullopt};
    plan.backup_before = has_none_of(before, path, specs); // the user's own file, not an upgrade
    plan.create_mode = 0600;
    return plan;
}

std::optional<FilePlan> plan_hooks_uninstall(const std::string& settings_path,
                                             const std::vector<HookSpec>& specs) {
    const std::string path = real_target(settings_path);
    const auto before = read_text(path);
    if (!before) return std::nullopt;
    ojson doc = parse_settings(before, path);
    // Compare against what install made with the very commands now in the file.
    std::vector<HookSpec> installed;
    for (HookSpec spec : specs)
        if (const auto cmd = our_command(doc, spec)) {
            spec.command = *cmd;
            installed.push_back(spec);
        }
    if (installed.empty()) return std::nullopt;
    for (const HookSpec& spec : installed) strip_ours(doc, spec);
    return plan_reverse(
        path, *before,
        [&](const std::optional<std::string>& text) { return with_hooks(text, path, installed); },
        serialize(doc, before),
        [&](const std::string& text) { return !has_none_of(text, path, specs); });
}

namespace {

ojson hooks_result(const std::string& path,
                   const std::optional<FilePlan>& plan,
                   bool dry_run,
                   bool uninstall) {
    if (!plan)
        return ojson{
            {"ok", true},
            {"changed", false},
            {"files", ojson::array()},
            {"messages", ojson::array({path + (uninstall ? ": no sutra hook, nothing to remove"
                                                         : ": already installed")})}};
    ojson r = uninstall ? apply_plans({*plan}, dry_run) : apply_install_plans({*plan}, dry_run);
    if (uninstall && plan->action == "modify")
        r["messages"].push_back(path + ": edited since install; removed sutra's entry and "
                                       "re-wrote the rest (JSON formatting normalized)");
    return r;
}

} // namespace

ojson install_hooks(const std::string& settings_path,
                    const std::vector<HookSpec>& specs,
                    bool dry_run) {
    try {
        return hooks_result(real_target(settings_path), plan_hooks_install(settings_path, specs),
                            dry_run, false);
    } catch (const std::exception& e) {
        return ojson{{"ok", false}, {"error", e.what()}};
    }
}

ojson install_hook(const std::string& settings_path, const HookSpec& spec, bool dry_run) {
    return install_hooks(settings_path, {spec}, dry_run);
}

ojson uninstall_hooks(const std::string& settings_path,
                      const std::vector<HookSpec>& specs,
                      bool dry_run) {
    return hooks_result(real_target(settings_path), plan_hooks_uninstall(settings_path, specs),
                        dry_run, true);
}

ojson uninstall_hook(const std::string& settings_path, const HookSpec& spec, bool dry_run) {
    return uninstall_hooks(settings_path, {spec}, dry_run);
}

} // namespace sutra::plugins::common
