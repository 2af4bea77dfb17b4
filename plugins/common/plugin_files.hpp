#pragma once
// Install and uninstall of whole files that sutra owns in a host's folders (OpenCode's plugin
// file, Hermes' plugin folder) and a shared "plan, then write" step, so an install that touches
// several files checks them all before writing any. Header-only, like hook_settings.hpp, whose
// backup naming (FILE.sutra-backup[-N]) and atomic writes it reuses.

#include "plugins/common/hook_settings.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sutra::plugins::common {

/// One file's intended change: after = nullopt deletes it; restore_from names a backup whose
/// bytes `after` holds and which is removed once they are back in place.
struct FilePlan {
    std::string path;
    std::string action; ///< create, modify, restore, delete
    std::optional<std::string> before;
    std::optional<std::string> after;
    std::optional<std::string> restore_from;
    /// A modified file's old bytes go to a fresh backup first, except when uninstall strips our
    /// entry from a file the user edited since install (its backups stay as they are).
    bool backup_before = true;
    /// Permissions of a file install creates (an existing file keeps its own).
    mode_t create_mode = 0644;
};

/// The change to write `content` to a file sutra owns. A file that exists without `marker` is
/// the user's: throws, so nothing at all is written.
inline std::optional<FilePlan>
plan_owned_install(const std::string& path, const std::string& content, const std::string& marker) {
    const auto before = read_text(path);
    if (before && *before == content) return std::nullopt;
    if (before && before->find(marker) == std::string::npos)
        throw std::runtime_error(path + " exists and is not sutra's; move it away first "
                                        "(nothing was changed)");
    return FilePlan{path, before ? "modify" : "create", before, content, std::nullopt};
}

/// The change that removes a file sutra owns: restores the bytes install replaced, else deletes.
/// A file without `marker` is left alone (nullopt).
inline std::optional<FilePlan> plan_owned_uninstall(const std::string& path,
                                                    const std::string& marker) {
    const auto before = read_text(path);
    if (!before || before->find(marker) == std::string::npos) return std::nullopt;
    if (const auto backup = latest_backup(path))
        return FilePlan{path, "restore", before, read_text(*backup), backup};
    return FilePlan{path, "delete", before, std::nullopt, std::nullopt};
}

/// Writes the plans (unless dry_run) and reports them in the shape install/uninstall return.
/// A modified file's old bytes go to a fresh backup first.
inline ojson apply_plans(const std::vector<FilePlan>& plans, bool dry_run) {
    ojson result{
        {"ok", true}, {"changed", false}, {"files", ojson::array()}, {"messages", ojson::array()}};
    for (const auto& p : plans) {
        ojson change = file_change(p.path, p.action, p.before, p.after);
        const mode_t mode = file_mode(p.path, p.create_mode);
        if (p.restore_from) change["backup"] = *p.restore_from;
        if (!dry_run) {
            if (p.action == "modify" && p.before && p.backup_before) {
                std::string backup = p.path + ".sutra-backup";
                for (int n = 2; fs::exists(backup); ++n)
                    backup = p.path + ".sutra-backup-" + std::to_string(n);
                write_atomic(backup, *p.before, mode);
                change["backup"] = backup;
            }
            if (p.after) {
                write_atomic(p.path, *p.after, mode);
            } else {
                fs::remove(p.path);
            }
            if (p.restore_from) fs::remove(*p.restore_from);
        }
        result["changed"] = true;
        result["files"].push_back(change);
    }
    return result;
}

/// Replaces every `placeholder` in `text` with `value` as a double-quoted string literal that
/// JavaScript and Python both read back exactly (JSON escapes, UTF-8 kept raw).
inline std::string
bake_string(std::string text, const std::string& placeholder, const std::string& value) {
    const std::string literal =
        nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
    for (auto at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + literal.size()))
        text.replace(at, placeholder.size(), literal);
    return text;
}

/// The string literal a baked file holds after `prefix` (e.g. `const SUTRA_HOST = `), decoded.
inline std::optional<std::string> baked_string(const std::string& text, const std::string& prefix) {
    const auto at = text.find(prefix);
    if (at == std::string::npos) return std::nullopt;
    const auto start = at + prefix.size();
    const auto end = text.find('\n', start);
    std::string literal = text.substr(start, end == std::string::npos ? end : end - start);
    while (!literal.empty() && literal.back() != '"') literal.pop_back();
    const auto value = nlohmann::json::parse(literal, nullptr, false);
    if (!value.is_string()) return std::nullopt;
    return value.get<std::string>();
}

} // namespace sutra::plugins::common
