// The Claude Code adapter: PostToolUse payloads in, `hookSpecificOutput.updatedToolOutput` in the
// tool's own shape out (docs/adapters.md, "Claude Code"), plus the hook entry in settings.json.
//
// Claude Code validates a replacement against the tool's output schema and silently keeps the
// original on a mismatch, so each tool we rewrite is rebuilt in its exact shape; any tool whose
// shape we do not know passes through. Read stays exact because Edit relies on it.
//
// Install also registers `sutra mcp` in the user's MCP servers (~/.claude.json, or
// $CLAUDE_CONFIG_DIR/.claude.json); while that entry is there, markers name the tool as the
// model sees it, mcp__sutra__sutra_restore, else the shell route `sutra restore …`.

#include "core/util/json_nesting.hpp"
#include "plugins/abi/plugin_sdk.hpp"
#include "plugins/claude/bash_route.hpp"
#include "plugins/claude/permission_guard.hpp"
#include "plugins/claude/permission_rules.hpp"
#include "plugins/common/adapter_calls.hpp"
#include "plugins/common/files.hpp"
#include "plugins/common/hook_settings.hpp"
#include "plugins/common/host_report.hpp"
#include "plugins/common/json_text.hpp"
#include "plugins/common/mcp_registration.hpp"
#include "plugins/common/paths.hpp"
#include "plugins/common/shell_words.hpp"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::plugins::claude {

using nlohmann::json;
namespace common = sutra::plugins::common;

namespace {

constexpr const char* k_matcher = "Bash|PowerShell|Grep|mcp__.*";

// $CLAUDE_CONFIG_DIR as Claude Code resolves it: `~` from the home folder, a relative path from
// the working directory (the host started there reads ./conf for `conf`); "" when unset.
std::string config_dir_variable() {
    const char* v = std::getenv("CLAUDE_CONFIG_DIR");
    if (v == nullptr || v[0] == '\0') return {};
    const std::string value = v;
    if (value[0] == '/') return value;
    if (value == "~" || value.starts_with("~/")) {
        const std::string home = common::home_dir();
        return home.empty() ? std::string() : home + value.substr(1);
    }
    std::error_code ec;
    const auto cwd = std::filesystem::current_path(ec);
    return ec ? std::string() : (cwd / value).lexically_normal().string();
}

std::string config_dir() {
    const std::string dir = config_dir_variable();
    if (!dir.empty()) return dir;
    const std::string home = common::home_dir();
    return home.empty() ? std::string() : home + "/.claude";
}
std::string settings_path() {
    return config_dir() + "/settings.json";
}
// Claude Code keeps user-scope MCP servers in .claude.json: in $CLAUDE_CONFIG_DIR when that is
// set, else in the home folder itself (beside ~/.claude, not in it).
std::string mcp_config_path() {
    if (const std::string dir = config_dir_variable(); !dir.empty()) return dir + "/.claude.json";
    const std::string home = common::home_dir();
    return home.empty() ? std::string() : home + "/.claude.json";
}

constexpr const char* k_restore_tool = "mcp__sutra__sutra_restore";

// --text-only: Claude Code shows the model a result's structuredContent instead of its text
// when the tool declares an outputSchema (seen on 2.1.332), which would hide restored bytes.
common::ojson mcp_entry(const std::string& sutra_program, const std::vector<std::string>& tools) {
    auto args = common::mcp_args(k_restore_tool, {}, tools);
    args.push_back("--text-only");
    return common::ojson{{"type", "stdio"}, {"command", sutra_program}, {"args", args}};
}

std::string entry_command(const common::ojson& e) {
    return e.is_object() ? e.value("command", std::string()) : std::string();
}

std::vector<std::string> entry_args(const common::ojson& e) {
    std::vector<std::string> out;
    if (const auto args = e.find("args"); e.is_object() && args != e.end() && args->is_array())
        for (const auto& a : *args)
            if (a.is_string()) out.push_back(a.get<std::string>());
    return out;
}

// Only the entry install wrote is ever replaced or removed (mcp_registration.hpp).
bool is_our_entry(const common::ojson& e) {
    return common::is_our_server(entry_command(e), entry_args(e));
}

// Our server's entry when it is registered and not disabled for the project at `cwd`. Every hook
// call asks, so only the two members it needs are parsed (json_member_text): `mcpServers`, and
// `projects[cwd]` of the thousands of projects a long-used .claude.json holds.
std::optional<common::ojson> registered_mcp(const std::string& cwd) {
    const std::string path = mcp_config_path();
    if (path.empty()) return std::nullopt;
    // Mapped, not copied: the file is read on every call (common::map_text).
    const auto mapped = common::map_text(path);
    if (!mapped) return std::nullopt;
    const std::string_view text = mapped->text();
    // Most hook calls find no sutra entry at all: skip parsing a large file for them.
    const auto holds = [&](std::string_view word) {
        return ::memmem(text.data(), text.size(), word.data(), word.size()) != nullptr;
    };
    if (text.empty() || !holds("\"sutra\"")) return std::nullopt;
    const auto parsed = [](std::optional<std::string_view> member) {
        return member ? sutra::core::parse_within_nesting<common::ojson>(
                            *member, sutra::core::k_max_config_nesting)
                      : common::ojson();
    };
    const common::ojson servers = parsed(common::json_member_text(text, "mcpServers"));
    if (!servers.is_object()) return std::nullopt;
    const auto e = servers.find(common::k_mcp_name);
    if (e == servers.end() || !common::is_sutra_program(entry_command(*e))) return std::nullopt;
    // The host writes the file with JSON.stringify, which escapes no letter of a key: without
    // the word, no project disables a server.
    if (cwd.empty() || !holds("\"disabledMcpServers\"")) return *e;
    const auto projects = common::json_member_text(text, "projects");
    const common::ojson project =
        parsed(projects ? common::json_member_text(*projects, cwd) : std::nullopt);
    if (project.is_object() && project.contains("disabledMcpServers") &&
        project["disabledMcpServers"].is_array())
        for (const auto& name : project["disabledMcpServers"])
            if (name == common::k_mcp_name) return std::nullopt;
    return *e;
}

std::optional<std::string> mcp_command(const std::optional<common::ojson>& e) {
    if (!e) return std::nullopt;
    std::vector<std::string> words{entry_command(*e)};
    if (const auto args = e->find("args"); args != e->end() && args->is_array())
        for (const auto& a : *args)
            if (a.is_string()) words.push_back(a.get<std::string>());
    return common::command_line(words);
}

// How markers tell the model to restore: our MCP tool while it is registered, else the CLI.
json restore_route(const json& payload) {
    return common::restore_route(
        [&] { return registered_mcp(payload.value("cwd", std::string())).has_value(); },
        k_restore_tool);
}

bool is_shell(const std::string& tool) {
    return tool == "Bash" || tool == "PowerShell";
}

// Claude Code names a project folder after its cwd with every character outside [A-Za-z0-9]
// replaced by '-' (one per UTF-16 unit, as the host is JavaScript).
std::string sanitized(std::string_view cwd) {
    std::string out;
    for (std::size_t i = 0; i < cwd.size(); ++i) {
        const auto c = static_cast<unsigned char>(cwd[i]);
        if (std::isalnum(c) && c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x80 || c >= 0xC0) {
            out += c >= 0xF0 ? "--" : "-"; // a 4-byte sequence is a surrogate pair in UTF-16
        }
    }
    return out;
}

bool valid_session(const std::string& id) {
    if (id.empty() || id.size() > 128) return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
    return true;
}

// The folder Claude Code persists this session's large results to. The transcript path names the
// project folder exactly (the host may shorten long names); it must sit in <config>/projects.
std::string tool_results_dir(const json& p) {
    const std::string session = p.value("session_id", std::string());
    if (!valid_session(session)) return {};
    const std::filesystem::path projects = std::filesystem::path(config_dir()) / "projects";
    const std::filesystem::path transcript(p.value("transcript_path", std::string()));
    if (transcript.is_absolute() && transcript.parent_path().parent_path() == projects)
        return (transcript.parent_path() / session / "tool-results").string();
    const std::string cwd = p.value("cwd", std::string());
    if (cwd.empty() || cwd[0] != '/') return {};
    return (projects / sanitized(cwd) / session / "tool-results").string();
}

// What encode needs from the payload, handed back by the dispatcher as the result's "context" so
// that encode need not parse the whole payload (with its output) a second time.
json encode_context(const std::string& tool, const json& resp) {
    json ctx = {{"tool", tool}};
    if (is_shell(tool)) {
        ctx["interrupted"] = resp.is_object() && resp.value("interrupted", false);
    } else if (tool == "Grep" && resp.is_object()) {
        json rest = resp;
        rest.erase("content");
        ctx["response"] = std::move(rest);
    } else {
        ctx["string"] = resp.is_string();
    }
    return ctx;
}

bool is_executable_file(const std::string& path) {
    struct stat st {};
    return !path.empty() && path[0] == '/' && ::stat(path.c_str(), &st) == 0 &&
           S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// The sutra binary the wrapper runs: the one install named in the hook command
// (SUTRA_PROGRAM=…), else the `sutra` beside the running sutra-host (an installed layout).
std::string sutra_program() {
    if (const char* v = std::getenv("SUTRA_PROGRAM"); v != nullptr && is_executable_file(v))
        return v;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    const std::string exe(buf, static_cast<std::size_t>(n));
    const std::string beside = exe.substr(0, exe.rfind('/') + 1) + "sutra";
    return is_executable_file(beside) ? beside : std::string();
}

// The shell Claude Code runs Bash commands with: the user's $SHELL when it is bash or zsh,
// else bash.
std::string command_shell() {
    if (const char* v = std::getenv("SHELL"); v != nullptr && is_executable_file(v)) {
        const std::string_view base =
            std::string_view(v).substr(std::string_view(v).rfind('/') + 1);
        if (base == "bash" || base == "zsh") return v;
    }
    for (const char* bash : {"/bin/bash", "/usr/bin/bash"})
        if (is_executable_file(bash)) return bash;
    return {};
}

// Permission modes in which wrapping is judged: the others (plan, auto, a mode this version does
// not know) let the host weigh a command by what it does, which the wrapper would hide.
bool known_mode(const std::string& mode) {
    return mode.empty() || mode == "default" || mode == "acceptEdits" ||
           mode == "bypassPermissions";
}

// The guard's view of where the host runs: its rules from every source, its folders.
struct HostView {
    PermissionRules rules;
    GuardContext ctx;
};

HostView host_view(const std::string& cwd) {
    RuleScopes scopes;
    scopes.home = common::home_dir();
    scopes.payload_cwd = cwd;
    scopes.processes = host_processes();
    HostView v{load_permission_rules(scopes), {}};
    v.ctx.cwd = cwd;
    v.ctx.home = scopes.home;
    v.ctx.config_dirs = config_dirs(scopes);
    return v;
}

// Why wrapping could change which permission outcome the host reaches, in the default ("auto")
// route; nullopt when it cannot: every Bash command is allowed (an allow rule `Bash` the host
// surely reads, --allowedTools Bash) or permissions are bypassed. Deny and ask rules and the
// host's own path checks are the guard's to judge in both routes.
std::optional<std::string> auto_refusal(const std::string& mode, const PermissionRules& rules) {
    if (mode == "bypassPermissions" || rules.bypass || rules.bash_allowed_whole())
        return std::nullopt;
    return std::string("the user's allow rules judge Bash commands one by one, and a wrapped "
                       "command would be asked where the original was not (sutra install "
                       "--client claude --wrap-bash routes it anyway)");
}

// PreToolUse: a Bash command whose meaning survives a child shell runs under `sutra exec`
// (leading `cd DIR &&` segments stay in the host's shell, so the directory change persists), so
// its output is compressed even when it fails. The answer carries the whole tool_input with only
// `command` changed, and never a permission decision: the host still judges the wrapped text, and
// an "allow" would skip checks the host makes on the original (seen on 2.1.332). The route is
// SUTRA_BASH_ROUTE=always (--wrap-bash) or the default, auto; both only under the guard
// (plugins/claude/permission_guard.hpp).
std::string decode_pre_tool_use(const json& p) {
    if (p.value("tool_name", std::string()) != "Bash") return common::pass("not Bash");
    const auto input = p.find("tool_input");
    if (input == p.end() || !input->is_object()) return common::pass("no tool_input");
    const auto cmd = input->find("command");
    if (cmd == input->end() || !cmd->is_string()) return common::pass("no command");
    if (const auto bg = input->find("run_in_background");
        bg != input->end() && !(bg->is_boolean() && !bg->get<bool>()))
        return common::pass("a background command");
    const std::string mode = p.value("permission_mode", std::string());
    if (!known_mode(mode)) return common::pass("not routed: the permission mode is " + mode);
    const std::string program = sutra_program();
    if (program.empty()) return common::pass("no sutra binary to route through");
    const std::string shell = command_shell();
    if (shell.empty()) return common::pass("no bash or zsh");
    const char* path = std::getenv("PATH");
    const std::string command = cmd->get<std::string>();
    const RoutePlan plan = plan_route(command, [&](std::string_view name) {
        return program_on_path(name, path != nullptr ? path : "");
    });
    if (!plan.route) return common::pass("not routed: " + plan.refusal);
    Wrapper w{program, shell, std::string(), 8192};
    if (restore_route(p).value("kind", std::string()) == "mcp") w.mcp_tool = k_restore_tool;
    // The session id names the command's record in the stats log (sutra statusline).
    if (const std::string session = common::string_field(p, "session_id"); valid_session(session))
        w.session = session;
    // The guard reads the whole command, the kept `cd` part included.
    HostView host = host_view(p.value("cwd", std::string()));
    const char* route = std::getenv("SUTRA_BASH_ROUTE");
    if (route == nullptr || std::string_view(route) != "always")
        if (auto why = auto_refusal(mode, host.rules)) return common::pass("not routed: " + *why);
    host.ctx.wrapper_words = wrapper_words(w);
    if (auto why = permission_refusal(command, host.rules, host.ctx))
        return common::pass("not routed: " + *why);
    json updated = *input;
    updated["command"] = wrap_route(w, *plan.route);
    const json answer = {
        {"hookSpecificOutput", {{"hookEventName", "PreToolUse"}, {"updatedInput", updated}}}};
    return json{{"action", "respond"},
                {"output", answer.dump(-1, ' ', false, json::error_handler_t::replace)},
                {"reason", "routed through sutra exec"}}
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

// What Claude Code 2.1.332 shows the model of a result without sutra (docs/configuration.md,
// "How the figures are counted"): a Bash output up to BASH_MAX_OUTPUT_LENGTH characters (default
// 30,000, at most 150,000) whole, past it a `<persisted-output>` preview of its first 2 KB; other
// tools' results whole up to 50,000 characters, past it the same preview.
json host_cut(bool shell) {
    std::uint64_t over = shell ? 30000 : 50000;
    if (const char* env = std::getenv("BASH_MAX_OUTPUT_LENGTH"); shell && env != nullptr) {
        char* end = nullptr;
        const unsigned long long n = std::strtoull(env, &end, 10);
        if (end != env && *end == '\0' && n > 0) over = std::min<std::uint64_t>(n, 150000);
    }
    return json{{"over", over}, {"head", 2048}, {"tail", 0}};
}

std::string decode_payload(std::string_view payload) {
    json p = sutra::core::parse_within_nesting<json>(payload); // stdout is moved out, not copied
    if (!p.is_object()) return common::pass("malformed payload");
    const std::string event = p.value("hook_event_name", std::string());
    if (event == "PreToolUse") return decode_pre_tool_use(p);
    if (event != "PostToolUse") return common::pass("not PostToolUse");
    const std::string tool = p.value("tool_name", std::string());
    const auto resp = p.find("tool_response");
    if (resp == p.end()) return common::pass("no tool_response");
    json out = {{"action", "compress"},
                {"tool", tool},
                {"route", restore_route(p)},
                {"context", encode_context(tool, *resp)},
                {"session", common::string_field(p, "session_id")},
                {"host_cut", host_cut(is_shell(tool))}};

    if (is_shell(tool)) {
        const json input = p.value("tool_input", json::object());
        const std::string command = input.is_object() ? input.value("command", std::string()) : "";
        const std::string sub = common::sutra_subcommand(command);
        if (sub == "restore") return common::pass("sutra restore output");
        if (sub == "exec") return common::pass("already a sutra exec view");
        if (!resp->is_object() || !resp->contains("stdout") || !(*resp)["stdout"].is_string())
            return common::pass("unknown shape");
        if (resp->value("isImage", false)) return common::pass("image output");
        if (const auto sc = resp->find("structuredContent");
            sc != resp->end() && sc->is_array() && !sc->empty())
            return common::pass("structuredContent takes precedence");
        out["command"] = command;
        // PostToolUse fires only for commands that succeeded (failures go to PostToolUseFailure).
        if (!resp->value("interrupted", false)) out["exit_code"] = 0;
        if (const auto pp = resp->find("persistedOutputPath"); pp != resp->end()) {
            const auto size = resp->find("persistedOutputSize");
            const std::string dir = tool_results_dir(p);
            if (!pp->is_string() || size == resp->end() || !size->is_number_unsigned() ||
                dir.empty())
                return common::pass("persisted output without a checkable path or size");
            out["read_file"] = {{"path", pp->get<std::string>()},
                                {"size", size->get<std::uint64_t>()},
                                {"allowed_dir", dir}};
            return sutra::core::dump_json_fast(out);
        }
        std::string text = std::move((*resp)["stdout"].get_ref<std::string&>());
        // The host shows stderr after stdout; compress them as the model would read them.
        if (const auto err = resp->find("stderr");
            err != resp->end() && err->is_string() && !err->get<std::string>().empty()) {
            if (!text.empty() && text.back() != '\n') text += '\n';
            text += err->get<std::string>();
        }
        out["output"] = std::move(text);
        return sutra::core::dump_json_fast(out);
    }
    if (tool == "Grep") {
        if (!resp->is_object() || resp->value("mode", std::string()) != "content" ||
            !resp->contains("content") || !(*resp)["content"].is_string())
            return common::pass("Grep without content");
        out["output"] = (*resp)["content"];
        return sutra::core::dump_json_fast(out);
    }
    if (tool.rfind("mcp__", 0) == 0) {
        if (tool.rfind("mcp__sutra__", 0) == 0) return common::pass("sutra's own tool");
        if (resp->is_string()) {
            out["output"] = *resp;
            return sutra::core::dump_json_fast(out);
        }
        if (resp->is_array() && resp->size() == 1 && (*resp)[0].is_object() &&
            (*resp)[0].value("type", std::string()) == "text" && (*resp)[0].contains("text") &&
            (*resp)[0]["text"].is_string()) {
            out["output"] = (*resp)[0]["text"];
            return sutra::core::dump_json_fast(out);
        }
        return common::pass("MCP result not a single text block");
    }
    return common::pass("tool " + tool + " passes through");
}

std::string encode_result(std::string_view payload, std::string_view result_text) {
    const json r = sutra::core::parse_within_nesting<json>(result_text);
    if (!r.is_object() || !r.contains("view") || !r["view"].is_string()) return {};
    json ctx = r.value("context", json());
    if (!ctx.is_object()) { // a dispatcher that does not pass the context back
        const json p = sutra::core::parse_within_nesting<json>(payload);
        if (!p.is_object()) return {};
        ctx = encode_context(p.value("tool_name", std::string()), p.value("tool_response", json()));
    }
    const std::string tool = ctx.value("tool", std::string());
    json replacement;
    if (is_shell(tool)) {
        // Exactly the three required keys: persistedOutputPath would re-wrap stdout into the
        // preview, and structuredContent would take precedence over it.
        replacement = {{"stdout", r["view"]},
                       {"stderr", ""},
                       {"interrupted", ctx.value("interrupted", false)}};
    } else if (tool == "Grep" && ctx.contains("response") && ctx["response"].is_object()) {
        replacement = ctx["response"];
        replacement["content"] = r["view"];
    } else if (tool.rfind("mcp__", 0) == 0) {
        replacement = ctx.value("string", false)
                          ? r["view"]
                          : json::array({{{"type", "text"}, {"text", r["view"]}}});
    } else {
        return {};
    }
    json out = {{"hookSpecificOutput",
                 {{"hookEventName", "PostToolUse"}, {"updatedToolOutput", replacement}}}};
    return sutra::core::dump_json_fast(out);
}

common::HookSpec hook_spec(const std::string& host_program) {
    common::HookSpec spec;
    spec.matcher = k_matcher;
    spec.adapter = "claude";
    spec.command = common::shell_word(host_program.empty() ? "sutra-host" : host_program) +
                   " --adapter claude";
    return spec;
}

// The PreToolUse route. The command names the sutra binary the wrapper will run, and the route
// when it is not the default one ("always": --wrap-bash).
common::HookSpec pre_hook_spec(const std::string& host_program,
                               const std::string& sutra,
                               const std::string& route = "auto") {
    common::HookSpec spec = hook_spec(host_program);
    spec.event = "PreToolUse";
    spec.matcher = "Bash";
    spec.timeout = 10;
    if (!sutra.empty())
        spec.command = "SUTRA_PROGRAM=" + common::shell_word(sutra) + " " + spec.command;
    if (route == "always") spec.command = "SUTRA_BASH_ROUTE=always " + spec.command;
    return spec;
}

// `sutra statusline` as Claude Code's statusLine, set only where the user has none.
common::HookSpec statusline_spec(const std::string& sutra) {
    common::HookSpec spec;
    spec.adapter = "statusline";
    spec.setting = "statusLine";
    spec.command = common::shell_word(sutra.empty() ? "sutra" : sutra) + " statusline";
    return spec;
}

// The installed route: "off" without our PreToolUse hook, else the one its command names.
std::string installed_route(const common::ojson& settings) {
    const auto pre = common::our_command(settings, pre_hook_spec("", ""));
    if (!pre) return "off";
    return pre->find("SUTRA_BASH_ROUTE=always") != std::string::npos ? "always" : "auto";
}

// What install, detect and doctor say of a route.
std::string route_says(const std::string& route) {
    if (route == "off")
        return "off (--no-wrap-bash): failing Bash commands reach the model as Claude Code cuts "
               "them";
    if (route == "always")
        return "always (--wrap-bash): Bash runs under `sutra exec` wherever the permission guard "
               "allows; a command an allow rule covered may now be asked";
    return "auto: Bash runs under `sutra exec` only where that changes no permission outcome "
           "(every Bash command allowed, by an allow rule `Bash` or --allowedTools Bash, or "
           "permissions bypassed), under the permission guard; elsewhere commands run as "
           "written";
}

} // namespace

struct Adapter {
    static constexpr const char* name = "claude";
    static constexpr const char* description =
        "Claude Code (PostToolUse updatedToolOutput; PreToolUse route for Bash)";

    std::string decode(std::string_view payload) { return decode_payload(payload); }
    std::string encode(std::string_view payload, std::string_view result) {
        return encode_result(payload, result);
    }
    std::string install(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            // Plan every file first: a refusal anywhere writes nothing, and apply_plans puts
            // back what it wrote when a later write fails.
            std::vector<common::HookSpec> specs{hook_spec(o.host_program)};
            std::vector<common::HookSpec> removed;
            std::string route = o.bash_route;
            if (route.empty()) { // not said: a --wrap-bash install stays so, else the default
                const std::string path = settings_path();
                const auto doc = common::parse_settings(common::read_text(path), path);
                route = installed_route(doc) == "always" ? "always" : "auto";
            }
            if (route == "off")
                removed.push_back(pre_hook_spec(o.host_program, o.sutra_program));
            else
                specs.push_back(pre_hook_spec(o.host_program, o.sutra_program, route));
            if (o.statusline) specs.push_back(statusline_spec(o.sutra_program));
            std::vector<common::FilePlan> plans;
            const auto hooks = common::plan_hooks_install(settings_path(), specs, removed);
            if (hooks) plans.push_back(*hooks);
            std::optional<common::FilePlan> mcp;
            if (!o.sutra_program.empty()) {
                mcp = common::plan_json_install(mcp_config_path(), "mcpServers",
                                                mcp_entry(o.sutra_program, o.mcp_tools),
                                                is_our_entry);
                if (mcp) {
                    mcp->create_mode = 0600;          // the host keeps account data in this file
                    plans.push_back(std::move(*mcp)); // stays engaged: only tested after
                }
            }
            auto r = common::apply_install_plans(std::move(plans), o.dry_run);
            if (!hooks) r["messages"].push_back(settings_path() + ": already installed");
            r["messages"].push_back(settings_path() + ": the Bash route is " + route_says(route));
            if (o.statusline) {
                const std::string path = settings_path();
                const auto doc = common::parse_settings(common::read_text(path), path);
                const auto spec = statusline_spec(o.sutra_program);
                if (doc.contains("statusLine") && !common::our_command(doc, spec))
                    r["messages"].push_back(
                        path +
                        ": you have a status line of your own, so sutra left it as it is; "
                        "to show sutra's figure in it, run `" +
                        spec.command +
                        "` from it with the same JSON on stdin and print its line beside yours");
                else
                    r["messages"].push_back(path +
                                            ": the status line shows this session's "
                                            "savings (`" +
                                            spec.command + "`)");
            }
            common::note_mcp_install(r, o.sutra_program, mcp.has_value(), mcp_config_path());
            return r;
        });
    }
    std::string uninstall(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            std::vector<common::FilePlan> plans;
            const auto hooks = common::plan_hooks_uninstall(
                settings_path(),
                {hook_spec(o.host_program), pre_hook_spec(o.host_program, o.sutra_program),
                 statusline_spec(o.sutra_program)});
            if (hooks) plans.push_back(*hooks);
            auto mcp = common::plan_json_uninstall(mcp_config_path(), "mcpServers", is_our_entry);
            if (mcp) plans.push_back(std::move(*mcp)); // a plan holds the file's bytes twice
            auto r = common::apply_plans(std::move(plans), o.dry_run);
            if (!hooks)
                r["messages"].push_back(settings_path() + ": no sutra hook, nothing to remove");
            else if (hooks->action == "modify")
                r["messages"].push_back(settings_path() +
                                        ": edited since install; removed sutra's entry and "
                                        "re-wrote the rest (JSON formatting normalized)");
            if (mcp && mcp->action == "modify")
                r["messages"].push_back(mcp_config_path() +
                                        ": changed since install (Claude Code rewrites it); "
                                        "removed only mcpServers.sutra");
            return r;
        });
    }
    std::string detect(std::string_view) {
        return common::guarded([&] {
            const std::string path = settings_path();
            const auto text = common::read_text(path);
            const auto doc = common::parse_settings(text, path);
            const auto cmd = common::our_command(doc, hook_spec(""));
            const auto mcp = registered_mcp("");
            const std::string route = installed_route(doc);
            // Claude Code's own switch: no hook of any kind runs.
            const bool disabled = doc.value("disableAllHooks", false) == true;
            // Claude Code fires only PostToolUseFailure for a failing command, whose output no
            // hook can replace: only the PreToolUse route sees it, and the auto route only where
            // every Bash command is allowed.
            common::ojson uncovered = common::ojson::array();
            if (route == "off")
                uncovered.push_back(
                    {{"what", "the output of failing Bash commands (Claude Code sends them to "
                              "PostToolUseFailure, whose output a hook cannot replace)"},
                     {"command", "sutra install --client claude"}});
            else if (route == "auto")
                uncovered.push_back(
                    {{"what", "the output of failing Bash commands in sessions whose allow rules "
                              "judge Bash commands one by one (the auto route leaves them as "
                              "written; allow `Bash` as a whole, or opt in)"},
                     {"command", "sutra install --client claude --wrap-bash"}});
            return common::report_json(
                {.client = "claude",
                 .found = std::filesystem::is_directory(config_dir()),
                 .installed = cmd.has_value(),
                 .path = path,
                 .command = cmd,
                 .uncovered = uncovered,
                 .disabled_by = disabled ? path + " sets \"disableAllHooks\": true" : std::string(),
                 .mcp = common::mcp_status(mcp_config_path(), mcp_command(mcp), k_restore_tool)},
                {{"wrap_bash", route != "off"},
                 {"bash_route", {{"mode", route}, {"says", route_says(route)}}},
                 {"statusline", common::our_command(doc, statusline_spec("")).has_value()
                                    ? "sutra"
                                    : (doc.contains("statusLine") ? "the user's own" : "none")}});
        });
    }
    std::string doctor(std::string_view options) {
        return common::doctor_report(
            detect(options),
            [] {
                // detect names a settings.json that does not parse; .claude.json is named here.
                if (const std::string mcp_path = mcp_config_path(); !mcp_path.empty())
                    common::check_config(common::read_text(common::real_target(mcp_path)),
                                         common::real_target(mcp_path), false);
            },
            "PostToolUse hook",
            [](const std::string& out) {
                return common::ojson{
                    {"session_id", "sutra-doctor"},
                    {"cwd", "/tmp"},
                    {"hook_event_name", "PostToolUse"},
                    {"tool_name", "Bash"},
                    {"tool_input", {{"command", "make"}}},
                    {"tool_response", {{"stdout", out}, {"stderr", ""}, {"interrupted", false}}},
                    {"tool_use_id", "toolu_doctor"}};
            },
            [](common::ojson& d) {
                const std::string path = settings_path();
                const auto doc = common::parse_settings(common::read_text(path), path);
                const auto pre = common::our_command(doc, pre_hook_spec("", ""));
                if (!pre) return;
                // A harmless failing command for the Bash route: 2,000 similar lines, then an
                // error.
                std::size_t seq_bytes = 0;
                for (int i = 1; i <= 2000; ++i)
                    seq_bytes += ("test_case_" + std::to_string(i) + " ... ok\n").size();
                d["more_samples"] = common::ojson::array({common::ojson{
                    {"label", "PreToolUse route for Bash (" + installed_route(doc) +
                                  "; the sample as in a session that allows every Bash command)"},
                    {"command", *pre},
                    {"sample_bytes", seq_bytes},
                    {"payload",
                     {{"session_id", "sutra-doctor"},
                      {"cwd", "/tmp"},
                      {"permission_mode", "bypassPermissions"},
                      {"hook_event_name", "PreToolUse"},
                      {"tool_name", "Bash"},
                      {"tool_input",
                       {{"command", "seq -f 'test_case_%g ... ok' 1 2000 && ls "
                                    "nonexistent-sutra-doctor-sample"}}},
                      {"tool_use_id", "toolu_doctor_pre"}}}}});
            });
    }
};

} // namespace sutra::plugins::claude

SUTRA_DEFINE_PLUGIN(sutra::plugins::claude::Adapter)
