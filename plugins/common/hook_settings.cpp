// See hook_settings.hpp.

#include "plugins/common/hook_settings.hpp"

#include "core/json_nesting.hpp"
#include "plugins/common/paths.hpp"

#include <filesystem>
#include <stdexcept>

namespace sutra::plugins::common {

namespace fs = std::filesystem;

bool is_our_command(const std::string& command, const std::string& adapter) {
    const std::string tail = " --adapter " + adapter;
    return command.find("sutra-host") != std::string::npos && command.size() >= tail.size() &&
           command.compare(command.size() - tail.size(), tail.size(), tail) == 0;
}

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
    std::string out = doc.dump(width, ch, false, ojson::error_handler_t::strict);
    if (!original || (!original->empty() && original->back() == '\n')) out += '\n';
    return out;
}

ojson parse_settings(const std::optional<std::string>& text, const std::string& path) {
    if (!text || text->find_first_not_of(" \t\r\n") == std::string::npos) return ojson::object();
    ojson doc = sutra::core::parse_within_nesting<ojson>(*text);
    if (!doc.is_object())
        throw std::runtime_error(path + ": not a JSON object; fix it by hand, nothing was changed");
    return doc;
}

bool strip_ours(ojson& doc, const HookSpec& spec) {
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
            if (h.is_object() && h.value("command", std::string()) != "" &&
                is_our_command(h.value("command", std::string()), spec.adapter)) {
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
    const auto hooks = doc.find("hooks");
    if (hooks == doc.end() || !hooks->is_object()) return std::nullopt;
    const auto event = hooks->find(spec.event);
    if (event == hooks->end() || !event->is_array()) return std::nullopt;
    for (const auto& group : *event)
        if (group.is_object() && group.contains("hooks") && group["hooks"].is_array())
            for (const auto& h : group["hooks"])
                if (h.is_object() &&
                    is_our_command(h.value("command", std::string()), spec.adapter))
                    return h.value("command", std::string());
    return std::nullopt;
}

std::string with_hooks(const std::optional<std::string>& original,
                       const std::string& path,
                       const std::vector<HookSpec>& specs) {
    ojson doc = parse_settings(original, path);
    bool changed = false;
    for (const HookSpec& spec : specs) {
        if (our_command(doc, spec) == spec.command) continue;
        changed = true;
        strip_ours(doc, spec);
        if (!doc.contains("hooks") || !doc["hooks"].is_object()) doc["hooks"] = ojson::object();
        ojson& event = doc["hooks"][spec.event];
        if (!event.is_array()) event = ojson::array();
        ojson group = ojson::object();
        if (!spec.matcher.empty()) group["matcher"] = spec.matcher;
        group["hooks"] = ojson::array(
            {ojson{{"type", "command"}, {"command", spec.command}, {"timeout", spec.timeout}}});
        event.push_back(group);
    }
    return changed ? serialize(doc, original) : original.value_or(std::string());
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

ojson install_hooks(const std::string& settings_path,
                    const std::vector<HookSpec>& specs,
                    bool dry_run) {
    const std::string path = real_target(settings_path);
    const auto before = read_text(path);
    const ojson doc = parse_settings(before, path);
    if (doc.value("disableAllHooks", false) == true)
        return ojson{{"ok", false},
                     {"error", path +
                                   " sets \"disableAllHooks\": true; sutra's hook would never run. "
                                   "Remove that setting first (nothing was changed)."}};
    const std::string after = with_hooks(before, path, specs);
    ojson result{
        {"ok", true}, {"changed", false}, {"files", ojson::array()}, {"messages", ojson::array()}};
    if (before && after == *before) {
        result["messages"].push_back(path + ": already installed");
        return result;
    }
    ojson change = file_change(path, before ? "modify" : "create", before, after);
    if (!dry_run) {
        if (before) {
            const std::string backup = next_backup(path);
            write_atomic(backup, *before, file_mode(path, 0600));
            change["backup"] = backup;
        }
        write_atomic(path, after, file_mode(path, 0600));
    }
    result["changed"] = true;
    result["files"].push_back(change);
    return result;
}

ojson install_hook(const std::string& settings_path, const HookSpec& spec, bool dry_run) {
    return install_hooks(settings_path, {spec}, dry_run);
}

ojson uninstall_hooks(const std::string& settings_path,
                      const std::vector<HookSpec>& specs,
                      bool dry_run) {
    const std::string path = real_target(settings_path);
    const auto before = read_text(path);
    ojson result{
        {"ok", true}, {"changed", false}, {"files", ojson::array()}, {"messages", ojson::array()}};
    if (!before) {
        result["messages"].push_back(path + ": does not exist, nothing to remove");
        return result;
    }
    ojson doc = parse_settings(before, path);
    // Compare against what install made with the very commands now in the file.
    std::vector<HookSpec> installed;
    for (HookSpec spec : specs)
        if (const auto cmd = our_command(doc, spec)) {
            spec.command = *cmd;
            installed.push_back(spec);
        }
    if (installed.empty()) {
        result["messages"].push_back(path + ": no sutra hook, nothing to remove");
        return result;
    }
    ojson change;
    const std::vector<std::string> saved = backups(path);
    std::optional<std::size_t> pick;
    std::optional<std::string> backup_text;
    for (std::size_t i = saved.size(); i-- > 0 && !pick;) {
        auto text = read_text(saved[i]);
        if (text && has_none_of(text, path, specs) &&
            with_hooks(text, path, installed) == *before) {
            pick = i;
            backup_text = std::move(text);
        }
    }
    if (pick) {
        change = file_change(path, "restore", before, backup_text);
        change["backup"] = saved[*pick];
        if (!dry_run) {
            write_atomic(path, *backup_text, file_mode(path, 0600));
            for (std::size_t i = *pick; i < saved.size(); ++i) fs::remove(saved[i]);
        }
    } else if (with_hooks(std::nullopt, path, installed) == *before) {
        change = file_change(path, "delete", before, std::nullopt);
        if (!dry_run) {
            fs::remove(path);
            // Backups of our own intermediate states (an upgrade of a file install created).
            for (const std::string& b : saved)
                if (auto text = read_text(b); text && !has_none_of(text, path, specs) &&
                                              with_hooks(text, path, installed) == *before)
                    fs::remove(b);
        }
    } else {
        for (const HookSpec& spec : installed) strip_ours(doc, spec);
        const std::string after = serialize(doc, before);
        change = file_change(path, "modify", before, after);
        result["messages"].push_back(
            path + ": edited since install; removed sutra's entry and re-wrote the "
                   "rest (JSON formatting normalized; backups kept)");
        if (!dry_run) write_atomic(path, after, file_mode(path, 0600));
    }
    result["changed"] = true;
    result["files"].push_back(change);
    return result;
}

ojson uninstall_hook(const std::string& settings_path, const HookSpec& spec, bool dry_run) {
    return uninstall_hooks(settings_path, {spec}, dry_run);
}

} // namespace sutra::plugins::common
