// `sutra detect|install|uninstall|doctor`: each adapter module owns its host's files; this file
// only finds the modules, passes them the dispatcher's absolute path and prints their answers.

#include "core/util/posix_io.hpp"
#include "host/cli/cli.hpp"
#include "host/dispatch/plugin_registry.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// sutra-host beside us (installed bin/), else <build>/bin/sutra-host for a build-tree `sutra`.
std::string host_program() {
    const fs::path dir = core::executable_dir();
    for (const fs::path& p : {dir / "sutra-host", dir.parent_path() / "bin/sutra-host"}) {
        std::error_code ec;
        if (fs::is_regular_file(p, ec)) return fs::weakly_canonical(p, ec).string();
    }
    return {};
}

// One install, uninstall or doctor at a time per user: two at once (`uninstall & install`) each
// read the files before the other wrote them, and left a host half installed. The lock is taken
// on the home folder itself (flock on its descriptor), so it leaves no file behind: uninstall
// gives the home back byte for byte. Where the home cannot be opened, the call goes on unlocked.
core::UniqueFd take_install_lock() {
    const char* home_env = std::getenv("HOME");
    const std::string home = core::home_dir(home_env != nullptr ? home_env : "");
    if (home.empty() || home[0] != '/') return {};
    core::UniqueFd fd(::open(home.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.ok()) return {};
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) return fd;
    std::fprintf(stderr, "sutra: waiting for another sutra install, uninstall or doctor (%s)\n",
                 home.c_str());
    while (::flock(fd.get(), LOCK_EX) != 0)
        if (errno != EINTR) return {};
    return fd;
}

// This very binary: the MCP server (`sutra mcp`) the adapters register with their hosts.
std::string sutra_program() {
    return core::executable_path();
}

// A wait status as a person reads it: the command's exit status (with the shell's meaning of
// 126 and 127) or the signal that ended it.
std::string describe_status(int status) {
    if (status == -1) return "could not be run";
    if (WIFSIGNALED(status)) return fmt::format("was killed by signal {}", WTERMSIG(status));
    if (!WIFEXITED(status)) return fmt::format("ended with wait status {}", status);
    const int code = WEXITSTATUS(status);
    const char* meaning = code == 127   ? " (command not found)"
                          : code == 126 ? " (not executable)"
                                        : "";
    return fmt::format("exited with status {}{}", code, meaning);
}

struct Selection {
    std::string client;
    std::string profile; // a host profile (Hermes), passed to the modules as "profile"
    bool dry_run = false;
    std::string bash_route;        // Claude Code's PreToolUse route: always, off (install only)
    bool raise_output_cap = false; // Codex's tool_output_token_limit (install only)
    bool statusline = false;       // Claude Code's statusLine (install only)
    // MCP tools beyond restore, compress and stats (install only): "files" and "exec" each
    // reach past the host's own permission rules, so each is the user's explicit choice.
    std::vector<std::string> mcp_tools;
    bool ok = true;
};

Selection parse_args(const Args& args, bool allow_dry_run, bool allow_wrap = false) {
    Selection s;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--client" && i + 1 < args.size()) {
            s.client = args[++i];
        } else if (args[i] == "--profile" && i + 1 < args.size()) {
            s.profile = args[++i];
        } else if (args[i] == "--dry-run" && allow_dry_run) {
            s.dry_run = true;
        } else if (args[i] == "--wrap-bash" && allow_wrap) {
            s.bash_route = "always";
        } else if (args[i] == "--no-wrap-bash" && allow_wrap) {
            s.bash_route = "off";
        } else if (args[i] == "--statusline" && allow_wrap) {
            s.statusline = true;
        } else if (args[i] == "--raise-output-cap" && allow_wrap) {
            s.raise_output_cap = true;
        } else if (args[i] == "--mcp-files" && allow_wrap) {
            s.mcp_tools.push_back("files");
        } else if (args[i] == "--mcp-exec" && allow_wrap) {
            s.mcp_tools.push_back("exec");
        } else {
            print_error("unexpected argument '" + args[i] + "'");
            s.ok = false;
        }
    }
    return s;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto nl = text.find('\n', start);
        const auto end = nl == std::string::npos ? text.size() : nl;
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// A line diff (LCS) with long unchanged runs folded: the exact change a dry run would make.
void print_diff(const std::string& before, const std::string& after) {
    const auto a = split_lines(before);
    const auto b = split_lines(after);
    if (a.size() * b.size() > 4'000'000) {
        fmt::print("(file too large to diff; new content follows)\n{}", after);
        return;
    }
    std::vector<std::vector<unsigned>> l(a.size() + 1, std::vector<unsigned>(b.size() + 1, 0));
    for (std::size_t i = a.size(); i-- > 0;)
        for (std::size_t j = b.size(); j-- > 0;)
            l[i][j] = a[i] == b[j] ? l[i + 1][j + 1] + 1 : std::max(l[i + 1][j], l[i][j + 1]);
    std::vector<std::pair<char, std::string>> rows;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        if (i < a.size() && j < b.size() && a[i] == b[j]) {
            rows.emplace_back(' ', a[i++]);
            ++j;
        } else if (i < a.size() && (j == b.size() || l[i + 1][j] >= l[i][j + 1])) {
            rows.emplace_back('-', a[i++]); // removals first, as diff -u prints them
        } else {
            rows.emplace_back('+', b[j++]);
        }
    }
    // Show changed rows with two rows of context; each run of other rows becomes one "…".
    bool folded = false;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        bool near = false;
        for (std::size_t d = (k >= 2 ? k - 2 : 0); d <= k + 2 && d < rows.size(); ++d)
            near = near || rows[d].first != ' ';
        if (near) {
            fmt::print("{}{}\n", rows[k].first, rows[k].second);
            folded = false;
        } else if (!folded) {
            fmt::print(" …\n");
            folded = true;
        }
    }
}

// Prints one install/uninstall answer; returns false when the module reported failure.
bool report(const std::string& client, const json& r, bool dry_run) {
    if (!r.value("ok", false)) {
        print_error(client + ": " + r.value("error", std::string("failed")));
        return false;
    }
    for (const auto& f : r.value("files", json::array())) {
        const std::string action = f.value("action", std::string());
        const std::string path = f.value("path", std::string());
        fmt::print("{}: {} {}{}\n", client, dry_run ? "would " + action : action, path,
                   f.contains("backup") ? " (backup " + f["backup"].get<std::string>() + ")" : "");
        if (dry_run) {
            const std::string before =
                f["before"].is_string() ? f["before"].get<std::string>() : "";
            const std::string after = f["after"].is_string() ? f["after"].get<std::string>() : "";
            fmt::print("--- {}{}\n+++ {}{}\n", path, f["before"].is_null() ? " (absent)" : "", path,
                       f["after"].is_null() ? " (removed)" : "");
            print_diff(before, after);
        }
    }
    for (const auto& m : r.value("messages", json::array()))
        fmt::print("{}: {}\n", client, m.get<std::string>());
    if (!r.value("changed", false) && r.value("messages", json::array()).empty())
        fmt::print("{}: nothing to do\n", client);
    return true;
}

// What the host shows the model that sutra does not see, and the command that covers it, as
// the adapter's detect reports it ("uncovered": [{"what","command"}]).
void print_coverage(const std::string& client, const json& d, const std::string& indent) {
    const auto u = d.find("uncovered");
    if (u == d.end() || !u->is_array() || d.value("disabled", false)) return;
    if (u->empty())
        fmt::print("{}{}: sutra sees every shell output the host shows the model\n", indent,
                   client);
    for (const auto& item : *u)
        if (item.is_object())
            fmt::print("{}{}: sutra does not see {}; to cover it: {}\n", indent, client,
                       item.value("what", std::string()), item.value("command", std::string()));
}

// One place a module works on: the host's default home, or one of its profiles (Hermes).
struct Target {
    std::string label; // how output names it: "hermes", "hermes (profile work)"
    json options;
};

Target target_for(const std::string& client, const json& options, const std::string& profile) {
    Target t{client, options};
    if (profile.empty()) {
        t.options.erase("profile");
    } else {
        t.label += " (profile " + profile + ")";
        t.options["profile"] = profile;
    }
    return t;
}

// Where uninstall, detect and doctor go: the --profile named, else the default home and then
// every profile the module's detect lists as holding sutra's files.
std::vector<Target> targets(const std::string& client,
                            const json& options,
                            const std::string& profile,
                            const json& detected) {
    std::vector<Target> out{target_for(client, options, profile)};
    if (!profile.empty()) return out;
    for (const auto& name : detected.value("profiles", json::array()))
        if (name.is_string()) out.push_back(target_for(client, options, name.get<std::string>()));
    return out;
}

// Whether detect found any entry of ours: the hook, the MCP server, or a profile holding them.
bool holds_ours(const json& d) {
    return d.value("installed", false) ||
           d.value("mcp", json::object()).value("registered", false) ||
           !d.value("profiles", json::array()).empty();
}

json call_json(const Plugin& plugin, Plugin::Op op, const json& options) {
    const auto text = plugin.call(op, options.dump());
    if (!text) return json{{"ok", false}, {"error", "the adapter module failed"}};
    json r = json::parse(*text, nullptr, false);
    if (!r.is_object())
        return json{{"ok", false}, {"error", "the adapter returned no JSON object"}};
    return r;
}

// Runs install or uninstall at one target and prints its answer; false on failure.
bool run_on(const Plugin& plugin, Plugin::Op op, const Target& t, const Selection& s) {
    if (!report(t.label, call_json(plugin, op, t.options), s.dry_run)) return false;
    if (op != Plugin::Op::install) return true;
    if (!s.dry_run) print_coverage(t.label, call_json(plugin, Plugin::Op::detect, t.options), "");
    for (const auto& tool : s.mcp_tools)
        fmt::print("{}: {}\n", t.label,
                   tool == "files" ? "MCP tools sutra_outline, sutra_symbol and sutra_read "
                                     "read files under the host's project folder, outside "
                                     "its own Read rules (--mcp-files)"
                                   : "MCP tool sutra_exec runs any shell command, outside "
                                     "the host's own Bash permission rules (--mcp-exec)");
    return true;
}

// Runs `op` on the chosen client, or on every registered one that `want` accepts.
int for_clients(const Selection& s, Plugin::Op op, const char* verb) {
    const std::string program = host_program();
    if (program.empty() && op == Plugin::Op::install) {
        print_error("cannot find sutra-host next to sutra");
        return 1;
    }
    PluginRegistry registry(default_locations());
    for (const auto& p : registry.problems()) print_error(p);
    if (!s.client.empty() && registry.find(s.client) == nullptr) {
        print_error("no adapter named '" + s.client + "' (see sutra-host --list)");
        return 2;
    }
    json options = {
        {"host_program", program}, {"sutra_program", sutra_program()}, {"dry_run", s.dry_run}};
    if (!s.bash_route.empty()) options["bash_route"] = s.bash_route;
    if (s.raise_output_cap) options["raise_output_cap"] = true;
    if (s.statusline) options["statusline"] = true;
    if (!s.mcp_tools.empty()) options["mcp_tools"] = s.mcp_tools;
    if (!s.profile.empty()) options["profile"] = s.profile;
    int failures = 0;
    bool any = false;
    for (const auto& e : registry.entries()) {
        if (!s.client.empty() && e.name != s.client) continue;
        auto plugin = registry.load(e.name);
        if (!plugin) {
            print_error(plugin.error());
            ++failures;
            continue;
        }
        const bool uninstall = op == Plugin::Op::uninstall;
        json d = json::object();
        if (s.client.empty() || uninstall) {
            // Without --client: only hosts that are present (install) or hold any entry of ours,
            // the hook, the MCP server or a profile's (uninstall). Uninstall also learns the
            // profiles sutra is in.
            d = call_json(**plugin, Plugin::Op::detect, options);
            if (!d.value("ok", true) && !s.client.empty()) {
                d = json::object(); // uninstall itself names what it cannot read
            } else if (!d.value("ok", true)) {
                print_error(e.name + ": " + d.value("error", std::string("detect failed")));
                ++failures;
                continue;
            }
            const bool wanted = op == Plugin::Op::install ? d.value("found", false) : holds_ours(d);
            if (s.client.empty() && !wanted) continue;
        }
        std::vector<Target> where =
            uninstall ? targets(e.name, options, s.profile, d)
                      : std::vector<Target>{target_for(e.name, options, s.profile)};
        // Without --client, a default home without our entries is not visited, only profiles.
        const bool default_holds = d.value("installed", false) ||
                                   d.value("mcp", json::object()).value("registered", false);
        if (uninstall && s.client.empty() && s.profile.empty() && !default_holds)
            where.erase(where.begin());
        any = true;
        for (const Target& t : where) failures += run_on(**plugin, op, t, s) ? 0 : 1;
    }
    if (!any && failures == 0) fmt::print("no client to {} (use --client NAME)\n", verb);
    return failures == 0 ? 0 : 1;
}

// Runs `command` through the shell with `payload` on stdin, in a scratch store.
std::string run_sample(const std::string& command, const std::string& payload, int& status) {
    char dir_template[] = "/tmp/sutra-doctor-XXXXXX";
    const char* dir = ::mkdtemp(dir_template);
    if (dir == nullptr) {
        status = -1;
        return {};
    }
    const std::string input = std::string(dir) + "/payload.json";
    if (FILE* f = std::fopen(input.c_str(), "wb")) {
        std::fwrite(payload.data(), 1, payload.size(), f);
        std::fclose(f);
    }
    const std::string line = "SUTRA_HOME='" + std::string(dir) + "/store' SUTRA_STATS=0 " +
                             command + " < '" + input + "'";
    std::string out;
    if (FILE* p = ::popen(line.c_str(), "r")) {
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        status = ::pclose(p);
    } else {
        status = -1;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return out;
}

// A PreToolUse answer rewrites the sample command: run the rewritten one, as the host would,
// and say how big a view of its output the model gets.
void run_rewritten(const std::string& label,
                   const std::string& answer,
                   std::size_t sample_bytes,
                   int& problems) {
    const json a = json::parse(answer, nullptr, false);
    const json input =
        a.is_object()
            ? a.value("hookSpecificOutput", json::object()).value("updatedInput", json::object())
            : json::object();
    if (!input.is_object() || !input.contains("command") || !input["command"].is_string()) return;
    char dir_template[] = "/tmp/sutra-doctor-XXXXXX";
    const char* dir = ::mkdtemp(dir_template);
    if (dir == nullptr) return;
    const std::string line = "cd '" + std::string(dir) + "' && SUTRA_HOME='" + dir +
                             "/store' SUTRA_STATS=0 " + input["command"].get<std::string>() +
                             " 2>&1";
    std::string out;
    int status = -1;
    if (FILE* p = ::popen(line.c_str(), "r")) {
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        status = ::pclose(p);
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (out.find("sutra") == std::string::npos) {
        ++problems;
        fmt::print("  problem: the rewritten command gave no sutra view (it {})\n",
                   describe_status(status));
        return;
    }
    fmt::print("  {}: a failing sample of about {} bytes reaches the model as a view of {} bytes "
               "(exit status {})\n",
               label, sample_bytes, out.size(), WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

// The text the model reads in a hook's answer: its longest string (the view, in every host's
// answer shape).
std::string longest_string(const json& j) {
    if (j.is_string()) return j.get<std::string>();
    std::string best;
    if (j.is_object() || j.is_array())
        for (const auto& v : j) {
            std::string s = longest_string(v);
            if (s.size() > best.size()) best = std::move(s);
        }
    return best;
}

void print_view_size(const std::string& route, std::size_t in, const std::string& answer) {
    const json a = json::parse(answer, nullptr, false);
    const std::size_t view = a.is_discarded() ? answer.size() : longest_string(a).size();
    fmt::print("  {}: a sample of {} bytes reaches the model as a view of {} bytes ({}%)\n", route,
               in, view, in == 0 ? 100 : view * 100 / in);
}

// Doctor at one target (a host's default home or one of its profiles): what it prints, and the
// number of problems it found.
int doctor_target(const Plugin& plugin, const Target& t, const std::string& module) {
    const std::string& name = t.label;
    int problems = 0;
    const json d = call_json(plugin, Plugin::Op::doctor, t.options);
    if (!d.value("ok", true)) {
        ++problems;
        fmt::print("{}: problem: {}\n", name, d.value("error", std::string("doctor failed")));
        return problems;
    }
    if (!d.value("installed", false)) {
        fmt::print("{}: module ok ({}), hook not installed in {}\n", name, module,
                   d.value("path", std::string()));
        return problems;
    }
    const std::string command = d.value("command", std::string());
    fmt::print("{}: hook installed in {}\n  command: {}\n", name, d.value("path", std::string()),
               command);
    if (const auto m = d.find("mcp"); m != d.end() && m->is_object()) {
        if (m->value("registered", false))
            fmt::print("  mcp server registered in {}\n    command: {}\n    markers name: {}\n",
                       m->value("path", std::string()), m->value("command", std::string()),
                       m->value("tool", std::string()));
        else
            fmt::print("  mcp server not registered in {} (markers name `sutra restore`)\n",
                       m->value("path", std::string()));
    }
    // The host's own switch, by its own name; while it is on, sutra covers nothing there.
    if (d.value("disabled", false)) {
        ++problems;
        const std::string off = d.value("disabled_by", std::string());
        fmt::print("  problem: {}\n", off.empty() ? "the host turns sutra's hook off"
                                                  : off + ": sutra's hook never runs");
    } else {
        print_coverage(name, d, "  ");
    }
    // What the host cuts before the hook sees it (Codex's output cap).
    if (const auto c = d.find("output_cap"); c != d.end() && c->is_object()) {
        const bool problem = c->value("problem", false);
        problems += problem ? 1 : 0;
        fmt::print("  {}: {}\n", problem ? "problem" : "output cap",
                   c->value("note", std::string()));
    }
    int status = 0;
    const std::string payload = d.value("sample_payload", json::object()).dump();
    const std::string out = run_sample(command, payload, status);
    if (status != 0) {
        ++problems;
        fmt::print("  problem: the command {}\n", describe_status(status));
    }
    if (out.empty()) {
        ++problems;
        fmt::print(
            "  problem: no replacement for the sample (run with SUTRA_DEBUG=1 to see why)\n");
    } else {
        print_view_size(d.value("route", std::string("hook")), d.value("sample_bytes", 0u), out);
        fmt::print("  sample of {} bytes -> replacement the host gets ({} bytes):\n{}\n",
                   payload.size(), out.size(), out);
    }
    // Further installed hooks of the same host (Claude Code's PreToolUse route).
    if (const auto more = d.find("more_samples"); more != d.end() && more->is_array()) {
        for (const auto& m : *more) {
            if (!m.is_object()) continue;
            const std::string label = m.value("label", std::string("another hook"));
            const std::string cmd = m.value("command", std::string());
            const std::string answer =
                run_sample(cmd, m.value("payload", json::object()).dump(), status);
            fmt::print("  {}: {}\n", label, cmd);
            if (status != 0 || answer.empty()) {
                ++problems;
                fmt::print("  problem: no answer for its sample (the command {}; SUTRA_DEBUG=1 "
                           "says why)\n",
                           describe_status(status));
            } else {
                fmt::print("  its sample -> the host gets:\n{}\n", answer);
                run_rewritten(label, answer, m.value("sample_bytes", 0u), problems);
            }
        }
    }
    return problems;
}

// One row of `sutra detect`, and its bash and mcp rows.
void print_detected(const std::string& label, const json& d) {
    if (!d.value("ok", true)) {
        fmt::print("{:<8} error: {}\n", label, d.value("error", std::string()));
        return;
    }
    const std::string off = d.value("disabled_by", std::string());
    fmt::print("{:<8} {:<9} {:<13} {}{}\n", label, d.value("found", false) ? "found" : "not found",
               d.value("installed", false) ? "installed" : "not installed",
               d.value("path", std::string()),
               !off.empty()                 ? "  (off: " + off + ")"
               : d.value("disabled", false) ? std::string("  (host hooks disabled)")
                                            : std::string());
    if (const auto r = d.find("bash_route"); r != d.end() && r->is_object())
        fmt::print("{:<8} {:<9} {:<13} {}\n", "", "bash", r->value("mode", std::string()),
                   r->value("says", std::string()));
    if (const auto m = d.find("mcp"); m != d.end() && m->is_object())
        fmt::print("{:<8} {:<9} {:<13} {}\n", "", "mcp",
                   m->value("registered", false) ? "registered" : "not registered",
                   m->value("path", std::string()));
}

} // namespace

int cmd_detect(const Args& args) {
    const Selection s = parse_args(args, false);
    if (!s.ok) return 2;
    PluginRegistry registry(default_locations());
    for (const auto& p : registry.problems()) print_error(p);
    const json options = s.profile.empty() ? json::object() : json{{"profile", s.profile}};
    for (const auto& e : registry.entries()) {
        if (!s.client.empty() && e.name != s.client) continue;
        auto plugin = registry.load(e.name);
        if (!plugin) {
            fmt::print("{:<8} module fails to load: {}\n", e.name, plugin.error());
            continue;
        }
        const json d = call_json(**plugin, Plugin::Op::detect, options);
        print_detected(target_for(e.name, options, s.profile).label, d);
        const auto where = targets(e.name, options, s.profile, d);
        for (std::size_t i = 1; i < where.size(); ++i)
            print_detected(where[i].label,
                           call_json(**plugin, Plugin::Op::detect, where[i].options));
    }
    return 0;
}

int cmd_install(const Args& args) {
    const Selection s = parse_args(args, true, true);
    if (!s.ok) return 2;
    const core::UniqueFd lock = take_install_lock();
    return for_clients(s, Plugin::Op::install, "install into");
}

int cmd_uninstall(const Args& args) {
    const Selection s = parse_args(args, true);
    if (!s.ok) return 2;
    const core::UniqueFd lock = take_install_lock();
    return for_clients(s, Plugin::Op::uninstall, "uninstall from");
}

int cmd_doctor(const Args& args) {
    const Selection s = parse_args(args, false);
    if (!s.ok) return 2;
    const core::UniqueFd lock = take_install_lock();
    const auto locations = default_locations();
    fmt::print("sutra-host: {}\n", host_program().empty() ? "NOT FOUND" : host_program());
    PluginRegistry registry(locations);
    if (!s.client.empty() && registry.find(s.client) == nullptr) {
        print_error("no adapter named '" + s.client + "' (see sutra-host --list)");
        return 2;
    }
    int problems = static_cast<int>(registry.problems().size());
    for (const auto& p : registry.problems()) fmt::print("problem: {}\n", p);
    const json options = s.profile.empty() ? json::object() : json{{"profile", s.profile}};
    for (const auto& e : registry.entries()) {
        if (!s.client.empty() && e.name != s.client) continue;
        auto plugin = registry.load(e.name);
        if (!plugin) {
            ++problems;
            fmt::print("{}: module fails to load: {}\n", e.name, plugin.error());
            continue;
        }
        // The default home, then each profile holding sutra's files (unless --profile names one).
        const json d =
            s.profile.empty() ? call_json(**plugin, Plugin::Op::detect, options) : json::object();
        for (const Target& t : targets(e.name, options, s.profile, d))
            problems += doctor_target(**plugin, t, e.module);
    }
    return problems == 0 ? 0 : 1;
}

} // namespace sutra::host
