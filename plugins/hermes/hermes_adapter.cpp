// The Hermes adapter (docs/adapters.md, "Hermes"). Hermes plugins are in-process Python: the plugin
// folder installed into $HERMES_HOME/plugins/sutra/ registers `transform_tool_result` and
// `transform_terminal_output`, which send {"hook", …, "hermes_home"} to
// `sutra-host --adapter hermes` and return our answer's "result" as the replacement string.
//
// Each profile (its own HERMES_HOME) gets its own store namespace, so restores in one profile
// never see another's output. Install enables the plugin in that profile's config.yaml with a
// one-line text edit (config_yaml.hpp) and keeps the file's bytes for uninstall.
//
// Install also registers `sutra mcp --namespace <the profile's>` under `mcp_servers.sutra` in the
// same config.yaml; while it is there, markers name the tool as Hermes shows it to the model
// (mcp_<server>_<tool>: mcp_sutra_sutra_restore), else `sutra restore --namespace NS …`.

#include "core/util/json_nesting.hpp"
#include "plugins/abi/plugin_sdk.hpp"
#include "plugins/common/adapter_calls.hpp"
#include "plugins/common/files.hpp"
#include "plugins/common/host_report.hpp"
#include "plugins/common/mcp_registration.hpp"
#include "plugins/common/paths.hpp"
#include "plugins/common/plugin_files.hpp"
#include "plugins/common/shell_words.hpp"
#include "plugins/hermes/config_yaml.hpp"
#include "plugins/hermes/init_py.hpp"
#include "plugins/hermes/plugin_yaml.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace sutra::plugins::hermes {

using nlohmann::json;
namespace common = sutra::plugins::common;
namespace fs = std::filesystem;

namespace {

constexpr const char* k_marker = "sutra-hermes-plugin";
constexpr const char* k_host_prefix = "SUTRA_HOST = ";
constexpr const char* k_name = "sutra";

bool valid_name(const std::string& s) {
    if (s.empty() || s.size() > 57 || s == "." || s == "..") return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
            return false;
    return true;
}

std::string default_home() {
    const std::string home = common::home_dir();
    return home.empty() ? std::string() : home + "/.hermes";
}

// The Hermes home to install into: a named profile (~/.hermes/profiles/NAME), else
// $HERMES_HOME, else ~/.hermes.
std::string hermes_home(std::string_view options) {
    const json o = sutra::core::parse_within_nesting<json>(options);
    const std::string profile =
        o.is_object() && o.contains("profile") && o["profile"].is_string() ? o["profile"] : "";
    if (!profile.empty()) {
        if (!valid_name(profile))
            throw std::runtime_error("invalid profile name '" + profile + "'");
        const std::string dir = default_home() + "/profiles/" + profile;
        // A profile is Hermes' to create (`hermes profile create`); a typo must not make one.
        if (!fs::is_directory(dir))
            throw std::runtime_error("no Hermes profile '" + profile + "' (" + dir + ")");
        return dir;
    }
    return common::env_dir("HERMES_HOME", ".hermes");
}

// One namespace per profile: "hermes" for ~/.hermes, "hermes-NAME" for a profile, and a
// path-derived name for any other HERMES_HOME.
std::string store_namespace(const std::string& home_text) {
    fs::path home = fs::path(home_text).lexically_normal();
    if (home.has_filename() == false) home = home.parent_path();
    if (home_text.empty() || home == fs::path(default_home()).lexically_normal()) return "hermes";
    const std::string name = home.filename().string();
    if (home.parent_path().filename() == "profiles" && valid_name(name)) return "hermes-" + name;
    std::uint64_t h = 14695981039346656037ull; // FNV-1a of the path
    for (unsigned char c : home.string()) h = (h ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return std::string("hermes-home-") + hex;
}

constexpr const char* k_restore_tool = "mcp_sutra_sutra_restore";

// True when `home` is a Hermes home of this user's own layout: $HERMES_HOME, ~/.hermes or one of
// its profiles. The payload names its home, and only such a home's config.yaml is ever read, so
// a payload cannot choose which file the hook opens.
bool in_host_layout(const std::string& home) {
    if (home.empty() || home[0] != '/') return false;
    const auto normal = [](const std::string& dir) {
        fs::path p = fs::path(dir).lexically_normal();
        return p.has_filename() ? p : p.parent_path(); // "…/.hermes/" is "…/.hermes"
    };
    const fs::path claimed = normal(home);
    const auto same = [&](const std::string& dir) {
        return !dir.empty() && claimed == normal(dir);
    };
    if (same(common::env_dir("HERMES_HOME", ".hermes")) || same(default_home())) return true;
    const std::string name = claimed.filename().string();
    return valid_name(name) && same(default_home() + "/profiles/" + name);
}

// The config.yaml of `home`, read once per hook call; absent when unreadable.
std::optional<std::string> read_config(const std::string& home) {
    if (home.empty() || home[0] != '/') return std::nullopt;
    try {
        return common::read_text(common::real_target(home + "/config.yaml"));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// The command line of the server a config.yaml registers as ours (a sutra binary).
std::optional<std::string> registered_mcp_in(const std::optional<std::string>& text) {
    try {
        if (!text || text->find("mcp_servers") == std::string::npos) return std::nullopt;
        const auto command = yaml_server_command(text, k_name);
        if (!command || !common::is_sutra_program(*command)) return std::nullopt;
        std::vector<std::string> words{*command};
        const auto lines = yaml_server_lines(text, k_name);
        for (const auto& line : lines.value_or(std::vector<std::string>{})) {
            const std::string t = yaml_trim(line);
            if (t.rfind("args:", 0) != 0) continue;
            const json args = sutra::core::parse_within_nesting<json>(yaml_value(t.substr(5)));
            if (args.is_array())
                for (const auto& a : args)
                    if (a.is_string()) words.push_back(a.get<std::string>());
        }
        return common::command_line(words);
    } catch (const std::exception&) {
        return std::nullopt; // an unreadable config: the CLI route still works
    }
}

std::optional<std::string> registered_mcp(const std::string& home) {
    return registered_mcp_in(read_config(home));
}

// Hermes' own cap on a terminal command's output (`tool_output.max_bytes` in config.yaml,
// default 50,000 characters), applied after transform_terminal_output: past it the model sees
// the first 40% and the last 60%. A positive whole number (quoted or not) is read; anything else
// counts as the default, as text does in Hermes (which would truncate a float). Only the block
// form is read; a flow mapping (`tool_output: {…}`) counts as the default.
constexpr std::uint64_t k_hermes_max_bytes = 50000;

std::uint64_t tool_output_max_bytes(const std::optional<std::string>& text) {
    if (!text) return k_hermes_max_bytes;
    try {
        const YamlLines y = split_yaml(*text);
        std::string rest;
        std::size_t i = 0;
        while (i < y.lines.size() && !yaml_key(y.lines[i], 0, "tool_output", rest)) ++i;
        if (i == y.lines.size() || !yaml_value(rest).empty()) return k_hermes_max_bytes;
        for (++i; i < y.lines.size(); ++i) {
            const std::string& line = y.lines[i];
            if (yaml_skip(line)) continue;
            const std::size_t indent = yaml_indent(line);
            if (indent == 0) break; // the next top-level key
            if (!yaml_key(line, indent, "max_bytes", rest)) continue;
            const std::string value = yaml_unquote(yaml_value(rest));
            if (value.empty() || value.size() > 15 ||
                value.find_first_not_of("0123456789") != std::string::npos)
                return k_hermes_max_bytes;
            const std::uint64_t n = std::stoull(value);
            return n > 0 ? n : k_hermes_max_bytes;
        }
    } catch (const std::exception&) {
    }
    return k_hermes_max_bytes;
}

// What Hermes shows of a terminal output without sutra (core/host_cut.hpp): whole up to its cap,
// past it the head (40%) and the tail (the rest), as its terminal tool cuts.
json terminal_host_cut(const std::optional<std::string>& config) {
    const std::uint64_t over = tool_output_max_bytes(config);
    const std::uint64_t head = over * 4 / 10;
    return {{"over", over}, {"head", head}, {"tail", over - head}};
}

// Tools whose result is plain text we may rewrite; read_file stays exact (patch relies on it).
bool text_tool(const std::string& tool) {
    return tool == "search_files" || tool == "execute_code" ||
           (tool.rfind("mcp_", 0) == 0 && tool.rfind("mcp_sutra_", 0) != 0);
}

std::string decode_payload(std::string_view payload) {
    const json p = sutra::core::parse_within_nesting<json>(payload);
    if (!p.is_object()) return common::pass("malformed payload");
    const std::string hook = p.value("hook", std::string());
    const std::string home = p.value("hermes_home", std::string());
    const std::optional<std::string> config =
        in_host_layout(home) ? read_config(home) : std::nullopt;
    json out = {
        {"action", "compress"},
        {"route", common::restore_route([&] { return registered_mcp_in(config).has_value(); },
                                        k_restore_tool)},
        {"namespace", store_namespace(home)},
        {"session", common::string_field(p, "session_id")}};

    if (hook == "transform_terminal_output") {
        const std::string command = p.value("command", std::string());
        if (common::is_restore_command(command)) return common::pass("sutra restore output");
        const auto text = p.find("output");
        if (text == p.end() || !text->is_string()) return common::pass("no output");
        out["tool"] = "terminal";
        out["command"] = command;
        out["output"] = *text;
        // This hook runs before Hermes' own cut; a transform_tool_result of the terminal comes
        // after it, so there the model's baseline is the result as given.
        out["host_cut"] = terminal_host_cut(config);
        if (const auto rc = p.find("returncode"); rc != p.end() && rc->is_number_integer())
            out["exit_code"] = rc->get<int>();
        return out.dump();
    }
    if (hook != "transform_tool_result") return common::pass("unknown hook " + hook);
    const std::string tool = p.value("tool_name", std::string());
    const auto result = p.find("result");
    if (result == p.end() || !result->is_string()) return common::pass("no result string");
    out["tool"] = tool;
    if (tool == "terminal") {
        const json args = p.value("args", json::object());
        const std::string command = args.is_object() ? args.value("command", std::string()) : "";
        if (common::is_restore_command(command)) return common::pass("sutra restore output");
        // The terminal result is a JSON envelope {"output","exit_code","error"}.
        const json envelope = sutra::core::parse_within_nesting<json>(result->get<std::string>());
        if (!envelope.is_object() || !envelope.contains("output") ||
            !envelope["output"].is_string())
            return common::pass("terminal result not an envelope");
        out["command"] = command;
        out["output"] = envelope["output"];
        if (const auto e = envelope.find("exit_code");
            e != envelope.end() && e->is_number_integer())
            out["exit_code"] = e->get<int>();
        return out.dump();
    }
    if (!text_tool(tool)) return common::pass("tool " + tool + " passes through");
    out["output"] = *result;
    return out.dump();
}

std::string encode_result(std::string_view payload, std::string_view result_text) {
    const json p = sutra::core::parse_within_nesting<json>(payload);
    const json r = sutra::core::parse_within_nesting<json>(result_text);
    if (!p.is_object() || !r.is_object() || !r.contains("view") || !r["view"].is_string())
        return {};
    // The markers already name the profile's namespace: the decode result carries it, and core
    // spells every restore call (core/rewrite/marker.cpp).
    const std::string view = r["view"].get<std::string>();
    json replacement = view;
    if (p.value("hook", std::string()) == "transform_tool_result" &&
        p.value("tool_name", std::string()) == "terminal") {
        // Keep the envelope: only its output changes.
        json envelope = sutra::core::parse_within_nesting<json>(p.value("result", std::string()));
        if (!envelope.is_object()) return {};
        envelope["output"] = view;
        replacement = sutra::core::dump_json_fast(envelope);
    }
    return sutra::core::dump_json_fast(json{{"result", replacement}});
}

struct Paths {
    std::string home, plugin_dir, init, manifest, config;
};

Paths paths(std::string_view options) {
    Paths p;
    p.home = hermes_home(options);
    if (p.home.empty()) throw std::runtime_error("cannot find the Hermes home (HOME unset)");
    p.plugin_dir = p.home + "/plugins/sutra";
    p.init = p.plugin_dir + "/__init__.py";
    p.manifest = p.plugin_dir + "/plugin.yaml";
    p.config = common::real_target(p.home + "/config.yaml");
    return p;
}

std::string init_text(const std::string& host_program) {
    return common::bake_string(k_init_py, "\"@SUTRA_HOST@\"",
                               host_program.empty() ? "sutra-host" : host_program);
}

// Runs an edit of config.yaml; a refusal names the file.
template <class F> auto at_path(const std::string& path, F&& f) {
    try {
        return f();
    } catch (const std::exception& e) {
        const std::string what = e.what();
        if (what.rfind(path, 0) == 0) throw;
        throw std::runtime_error(path + ": " + what);
    }
}

struct Server {
    std::string command;
    std::vector<std::string> args;
};

// The server config.yaml registers under our name, when sutra wrote it.
std::optional<Server> our_server(const std::optional<std::string>& text) {
    const auto command = yaml_server_command(text, k_name);
    const auto args = yaml_server_args(text, k_name);
    if (!command || !args || !common::is_our_server(*command, *args)) return std::nullopt;
    return Server{*command, *args};
}

// What install makes of config.yaml: sutra enabled and, given a server, registered; edited
// before a `...` document end, and read back the way it was meant before it is used.
std::string config_with(const std::optional<std::string>& text,
                        const std::string& path,
                        bool enable,
                        const std::optional<Server>& server) {
    return at_path(path, [&] {
        auto [body, tail] = yaml_document(text.value_or(std::string()));
        const std::optional<std::string> doc =
            text ? std::optional<std::string>(body) : std::nullopt;
        std::string out = enable ? yaml_enable(doc, k_name) : doc.value_or(std::string());
        if (server)
            out = yaml_set_server(out, k_name,
                                  yaml_server_block(k_name, server->command, server->args));
        if (!tail.empty() && !out.empty() && out.back() != '\n') out += '\n';
        out += tail;
        if (text && out == *text) return out;
        // The minimal YAML check: still one document, and sutra's entries read back as written.
        yaml_document(out);
        const auto got = our_server(out);
        if ((enable && !yaml_lists(out, "enabled", k_name)) ||
            (server && (!got || got->command != server->command || got->args != server->args)))
            throw std::runtime_error("sutra could not add its entries safely; add them by hand "
                                     "(nothing was changed)");
        return out;
    });
}

// The server block install writes for this home.
Server server_entry(const std::string& sutra_program,
                    const std::string& home,
                    const std::vector<std::string>& tools) {
    return Server{sutra_program, common::mcp_args(k_restore_tool, store_namespace(home), tools)};
}

// True when sutra's plugin file or its MCP entry is in `home`: what an uninstall there removes.
bool holds_ours(const std::string& home) {
    try {
        const auto init = common::read_text(home + "/plugins/sutra/__init__.py");
        if (init && init->find(k_marker) != std::string::npos) return true;
        return our_server(common::read_text(common::real_target(home + "/config.yaml")))
            .has_value();
    } catch (const std::exception&) {
        return false; // a file sutra cannot read is none of its own
    }
}

// The profiles (~/.hermes/profiles/NAME) that hold sutra's files, other than the home the
// options name: uninstall, detect and doctor without --profile visit each of them too.
std::vector<std::string> installed_profiles(const std::string& current_home) {
    std::vector<std::string> out;
    std::error_code ec;
    const fs::path dir = default_home() + "/profiles";
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const std::string home = it->path().string();
        if (valid_name(name) && it->is_directory(ec) &&
            fs::path(home).lexically_normal() != fs::path(current_home).lexically_normal() &&
            holds_ours(home))
            out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The config.yaml change that removes our entries (see mcp_registration.hpp for the rule).
std::optional<common::FilePlan> plan_config_uninstall(const std::string& path) {
    const auto before = common::read_text(path);
    if (!before) return std::nullopt;
    return at_path(path, [&]() -> std::optional<common::FilePlan> {
        const bool enabled = yaml_lists(before, "enabled", k_name);
        const auto server = our_server(before);
        if (!enabled && !server) return std::nullopt;
        std::string stripped = enabled ? yaml_disable(*before, k_name) : *before;
        if (server) stripped = yaml_remove_server(stripped, k_name);
        return common::plan_reverse(
            path, *before,
            [&](const std::optional<std::string>& text) {
                return config_with(text, path, enabled, server);
            },
            stripped,
            [&](const std::string& text) {
                return yaml_lists(text, "enabled", k_name) || our_server(text).has_value();
            });
    });
}

} // namespace

struct Adapter {
    static constexpr const char* name = "hermes";
    static constexpr const char* description = "Hermes agent (transform_tool_result plugin)";

    std::string decode(std::string_view payload) { return decode_payload(payload); }
    std::string encode(std::string_view payload, std::string_view result) {
        return encode_result(payload, result);
    }
    std::string install(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            const Paths p = paths(options);
            // Plan every file first: a refusal anywhere writes nothing.
            std::vector<common::FilePlan> plans;
            if (auto m = common::plan_owned_install(p.manifest, k_plugin_yaml, k_marker))
                plans.push_back(*m);
            if (auto i = common::plan_owned_install(p.init, init_text(o.host_program), k_marker))
                plans.push_back(*i);
            const auto before = common::read_text(p.config);
            const bool theirs = at_path(p.config, [&] {
                return yaml_server_lines(before, k_name).has_value() && !our_server(before);
            });
            if (theirs)
                throw std::runtime_error(p.config + " already has an MCP server named \"sutra\" "
                                                    "that sutra did not write; remove it first "
                                                    "(nothing was changed)");
            const auto server =
                o.sutra_program.empty()
                    ? std::nullopt
                    : std::optional(server_entry(o.sutra_program, p.home, o.mcp_tools));
            const std::string after = config_with(before, p.config, true, server);
            if (!before || after != *before) {
                common::FilePlan plan{p.config, before ? "modify" : "create", before, after,
                                      std::nullopt};
                // An upgrade keeps the one backup of the user's own file.
                plan.backup_before = !yaml_lists(before, "enabled", k_name) && !our_server(before);
                plans.push_back(plan);
            }
            common::ojson r = common::apply_install_plans(plans, o.dry_run);
            if (plans.empty()) r["messages"].push_back(p.plugin_dir + ": already installed");
            if (o.sutra_program.empty()) common::note_no_program(r);
            if (at_path(p.config, [&] { return yaml_lists(before, "disabled", k_name); }))
                r["messages"].push_back(p.config + " lists sutra in plugins.disabled, which wins: "
                                                   "remove it there to turn sutra on");
            return r;
        });
    }
    std::string uninstall(std::string_view options) {
        return common::guarded([&] {
            const auto o = common::parse_options(options);
            const Paths p = paths(options);
            std::vector<common::FilePlan> plans;
            for (const auto& file : {p.init, p.manifest})
                if (auto f = common::plan_owned_uninstall(file, k_marker)) plans.push_back(*f);
            if (auto c = plan_config_uninstall(p.config)) plans.push_back(*c);
            common::ojson r = common::apply_plans(plans, o.dry_run);
            std::error_code ec;
            // Python caches the bytecode of our __init__.py beside it: ours to remove too.
            if (!o.dry_run && !fs::exists(p.init, ec))
                fs::remove_all(p.plugin_dir + "/__pycache__", ec);
            if (!o.dry_run && fs::is_empty(p.plugin_dir, ec)) fs::remove(p.plugin_dir, ec);
            if (plans.empty())
                r["messages"].push_back(p.home + ": no sutra plugin, nothing to remove");
            return r;
        });
    }
    std::string detect(std::string_view options) {
        return common::guarded([&] {
            const Paths p = paths(options);
            const auto init = common::read_text(p.init);
            std::optional<std::string> host;
            if (init && init->find(k_marker) != std::string::npos)
                host = common::baked_string(*init, k_host_prefix);
            const auto config = common::read_text(p.config);
            const bool enabled =
                at_path(p.config, [&] { return yaml_lists(config, "enabled", k_name); });
            // Hermes's own switch: plugins.disabled wins over plugins.enabled.
            const bool disabled =
                at_path(p.config, [&] { return yaml_lists(config, "disabled", k_name); });
            return common::report_json(
                {.client = "hermes",
                 .found = fs::is_directory(p.home),
                 .installed = host.has_value() && enabled,
                 .path = p.plugin_dir,
                 .command = host ? std::optional(common::shell_word(*host) + " --adapter hermes")
                                 : std::nullopt,
                 .disabled_by =
                     disabled ? p.config + " lists sutra in plugins.disabled" : std::string(),
                 .mcp = common::mcp_status(p.config, registered_mcp(p.home), k_restore_tool)},
                {{"profiles", installed_profiles(p.home)}});
        });
    }
    std::string doctor(std::string_view options) {
        return common::doctor_report(
            detect(options),
            // A config.yaml of several documents (or none Hermes could read): named.
            [&] {
                const Paths p = paths(options);
                at_path(p.config,
                        [&] { return yaml_document(common::read_text(p.config).value_or("")); });
            },
            "transform_terminal_output plugin",
            [&](const std::string& out) {
                return common::ojson{{"hook", "transform_terminal_output"},
                                     {"command", "make"},
                                     {"output", out},
                                     {"returncode", 1},
                                     {"hermes_home", hermes_home(options)}};
            });
    }
};

} // namespace sutra::plugins::hermes

SUTRA_DEFINE_PLUGIN(sutra::plugins::hermes::Adapter)
