// The host's own path checks, judged coarsely (permission_guard.hpp, host_check_refusal).
// Claude Code 2.1.332 asks before a shell command writes its settings (.claude/…), a dot-file it
// guards (.bashrc, .mcp.json, .git/…, .vscode/…), a credential file, or removes the home folder,
// the root, a system folder or the working directory and its parents, even when every Bash
// command is allowed, and even when a hook answers "allow" (seen in the real host;
// docs/security.md). A wrapped command hides those paths inside one quoted argument, so any command
// that names such a path, in any word, stays unwrapped.

#include "plugins/claude/command_words.hpp"
#include "plugins/claude/permission_guard.hpp"

#include <algorithm>
#include <array>

namespace sutra::plugins::claude {

namespace {

// File names the host guards that do not start with a dot (all dot-files are refused).
constexpr std::array k_guarded_names = {"kubeconfig",
                                        "config.fish",
                                        "terraform.rc",
                                        "credentials.tfrc.json",
                                        "bunfig.toml",
                                        "lefthook.yml",
                                        "lefthook.yaml",
                                        "gradle-wrapper.properties",
                                        "maven-wrapper.properties",
                                        "fish_history",
                                        "consolehost_history.txt",
                                        "_netrc",
                                        "microsoft.powershell_profile.ps1",
                                        "microsoft.vscode_profile.ps1",
                                        "microsoft.powershellise_profile.ps1"};
// Parts of a key or credential file's name.
constexpr std::array k_credential_parts = {"_rsa",   "_dsa",       "_ecdsa", "_ed25519",
                                           "secret", "credential", "passw"};
constexpr std::array k_credential_suffixes = {".pem", ".key", ".p12", ".pfx", ".keystore", ".jks"};
// Programs (and find's action) that remove or rewrite the paths they are given.
constexpr std::array k_removers = {"rm",    "rmdir", "unlink", "shred", "-delete",  "mv", "rsync",
                                   "chmod", "chown", "chgrp",  "dd",    "truncate", "ln"};

template <std::size_t N> bool among(const std::array<const char*, N>& set, std::string_view w) {
    return std::any_of(set.begin(), set.end(), [&](const char* s) { return w == s; });
}

// A path's parts, `.` and `..` applied, from `base` for a relative one.
std::vector<std::string> resolved(const std::string& base, std::string_view path) {
    std::vector<std::string> parts;
    auto walk = [&](std::string_view p) {
        std::size_t start = 0;
        while (start <= p.size()) {
            auto end = p.find('/', start);
            if (end == std::string_view::npos) end = p.size();
            const std::string_view part = p.substr(start, end - start);
            if (part == "..") {
                if (!parts.empty()) parts.pop_back();
            } else if (!part.empty() && part != ".") {
                parts.emplace_back(part);
            }
            start = end + 1;
        }
    };
    if (path.empty() || path[0] != '/') walk(base);
    walk(path);
    return parts;
}

bool is_prefix(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// True when some '/'-separated part of `path` satisfies `test`.
template <class Test> bool any_part(std::string_view path, Test test) {
    std::size_t start = 0;
    while (start < path.size()) {
        auto end = path.find('/', start);
        if (end == std::string_view::npos) end = path.size();
        if (test(path.substr(start, end - start))) return true;
        start = end + 1;
    }
    return false;
}

// `.git`, `.bashrc`; not `...` in a message or `.5` in `sleep .5`.
bool has_dot_part(std::string_view path) {
    return any_part(path, [](std::string_view part) {
        return part.size() > 1 && part[0] == '.' && part.find_first_not_of('.') != part.npos &&
               !(part[1] >= '0' && part[1] <= '9');
    });
}

bool guarded_name(std::string_view name) {
    if (among(k_guarded_names, name) || name.starts_with("kubeconfig")) return true;
    for (const char* p : k_credential_parts)
        if (name.find(p) != std::string_view::npos) return true;
    for (const char* s : k_credential_suffixes)
        if (name.ends_with(s)) return true;
    return false;
}

// A part of the path the host keeps its own files under that has no leading dot: CLAUDE.md,
// the managed folder claude-code, .claude.json's name.
bool names_host_file(std::string_view path) {
    return any_part(path, [](std::string_view part) {
        return part.starts_with("claude.") || part.starts_with("claude-code") ||
               part.starts_with("claude_code");
    });
}

// A piece that names a place by itself: absolute, from the home folder, or climbing up.
bool path_like(std::string_view p) {
    return p.starts_with("/") || p.starts_with("~") || p == "." || p == ".." ||
           p.starts_with("../") || p.ends_with("/..") || p.find("/../") != std::string_view::npos;
}

bool only_wildcards(std::string_view last) {
    if (last.find_first_of("*?[") == std::string_view::npos) return false;
    return last.find_first_not_of("*?[].") == std::string_view::npos;
}

} // namespace

std::optional<std::string> host_check_refusal(std::string_view command, const GuardContext& ctx) {
    CommandWords words;
    if (auto e = command_words(command, words)) return "the guard cannot read it: " + *e;
    const std::string cwd = folded(ctx.cwd);
    const std::string home = folded(ctx.home);
    // A working directory inside a dot-folder or the host's own folders: every file there is
    // one the host guards. (A project merely named after the host is not.)
    bool guarded_cwd =
        has_dot_part(cwd) || is_prefix(resolved("/", "/etc/claude-code"), resolved("/", cwd));
    for (const auto& d : ctx.config_dirs)
        guarded_cwd = guarded_cwd || is_prefix(resolved("/", folded(d)), resolved("/", cwd));
    if (guarded_cwd)
        return "the working directory is one whose files the host guards (" + ctx.cwd + ")";
    bool remover = false;
    for (const std::string& p : words.pieces) remover = remover || among(k_removers, p);
    if (remover && words.expands)
        return "it removes or rewrites a path computed at run time, which the host would check";

    // Where relative paths start: the working directory and every folder a cd may move to.
    std::vector<std::string> bases{cwd};
    for (const std::string& t : words.cd_targets) {
        if (t == "~" || t.starts_with("~/")) {
            bases.push_back(home + t.substr(1));
        } else {
            std::string b;
            for (const auto& part : resolved(cwd, t)) b += "/" + part;
            bases.push_back(b.empty() ? "/" : b);
        }
    }
    std::vector<std::vector<std::string>> guarded; // folders whose removal the host refuses
    guarded.push_back(resolved("/", home));
    for (const auto& d : ctx.config_dirs) guarded.push_back(resolved("/", folded(d)));
    for (const auto& b : bases) guarded.push_back(resolved("/", b));
    const auto here = resolved("/", cwd);

    for (const std::string& p : words.pieces) {
        if (names_host_file(p))
            return "it names " + p + ", which the host guards (its settings and instructions)";
        if (has_dot_part(p)) return "it names " + p + ", a dot-file or folder the host guards";
        if (guarded_name(base_name(p)))
            return "it names " + p + ", a key or credential file the host guards";
        if (only_wildcards(base_name(p)))
            return "it names " + p + ", a wildcard that may reach files the host guards";
        if (!path_like(p)) continue;
        if (p.starts_with("~") && !(p == "~" || p.starts_with("~/")))
            return "it names " + p + ", another user's home folder";
        for (const auto& base : bases) {
            const auto r = p == "~" || p.starts_with("~/")
                               ? resolved(home, p.substr(std::min<std::size_t>(2, p.size())))
                               : resolved(base, p);
            if (r.size() <= 1) return "it names " + p + ", the root or a top folder";
            for (const auto& d : ctx.config_dirs)
                if (is_prefix(resolved("/", folded(d)), r))
                    return "it names " + p + ", inside the host's configuration folder";
            if (r == here && !remover) continue; // the working directory, not removed
            for (const auto& g : guarded)
                if (is_prefix(r, g))
                    return "it names " + p +
                           ", the home folder, the working directory or a folder above them";
        }
    }
    return std::nullopt;
}

} // namespace sutra::plugins::claude
