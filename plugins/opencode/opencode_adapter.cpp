// The OpenCode adapter (docs/adapters.md, "OpenCode"). OpenCode has no command hooks: the plugin
// file sutra.js, installed into $XDG_CONFIG_HOME/opencode/plugins/, hands each `tool.execute.after`
// call to `sutra-host --adapter opencode` as {"hook","input","output","output_file_size"?} and
// writes our answer back into the output object in place: {"output": VIEW} for built-in tools,
// {"content":[{"type":"text","text":VIEW}]} for MCP tools (whose output is the raw CallToolResult).
//
// OpenCode cuts built-in output before the hook and saves the whole of it under
// <data>/opencode/tool-output/; with `metadata.truncated` we ask the dispatcher to read that file
// (size measured by the plugin) so the full text is compressed, never the preview.
//
// Install also registers `sutra mcp` as `mcp.sutra` in the global opencode.json; while it is
// there and enabled, markers name the tool as OpenCode shows it to the model (<server>_<tool>:
// sutra_sutra_restore), else the shell route `sutra restore …`.

#include "core/util/json_nesting.hpp"
#include "plugins/abi/plugin_sdk.hpp"
#include "plugins/common/adapter_calls.hpp"
#include "plugins/common/files.hpp"
#include "plugins/common/host_report.hpp"
#include "plugins/common/json_text.hpp"
#include "plugins/common/mcp_registration.hpp"
#include "plugins/common/paths.hpp"
#include "plugins/common/plugin_files.hpp"
#include "plugins/common/shell_words.hpp"
#include "plugins/opencode/sutra_js.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace sutra::plugins::opencode {

using nlohmann::json;
namespace common = sutra::plugins::common;

namespace {

constexpr const char* k_marker = "sutra-opencode-plugin";
constexpr const char* k_host_prefix = "const SUTRA_HOST = ";

std::string config_dir() {
    return common::env_dir("XDG_CONFIG_HOME", ".config") + "/opencode";
}
std::string plugin_path() {
    return config_dir() + "/plugins/sutra.js";
}
// OpenCode reads opencode.json or opencode.jsonc, both in JSONC: sutra edits the one there,
// opencode.json when both are or neither is.
std::string mcp_config_path() {
    const std::string json_path = config_dir() + "/opencode.json";
    const std::string jsonc_path = json_path + "c";
    std::error_code ec;
    if (!std::filesystem::exists(json_path, ec) && std::filesystem::exists(jsonc_path, ec))
        return jsonc_path;
    return json_path;
}

constexpr const char* k_restore_tool = "sutra_sutra_restore";

common::ojson mcp_entry(const std::string& sutra_program, const std::vector<std::string>& tools) {
    std::vector<std::string> command{sutra_program};
    for (auto& a : common::mcp_args(k_restore_tool, {}, tools)) command.push_back(std::move(a));
    return common::ojson{{"type", "local"}, {"command", command}, {"enabled", true}};
}

std::vector<std::string> entry_words(const common::ojson& e) {
    std::vector<std::string> out;
    if (e.is_object() && e.contains("command") && e["command"].is_array())
        for (const auto& w : e["command"])
            if (w.is_string()) out.push_back(w.get<std::string>());
    return out;
}

std::string entry_command(const common::ojson& e) {
    const auto words = entry_words(e);
    return words.empty() ? std::string() : words.front();
}

// Only the entry install wrote is ever replaced or removed (mcp_registration.hpp).
bool is_our_entry(const common::ojson& e) {
    const auto words = entry_words(e);
    return !words.empty() &&
           common::is_our_server(words.front(),
                                 std::vector<std::string>(words.begin() + 1, words.end()));
}

// The command line of our registered, enabled server; nullopt when there is none.
std::optional<std::string> registered_mcp() {
    const auto text = common::read_text(common::real_target(mcp_config_path()));
    if (!text || text->find("\"sutra\"") == std::string::npos) return std::nullopt;
    const auto doc = common::parse_json_text(*text, true);
    if (!doc || !doc->is_object()) return std::nullopt;
    const auto e = common::json_entry(*doc, "mcp");
    if (!e || !e->is_object() || !common::is_sutra_program(entry_command(*e)) ||
        e->value("enabled", true) == false)
        return std::nullopt;
    return common::command_line(entry_words(*e));
}

// True when a `plugins` entry's id or pattern names sutra's plugin: `sutra` (the file's name),
// `*`, or a prefix pattern `ID.*` that matches it.
bool names_sutra(const std::string& id) {
    if (id == "sutra" || id == "*") return true;
    return id.ends_with(".*") && std::string("sutra").starts_with(id.substr(0, id.size() - 1));
}

// OpenCode's own switch for a plugin: its config's `plugins` list (older: `plugin`) read in
// order, where `-ID` turns a plugin off and a later `ID` back on. The entry that leaves sutra's
// plugin off, as doctor and detect name it; empty when none does. Throws, naming the file, when
// the config does not parse.
std::string plugin_switched_off() {
    const std::string path = common::real_target(mcp_config_path());
    const common::ojson doc = common::parse_config(common::read_text(path), path, true);
    std::string off;
    for (const char* key : {"plugin", "plugins"}) {
        const auto list = doc.find(key);
        if (list == doc.end() || !list->is_array()) continue;
        for (const auto& entry : *list) {
            if (!entry.is_string()) continue;
            const std::string id = entry.get<std::string>();
            if (id.starts_with("-") && names_sutra(id.substr(1)))
                off = path + " lists \"" + id + "\" in \"" + key + "\"";
            else if (names_sutra(id))
                off.clear();
        }
    }
    return off;
}

// Where OpenCode saves the full output of a truncated tool call (its data dir follows XDG).
std::string tool_output_dir() {
    const std::string data = common::env_dir("XDG_DATA_HOME", ".local/share");
    return data.empty() ? std::string() : data + "/opencode/tool-output";
}

bool is_shell(const std::string& tool) {
    return tool == "bash";
}

std::string decode_payload(std::string_view payload) {
    const json p = sutra::core::parse_within_nesting<json>(payload);
    if (!p.is_object()) return common::pass("malformed payload");
    if (p.value("hook", std::string()) != "tool.execute.after")
        return common::pass("not tool.execute.after");
    const json input = p.value("input", json::object());
    const json output = p.value("output", json::object());
    if (!input.is_object() || !output.is_object()) return common::pass("unknown shape");
    const std::string tool = input.value("tool", std::string());
    // MCP tool ids are <server>_<tool>: sutra's own server's results are restores.
    if (tool.rfind("sutra_", 0) == 0) return common::pass("sutra's own tool");
    json out = {{"action", "compress"},
                {"tool", tool},
                {"route", common::restore_route([] { return registered_mcp().has_value(); },
                                                k_restore_tool)},
                {"session", common::string_field(input, "sessionID")},
                // What OpenCode 1.18.33 shows without sutra: up to 51,200 bytes whole, past it
                // the path and the output's last lines within that size (docs/configuration.md).
                {"host_cut", {{"over", 51200}, {"head", 0}, {"tail", 51200}}}};

    if (const auto text = output.find("output"); text != output.end() && text->is_string()) {
        if (!is_shell(tool) && tool != "grep") return common::pass("tool " + tool + " passes");
        const json args = input.value("args", json::object());
        const std::string command = args.is_object() ? args.value("command", std::string()) : "";
        if (common::is_restore_command(command)) return common::pass("sutra restore output");
        if (is_shell(tool)) out["command"] = command;
        const json meta = output.value("metadata", json::object());
        // A non-zero exit is not a failure in OpenCode: the code arrives here.
        if (meta.is_object()) {
            if (const auto e = meta.find("exit"); e != meta.end() && e->is_number_integer())
                out["exit_code"] = e->get<int>();
        }
        if (meta.is_object() && meta.value("truncated", false) == true) {
            const auto path = meta.find("outputPath");
            const auto size = p.find("output_file_size");
            const std::string dir = tool_output_dir();
            if (path == meta.end() || !path->is_string() || size == p.end() ||
                !size->is_number_unsigned() || dir.empty())
                return common::pass("truncated output without a checkable path or size");
            out["read_file"] = {{"path", path->get<std::string>()},
                                {"size", size->get<std::uint64_t>()},
                                {"allowed_dir", dir},
                                {"name_prefix", "tool_"},
                                {"name_suffix", ""}};
            return out.dump();
        }
        out["output"] = *text;
        return out.dump();
    }
    if (const auto content = output.find("content"); content != output.end()) {
        if (!content->is_array() || content->empty()) return common::pass("MCP result not text");
        std::string text;
        for (const auto& block : *content) {
            if (!block.is_object() || block.value("type", std::string()) != "text" ||
                !block.contains("text") || !block["text"].is_string())
                return common::pass("MCP result with a non-text block");
            if (!text.empty()) text += "\n\n"; // how OpenCode joins the blocks after the hook
            text += block["text"].get<std::string>();
        }
        out["output"] = std::move(text);
        return out.dump();
    }
    return common::pass("unknown output shape");
}

std::string encode_result(std::string_view payload, std::string_view result_text) {
    const json p = sutra::core::parse_within_nesting<json>(payload);
    const json r = sutra::core::parse_within_nesting<json>(result_text);
    if (!p.is_object() || !r.is_object() || !r.contains("view") || !r["view"].is_string())
        return {};
    const json output = p.value("output", json::object());
    json answer;
    if (output.is_object() && output.contains("output") && output["output"].is_string())
        answer = {{"output", r["view"]}};
    else
        answer = {{"content", json::array({{{"type", "text"}, {"text", r["view"]}}})}};
    return sutra::core::dump_json_fast(answer);
}

std::string plugin_text(const std::string& host_program) {
    return common::bake_string(k_sutra_js, "\"@SUTRA_HOST@\"",
                               host_program.empty() ? "sutra-host" : host_program);
}

} // namespace

struct Adapter {
    static constexpr const char* name = "opencode";
    static constexpr const char* description = "OpenCode (tool.execute.after plugin)";

    std::string decode(std::string_view payload) { return decode_payload(payload); }
    std::string encode(std::string_view payload, std::string_view result) {
        return encode_result(payload, result);
    }
    std::string install(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            const std::string path = plugin_path();
            // Plan both files first: a refusal anywhere writes nothing.
            std::vector<common::FilePlan> plans;
            if (auto p = common::plan_owned_install(path, plugin_text(o.host_program), k_marker))
                plans.push_back(*p);
            const bool plugin_changes = !plans.empty();
            std::optional<common::FilePlan> mcp;
            if (!o.sutra_program.empty()) {
                mcp = common::plan_json_install(mcp_config_path(), "mcp",
                                                mcp_entry(o.sutra_program, o.mcp_tools),
                                                is_our_entry, true);
                if (mcp) plans.push_back(std::move(*mcp)); // stays engaged: only tested after
            }
            auto r = common::apply_install_plans(std::move(plans), o.dry_run);
            r["messages"].push_back(plugin_changes ? "OpenCode loads the plugin at its next start."
                                                   : path + ": already installed");
            common::note_mcp_install(r, o.sutra_program, mcp.has_value(), mcp_config_path());
            return r;
        });
    }
    std::string uninstall(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            const std::string path = plugin_path();
            std::vector<common::FilePlan> plans;
            if (auto p = common::plan_owned_uninstall(path, k_marker)) plans.push_back(*p);
            const bool plugin_found = !plans.empty();
            if (auto m = common::plan_json_uninstall(mcp_config_path(), "mcp", is_our_entry, true))
                plans.push_back(*m);
            common::ojson r = common::apply_plans(std::move(plans), o.dry_run);
            if (!plugin_found)
                r["messages"].push_back(path + ": no sutra plugin, nothing to remove");
            return r;
        });
    }
    std::string detect(std::string_view) {
        return common::guarded([&] {
            const std::string path = plugin_path();
            const auto text = common::read_text(path);
            std::optional<std::string> host;
            if (text && text->find(k_marker) != std::string::npos)
                host = common::baked_string(*text, k_host_prefix);
            return common::report_json(
                {.client = "opencode",
                 .found = std::filesystem::is_directory(config_dir()),
                 .installed = host.has_value(),
                 .path = path,
                 .command = host ? std::optional(common::shell_word(*host) + " --adapter opencode")
                                 : std::nullopt,
                 .disabled_by = common::switched_off(plugin_switched_off),
                 .mcp = common::mcp_status(mcp_config_path(), registered_mcp(), k_restore_tool)});
        });
    }
    std::string doctor(std::string_view options) {
        return common::doctor_report(
            detect(options),
            [] { plugin_switched_off(); }, // a config that does not parse: named, with the reason
            "tool.execute.after plugin",
            [](const std::string& out) {
                return common::ojson{
                    {"hook", "tool.execute.after"},
                    {"input",
                     {{"tool", "bash"},
                      {"sessionID", "ses_doctor"},
                      {"callID", "call_doctor"},
                      {"args", {{"command", "make"}, {"description", "build"}}}}},
                    {"output",
                     {{"title", "make"},
                      {"metadata", {{"output", out}, {"exit", 1}, {"truncated", false}}},
                      {"output", out}}}};
            });
    }
};

} // namespace sutra::plugins::opencode

SUTRA_DEFINE_PLUGIN(sutra::plugins::opencode::Adapter)
