// The Codex adapter: PostToolUse payloads in, `{"decision":"block","reason": VIEW}` out, the only
// replacement Codex honours (docs/adapters.md, "Codex"). Codex gives the hook no exit status and
// drops its "Process exited with code N" header on replacement, so the core is told none and the
// view claims none. The hook entry lives in $CODEX_HOME/hooks.json, which the user must trust once.
// Install also adds `[mcp_servers.sutra]` to $CODEX_HOME/config.toml; while it is there (and not
// `enabled = false`), markers name the tool as Codex shows it to the model,
// mcp__sutra__sutra_restore, else the shell route `sutra restore …`.

#include "core/util/json_nesting.hpp"
#include "plugins/abi/plugin_sdk.hpp"
#include "plugins/codex/config_toml.hpp"
#include "plugins/codex/hook_trust.hpp"
#include "plugins/codex/output_cap.hpp"
#include "plugins/common/adapter_calls.hpp"
#include "plugins/common/files.hpp"
#include "plugins/common/hook_settings.hpp"
#include "plugins/common/host_report.hpp"
#include "plugins/common/mcp_registration.hpp"
#include "plugins/common/paths.hpp"
#include "plugins/common/shell_words.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace sutra::plugins::codex {

using nlohmann::json;
namespace common = sutra::plugins::common;

namespace {

std::string codex_home() {
    return common::env_dir("CODEX_HOME", ".codex");
}
std::string hooks_path() {
    return codex_home() + "/hooks.json";
}

std::string config_path() {
    return codex_home() + "/config.toml";
}

constexpr const char* k_restore_tool = "mcp__sutra__sutra_restore";

// The command line of our registered, enabled server; nullopt when there is none.
std::optional<std::string> registered_mcp() {
    try {
        const auto text = common::read_text(common::real_target(config_path()));
        if (!text || text->find("mcp_servers") == std::string::npos) return std::nullopt;
        const auto at = find_server_table(*text);
        if (!at) return std::nullopt;
        const std::string table = text->substr(at->begin, at->end - at->begin);
        const auto command = toml_table_string(table, "command");
        if (!command || !common::is_sutra_program(*command) || toml_table_disabled(table))
            return std::nullopt;
        std::vector<std::string> words{*command};
        for (auto& a : toml_table_strings(table, "args")) words.push_back(std::move(a));
        return common::command_line(words);
    } catch (const std::exception&) {
        return std::nullopt; // a shape sutra does not edit: not sutra's registration
    }
}

// Runs an edit of config.toml; a refusal names the file.
template <class F> auto at_path(const std::string& path, F&& f) {
    try {
        return f();
    } catch (const std::exception& e) {
        const std::string what = e.what();
        if (what.rfind(path, 0) == 0) throw;
        throw std::runtime_error(path + " " + what);
    }
}

// True when `text` holds a `[mcp_servers.sutra]` that sutra wrote (mcp_registration.hpp).
bool holds_ours(const std::string& text, const std::string& path) {
    const auto s = toml_read_server(text, path);
    return s && common::is_our_server(s->command, s->args);
}

// What install makes of `text`, checked by re-reading it as Codex would.
std::string with_our_table(const std::optional<std::string>& text,
                           const std::string& path,
                           const std::string& program,
                           const std::vector<std::string>& args) {
    return at_path(path, [&] {
        const std::string after = with_server_table(text, toml_server_table(program, args));
        if (!text || after != *text)
            check_server_edit(text, after, TomlServer{program, args}, path);
        return after;
    });
}

std::optional<common::FilePlan> plan_mcp_install(const std::string& sutra_program,
                                                 const std::vector<std::string>& tools) {
    const std::string path = common::real_target(config_path());
    const auto before = common::read_text(path);
    const auto old = before ? toml_read_server(*before, path) : std::nullopt;
    if (old && !common::is_our_server(old->command, old->args))
        throw std::runtime_error(path + " already has an MCP server named \"sutra\" that sutra "
                                        "did not write; remove it first (nothing was changed)");
    // --text-only: Codex 0.171.0 shows the model a result's structuredContent instead of its
    // text (real_host.codex saw only the restore's JSON metadata), which would hide the bytes.
    auto args = common::mcp_args(k_restore_tool, {}, tools);
    args.push_back("--text-only");
    const std::string after = with_our_table(before, path, sutra_program, args);
    if (before && after == *before) return std::nullopt;
    common::FilePlan plan{path, before ? "modify" : "create", before, after, std::nullopt};
    // An upgrade keeps the one backup of the user's own file; so does a file that holds only
    // sutra's raised cap (`codex mcp remove sutra` leaves it): not the user's own bytes either.
    plan.backup_before = !old && !read_cap(before.value_or(std::string())).raised_by_sutra;
    return plan;
}

// Uninstall's plan for config.toml: sutra's MCP table goes and a cap raised by
// --raise-output-cap gets the user's own line back, in one change. The comparisons (which
// backup is the user's file, was the file edited since) see the file with the cap put back, so
// a cap raised after install (or kept over an upgrade) does not hide sutra's entry or backups.
std::optional<common::FilePlan> plan_mcp_uninstall() {
    const std::string path = common::real_target(config_path());
    const auto current = common::read_text(path);
    if (!current) return std::nullopt;
    const std::string before = without_raised_cap(*current);
    if (before != *current)
        at_path(path,
                [&] { check_key_edit(*current, before, "tool_output_token_limit", {}, path); });
    if (!holds_ours(before, path)) {
        if (before == *current) return std::nullopt;
        common::FilePlan cap{path, "modify", current, before, std::nullopt};
        cap.backup_before = false; // the raised line held the user's own
        return cap;
    }
    const auto installed = *toml_read_server(before, path);
    const std::string stripped = at_path(path, [&] {
        const std::string after = without_server_table(before);
        check_server_edit(before, after, std::nullopt, path);
        return after;
    });
    auto plan = common::plan_reverse(
        path, before,
        [&](const std::optional<std::string>& text) {
            return with_our_table(text, path, installed.command, installed.args);
        },
        stripped, [&](const std::string& text) { return holds_ours(text, path); });
    plan.before = current;
    return plan;
}

// Codex cuts a shell result to its output cap before the hook runs: what lies beyond it sutra
// never sees, unless --raise-output-cap raised it (the rule doctor's output cap line uses too).
common::ojson uncovered() {
    std::string text;
    try {
        text = common::read_text(common::real_target(config_path())).value_or(std::string());
    } catch (const std::exception&) {
        // an unreadable config.toml: Codex's default
    }
    return cap_uncovered(text);
}

// Codex's own switch for every hook, `[features] hooks = false` (`codex_hooks`, its older name,
// still works): what doctor and detect name. Throws, naming the file, when config.toml is not
// valid TOML.
std::string hooks_switched_off() {
    const std::string path = common::real_target(config_path());
    const auto text = common::read_text(path);
    if (!text) return {};
    for (const char* name : {"hooks", "codex_hooks"})
        if (toml_read_feature(*text, path, name) == false)
            return path + " sets [features] " + name + " = false";
    return {};
}

bool is_shell(const std::string& tool) {
    return tool == "Bash" || tool == "shell" || tool == "exec_command" || tool == "local_shell";
}

std::string decode_payload(std::string_view payload) {
    const json p = sutra::core::parse_within_nesting<json>(payload);
    if (!p.is_object()) return common::pass("malformed payload");
    if (p.value("hook_event_name", std::string()) != "PostToolUse")
        return common::pass("not PostToolUse");
    const std::string tool = p.value("tool_name", std::string());
    if (!is_shell(tool)) return common::pass("tool " + tool + " passes through");
    const json input = p.value("tool_input", json::object());
    const std::string command = input.is_object() ? input.value("command", std::string()) : "";
    if (common::is_restore_command(command)) return common::pass("sutra restore output");
    const auto resp = p.find("tool_response");
    if (resp == p.end() || !resp->is_string()) return common::pass("tool_response is not a string");
    // What Codex 0.171.0 shows the model without sutra at its default output cap: about 10,000
    // characters, head and tail around "…N chars truncated…" (docs/configuration.md, "How the
    // figures are counted"). Under the default cap the hook already gets that cut text.
    const json cut = {{"over", 10000}, {"head", 5000}, {"tail", 5000}};
    return json{{"action", "compress"},
                {"tool", tool},
                {"command", command},
                {"output", *resp},
                {"route", common::restore_route([] { return registered_mcp().has_value(); },
                                                k_restore_tool)},
                {"session", common::string_field(p, "session_id")},
                {"host_cut", cut}}
        .dump();
}

std::string encode_result(std::string_view, std::string_view result_text) {
    const json r = sutra::core::parse_within_nesting<json>(result_text);
    if (!r.is_object() || !r.contains("view") || !r["view"].is_string()) return {};
    return sutra::core::dump_json_fast(json{{"decision", "block"}, {"reason", r["view"]}});
}

common::HookSpec hook_spec(const std::string& host_program) {
    common::HookSpec spec;
    spec.matcher = "Bash";
    spec.adapter = "codex";
    spec.command =
        common::shell_word(host_program.empty() ? "sutra-host" : host_program) + " --adapter codex";
    return spec;
}

} // namespace

struct Adapter {
    static constexpr const char* name = "codex";
    static constexpr const char* description = "Codex CLI (PostToolUse decision:block)";

    std::string decode(std::string_view payload) { return decode_payload(payload); }
    std::string encode(std::string_view payload, std::string_view result) {
        return encode_result(payload, result);
    }
    std::string install(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            // Plan both files first: a refusal anywhere writes nothing, and apply_plans puts
            // back what it wrote when a later write fails.
            std::vector<common::FilePlan> plans;
            const auto hooks =
                common::plan_hooks_install(hooks_path(), {hook_spec(o.host_program)});
            if (hooks) plans.push_back(*hooks);
            const auto mcp = o.sutra_program.empty()
                                 ? std::nullopt
                                 : plan_mcp_install(o.sutra_program, o.mcp_tools);
            if (mcp) plans.push_back(*mcp);
            // The cap joins the same config.toml plan (or adds one): all or nothing with the rest.
            // Codex itself says whether it runs the hook with the command written here.
            common::ojson cap_notes{{"messages", common::ojson::array()}};
            const std::string command = hook_spec(o.host_program).command;
            plan_output_cap(
                plans, config_path(), hooks.has_value(), o.raise_output_cap,
                [&] { return check_hook_trust(codex_home(), command); }, cap_notes);
            auto r = common::apply_install_plans(std::move(plans), o.dry_run);
            if (!hooks) r["messages"].push_back(hooks_path() + ": already installed");
            if (hooks) {
                r["messages"].push_back("Codex runs a new hook only after you trust it: open codex "
                                        "and run /hooks, then trust the sutra-host entry.");
                // Not raised for the user: until the hook is trusted, a higher cap would hand
                // the model whole outputs.
                if (!o.raise_output_cap)
                    r["messages"].push_back(
                        "Codex cuts shell output to 10,000 bytes (tool_output_token_limit) before "
                        "hooks run, so sutra sees and keeps only what is left; once the hook is "
                        "trusted, run `sutra install --client codex --raise-output-cap` to let "
                        "sutra shorten whole outputs instead.");
            }
            for (const auto& m : cap_notes["messages"]) r["messages"].push_back(m);
            common::note_mcp_install(r, o.sutra_program, mcp.has_value(), config_path());
            return r;
        });
    }
    std::string uninstall(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            std::vector<common::FilePlan> plans;
            const auto hooks =
                common::plan_hooks_uninstall(hooks_path(), {hook_spec(o.host_program)});
            if (hooks) plans.push_back(*hooks);
            if (const auto mcp = plan_mcp_uninstall()) plans.push_back(*mcp);
            auto r = common::apply_plans(std::move(plans), o.dry_run);
            if (!hooks)
                r["messages"].push_back(hooks_path() + ": no sutra hook, nothing to remove");
            return r;
        });
    }
    std::string detect(std::string_view) {
        return common::guarded([&] {
            const std::string path = hooks_path();
            const auto doc = common::parse_settings(common::read_text(path), path);
            const auto cmd = common::our_command(doc, hook_spec(""));
            return common::report_json(
                {.client = "codex",
                 .found = std::filesystem::is_directory(codex_home()),
                 .installed = cmd.has_value(),
                 .path = path,
                 .command = cmd,
                 .uncovered = uncovered(),
                 .disabled_by = common::switched_off(hooks_switched_off),
                 .mcp = common::mcp_status(config_path(), registered_mcp(), k_restore_tool)});
        });
    }
    std::string doctor(std::string_view options) {
        return common::doctor_report(
            detect(options),
            [] { hooks_switched_off(); }, // a config.toml that does not parse: named, with why
            "PostToolUse hook",
            [](const std::string& out) {
                return common::ojson{{"session_id", "sutra-doctor"},        {"cwd", "/tmp"},
                                     {"hook_event_name", "PostToolUse"},    {"tool_name", "Bash"},
                                     {"tool_input", {{"command", "make"}}}, {"tool_response", out},
                                     {"tool_use_id", "call_doctor"}};
            },
            [](common::ojson& d) {
                if (!d.value("installed", false)) return;
                const std::string command = d.value("command", std::string());
                d["output_cap"] = cap_report(
                    config_path(), [&] { return check_hook_trust(codex_home(), command); });
            });
    }
};

} // namespace sutra::plugins::codex

SUTRA_DEFINE_PLUGIN(sutra::plugins::codex::Adapter)
