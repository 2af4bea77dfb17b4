// Install and uninstall through the modules: backups, idempotence, dry runs, the host's kill
// switch, and the promise that install then uninstall leaves every file byte-identical; the
// same for the MCP server each module registers in its host's config, and the restore route
// the markers then name.

#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Hand-written formatting, unicode escapes, other hooks and no final newline: all must survive.
const char* const k_user_settings =
    "{\n"
    "    \"model\": \"opus\",\n"
    "    \"note\": \"caf\\u00e9\",\n"
    "    \"hooks\": {\n"
    "        \"PostToolUse\": [ { \"matcher\": \"Edit\", \"hooks\": "
    "[ { \"type\": \"command\", \"command\": \"prettier\" } ] } ]\n"
    "    }\n"
    "}";

class InstallTest : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    std::string claude_settings = box.dir.path + "/claude/settings.json";
    std::string codex_hooks = box.dir.path + "/codex/hooks.json";

    json call(const char* adapter, Plugin::Op op, bool dry_run = false) {
        auto p = registry.load(adapter);
        EXPECT_TRUE(p.has_value());
        if (!p) return json();
        const json options = {{"host_program", "/opt/sutra/bin/sutra-host"}, {"dry_run", dry_run}};
        return json::parse((*p)->call(op, options.dump()).value_or("null"));
    }
    std::vector<std::string> listing(const std::string& dir) {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
        std::sort(out.begin(), out.end());
        return out;
    }
};

TEST_F(InstallTest, ClaudeIntoAbsentFileThenUninstallRemovesIt) {
    json r = call("claude", Plugin::Op::install);
    ASSERT_TRUE(r["ok"]) << r.dump();
    const json doc = json::parse(test::read_file(claude_settings));
    const json& group = doc["hooks"]["PostToolUse"][0];
    EXPECT_EQ(group["hooks"][0]["command"], "/opt/sutra/bin/sutra-host --adapter claude");
    EXPECT_EQ(group["hooks"][0]["type"], "command");
    const json d = call("claude", Plugin::Op::detect);
    EXPECT_TRUE(d["installed"]);
    r = call("claude", Plugin::Op::uninstall);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_EQ(r["files"][0]["action"], "delete");
    EXPECT_FALSE(fs::exists(claude_settings));
}

TEST_F(InstallTest, ClaudeRoundTripIsByteIdenticalAndIdempotent) {
    fs::create_directories(box.dir.path + "/claude");
    test::write_file(claude_settings, k_user_settings);
    json r = call("claude", Plugin::Op::install);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_TRUE(r["changed"]);
    EXPECT_EQ(test::read_file(claude_settings + ".sutra-backup"), k_user_settings);
    const std::string installed = test::read_file(claude_settings);
    EXPECT_NE(installed.find("\n    \"model\""), std::string::npos); // indentation kept
    const json doc = json::parse(installed);
    EXPECT_EQ(doc["model"], "opus");
    EXPECT_EQ(doc["hooks"]["PostToolUse"].size(), 2u);
    EXPECT_EQ(doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "prettier");

    r = call("claude", Plugin::Op::install); // again: nothing changes, no second backup
    EXPECT_FALSE(r["changed"]);
    EXPECT_EQ(test::read_file(claude_settings), installed);
    EXPECT_FALSE(fs::exists(claude_settings + ".sutra-backup-2"));

    r = call("claude", Plugin::Op::uninstall);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_EQ(r["files"][0]["action"], "restore");
    EXPECT_EQ(test::read_file(claude_settings), k_user_settings);
    EXPECT_EQ(listing(box.dir.path + "/claude"), std::vector<std::string>{"settings.json"});
    r = call("claude", Plugin::Op::uninstall);
    EXPECT_FALSE(r["changed"]);
}

TEST_F(InstallTest, DryRunWritesNothing) {
    EXPECT_TRUE(call("claude", Plugin::Op::install, true)["changed"]);
    EXPECT_FALSE(fs::exists(box.dir.path + "/claude"));
    fs::create_directories(box.dir.path + "/claude");
    test::write_file(claude_settings, k_user_settings);
    const json r = call("claude", Plugin::Op::install, true);
    EXPECT_EQ(r["files"][0]["before"], k_user_settings);
    EXPECT_NE(r["files"][0]["after"].get<std::string>().find("--adapter claude"),
              std::string::npos);
    EXPECT_EQ(test::read_file(claude_settings), k_user_settings);
    EXPECT_EQ(listing(box.dir.path + "/claude"), std::vector<std::string>{"settings.json"});
    call("claude", Plugin::Op::install);
    const std::string installed = test::read_file(claude_settings);
    EXPECT_TRUE(call("claude", Plugin::Op::uninstall, true)["changed"]);
    EXPECT_EQ(test::read_file(claude_settings), installed);
}

TEST_F(InstallTest, RespectsDisableAllHooksAndMalformedFiles) {
    fs::create_directories(box.dir.path + "/claude");
    const std::string off = "{\"disableAllHooks\": true}\n";
    test::write_file(claude_settings, off);
    json r = call("claude", Plugin::Op::install);
    EXPECT_FALSE(r["ok"]);
    EXPECT_NE(r["error"].get<std::string>().find("disableAllHooks"), std::string::npos);
    EXPECT_EQ(test::read_file(claude_settings), off);
    test::write_file(claude_settings, "{ broken");
    r = call("claude", Plugin::Op::install);
    EXPECT_FALSE(r["ok"]);
    EXPECT_EQ(test::read_file(claude_settings), "{ broken");
}

TEST_F(InstallTest, EditedAfterInstallUninstallStripsOnlyOurEntry) {
    fs::create_directories(box.dir.path + "/claude");
    test::write_file(claude_settings, k_user_settings);
    call("claude", Plugin::Op::install);
    json doc = json::parse(test::read_file(claude_settings));
    doc["theme"] = "dark";
    test::write_file(claude_settings, doc.dump(2));
    const json r = call("claude", Plugin::Op::uninstall);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_EQ(r["files"][0]["action"], "modify");
    doc = json::parse(test::read_file(claude_settings));
    EXPECT_EQ(doc["theme"], "dark");
    EXPECT_EQ(doc["hooks"]["PostToolUse"].size(), 1u);
    EXPECT_EQ(doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "prettier");
    EXPECT_FALSE(fs::exists(claude_settings + ".sutra-backup")); // uninstall leaves none
}

TEST_F(InstallTest, CodexHooksJsonRoundTrip) {
    json r = call("codex", Plugin::Op::install);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_NE(r["messages"].dump().find("/hooks"), std::string::npos); // trust instruction
    const json doc = json::parse(test::read_file(codex_hooks));
    EXPECT_FALSE(doc.contains("$schema")); // Codex refuses the file with it
    EXPECT_EQ(doc["hooks"]["PostToolUse"][0]["matcher"], "Bash");
    EXPECT_EQ(doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
              "/opt/sutra/bin/sutra-host --adapter codex");
    EXPECT_FALSE(call("codex", Plugin::Op::install)["changed"]);
    ASSERT_TRUE(call("codex", Plugin::Op::uninstall)["ok"]);
    EXPECT_FALSE(fs::exists(codex_hooks));

    const std::string mine = "{\"description\": \"mine\", \"hooks\": {}}\n";
    test::write_file(codex_hooks, mine);
    call("codex", Plugin::Op::install);
    call("codex", Plugin::Op::uninstall);
    EXPECT_EQ(test::read_file(codex_hooks), mine);
}

// ---- MCP registration --------------------------------------------------------------------

std::string long_log() {
    std::string out;
    for (int i = 0; i < 400; ++i)
        out += "[INFO] compiling module_" + std::to_string(i % 7) + ".cpp ... ok\n";
    return out + "error: the one line that matters\n";
}

// One host: where its MCP config lives, the user files to try, how its hook payload looks and
// how the model spells our restore tool there.
struct McpHost {
    const char* client;
    std::string config; // relative to the sandbox
    std::vector<std::optional<std::string>> originals;
    std::string tool;
    std::function<json(const std::string& log, const std::string& dir)> payload;
    std::string entry_probe; // text our entry puts in the file
};

std::vector<McpHost> mcp_hosts() {
    const std::string claude_user = "{\n    \"numStartups\": 3,\n    \"mcpServers\": {\n        "
                                    "\"mine\": {\"type\": \"stdio\", "
                                    "\"command\": \"m\"}\n    },\n    \"note\": \"caf\\u00e9\"\n}";
    const std::string opencode_user =
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\"mine\": "
        "{\"type\": \"local\", \"command\": [\"m\"]}}\n}\n";
    return {
        {"claude",
         "claude/.claude.json",
         {std::nullopt, claude_user, "{}", "{\"mcpServers\":{}}\n"},
         "mcp__sutra__sutra_restore",
         [](const std::string& log, const std::string&) {
             return json{
                 {"session_id", "s1"},
                 {"cwd", "/tmp/proj"},
                 {"hook_event_name", "PostToolUse"},
                 {"tool_name", "Bash"},
                 {"tool_input", {{"command", "make"}}},
                 {"tool_response", {{"stdout", log}, {"stderr", ""}, {"interrupted", false}}}};
         },
         "\"--restore-tool\""},
        {"codex",
         "codex/config.toml",
         {std::nullopt, "", "model = \"x\"", "model = \"x\"\n",
          "# mine\n[mcp_servers.mine]\ncommand = \"m\"\nargs = []\n\n[profiles.a]\nmodel = "
          "\"y\"\n"},
         "mcp__sutra__sutra_restore",
         [](const std::string& log, const std::string&) {
             return json{{"hook_event_name", "PostToolUse"},
                         {"tool_name", "Bash"},
                         {"tool_input", {{"command", "make"}}},
                         {"tool_response", log}};
         },
         "[mcp_servers.sutra]"},
        {"opencode",
         "config/opencode/opencode.json",
         {std::nullopt, opencode_user, "{}"},
         "sutra_sutra_restore",
         [](const std::string& log, const std::string&) {
             return json{{"hook", "tool.execute.after"},
                         {"input", {{"tool", "bash"}, {"args", {{"command", "make"}}}}},
                         {"output",
                          {{"title", "make"},
                           {"metadata", {{"exit", 0}, {"truncated", false}}},
                           {"output", log}}}};
         },
         "\"--restore-tool\""},
        {"hermes",
         "hermes/config.yaml",
         {std::nullopt, "model: x\n", "model: x",
          "mcp_servers:\n  mine:\n    command: m\n# trailing comment\n",
          "plugins:\n  enabled: [a]\nmcp_servers: {}\n",
          "model: x\r\nmcp_servers:\r\n    mine:\r\n        command: m\r\n"},
         "mcp_sutra_sutra_restore",
         [](const std::string& log, const std::string& dir) {
             return json{{"hook", "transform_terminal_output"},
                         {"command", "make"},
                         {"output", log},
                         {"returncode", 0},
                         {"hermes_home", dir + "/hermes"}};
         },
         "--restore-tool"},
    };
}

class McpInstallTest : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    McpInstallTest() { box.env.set("HERMES_HOME", box.dir.path + "/hermes"); }

    json call(const char* adapter, Plugin::Op op, bool with_mcp = true) {
        auto p = registry.load(adapter);
        EXPECT_TRUE(p.has_value());
        if (!p) return json();
        json options = {{"host_program", "/opt/sutra/bin/sutra-host"}, {"dry_run", false}};
        if (with_mcp) options["sutra_program"] = "/opt/sutra/bin/sutra";
        return json::parse((*p)->call(op, options.dump()).value_or("null"));
    }
    std::string view(const McpHost& h) {
        auto p = registry.load(h.client);
        EXPECT_TRUE(p.has_value());
        if (!p) return {};
        std::string why;
        return run_hook(**p, h.payload(long_log(), box.dir.path).dump(), why);
    }
    std::optional<std::string> read(const std::string& path) {
        if (!fs::exists(path)) return std::nullopt;
        return test::read_file(path);
    }
    void put(const std::string& path, const std::optional<std::string>& text) {
        fs::remove(path);
        if (!text) return;
        fs::create_directories(fs::path(path).parent_path());
        test::write_file(path, *text);
    }
    bool backups_left(const std::string& dir) {
        if (!fs::exists(dir)) return false;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().filename().string().find(".sutra-backup") != std::string::npos)
                return true;
        return false;
    }
};

// For every host and every shape of user file: install registers the server (the user's own
// servers stay), a second install changes no byte, the markers name the host's tool, and
// uninstall gives back the exact original bytes (or no file) with no backup left behind.
TEST_F(McpInstallTest, RegisterThenUnregisterIsByteIdenticalForEveryHostAndFile) {
    for (const McpHost& h : mcp_hosts()) {
        const std::string path = box.dir.path + "/" + h.config;
        for (const auto& original : h.originals) {
            SCOPED_TRACE(std::string(h.client) + " with " + original.value_or("(no file)"));
            put(path, original);
            json r = call(h.client, Plugin::Op::install);
            ASSERT_TRUE(r["ok"]) << r.dump();
            const auto installed = read(path);
            ASSERT_TRUE(installed.has_value());
            EXPECT_NE(installed->find("/opt/sutra/bin/sutra"), std::string::npos);
            EXPECT_NE(installed->find(h.entry_probe), std::string::npos);
            EXPECT_NE(installed->find(h.tool), std::string::npos);
            if (original && original->find("mine") != std::string::npos) {
                EXPECT_NE(installed->find("mine"), std::string::npos);
            }
            const json d = call(h.client, Plugin::Op::detect);
            EXPECT_TRUE(d["mcp"]["registered"]) << d.dump();
            EXPECT_EQ(d["mcp"]["tool"], h.tool);
            EXPECT_NE(view(h).find(h.tool + "(id="), std::string::npos) << view(h);

            r = call(h.client, Plugin::Op::install);
            EXPECT_FALSE(r["changed"]) << r.dump();
            EXPECT_EQ(read(path), installed);
            // Says so: "MCP server already registered" (Hermes: its plugin "already installed").
            EXPECT_NE(r["messages"].dump().find("already"), std::string::npos) << r.dump();

            r = call(h.client, Plugin::Op::uninstall);
            ASSERT_TRUE(r["ok"]) << r.dump();
            EXPECT_EQ(read(path), original);
            EXPECT_FALSE(backups_left(fs::path(path).parent_path()));
            EXPECT_FALSE(call(h.client, Plugin::Op::detect)["mcp"]["registered"]);
            EXPECT_NE(view(h).find("sutra restore "), std::string::npos); // the CLI route again
        }
    }
}

// Issue 23, item 4: every JSON config install edits takes a UTF-8 byte-order mark and keeps it,
// and a value nested 1,000 levels deep in the user's own config; uninstall gives back the exact
// bytes either way.
TEST_F(McpInstallTest, EveryJsonConfigKeepsABomAndDeepValues) {
    const std::string bom = "\xEF\xBB\xBF";
    std::string deep;
    for (int i = 0; i < 1000; ++i) deep += i % 2 == 0 ? "[" : "{\"k\":";
    deep += "1";
    for (int i = 999; i >= 0; --i) deep += i % 2 == 0 ? "]" : "}";
    const std::vector<std::pair<const char*, std::vector<std::string>>> files = {
        {"claude", {"claude/settings.json", "claude/.claude.json"}},
        {"codex", {"codex/hooks.json"}},
        {"opencode", {"config/opencode/opencode.json"}},
    };
    for (const std::string& original :
         {bom + "{\n  \"model\": \"x\"\n}\n", "{\n  \"deep\": " + deep + ",\n  \"x\": 1\n}\n",
          bom + "{\"deep\": " + deep + "}"}) {
        for (const auto& [client, paths] : files) {
            SCOPED_TRACE(std::string(client) + " with " + original.substr(0, 40));
            for (const auto& rel : paths) put(box.dir.path + "/" + rel, original);
            json r = call(client, Plugin::Op::install);
            ASSERT_TRUE(r["ok"]) << r.dump();
            for (const auto& rel : paths) {
                const std::string text = *read(box.dir.path + "/" + rel);
                EXPECT_EQ(text.starts_with(bom), original.starts_with(bom)) << rel;
                // The deep value survives (settings.json is re-indented, so compare values).
                EXPECT_EQ(json::parse(text).value("deep", json()),
                          json::parse(original).value("deep", json()))
                    << rel;
                EXPECT_NE(text.find("sutra"), std::string::npos) << rel;
            }
            EXPECT_TRUE(call(client, Plugin::Op::detect)["installed"]);
            r = call(client, Plugin::Op::uninstall);
            ASSERT_TRUE(r["ok"]) << r.dump();
            for (const auto& rel : paths)
                EXPECT_EQ(read(box.dir.path + "/" + rel), original) << rel;
            EXPECT_FALSE(backups_left(box.dir.path + "/claude"));
        }
    }
}

// The server a host gets serves restore, compress and stats; the file tools and exec, which
// reach past the host's own Read and Bash rules, are registered only when the user asks, and
// uninstall still gives back the exact original bytes.
TEST_F(McpInstallTest, FileAndExecToolsAreRegisteredOnlyOnRequest) {
    for (const McpHost& h : mcp_hosts()) {
        SCOPED_TRACE(h.client);
        const std::string path = box.dir.path + "/" + h.config;
        const std::optional<std::string> original = h.originals[1];
        put(path, original);
        ASSERT_TRUE(call(h.client, Plugin::Op::install)["ok"]);
        EXPECT_EQ(read(path)->find("--tools"), std::string::npos);
        ASSERT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]);
        EXPECT_EQ(read(path), original);

        auto p = registry.load(h.client);
        ASSERT_TRUE(p.has_value());
        const json options = {{"host_program", "/opt/sutra/bin/sutra-host"},
                              {"sutra_program", "/opt/sutra/bin/sutra"},
                              {"mcp_tools", {"files", "exec"}}};
        const json r =
            json::parse((*p)->call(Plugin::Op::install, options.dump()).value_or("null"));
        ASSERT_TRUE(r["ok"]) << r.dump();
        EXPECT_NE(read(path)->find("restore,compress,stats,files,exec"), std::string::npos)
            << *read(path);
        ASSERT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]);
        EXPECT_EQ(read(path), original);
        EXPECT_FALSE(backups_left(fs::path(path).parent_path()));
    }
}

TEST_F(McpInstallTest, WithoutASutraBinaryNothingIsRegistered) {
    for (const McpHost& h : mcp_hosts()) {
        SCOPED_TRACE(h.client);
        const json r = call(h.client, Plugin::Op::install, false);
        ASSERT_TRUE(r["ok"]) << r.dump();
        EXPECT_NE(r["messages"].dump().find("not registered"), std::string::npos);
        const auto text = read(box.dir.path + "/" + h.config);
        EXPECT_TRUE(!text || text->find(h.tool) == std::string::npos);
        EXPECT_FALSE(call(h.client, Plugin::Op::detect)["mcp"]["registered"]);
        EXPECT_NE(view(h).find("sutra restore "), std::string::npos);
        EXPECT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]);
    }
}

// A server the user named "sutra" that runs something else is theirs: install refuses and
// writes nothing at all, the hook included.
TEST_F(McpInstallTest, RefusesAnotherProgramNamedSutra) {
    const std::vector<std::pair<const char*, std::string>> theirs = {
        {"claude", "{\"mcpServers\": {\"sutra\": {\"command\": \"/usr/bin/other\"}}}\n"},
        {"codex", "[mcp_servers.sutra]\ncommand = \"/usr/bin/other\"\n"},
        {"opencode", "{\"mcp\": {\"sutra\": {\"type\": \"local\", \"command\": [\"other\"]}}}\n"},
        {"hermes", "mcp_servers:\n  sutra:\n    command: /usr/bin/other\n"},
    };
    const auto hosts = mcp_hosts();
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        SCOPED_TRACE(hosts[i].client);
        const std::string path = box.dir.path + "/" + hosts[i].config;
        put(path, theirs[i].second);
        const json r = call(hosts[i].client, Plugin::Op::install);
        EXPECT_FALSE(r["ok"]) << r.dump();
        EXPECT_NE(r.value("error", std::string()).find("not"), std::string::npos);
        EXPECT_EQ(read(path), theirs[i].second);
        EXPECT_FALSE(call(hosts[i].client, Plugin::Op::detect)["installed"]);
    }
}

// Claude Code rewrites ~/.claude.json while it runs: uninstall then removes only our server.
TEST_F(McpInstallTest, ClaudeJsonChangedByTheHostKeepsEverythingButOurServer) {
    const std::string path = box.dir.path + "/claude/.claude.json";
    put(path, "{\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"m\"}\n  }\n}\n");
    ASSERT_TRUE(call("claude", Plugin::Op::install)["ok"]);
    json doc = json::parse(test::read_file(path));
    doc["numStartups"] = 7;
    test::write_file(path, doc.dump(2) + "\n");
    const json r = call("claude", Plugin::Op::uninstall);
    ASSERT_TRUE(r["ok"]) << r.dump();
    doc = json::parse(test::read_file(path));
    EXPECT_EQ(doc["numStartups"], 7);
    EXPECT_EQ(doc["mcpServers"].size(), 1u);
    EXPECT_EQ(doc["mcpServers"]["mine"]["command"], "m");
    // A server disabled for the project sends markers back to the CLI route.
    ASSERT_TRUE(call("claude", Plugin::Op::install)["ok"]);
    doc = json::parse(test::read_file(path));
    doc["projects"]["/tmp/proj"]["disabledMcpServers"] = json::array({"sutra"});
    test::write_file(path, doc.dump(2));
    EXPECT_NE(view(mcp_hosts()[0]).find("sutra restore "), std::string::npos);
}

// Every hook call asks .claude.json whether our server is registered and enabled for the
// project (the marker's route): in a long-used file of thousands of projects, only the project
// at the payload's cwd decides, wherever the members stand and whatever other projects disable.
TEST_F(McpInstallTest, ClaudeJsonOfManyProjectsRoutesByTheProjectAtCwd) {
    const std::string path = box.dir.path + "/claude/.claude.json";
    put(path, "{}\n");
    ASSERT_TRUE(call("claude", Plugin::Op::install)["ok"]);
    const json servers = json::parse(test::read_file(path))["mcpServers"];
    auto with = [&](const json& here, bool servers_first) {
        nlohmann::ordered_json doc = nlohmann::ordered_json::object();
        if (servers_first) doc["mcpServers"] = servers;
        doc["projects"] = nlohmann::ordered_json::object();
        for (int i = 0; i < 3000; ++i) {
            auto& p = doc["projects"]["/home/dev/p" + std::to_string(i)];
            p["history"] = {{{"display", "fix \"the\" {test} [" + std::to_string(i) + "]"}}};
            if (i % 7 == 0) p["disabledMcpServers"] = {"sutra"};
        }
        if (!here.is_null()) doc["projects"]["/tmp/proj"] = here;
        if (!servers_first) doc["mcpServers"] = servers;
        test::write_file(path, doc.dump(2));
    };
    const auto route_is_mcp = [&] {
        return view(mcp_hosts()[0]).find("sutra restore ") == std::string::npos;
    };
    for (const bool first : {true, false}) {
        SCOPED_TRACE(first);
        with(nullptr, first);
        EXPECT_TRUE(route_is_mcp());
        with(json{{"disabledMcpServers", {"other"}}}, first);
        EXPECT_TRUE(route_is_mcp());
        with(json{{"disabledMcpServers", {"other", "sutra"}}}, first);
        EXPECT_FALSE(route_is_mcp());
    }
}

// `sutra mcp --text-only` (Claude Code's registration): the same tools and text blocks, with no
// outputSchema and no structuredContent, which Claude Code would show the model instead.
TEST_F(McpInstallTest, TextOnlyServerDropsStructuredContent) {
    const std::string log = long_log();
    const std::string requests =
        json{{"jsonrpc", "2.0"},
             {"id", 1},
             {"method", "initialize"},
             {"params", {{"protocolVersion", "2025-06-18"}}}}
            .dump() +
        "\n" + json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}}.dump() + "\n" +
        json{{"jsonrpc", "2.0"},
             {"id", 3},
             {"method", "tools/call"},
             {"params", {{"name", "sutra_compress"}, {"arguments", {{"text", log}}}}}}
            .dump() +
        "\n";
    test::write_file(box.dir.path + "/requests", requests);
    for (const bool text_only : {false, true}) {
        SCOPED_TRACE(text_only ? "--text-only" : "default");
        const std::string out = test::run_command(
            std::string(SUTRA_BINARY) + " mcp --restore-tool mcp__sutra__sutra_restore" +
            (text_only ? " --text-only" : "") + " < " + box.dir.path + "/requests");
        std::vector<json> replies;
        std::size_t start = 0;
        for (auto nl = out.find('\n'); nl != std::string::npos; nl = out.find('\n', start)) {
            replies.push_back(json::parse(out.substr(start, nl - start)));
            start = nl + 1;
        }
        ASSERT_EQ(replies.size(), 3u) << out;
        bool any_schema = false;
        for (const auto& t : replies[1]["result"]["tools"])
            any_schema |= t.contains("outputSchema");
        EXPECT_EQ(any_schema, !text_only);
        const json& call = replies[2]["result"];
        EXPECT_EQ(call.contains("structuredContent"), !text_only);
        ASSERT_TRUE(call["content"].is_array());
        const std::string view = call["content"][0]["text"];
        EXPECT_NE(view.find("mcp__sutra__sutra_restore(id="), std::string::npos);
        EXPECT_NE(view.find("error: the one line that matters"), std::string::npos);
    }
}

} // namespace
} // namespace sutra::host
