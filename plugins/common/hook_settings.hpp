#pragma once
// Install and uninstall of one command hook in a JSON settings file of the Claude Code shape
// ({"hooks":{"PostToolUse":[{"matcher":…,"hooks":[{"type":"command","command":…}]}]}}), shared
// by the Claude Code and Codex adapters. Header-only: modules do not link sutra_core.
//
// Byte-identity. Rewriting JSON normalizes its formatting, so install keeps the original bytes in
// a backup (FILE.sutra-backup, then -2, -3 …). Uninstall restores those bytes exactly when the file
// is still what install made of them, and removes the file when install created it; only when
// the user edited the file since does it strip our entry and write the rest back re-serialized.

#include <nlohmann/json.hpp>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <pwd.h>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sutra::plugins::common {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

/// What to install: one hook under `event`.
struct HookSpec {
    std::string event = "PostToolUse";
    std::string matcher;
    std::string command; ///< full command line, e.g. "/usr/bin/sutra-host --adapter claude"
    std::string adapter; ///< adapter name; identifies our entries
    int timeout = 30;
};

inline std::string home_dir() {
    if (const char* h = std::getenv("HOME"); h != nullptr && h[0] == '/') return h;
    if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr)
        return pw->pw_dir;
    return {};
}

/// The directory named by `var` when set and absolute, else ~/`fallback`.
inline std::string env_dir(const char* var, const char* fallback) {
    if (const char* v = std::getenv(var); v != nullptr && v[0] == '/') return v;
    const std::string home = home_dir();
    return home.empty() ? std::string() : home + "/" + fallback;
}

/// Shell-quotes one word when it needs it.
inline std::string shell_word(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789/._-+:=@") == std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// True for a hook command that runs some sutra-host with `--adapter NAME`.
inline bool is_our_command(const std::string& command, const std::string& adapter) {
    const std::string tail = " --adapter " + adapter;
    return command.find("sutra-host") != std::string::npos && command.size() >= tail.size() &&
           command.compare(command.size() - tail.size(), tail.size(), tail) == 0;
}

/// The file's bytes; nullopt when it does not exist. Throws on other errors.
inline std::optional<std::string> read_text(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        if (errno == ENOENT) return std::nullopt;
        throw std::runtime_error(path + ": " + std::strerror(errno));
    }
    std::string out;
    char buf[1 << 14];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    const bool bad = std::ferror(f) != 0;
    std::fclose(f);
    if (bad) throw std::runtime_error(path + ": read error");
    return out;
}

/// Writes via a temporary file and rename, keeping `mode`; creates the parent folder.
inline void write_atomic(const std::string& path, const std::string& data, mode_t mode) {
    fs::create_directories(fs::path(path).parent_path());
    const std::string tmp = path + ".sutra-tmp-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) throw std::runtime_error(tmp + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            ::unlink(tmp.c_str());
            throw std::runtime_error(tmp + ": write error");
        }
        done += static_cast<std::size_t>(n);
    }
    ::fchmod(fd, mode);
    if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": " + std::strerror(errno));
    }
}

/// Indentation of the file's first indented line (default two spaces).
inline std::pair<int, char> detect_indent(const std::string& text) {
    const auto nl = text.find('\n');
    if (nl == std::string::npos || nl + 1 >= text.size()) return {2, ' '};
    const char c = text[nl + 1];
    if (c != ' ' && c != '\t') return {2, ' '};
    int n = 0;
    for (std::size_t i = nl + 1; i < text.size() && text[i] == c; ++i) ++n;
    return {n, c};
}

inline std::string serialize(const ojson& doc, const std::optional<std::string>& original) {
    const auto [width, ch] = original ? detect_indent(*original) : std::pair<int, char>{2, ' '};
    std::string out = doc.dump(width, ch, false, ojson::error_handler_t::strict);
    if (!original || (!original->empty() && original->back() == '\n')) out += '\n';
    return out;
}

/// Parses settings text (absent = empty object). Throws with a message on malformed JSON.
inline ojson parse_settings(const std::optional<std::string>& text, const std::string& path) {
    if (!text || text->find_first_not_of(" \t\r\n") == std::string::npos) return ojson::object();
    ojson doc = ojson::parse(*text, nullptr, false);
    if (!doc.is_object())
        throw std::runtime_error(path + ": not a JSON object; fix it by hand, nothing was changed");
    return doc;
}

/// Removes our hook objects; drops groups and the event array that this leaves empty.
inline bool strip_ours(ojson& doc, const HookSpec& spec) {
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

/// The command of our installed hook, if any.
inline std::optional<std::string> our_command(const ojson& doc, const HookSpec& spec) {
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

/// The text install makes of `original` (absent = no file): each entry replaced or appended, in
/// the order given; the original bytes when every entry is already there.
inline std::string with_hooks(const std::optional<std::string>& original,
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

inline std::string with_hook(const std::optional<std::string>& original,
                             const std::string& path,
                             const HookSpec& spec) {
    return with_hooks(original, path, {spec});
}

/// True when `text` parses and holds none of the given entries (a clean pre-install state).
inline bool has_none_of(const std::optional<std::string>& text,
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

inline ojson file_change(const std::string& path,
                         const std::string& action,
                         const std::optional<std::string>& before,
                         const std::optional<std::string>& after) {
    return ojson{{"path", path},
                 {"action", action},
                 {"before", before ? ojson(*before) : ojson(nullptr)},
                 {"after", after ? ojson(*after) : ojson(nullptr)}};
}

/// Follows a symlinked settings file (dotfile managers) so we rewrite the target, not the link.
inline std::string real_target(const std::string& path) {
    std::error_code ec;
    if (fs::is_symlink(path, ec)) {
        const fs::path t = fs::canonical(path, ec);
        if (!ec) return t.string();
    }
    return path;
}

inline mode_t file_mode(const std::string& path, mode_t fallback) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : fallback;
}

/// Installs `specs` into the settings file at `path` in one write. Result: {"ok","changed",
/// "files":[…], "messages":[…]} or {"ok":false,"error"}.
inline ojson
install_hooks(const std::string& settings_path, const std::vector<HookSpec>& specs, bool dry_run) {
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
            std::string backup = path + ".sutra-backup";
            for (int n = 2; fs::exists(backup); ++n)
                backup = path + ".sutra-backup-" + std::to_string(n);
            write_atomic(backup, *before, file_mode(path, 0600));
            change["backup"] = backup;
        }
        write_atomic(path, after, file_mode(path, 0600));
    }
    result["changed"] = true;
    result["files"].push_back(change);
    return result;
}

inline ojson install_hook(const std::string& settings_path, const HookSpec& spec, bool dry_run) {
    return install_hooks(settings_path, {spec}, dry_run);
}

/// FILE.sutra-backup, FILE.sutra-backup-2, … that exist, oldest first.
inline std::vector<std::string> backups(const std::string& path) {
    std::vector<std::string> found;
    if (fs::exists(path + ".sutra-backup")) found.push_back(path + ".sutra-backup");
    for (int n = 2; fs::exists(path + ".sutra-backup-" + std::to_string(n)); ++n)
        found.push_back(path + ".sutra-backup-" + std::to_string(n));
    return found;
}

/// The newest FILE.sutra-backup[-N], if any.
inline std::optional<std::string> latest_backup(const std::string& path) {
    const auto all = backups(path);
    return all.empty() ? std::nullopt : std::optional<std::string>(all.back());
}

/// Removes our hooks from the settings file at `path` (see the file comment). Each install that
/// changed the file left a backup; the newest one without any of our entries from which install
/// makes exactly the current text is the user's own file, and is put back with the newer ones
/// (our intermediate states) removed.
inline ojson uninstall_hooks(const std::string& settings_path,
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

inline ojson uninstall_hook(const std::string& settings_path, const HookSpec& spec, bool dry_run) {
    return uninstall_hooks(settings_path, {spec}, dry_run);
}

/// Options every install/uninstall gets: {"host_program": "/abs/sutra-host", "sutra_program":
/// "/abs/sutra" (the MCP server's binary; empty = register none), "dry_run": bool}.
struct Options {
    std::string host_program;
    std::string sutra_program;
    bool dry_run = false;
    bool wrap_bash = false;             ///< Claude Code: also install the PreToolUse route (opt-in)
    std::vector<std::string> mcp_tools; ///< MCP tools beyond the default: "files", "exec"
};

inline Options parse_options(std::string_view json_text) {
    const ojson o = ojson::parse(json_text, nullptr, false);
    Options out;
    if (o.is_object()) {
        out.host_program = o.value("host_program", std::string());
        out.sutra_program = o.value("sutra_program", std::string());
        out.dry_run = o.value("dry_run", false);
        out.wrap_bash = o.value("wrap_bash", false);
        if (const auto t = o.find("mcp_tools"); t != o.end() && t->is_array())
            for (const auto& name : *t)
                if (name == "files" || name == "exec") out.mcp_tools.push_back(name);
    }
    return out;
}

/// Pass-through decode result with a reason (for SUTRA_DEBUG).
inline std::string pass(const std::string& reason) {
    return ojson{{"action", "pass"}, {"reason", reason}}.dump();
}

/// The subcommand of a shell command that runs sutra (`sutra restore …` gives "restore",
/// `'/opt/x/sutra' exec …` gives "exec"); "" for any other command. Leading variable
/// assignments are skipped and a single-quoted program path is read as one word.
inline std::string sutra_subcommand(const std::string& command) {
    std::size_t i = 0;
    auto next_word = [&]() -> std::optional<std::string> {
        i = command.find_first_not_of(" \t\n", i);
        if (i == std::string::npos) return std::nullopt;
        std::string word;
        while (i < command.size() && !std::isspace(static_cast<unsigned char>(command[i]))) {
            if (command[i] == '\'') {
                const auto end = command.find('\'', i + 1);
                if (end == std::string::npos) return std::nullopt;
                word += command.substr(i + 1, end - i - 1);
                i = end + 1;
            } else {
                word += command[i++];
            }
        }
        return word;
    };
    auto word = next_word();
    while (word && word->find('=') != std::string::npos &&
           word->find('/') > word->find('=')) // NAME=value
        word = next_word();
    if (!word) return {};
    const auto slash = word->rfind('/');
    if ((slash == std::string::npos ? *word : word->substr(slash + 1)) != "sutra") return {};
    return next_word().value_or(std::string());
}

/// True for a shell command that runs `sutra restore …` (its output must never be re-compressed).
inline bool is_restore_command(const std::string& command) {
    return sutra_subcommand(command) == "restore";
}

/// Runs an install/uninstall/detect/doctor step; an exception becomes {"ok":false,"error"} so
/// the CLI can print it.
template <class F> std::string guarded(F&& f) {
    try {
        return f().dump();
    } catch (const std::exception& e) {
        return nlohmann::json{{"ok", false}, {"error", e.what()}}.dump();
    }
}

} // namespace sutra::plugins::common
