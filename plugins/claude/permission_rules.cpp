// See permission_rules.hpp. Reading errs one way only: a rule that might apply is read as if it
// did (deny, ask, and allow rules that could match the wrapper), while an allow rule counts
// towards "Bash is allowed as a whole" only when the host surely applies it (surely_applies).

#include "plugins/claude/permission_rules.hpp"

#include "core/util/json_nesting.hpp"
#include "core/util/read_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

extern char** environ;

namespace sutra::plugins::claude {

namespace {

using nlohmann::json;

// Settings files are small; anything larger, or nested deeper, is not one the host wrote.
constexpr std::size_t k_max_settings_bytes = 4u << 20;
constexpr std::size_t k_max_depth = 64;
constexpr int k_max_ancestors = 8;
constexpr std::size_t k_max_proc_bytes = 1u << 20;

// Options of the host's command line that carry rules or settings the hook cannot read: an SDK
// host can add rules at run time through its control messages.
constexpr std::array k_hidden_rule_flags = {"--managed-settings", "--initialize-fields",
                                            "--await-initialize", "--project-config-root",
                                            "--permission-prompt-tool"};

// Variables the host reads that hold settings or rules; any other CLAUDE* variable whose name
// speaks of settings, permissions, policy or rules is a doubt unless it is listed as harmless
// (it only hides a hint, times a poll, or makes the host's own matching narrower).
constexpr std::array k_read_variables = {"CLAUDE_CONFIG_DIR",
                                         "CLAUDE_PROJECT_DIR",
                                         "CLAUDE_CODE_MANAGED_SETTINGS_PATH",
                                         "CLAUDE_CODE_REMOTE_SETTINGS_PATH",
                                         "CLAUDE_BG_SESSION_PERMISSION_RULES",
                                         "CLAUDE_CODE_SESSION_KIND"};
constexpr std::array k_harmless_variables = {"CLAUDE_CODE_HIDE_SETTINGS_HINT",
                                             "CLAUDE_CODE_REMOTE_SETTINGS_POLL_MS",
                                             "CLAUDE_CODE_DISABLE_HOME_SETTINGS_SEED",
                                             "CLAUDE_CODE_DISABLE_PERMISSION_PROMPT_NOTIFY_HOOKS",
                                             "CLAUDE_CODE_RC_PERMISSION_NUDGE",
                                             "CLAUDE_CODE_PARKED_PERMISSION_WAIT_MS",
                                             "CLAUDE_CODE_DISABLE_REDIRECT_DENY_RECHECK",
                                             "CLAUDE_CODE_DISABLE_POWERSHELL_CMD_RM_DENY"};
constexpr std::array k_rule_words = {"SETTING", "PERMISSION", "POLICY", "RULE",
                                     "ALLOW",   "DENY",       "BYPASS", "SKIP_PERM"};

template <std::size_t N> bool among(const std::array<const char*, N>& set, std::string_view w) {
    return std::any_of(set.begin(), set.end(), [&](const char* s) { return w == s; });
}

enum class Read { ok, absent, failed };

// The whole file, bounded (core/util/read_file.hpp): a FIFO or device is never opened blocking or
// read.
Read read_bounded(const std::string& path, std::size_t bound, std::string& out, std::string& why) {
    auto text = core::read_regular_file(path, bound);
    if (text) {
        out = std::move(*text);
        return Read::ok;
    }
    if (text.error().problem == core::FileProblem::absent) return Read::absent;
    why = path + ": not a readable regular file of at most " + std::to_string(bound) + " bytes";
    return Read::failed;
}

// /proc files report a size of 0, so they are read without the regular-size check.
bool read_proc(const std::string& path, std::string& out) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    out.clear();
    char buf[1 << 14];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0 && out.size() < k_max_proc_bytes)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return n >= 0;
}

std::vector<std::string> nul_split(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < s.size()) {
        auto end = s.find('\0', start);
        if (end == std::string::npos) end = s.size();
        out.emplace_back(s, start, end - start);
        start = end + 1;
    }
    return out;
}

std::optional<int> parent_of(int pid, uid_t& owner) {
    std::string stat;
    if (!read_proc("/proc/" + std::to_string(pid) + "/stat", stat)) return std::nullopt;
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    int ppid = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %*c %d", &ppid) != 1) return std::nullopt;
    struct stat st {};
    if (::stat(("/proc/" + std::to_string(pid)).c_str(), &st) != 0) return std::nullopt;
    owner = st.st_uid;
    return ppid;
}

// `Tool` or `Tool(pattern)`.
PermissionRule
parse_rule(const std::string& text, PermissionRule::Kind kind, const std::string& source) {
    PermissionRule r;
    r.kind = kind;
    r.source = source;
    const auto open = text.find('(');
    if (open == std::string::npos || text.back() != ')') {
        r.tool = text;
        r.whole_tool = true;
        return r;
    }
    r.tool = text.substr(0, open);
    r.pattern = text.substr(open + 1, text.size() - open - 2);
    r.whole_tool = r.pattern.empty() || r.pattern == "*";
    return r;
}

// Rules as a flag value or a variable lists them: separated by commas or blanks outside
// parentheses (`Bash(git push:*),Edit` or "Bash Read").
std::vector<std::string> split_rule_list(std::string_view s) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : s) {
        if (c == '(') ++depth;
        if (c == ')' && depth > 0) --depth;
        if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n')) {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

struct Reader {
    PermissionRules& r;
    bool allow_certain = true; ///< allow rules read now surely apply

    void add(const std::string& text, PermissionRule::Kind kind, const std::string& source) {
        if (text.empty()) return;
        auto rule = parse_rule(text, kind, source);
        rule.surely_applies = allow_certain;
        r.rules.push_back(std::move(rule));
    }
};

void add_document(Reader& rd, const json& doc, const std::string& source) {
    if (!doc.is_object()) {
        rd.r.doubts.push_back(source + ": not a JSON object");
        return;
    }
    const auto perms = doc.find("permissions");
    if (perms == doc.end()) return;
    if (!perms->is_object()) {
        rd.r.doubts.push_back(source + ": permissions is not an object");
        return;
    }
    using K = PermissionRule::Kind;
    for (const auto& [key, kind] :
         {std::pair{"deny", K::deny}, {"ask", K::ask}, {"allow", K::allow}}) {
        const auto list = perms->find(key);
        if (list == perms->end()) continue;
        if (!list->is_array()) {
            rd.r.doubts.push_back(source + ": permissions." + key + " is not a list");
            continue;
        }
        for (const auto& rule : *list) {
            if (!rule.is_string()) {
                rd.r.doubts.push_back(source + ": a " + key + " rule that is not a string");
                continue;
            }
            rd.add(rule.get<std::string>(), kind, source);
        }
    }
}

void add_text(Reader& rd, std::string_view text, const std::string& source) {
    if (!core::json_nesting_within(text, k_max_depth)) {
        rd.r.doubts.push_back(source + ": nested too deeply to be a settings file");
        return;
    }
    add_document(rd, json::parse(text, nullptr, false), source);
}

void read_settings_file(Reader& rd, const std::string& path) {
    std::string text, why;
    switch (read_bounded(path, k_max_settings_bytes, text, why)) {
    case Read::absent:
        return;
    case Read::failed:
        rd.r.doubts.push_back(why);
        return;
    case Read::ok:
        add_text(rd, text, path);
        return;
    }
}

void read_managed(Reader& rd, const std::string& dir) {
    read_settings_file(rd, dir + "/managed-settings.json");
    const std::string drop_in = dir + "/managed-settings.d";
    DIR* d = ::opendir(drop_in.c_str());
    if (d == nullptr) {
        if (errno != ENOENT && errno != ENOTDIR) rd.r.doubts.push_back(drop_in + ": unreadable");
        return;
    }
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) read_settings_file(rd, drop_in + "/" + name);
}

// Managed settings may forbid every rule but their own (allowManagedPermissionRulesOnly).
bool managed_rules_only(const std::string& dir) {
    std::string text, why;
    if (read_bounded(dir + "/managed-settings.json", k_max_settings_bytes, text, why) != Read::ok)
        return false;
    const json doc = core::parse_within_nesting<json>(text);
    return doc.is_object() && doc.value("allowManagedPermissionRulesOnly", false) == true;
}

void add_unique(std::vector<std::string>& out, std::string dir) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (!dir.empty() && std::find(out.begin(), out.end(), dir) == out.end()) out.push_back(dir);
}

// Every folder from `dir` up to the root, each once.
void add_with_parents(std::vector<std::string>& out, std::string dir) {
    while (!dir.empty() && dir[0] == '/') {
        while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        add_unique(out, dir);
        if (dir == "/") break;
        const auto slash = dir.rfind('/');
        dir = slash == 0 ? std::string("/") : dir.substr(0, slash);
    }
}

// Every value of `name` in the processes' environments, each once.
std::vector<std::string> values_of(const RuleScopes& s, std::string_view name) {
    std::vector<std::string> out;
    for (const auto& p : s.processes)
        for (const auto& e : p.environment)
            if (e.size() > name.size() && e.starts_with(name) && e[name.size()] == '=') {
                std::string v = e.substr(name.size() + 1);
                if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
            }
    return out;
}

// The folders a working directory of the host could have been: the session's, each process's,
// the project folder the host names.
std::vector<std::string> base_dirs(const RuleScopes& s) {
    std::vector<std::string> out;
    add_unique(out, s.payload_cwd);
    for (const auto& p : s.processes) add_unique(out, p.cwd);
    for (const auto& v : values_of(s, "CLAUDE_PROJECT_DIR")) add_unique(out, v);
    out.erase(
        std::remove_if(out.begin(), out.end(), [](const std::string& d) { return d[0] != '/'; }),
        out.end());
    return out;
}

// A path as the host may resolve it: absolute as is, `~` against the home folder, relative
// against every folder that could have been the host's working directory.
std::vector<std::string> resolutions(const RuleScopes& s, const std::string& path) {
    std::vector<std::string> out;
    if (path.empty()) return out;
    if (path[0] == '/') {
        add_unique(out, path);
    } else if (path == "~" || path.starts_with("~/")) {
        if (!s.home.empty()) add_unique(out, s.home + path.substr(1));
    } else {
        for (const auto& base : base_dirs(s))
            add_unique(out, (base == "/" ? "" : base) + "/" + path);
    }
    return out;
}

bool is_host_process(const HostProcess& p) {
    for (std::size_t i = 0; i < p.args.size() && i < 2; ++i) {
        const std::string& a = p.args[i];
        const std::string base = a.substr(a.rfind('/') + 1);
        if (base.find("claude") != std::string::npos) return true;
    }
    return false;
}

// The option's values: `--opt=V`, or the arguments after `--opt` up to the next option.
std::vector<std::string>
flag_values(const std::vector<std::string>& args, std::size_t& i, std::string_view flag) {
    std::vector<std::string> out;
    const std::string& a = args[i];
    if (a.size() > flag.size() && a.starts_with(flag) && a[flag.size()] == '=') {
        out.push_back(a.substr(flag.size() + 1));
        return out;
    }
    while (i + 1 < args.size() && !args[i + 1].starts_with("-")) out.push_back(args[++i]);
    return out;
}

bool is_flag(const std::string& a, std::string_view flag) {
    return a == flag || (a.size() > flag.size() && a.starts_with(flag) && a[flag.size()] == '=');
}

void read_flags(Reader& rd,
                const RuleScopes& s,
                const HostProcess& p,
                std::vector<std::string>& add_dirs,
                bool& sources_limited) {
    using K = PermissionRule::Kind;
    const bool host = is_host_process(p);
    for (std::size_t i = 1; i < p.args.size(); ++i) {
        const std::string& a = p.args[i];
        if (a == "--") break;
        for (const char* f : k_hidden_rule_flags)
            if (is_flag(a, f))
                rd.r.doubts.push_back("the host was started with " + std::string(f) +
                                      ", whose rules a hook cannot read");
        if (is_flag(a, "--input-format")) {
            for (const auto& v : flag_values(p.args, i, "--input-format"))
                if (v == "stream-json")
                    rd.r.doubts.push_back("the host takes SDK control messages "
                                          "(--input-format stream-json), which may add rules");
        } else if (is_flag(a, "--allowedTools") || is_flag(a, "--allowed-tools")) {
            const char* f = a.starts_with("--allowedTools") ? "--allowedTools" : "--allowed-tools";
            rd.allow_certain = host;
            for (const auto& v : flag_values(p.args, i, f))
                for (const auto& rule : split_rule_list(v)) rd.add(rule, K::allow, f);
        } else if (is_flag(a, "--disallowedTools") || is_flag(a, "--disallowed-tools")) {
            const char* f =
                a.starts_with("--disallowedTools") ? "--disallowedTools" : "--disallowed-tools";
            for (const auto& v : flag_values(p.args, i, f))
                for (const auto& rule : split_rule_list(v)) rd.add(rule, K::deny, f);
        } else if (is_flag(a, "--settings")) {
            rd.allow_certain = host;
            for (const auto& v : flag_values(p.args, i, "--settings")) {
                const auto first = v.find_first_not_of(" \t\r\n");
                if (first != std::string::npos && v[first] == '{')
                    add_text(rd, v, "--settings");
                else if (!v.empty())
                    for (const auto& path : v[0] == '/' || p.cwd.empty()
                                                ? resolutions(s, v)
                                                : std::vector<std::string>{p.cwd + "/" + v})
                        read_settings_file(rd, path);
            }
        } else if (is_flag(a, "--permission-mode")) {
            for (const auto& v : flag_values(p.args, i, "--permission-mode"))
                if (v == "bypassPermissions" && host) rd.r.bypass = true;
        } else if (a == "--dangerously-skip-permissions") {
            if (host) rd.r.bypass = true;
        } else if (is_flag(a, "--add-dir")) {
            for (const auto& v : flag_values(p.args, i, "--add-dir"))
                for (const auto& d : v[0] == '/' ? std::vector<std::string>{v} : resolutions(s, v))
                    add_dirs.push_back(d);
        } else if (is_flag(a, "--setting-sources")) {
            sources_limited = true;
        }
    }
}

void read_variables(Reader& rd, const RuleScopes& s) {
    using K = PermissionRule::Kind;
    for (const auto& p : s.processes)
        for (const auto& e : p.environment) {
            const std::string name = e.substr(0, e.find('='));
            if (!name.starts_with("CLAUDE") || among(k_read_variables, name) ||
                among(k_harmless_variables, name))
                continue;
            for (const char* w : k_rule_words)
                if (name.find(w) != std::string::npos) {
                    rd.r.doubts.push_back("the host's environment sets " + name +
                                          ", whose rules or settings the guard does not read");
                    break;
                }
        }
    // Background sessions take their rules from a variable (read only when the session kind is
    // bg; any value is read here, so a rule of it is never missed).
    const bool bg = values_of(s, "CLAUDE_CODE_SESSION_KIND") == std::vector<std::string>{"bg"};
    for (const auto& v : values_of(s, "CLAUDE_BG_SESSION_PERMISSION_RULES")) {
        const json doc = core::parse_within_nesting<json>(v);
        if (!doc.is_object()) {
            rd.r.doubts.push_back("CLAUDE_BG_SESSION_PERMISSION_RULES is not a JSON object");
            continue;
        }
        rd.allow_certain = bg;
        for (const auto& [key, kind] :
             {std::pair{"deny", K::deny}, {"ask", K::ask}, {"allow", K::allow}}) {
            const auto list = doc.find(key);
            if (list == doc.end()) continue;
            if (!list->is_array()) {
                rd.r.doubts.push_back(std::string("CLAUDE_BG_SESSION_PERMISSION_RULES: ") + key +
                                      " is not a list");
                continue;
            }
            for (const auto& rule : *list) {
                if (rule.is_string())
                    rd.add(rule.get<std::string>(), kind, "CLAUDE_BG_SESSION_PERMISSION_RULES");
                else
                    rd.r.doubts.push_back("CLAUDE_BG_SESSION_PERMISSION_RULES: a rule that is "
                                          "not a string");
            }
        }
        if (doc.value("holdsBypass", false) == true) rd.r.bypass = bg;
    }
}

} // namespace

bool PermissionRules::bash_allowed_whole() const {
    return std::any_of(rules.begin(), rules.end(), [](const PermissionRule& r) {
        return r.kind == PermissionRule::Kind::allow && r.tool == "Bash" && r.whole_tool &&
               r.surely_applies;
    });
}

std::vector<HostProcess> host_processes() {
    std::vector<HostProcess> out;
    HostProcess self;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) self.environment.emplace_back(*e);
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd) != nullptr) self.cwd = cwd;
    out.push_back(std::move(self));
    const uid_t me = ::getuid();
    uid_t owner = me;
    int pid = static_cast<int>(::getppid());
    for (int level = 0; level < k_max_ancestors && pid > 1; ++level) {
        const std::string dir = "/proc/" + std::to_string(pid);
        const auto parent = parent_of(pid, owner);
        if (!parent || owner != me) break; // not the host's: another user's process
        HostProcess p;
        std::string text;
        if (read_proc(dir + "/cmdline", text)) p.args = nul_split(text);
        if (read_proc(dir + "/environ", text)) p.environment = nul_split(text);
        char buf[PATH_MAX];
        const ssize_t n = ::readlink((dir + "/cwd").c_str(), buf, sizeof buf - 1);
        if (n > 0) p.cwd.assign(buf, static_cast<std::size_t>(n));
        out.push_back(std::move(p));
        pid = *parent;
    }
    return out;
}

void add_settings_rules(PermissionRules& into, std::string_view text, const std::string& source) {
    Reader rd{into};
    add_text(rd, text, source);
}

std::vector<std::string> config_dirs(const RuleScopes& s) {
    std::vector<std::string> out;
    for (const auto& v : values_of(s, "CLAUDE_CONFIG_DIR"))
        for (const auto& d : resolutions(s, v)) add_unique(out, d);
    if (out.empty() && !s.home.empty()) out.push_back(s.home + "/.claude");
    return out;
}

PermissionRules load_permission_rules(const RuleScopes& s) {
    PermissionRules r;
    Reader rd{r};
    // Managed settings: the system folder, and any folder the environment names instead.
    std::vector<std::string> managed{s.system_managed_dir};
    for (const auto& v : values_of(s, "CLAUDE_CODE_MANAGED_SETTINGS_PATH"))
        for (const auto& d : resolutions(s, v)) add_unique(managed, d);
    bool managed_only = false;
    rd.allow_certain = true;
    for (const auto& d : managed) {
        if (d.empty()) continue;
        read_managed(rd, d);
        managed_only = managed_only || managed_rules_only(d);
    }
    // The flags first: --setting-sources and --settings make settings-file allows uncertain.
    std::vector<std::string> add_dirs;
    bool sources_limited = false;
    for (const auto& p : s.processes) {
        rd.allow_certain = true;
        read_flags(rd, s, p, add_dirs, sources_limited);
    }

    const auto configs = config_dirs(s);
    std::vector<std::string> projects;
    for (const auto& d : base_dirs(s)) add_with_parents(projects, d);
    for (const auto& d : add_dirs) add_with_parents(projects, d);
    const auto project_roots = values_of(s, "CLAUDE_PROJECT_DIR");
    for (const auto& d : configs) {
        rd.allow_certain = configs.size() == 1 && !sources_limited && !managed_only;
        read_settings_file(rd, d + "/settings.json");
        read_settings_file(rd, d + "/settings.local.json");
        read_settings_file(rd, d + "/remote-settings.json");
    }
    for (const auto& v : values_of(s, "CLAUDE_CODE_REMOTE_SETTINGS_PATH"))
        for (const auto& f : resolutions(s, v)) read_settings_file(rd, f);
    for (const auto& d : projects) {
        // Only the project folder the host names surely has its settings applied.
        rd.allow_certain =
            !sources_limited && !managed_only &&
            std::find(project_roots.begin(), project_roots.end(), d) != project_roots.end();
        const std::string base = d == "/" ? std::string() : d;
        read_settings_file(rd, base + "/.claude/settings.json");
        read_settings_file(rd, base + "/.claude/settings.local.json");
    }
    read_variables(rd, s);
    return r;
}

} // namespace sutra::plugins::claude
