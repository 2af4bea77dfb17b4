// Reads Claude Code's deny and ask rules and judges, coarsely and on the safe side, whether one
// of them could match a command (plugins/claude/permission_guard.hpp says why).

#include "plugins/claude/permission_guard.hpp"

#include "core/json_nesting.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::plugins::claude {

namespace {

using nlohmann::json;

// Settings files are small; anything larger, or nested deeper, is not one the host wrote.
constexpr std::size_t k_max_settings_bytes = 4u << 20;
constexpr std::size_t k_max_depth = 64;
constexpr int k_max_ancestors = 8;
constexpr std::size_t k_max_cmdline_bytes = 1u << 20;

// Tools whose rules name files; Claude Code may apply them to the paths a shell command reads.
constexpr std::array k_file_tools = {"Read",         "Edit", "Write", "MultiEdit",
                                     "NotebookEdit", "Glob", "Grep",  "LS"};

// Options of the host's command line that carry rules (or settings) this hook cannot read.
constexpr std::array k_hidden_rule_flags = {
    "--disallowedTools",     "--disallowed-tools",      "--settings",
    "--managed-settings",    "--initialize-fields",     "--await-initialize",
    "--project-config-root", "--permission-prompt-tool"};

enum class Read { ok, absent, failed };

// The whole file, bounded; a FIFO or device is never opened blocking or read.
Read read_bounded(const std::string& path, std::size_t bound, std::string& out, std::string& why) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) return Read::absent;
        why = path + ": cannot be opened";
        return Read::failed;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        static_cast<std::uint64_t>(st.st_size) > bound) {
        ::close(fd);
        why = path + ": not a regular file of at most " + std::to_string(bound) + " bytes";
        return Read::failed;
    }
    out.clear();
    char buf[1 << 14];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 || out.size() + static_cast<std::size_t>(n) > bound) {
            ::close(fd);
            why = path + ": read error";
            return Read::failed;
        }
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return Read::ok;
}

// `Tool` or `Tool(pattern)`.
PermissionRules::Rule parse_rule(const std::string& text, const std::string& source) {
    PermissionRules::Rule r;
    r.source = source;
    const auto open = text.find('(');
    if (open == std::string::npos || text.empty() || text.back() != ')') {
        r.tool = text;
        r.whole_tool = true;
        return r;
    }
    r.tool = text.substr(0, open);
    r.pattern = text.substr(open + 1, text.size() - open - 2);
    r.whole_tool = r.pattern.empty();
    return r;
}

char fold(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// The text as a matcher would read its words: quotes and backslashes gone, blanks folded to
// one space, ASCII case folded.
std::string normalized(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c == '\'' || c == '"' || c == '\\') continue;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!out.empty() && out.back() != ' ') out += ' ';
            continue;
        }
        out += fold(c);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

// The literal text a Bash rule's match must begin with: up to its first wildcard.
std::string bash_fragment(std::string_view pattern) {
    if (pattern.ends_with(":*")) pattern.remove_suffix(2);
    return normalized(pattern.substr(0, pattern.find('*')));
}

// The last literal piece of a file pattern's path, or of its folder when the name is all
// wildcard (`secrets/**` gives "secrets", `*.pem` gives ".pem", `**` gives "").
std::string file_fragment(std::string_view pattern) {
    std::vector<std::string> pieces;
    std::string cur;
    for (char c : pattern) {
        if (c == '/' || c == '*' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}' ||
            c == ',') {
            if (!cur.empty() && cur != "." && cur != ".." && cur != "~") pieces.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty() && cur != "." && cur != ".." && cur != "~") pieces.push_back(cur);
    return pieces.empty() ? std::string() : normalized(pieces.back());
}

bool is_file_tool(std::string_view tool) {
    return std::find(k_file_tools.begin(), k_file_tools.end(), tool) != k_file_tools.end();
}

void read_settings_file(PermissionRules& into, const std::string& path) {
    std::string text, why;
    switch (read_bounded(path, k_max_settings_bytes, text, why)) {
    case Read::absent:
        return;
    case Read::failed:
        into.doubts.push_back(why);
        return;
    case Read::ok:
        add_settings_rules(into, text, path);
        return;
    }
}

void read_managed(PermissionRules& into, const std::string& dir) {
    if (dir.empty()) return;
    read_settings_file(into, dir + "/managed-settings.json");
    const std::string drop_in = dir + "/managed-settings.d";
    DIR* d = ::opendir(drop_in.c_str());
    if (d == nullptr) {
        if (errno != ENOENT && errno != ENOTDIR) into.doubts.push_back(drop_in + ": unreadable");
        return;
    }
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) read_settings_file(into, drop_in + "/" + name);
}

// Every folder from `dir` up to the root, each once.
void add_with_parents(std::vector<std::string>& out, std::string dir) {
    while (!dir.empty() && dir[0] == '/') {
        while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        if (std::find(out.begin(), out.end(), dir) == out.end()) out.push_back(dir);
        if (dir == "/") break;
        const auto slash = dir.rfind('/');
        dir = slash == 0 ? std::string("/") : dir.substr(0, slash);
    }
}

std::optional<int> parent_of(int pid) {
    std::string stat, why;
    if (read_bounded("/proc/" + std::to_string(pid) + "/stat", 4096, stat, why) != Read::ok)
        return std::nullopt;
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    int ppid = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %*c %d", &ppid) != 1) return std::nullopt;
    return ppid;
}

// /proc files report a size of 0, so they are read without the regular-size check.
bool read_proc(const std::string& path, std::string& out) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    out.clear();
    char buf[1 << 14];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0 && out.size() < k_max_cmdline_bytes)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return n >= 0;
}

void read_process_flags(PermissionRules& into) {
    int pid = static_cast<int>(::getppid());
    for (int level = 0; level < k_max_ancestors && pid > 1; ++level) {
        std::string cmdline;
        if (read_proc("/proc/" + std::to_string(pid) + "/cmdline", cmdline)) {
            std::size_t start = 0;
            while (start < cmdline.size()) {
                auto end = cmdline.find('\0', start);
                if (end == std::string::npos) end = cmdline.size();
                const std::string_view arg(cmdline.data() + start, end - start);
                for (const char* flag : k_hidden_rule_flags)
                    if (arg == flag || (arg.starts_with(flag) && arg.size() > std::strlen(flag) &&
                                        arg[std::strlen(flag)] == '='))
                        into.doubts.push_back("the host was started with " + std::string(flag) +
                                              ", whose rules a hook cannot read");
                start = end + 1;
            }
        }
        const auto parent = parent_of(pid);
        if (!parent) break;
        pid = *parent;
    }
}

} // namespace

void add_settings_rules(PermissionRules& into, std::string_view text, const std::string& source) {
    if (!core::json_nesting_within(text, k_max_depth)) {
        into.doubts.push_back(source + ": nested too deeply to be a settings file");
        return;
    }
    const json doc = json::parse(text, nullptr, false);
    if (!doc.is_object()) {
        into.doubts.push_back(source + ": not a JSON object");
        return;
    }
    const auto perms = doc.find("permissions");
    if (perms == doc.end()) return;
    if (!perms->is_object()) {
        into.doubts.push_back(source + ": permissions is not an object");
        return;
    }
    for (const char* key : {"deny", "ask"}) {
        const auto list = perms->find(key);
        if (list == perms->end()) continue;
        if (!list->is_array()) {
            into.doubts.push_back(source + ": permissions." + key + " is not a list");
            continue;
        }
        for (const auto& rule : *list) {
            if (!rule.is_string()) {
                into.doubts.push_back(source + ": a " + key + " rule that is not a string");
                continue;
            }
            into.rules.push_back(parse_rule(rule.get<std::string>(), source));
        }
    }
}

PermissionRules load_permission_rules(const RuleScopes& scopes) {
    PermissionRules r;
    read_managed(r, scopes.managed_dir);
    if (!scopes.config_dir.empty()) {
        read_settings_file(r, scopes.config_dir + "/settings.json");
        read_settings_file(r, scopes.config_dir + "/settings.local.json");
    }
    std::vector<std::string> dirs;
    for (const std::string& d : scopes.project_dirs) add_with_parents(dirs, d);
    for (const std::string& d : dirs) {
        const std::string base = d == "/" ? std::string() : d;
        read_settings_file(r, base + "/.claude/settings.json");
        read_settings_file(r, base + "/.claude/settings.local.json");
    }
    if (scopes.read_process_flags) read_process_flags(r);
    return r;
}

std::optional<std::string>
permission_refusal(std::string_view command, std::string_view cwd, const PermissionRules& rules) {
    if (!rules.doubts.empty())
        return "the permission rules cannot all be read (" + rules.doubts.front() + ")";
    const std::string text = normalized(command);
    const std::string where = normalized(cwd);
    for (const auto& rule : rules.rules) {
        const bool bash = normalized(rule.tool) == "bash";
        if (!bash && !is_file_tool(rule.tool)) continue;
        const std::string shown = rule.tool + (rule.whole_tool ? "" : "(" + rule.pattern + ")");
        if (rule.whole_tool)
            return "the rule " + shown + " in " + rule.source + " covers every command";
        const std::string fragment =
            bash ? bash_fragment(rule.pattern) : file_fragment(rule.pattern);
        if (fragment.empty())
            return "the rule " + shown + " in " + rule.source + " could match any command";
        if (text.find(fragment) != std::string::npos ||
            (!bash && where.find(fragment) != std::string::npos))
            return "the rule " + shown + " in " + rule.source + " could match it";
    }
    return std::nullopt;
}

} // namespace sutra::plugins::claude
