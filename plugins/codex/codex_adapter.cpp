// The Codex adapter: PostToolUse payloads in, `{"decision":"block","reason": VIEW}` out, the only
// replacement Codex honours (hosts.md §4.2). Codex gives the hook no exit status and drops its
// "Process exited with code N" header on replacement, so the core is told none and the view
// claims none. The hook entry lives in $CODEX_HOME/hooks.json, which the user must trust once.

#include "core/plugin_sdk.hpp"
#include "plugins/common/hook_settings.hpp"

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

bool is_shell(const std::string& tool) {
    return tool == "Bash" || tool == "shell" || tool == "exec_command" || tool == "local_shell";
}

std::string decode_payload(std::string_view payload) {
    const json p = json::parse(payload, nullptr, false);
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
    return json{{"action", "compress"},
                {"tool", tool},
                {"command", command},
                {"output", *resp},
                {"route", {{"kind", "cli"}}}}
        .dump();
}

std::string encode_result(std::string_view, std::string_view result_text) {
    const json r = json::parse(result_text, nullptr, false);
    if (!r.is_object() || !r["view"].is_string()) return {};
    return json{{"decision", "block"}, {"reason", r["view"]}}.dump(-1, ' ', false,
                                                                   json::error_handler_t::replace);
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
            auto r = common::install_hook(hooks_path(), hook_spec(o.host_program), o.dry_run);
            if (r.value("changed", false))
                r["messages"].push_back("Codex runs a new hook only after you trust it: open codex "
                                        "and run /hooks, then trust the sutra-host entry.");
            return r;
        });
    }
    std::string uninstall(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            return common::uninstall_hook(hooks_path(), hook_spec(o.host_program), o.dry_run);
        });
    }
    std::string detect(std::string_view) {
        return common::guarded([&] {
            const std::string path = hooks_path();
            const auto doc = common::parse_settings(common::read_text(path), path);
            const auto cmd = common::our_command(doc, hook_spec(""));
            return common::ojson{{"client", "codex"},
                                 {"found", std::filesystem::is_directory(codex_home())},
                                 {"installed", cmd.has_value()},
                                 {"path", path},
                                 {"command", cmd ? common::ojson(*cmd) : common::ojson(nullptr)},
                                 {"disabled", false}};
        });
    }
    std::string doctor(std::string_view options) {
        return common::guarded([&] {
            common::ojson d = common::ojson::parse(detect(options));
            std::string out;
            for (int i = 1; i <= 400; ++i)
                out += "test_case_" + std::to_string(i % 9) + " ... ok\n";
            out += "FAILED test_sample: assertion failed\n";
            d["sample_payload"] = common::ojson{{"session_id", "sutra-doctor"},
                                                {"cwd", "/tmp"},
                                                {"hook_event_name", "PostToolUse"},
                                                {"tool_name", "Bash"},
                                                {"tool_input", {{"command", "cargo test"}}},
                                                {"tool_response", out},
                                                {"tool_use_id", "call_doctor"}};
            return d;
        });
    }
};

} // namespace sutra::plugins::codex

SUTRA_DEFINE_PLUGIN(sutra::plugins::codex::Adapter)
