// An installer that never damages a user's config (docs/adapters.md, "Install"): only entries
// sutra wrote are changed or removed; every edit is re-read in the host's grammar first;
// comments and layout stay; upgrades and reinstalls update sutra's entry in place; several files
// are written all or nothing; symlinks are followed, never replaced; read-only files are refused.
// Each case runs on every host it applies to, and a property test runs random sequences of
// installs (two prefixes), user edits, reinstalls and uninstalls.

#include "host/dispatch/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <sys/resource.h>
#include <sys/stat.h>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ojson = nlohmann::ordered_json;

struct Host {
    const char* client;
    std::string hooks;  // the hook or plugin file, relative to the sandbox
    std::string config; // the MCP config
};

std::vector<Host> hosts() {
    return {{"claude", "claude/settings.json", "claude/.claude.json"},
            {"codex", "codex/hooks.json", "codex/config.toml"},
            {"opencode", "config/opencode/plugins/sutra.js", "config/opencode/opencode.json"},
            {"hermes", "hermes/plugins/sutra/__init__.py", "hermes/config.yaml"}};
}

class SafeInstallTest : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    SafeInstallTest() { box.env.set("HERMES_HOME", box.dir.path + "/hermes"); }

    std::string at(const std::string& rel) const { return box.dir.path + "/" + rel; }

    json call(const char* client, Plugin::Op op, const std::string& prefix = "/opt/sutra") {
        auto p = registry.load(client);
        EXPECT_TRUE(p.has_value());
        if (!p) return json();
        const json options = {{"host_program", prefix + "/bin/sutra-host"},
                              {"sutra_program", prefix + "/bin/sutra"},
                              {"dry_run", false}};
        return json::parse((*p)->call(op, options.dump()).value_or("null"));
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
    // Every file under the sandbox that sutra named as a backup or a temporary file.
    std::vector<std::string> leftovers() {
        std::vector<std::string> out;
        for (const auto& e : fs::recursive_directory_iterator(box.dir.path)) {
            const std::string name = e.path().filename().string();
            if (name.find(".sutra-backup") != std::string::npos ||
                name.find(".sutra-tmp") != std::string::npos)
                out.push_back(e.path().string());
        }
        return out;
    }
    // Runs one install or uninstall; false (a failure reported) when it was refused.
    bool succeeds(const char* client, Plugin::Op op) {
        const json r = call(client, op);
        EXPECT_TRUE(r.value("ok", false)) << r.dump();
        return r.value("ok", false);
    }
    // True when any file of `h` still holds a sutra entry.
    bool any_entry(const Host& h) {
        const json d = call(h.client, Plugin::Op::detect);
        const auto config = read(at(h.config));
        EXPECT_TRUE(d.value("ok", true)) << d.dump();
        return d.value("installed", false) ||
               (d.contains("mcp") && d["mcp"].value("registered", false)) ||
               (config && config->find("--restore-tool") != std::string::npos);
    }
};

// ---- 1. The user's own server named "sutra" is never replaced nor removed.

TEST_F(SafeInstallTest, TheUsersOwnSutraServerIsNeverTouched) {
    const std::vector<std::pair<const char*, std::vector<std::string>>> theirs = {
        {"claude",
         {"{\"mcpServers\": {\"sutra\": {\"command\": \"/usr/bin/other\"}}}\n",
          "{\"mcpServers\": {\"sutra\": {\"command\": \"/usr/local/bin/sutra\", \"args\": "
          "[\"mcp\"]}}}\n"}},
        {"codex",
         {"[mcp_servers.sutra]\ncommand = \"/usr/bin/other\"\n",
          "[mcp_servers.sutra]\ncommand = \"/usr/local/bin/sutra\"\nargs = [\"mcp\"]\n"}},
        {"opencode",
         {"{\"mcp\": {\"sutra\": {\"type\": \"local\", \"command\": [\"other\"]}}}\n",
          "{\"mcp\": {\"sutra\": {\"type\": \"local\", \"command\": [\"sutra\", \"mcp\"]}}}\n"}},
        {"hermes",
         {"mcp_servers:\n  sutra:\n    command: /usr/bin/other\n",
          "mcp_servers:\n  sutra:\n    command: sutra\n    args: [\"mcp\"]\n"}},
    };
    const auto hs = hosts();
    for (std::size_t i = 0; i < hs.size(); ++i)
        for (const std::string& text : theirs[i].second) {
            SCOPED_TRACE(std::string(hs[i].client) + ": " + text);
            const std::string path = at(hs[i].config);
            put(path, text);
            const json r = call(hs[i].client, Plugin::Op::install);
            EXPECT_FALSE(r["ok"]) << r.dump();
            EXPECT_NE(r.value("error", std::string()).find(path), std::string::npos) << r.dump();
            EXPECT_EQ(read(path), text);
            EXPECT_FALSE(fs::exists(at(hs[i].hooks))) << "all or nothing";
            ASSERT_TRUE(call(hs[i].client, Plugin::Op::uninstall)["ok"]);
            EXPECT_EQ(read(path), text) << "uninstall removed the user's own server";
            EXPECT_TRUE(leftovers().empty());
        }
}

// ---- 2. Codex: shapes where an added table would be invalid TOML are refused, naming the file.

TEST_F(SafeInstallTest, CodexRefusesWhatWouldBeInvalidToml) {
    const std::string path = at("codex/config.toml");
    for (const std::string text : {
             "[mcp_servers]\n'sutra' = { command = \"/usr/bin/other\" }\n",
             "[mcp_servers]\n\"sutra\" = { command = \"/opt/sutra/bin/sutra\" }\n",
             "\"mcp_servers\" = { other = { command = \"x\" } }\n",
             "mcp_servers = { sutra = { command = \"x\" } }\n",
             "[mcp_servers]\nsutra.command = \"x\"\n",
             "model = \"o3\"\nbroken = \n",
         }) {
        SCOPED_TRACE(text);
        put(path, text);
        const json r = call("codex", Plugin::Op::install);
        EXPECT_FALSE(r["ok"]) << r.dump();
        EXPECT_NE(r.value("error", std::string()).find(path), std::string::npos) << r.dump();
        EXPECT_EQ(read(path), text);
        EXPECT_FALSE(fs::exists(at("codex/hooks.json")));
        const json d = call("codex", Plugin::Op::detect);
        EXPECT_TRUE(d.value("ok", true)) << d.dump();
        EXPECT_FALSE(d.contains("mcp") && d["mcp"].value("registered", false));
    }
}

// ---- 3. Codex: a comment above the next table is the user's, through reinstall and uninstall.

TEST_F(SafeInstallTest, CodexKeepsTheCommentAboveTheNextTable) {
    const std::string path = at("codex/config.toml");
    put(path, "model = \"o3\"\n");
    ASSERT_TRUE(call("codex", Plugin::Op::install)["ok"]);
    const std::string user_tail = "\n# my profile, keep me\n[profiles.a]\nmodel = \"y\"\n";
    put(path, *read(path) + user_tail);
    ASSERT_TRUE(call("codex", Plugin::Op::install, "/usr/local")["ok"]); // upgrade
    EXPECT_NE(read(path)->find(user_tail), std::string::npos) << *read(path);
    EXPECT_NE(read(path)->find("/usr/local/bin/sutra"), std::string::npos);
    ASSERT_TRUE(call("codex", Plugin::Op::uninstall)["ok"]);
    EXPECT_EQ(read(path), "model = \"o3\"\n" + user_tail);
    EXPECT_TRUE(leftovers().empty());
}

// ---- 4. A symlinked config (dotfile managers), dangling or not, is followed, never replaced.

TEST_F(SafeInstallTest, SymlinksAreFollowedNeverReplaced) {
    for (const Host& h : hosts()) {
        for (const std::string& rel :
             {h.config, std::string(h.client) == "claude" ? std::string("claude/settings.json")
                                                          : std::string(h.config)}) {
            for (const bool dangling : {true, false}) {
                SCOPED_TRACE(rel + (dangling ? " dangling" : " to a file"));
                const std::string link = at(rel);
                const std::string target = at("dotfiles/" + fs::path(rel).filename().string());
                fs::remove_all(at("dotfiles"));
                fs::create_directories(at("dotfiles"));
                fs::create_directories(fs::path(link).parent_path());
                fs::remove(link);
                fs::create_symlink(target, link);
                const std::optional<std::string> original =
                    dangling ? std::nullopt
                             : std::optional<std::string>(rel.ends_with(".toml") ? "model = \"x\"\n"
                                                          : rel.ends_with(".yaml") ? "model: x\n"
                                                                                   : "{}\n");
                if (original) test::write_file(target, *original);
                const json r = call(h.client, Plugin::Op::install);
                ASSERT_TRUE(r["ok"]) << r.dump();
                EXPECT_TRUE(fs::is_symlink(link));
                EXPECT_TRUE(fs::exists(target));
                ASSERT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]);
                EXPECT_TRUE(fs::is_symlink(link)) << "uninstall replaced or deleted the link";
                EXPECT_EQ(read(target), original);
                EXPECT_TRUE(leftovers().empty());
                fs::remove(link);
            }
        }
    }
}

// ---- 5. Hermes: a `...` document end stays the end; several documents are refused.

TEST_F(SafeInstallTest, HermesKeepsTheDocumentEndMarker) {
    const std::string path = at("hermes/config.yaml");
    for (const std::string text :
         {"model: x\n...\n", "---\nmodel: x\n...\n# after the end\n", "--- # doc\nmodel: x\n"}) {
        SCOPED_TRACE(text);
        put(path, text);
        ASSERT_TRUE(call("hermes", Plugin::Op::install)["ok"]);
        const std::string installed = *read(path);
        const auto end = installed.find("\n...");
        if (text.find("...") != std::string::npos) {
            ASSERT_NE(end, std::string::npos);
            EXPECT_LT(installed.find("mcp_servers:"), end) << installed;
            EXPECT_LT(installed.find("plugins:"), end) << installed;
        }
        EXPECT_TRUE(call("hermes", Plugin::Op::detect)["installed"]);
        ASSERT_TRUE(call("hermes", Plugin::Op::uninstall)["ok"]);
        EXPECT_EQ(read(path), text);
    }
    for (const std::string text : {"a: 1\n---\nb: 2\n", "a: 1\n...\nb: 2\n", "plugins: [a]\n"}) {
        SCOPED_TRACE(text);
        put(path, text);
        const json r = call("hermes", Plugin::Op::install);
        EXPECT_FALSE(r["ok"]) << r.dump();
        EXPECT_NE(r.value("error", std::string()).find(path), std::string::npos) << r.dump();
        EXPECT_EQ(read(path), text);
    }
    EXPECT_TRUE(leftovers().empty());
}

// ---- 6. An upgrade (a second prefix) and a reinstall over an edited entry: uninstall still
// gives back the user's exact bytes, with no entry and no backup left.

TEST_F(SafeInstallTest, UpgradeThenUninstallLeavesNothing) {
    const std::vector<std::optional<std::string>> configs = {
        "{\n  \"mcpServers\": {\"mine\": {\"command\": \"m\"}}\n}\n", "model = \"x\"\n",
        "{\n  \"mcp\": {}\n}\n", "model: x\n"};
    const auto hs = hosts();
    for (std::size_t i = 0; i < hs.size(); ++i) {
        SCOPED_TRACE(hs[i].client);
        put(at(hs[i].config), configs[i]);
        ASSERT_TRUE(call(hs[i].client, Plugin::Op::install, "/opt/a")["ok"]);
        ASSERT_TRUE(call(hs[i].client, Plugin::Op::install, "/opt/b")["ok"]);
        EXPECT_NE(read(at(hs[i].config))->find("/opt/b/bin/sutra"), std::string::npos);
        EXPECT_EQ(read(at(hs[i].config))->find("/opt/a/bin/sutra"), std::string::npos);
        ASSERT_TRUE(call(hs[i].client, Plugin::Op::install, "/opt/b")["ok"]); // reinstall
        ASSERT_TRUE(call(hs[i].client, Plugin::Op::uninstall)["ok"]);
        EXPECT_EQ(read(at(hs[i].config)), configs[i]);
        EXPECT_FALSE(fs::exists(at(hs[i].hooks)));
        EXPECT_FALSE(any_entry(hs[i]));
        EXPECT_TRUE(leftovers().empty());
    }
}

// ---- 7. Reinstalls keep the user's own keys and `enabled` choice; odd shapes and read-only
// files are refused, not overwritten.

TEST_F(SafeInstallTest, ReinstallKeepsTheUsersKeysAndChoice) {
    // OpenCode: the user turned our server off and gave it an environment.
    const std::string oc = at("config/opencode/opencode.json");
    ASSERT_TRUE(call("opencode", Plugin::Op::install, "/opt/a")["ok"]);
    json doc = json::parse(*read(oc));
    doc["mcp"]["sutra"]["enabled"] = false;
    doc["mcp"]["sutra"]["environment"] = {{"A", "1"}};
    put(oc, doc.dump(2));
    ASSERT_TRUE(call("opencode", Plugin::Op::install, "/opt/b")["ok"]);
    doc = json::parse(*read(oc));
    EXPECT_EQ(doc["mcp"]["sutra"]["enabled"], false);
    EXPECT_EQ(doc["mcp"]["sutra"]["environment"]["A"], "1");
    EXPECT_EQ(doc["mcp"]["sutra"]["command"][0], "/opt/b/bin/sutra");

    // Claude Code: env and timeout on our server, and a timeout on our hook.
    const std::string cj = at("claude/.claude.json");
    const std::string settings = at("claude/settings.json");
    ASSERT_TRUE(call("claude", Plugin::Op::install, "/opt/a")["ok"]);
    doc = json::parse(*read(cj));
    doc["mcpServers"]["sutra"]["env"] = {{"B", "2"}};
    put(cj, doc.dump(2));
    doc = json::parse(*read(settings));
    doc["hooks"]["PostToolUse"][0]["hooks"][0]["timeout"] = 99;
    put(settings, doc.dump(2));
    ASSERT_TRUE(call("claude", Plugin::Op::install, "/opt/b")["ok"]);
    doc = json::parse(*read(cj));
    EXPECT_EQ(doc["mcpServers"]["sutra"]["env"]["B"], "2");
    EXPECT_EQ(doc["mcpServers"]["sutra"]["command"], "/opt/b/bin/sutra");
    doc = json::parse(*read(settings));
    EXPECT_EQ(doc["hooks"]["PostToolUse"].size(), 1u);
    EXPECT_EQ(doc["hooks"]["PostToolUse"][0]["hooks"][0]["timeout"], 99);
    EXPECT_EQ(doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
              "/opt/b/bin/sutra-host --adapter claude");

    // Codex: `enabled = false` and an env subtable on our server.
    const std::string toml = at("codex/config.toml");
    ASSERT_TRUE(call("codex", Plugin::Op::install, "/opt/a")["ok"]);
    put(toml, *read(toml) + "enabled = false\n\n[mcp_servers.sutra.env]\nC = \"3\"\n");
    ASSERT_TRUE(call("codex", Plugin::Op::install, "/opt/b")["ok"]) << *read(toml);
    EXPECT_NE(read(toml)->find("enabled = false\n"), std::string::npos) << *read(toml);
    EXPECT_NE(read(toml)->find("[mcp_servers.sutra.env]\nC = \"3\"\n"), std::string::npos);
    EXPECT_NE(read(toml)->find("command = \"/opt/b/bin/sutra\""), std::string::npos);

    // Hermes: a key the user added to our server block.
    const std::string yaml = at("hermes/config.yaml");
    ASSERT_TRUE(call("hermes", Plugin::Op::install, "/opt/a")["ok"]);
    put(yaml, *read(yaml) + "    timeout: 30\n");
    ASSERT_TRUE(call("hermes", Plugin::Op::install, "/opt/b")["ok"]);
    EXPECT_NE(read(yaml)->find("    timeout: 30\n"), std::string::npos) << *read(yaml);
    EXPECT_NE(read(yaml)->find("/opt/b/bin/sutra\""), std::string::npos) << *read(yaml);

    for (const Host& h : hosts()) {
        ASSERT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]);
        EXPECT_FALSE(any_entry(h)) << h.client;
    }
    EXPECT_TRUE(leftovers().empty());
}

TEST_F(SafeInstallTest, OddShapesAndReadOnlyFilesAreRefused) {
    for (const char* client : {"claude", "codex"}) {
        SCOPED_TRACE(client);
        const std::string path =
            at(std::string(client) == "claude" ? "claude/settings.json" : "codex/hooks.json");
        const std::string object_hook = "{\"hooks\": {\"PostToolUse\": {\"matcher\": \"Bash\"}}}\n";
        put(path, object_hook);
        json r = call(client, Plugin::Op::install);
        EXPECT_FALSE(r["ok"]) << r.dump();
        EXPECT_NE(r.value("error", std::string()).find(path), std::string::npos) << r.dump();
        EXPECT_EQ(read(path), object_hook);

        const std::string mine = "{\"model\": \"x\"}\n";
        put(path, mine);
        ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
        r = call(client, Plugin::Op::install);
        EXPECT_FALSE(r["ok"]) << r.dump();
        EXPECT_NE(r.value("error", std::string()).find("read-only"), std::string::npos);
        EXPECT_NE(r.value("error", std::string()).find(path), std::string::npos);
        EXPECT_EQ(read(path), mine);
        ::chmod(path.c_str(), 0644);
        fs::remove(path);
    }
    EXPECT_TRUE(leftovers().empty());
}

// ---- 8. Several files: all or nothing, and the error names the user's file.

TEST_F(SafeInstallTest, AFailedWriteLeavesEveryFileAsItWas) {
    // .claude.json links to a path under a regular file: writing it fails after settings.json
    // was planned (and, in the write order, written).
    fs::create_directories(at("claude"));
    test::write_file(at("blocker"), "a file, not a folder");
    fs::create_symlink(at("blocker/claude.json"), at("claude/.claude.json"));
    const std::string settings = "{\"model\": \"opus\"}\n";
    test::write_file(at("claude/settings.json"), settings);
    const json r = call("claude", Plugin::Op::install);
    EXPECT_FALSE(r["ok"]) << r.dump();
    const std::string error = r.value("error", std::string());
    EXPECT_NE(error.find(at("blocker/claude.json")), std::string::npos) << error;
    EXPECT_EQ(error.find("sutra-tmp"), std::string::npos) << error;
    EXPECT_EQ(read(at("claude/settings.json")), settings);
    EXPECT_TRUE(leftovers().empty()) << leftovers().front();
}

// A write that really fails half-way (a file size limit): settings.json was already created
// when .claude.json could not be written; it is removed again.
TEST_F(SafeInstallTest, AWriteFailingHalfWayIsRolledBack) {
    fs::create_directories(at("claude"));
    const std::string big = "{\n  \"note\": \"" + std::string(4000, 'x') + "\"\n}\n";
    test::write_file(at("claude/.claude.json"), big);
    rlimit old{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = 2048;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const json r = call("claude", Plugin::Op::install);
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    EXPECT_FALSE(r["ok"]) << r.dump();
    const std::string error = r.value("error", std::string());
    EXPECT_EQ(error.rfind(at("claude/.claude.json") + ": ", 0), 0u) << error;
    EXPECT_NE(error.find("put back"), std::string::npos) << error;
    EXPECT_FALSE(fs::exists(at("claude/settings.json"))) << "the first file stayed written";
    EXPECT_EQ(read(at("claude/.claude.json")), big);
    EXPECT_TRUE(leftovers().empty());
}

// ---- 9. OpenCode reads JSONC: comments and trailing commas are accepted and kept, and an
// opencode.jsonc alone is the file edited.

TEST_F(SafeInstallTest, OpenCodeJsoncIsEditedInPlace) {
    const std::string jsonc = "{\n  // my settings\n  \"theme\": \"dark\", /* inline */\n"
                              "  \"mcp\": {\n    \"mine\": {\"type\": \"local\", \"command\": "
                              "[\"m\"],},\n  },\n}\n";
    for (const std::string name : {"opencode.json", "opencode.jsonc"}) {
        SCOPED_TRACE(name);
        fs::remove_all(at("config/opencode"));
        const std::string path = at("config/opencode/" + name);
        put(path, jsonc);
        const json r = call("opencode", Plugin::Op::install);
        ASSERT_TRUE(r["ok"]) << r.dump();
        const std::string installed = *read(path);
        EXPECT_NE(installed.find("// my settings"), std::string::npos) << installed;
        EXPECT_NE(installed.find("/* inline */"), std::string::npos);
        EXPECT_NE(installed.find("\"mine\": {\"type\": \"local\", \"command\": [\"m\"],},"),
                  std::string::npos)
            << installed;
        EXPECT_NE(installed.find("--restore-tool"), std::string::npos);
        EXPECT_EQ(fs::exists(at("config/opencode/opencode.json")), name == "opencode.json")
            << "a second config beside opencode.jsonc";
        EXPECT_TRUE(call("opencode", Plugin::Op::detect)["mcp"]["registered"]);
        ASSERT_TRUE(call("opencode", Plugin::Op::uninstall)["ok"]);
        EXPECT_EQ(read(path), jsonc);
        EXPECT_TRUE(leftovers().empty());
    }
}

// ---- 10. Doctor and the CLI name the file they cannot read and fail; an unknown client fails.

TEST_F(SafeInstallTest, DoctorNamesAnUnreadableConfigAndFails) {
    const std::string sutra = SUTRA_BINARY;
    const std::vector<std::pair<const char*, std::pair<std::string, std::string>>> broken = {
        {"claude", {"claude/settings.json", "{ broken"}},
        {"codex", {"codex/hooks.json", "{ broken"}},
        {"hermes", {"hermes/config.yaml", "plugins: [a\n"}},
    };
    for (const auto& [client, file] : broken) {
        SCOPED_TRACE(client);
        put(at(file.first), file.second);
        int status = 0;
        const std::string out =
            test::run_command(sutra + " doctor --client " + client + " 2>&1", &status);
        EXPECT_NE(status, 0) << out;
        EXPECT_NE(out.find(at(file.first)), std::string::npos) << out;
        fs::remove(at(file.first));
    }
    int status = 0;
    const std::string out = test::run_command(sutra + " doctor --client bogus 2>&1", &status);
    EXPECT_NE(status, 0);
    EXPECT_NE(out.find("bogus"), std::string::npos) << out;
}

// ---- Issue 23, item 4: doctor names each host's own switch that turns sutra off, and each
// config it cannot parse with the reason, fails, and claims no coverage either way.

bool claims_coverage(const std::string& out) {
    return out.find("sutra sees every shell output") != std::string::npos ||
           out.find("sutra does not see") != std::string::npos;
}

TEST_F(SafeInstallTest, DoctorNamesEachHostsOwnSwitchAndClaimsNoCoverage) {
    const std::string sutra = SUTRA_BINARY;
    struct Switch {
        const char* client;
        std::string file;
        std::function<std::string(const std::string&)> turn_off;
        std::string named;
    };
    const std::vector<Switch> switches = {
        {"claude", "claude/settings.json",
         [](const std::string& text) {
             ojson doc = ojson::parse(text);
             doc["disableAllHooks"] = true;
             return doc.dump(2) + "\n";
         },
         "sets \"disableAllHooks\": true"},
        {"codex", "codex/config.toml",
         [](const std::string& text) { return text + "\n[features]\nhooks = false\n"; },
         "sets [features] hooks = false"},
        {"opencode", "config/opencode/opencode.json",
         [](const std::string& text) {
             ojson doc = ojson::parse(text);
             doc["plugins"] = ojson::array({"-sutra"});
             return doc.dump(2) + "\n";
         },
         "lists \"-sutra\" in \"plugins\""},
    };
    for (const Switch& s : switches) {
        SCOPED_TRACE(s.client);
        int status = 0;
        std::string out =
            test::run_command(sutra + " install --client " + s.client + " 2>&1", &status);
        ASSERT_EQ(status, 0) << out;
        out = test::run_command(sutra + " doctor --client " + s.client + " 2>&1", &status);
        EXPECT_TRUE(claims_coverage(out)) << out;
        const std::string path = at(s.file);
        put(path, s.turn_off(*read(path)));
        out = test::run_command(sutra + " doctor --client " + s.client + " 2>&1", &status);
        EXPECT_NE(status, 0) << out;
        EXPECT_NE(out.find("  problem: " + path + " " + s.named), std::string::npos) << out;
        EXPECT_FALSE(claims_coverage(out)) << out;
        if (std::string(s.client) != "claude") {
            EXPECT_EQ(out.find("disableAllHooks"), std::string::npos) << out;
        }
        out = test::run_command(sutra + " detect 2>&1", &status);
        EXPECT_NE(out.find(path + " " + s.named), std::string::npos) << out;
    }
}

TEST_F(SafeInstallTest, DoctorNamesEachUnparsableConfigWithItsReason) {
    const std::string sutra = SUTRA_BINARY;
    const std::vector<std::pair<const char*, std::pair<std::string, std::string>>> broken = {
        {"claude", {"claude/.claude.json", "{\n  \"a\": ]\n}\n"}},
        {"codex", {"codex/config.toml", "model = \"x\"\n[broken\n"}},
        {"opencode", {"config/opencode/opencode.json", "{\n  \"mcp\": {\n"}},
    };
    for (const auto& [client, file] : broken) {
        SCOPED_TRACE(client);
        int status = 0;
        std::string out =
            test::run_command(sutra + " install --client " + client + " 2>&1", &status);
        ASSERT_EQ(status, 0) << out;
        const std::string path = at(file.first);
        const auto installed = read(path);
        put(path, file.second);
        out = test::run_command(sutra + " doctor --client " + client + " 2>&1", &status);
        EXPECT_NE(status, 0) << out;
        EXPECT_NE(out.find("problem: " + path + " is not valid"), std::string::npos) << out;
        EXPECT_NE(out.find("line "), std::string::npos) << "the reason: " << out;
        EXPECT_FALSE(claims_coverage(out)) << out;
        put(path, installed);
        test::run_command(sutra + " uninstall --client " + std::string(client), &status);
    }
}

// A missing hook binary: the shell's exit status, decoded from the wait status.
TEST_F(SafeInstallTest, DoctorDecodesTheWaitStatus) {
    const std::string sutra = SUTRA_BINARY;
    int status = 0;
    std::string out = test::run_command(sutra + " install --client claude 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    const std::string path = at("claude/settings.json");
    ojson doc = ojson::parse(*read(path));
    for (auto& group : doc["hooks"]["PostToolUse"])
        for (auto& h : group["hooks"]) h["command"] = "/nonexistent/sutra-host --adapter claude";
    put(path, doc.dump(2) + "\n");
    out = test::run_command(sutra + " doctor --client claude 2>&1", &status);
    EXPECT_NE(status, 0) << out;
    EXPECT_NE(out.find("exited with status 127 (command not found)"), std::string::npos) << out;
    EXPECT_EQ(out.find("32512"), std::string::npos) << out;
}

// ---- Coverage lines (issue 13, item 2): install and doctor say what sutra does not see and
// the exact command that covers it; doctor prints the view size each installed route gave.

TEST_F(SafeInstallTest, InstallAndDoctorSayWhatIsUncovered) {
    const std::string sutra = SUTRA_BINARY;
    int status = 0;
    std::string out = test::run_command(sutra + " install --client claude 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    const std::string claude_line =
        "claude: sutra does not see the output of failing Bash commands in sessions whose allow "
        "rules judge Bash commands one by one (the auto route leaves them as written; allow "
        "`Bash` as a whole, or opt in); to cover it: sutra install --client claude --wrap-bash";
    EXPECT_NE(out.find(claude_line + "\n"), std::string::npos) << out;
    out = test::run_command(sutra + " doctor --client claude 2>&1", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("  " + claude_line + "\n"), std::string::npos) << out;
    EXPECT_NE(out.find("  PostToolUse hook: a sample of "), std::string::npos) << out;
    EXPECT_NE(out.find(" bytes reaches the model as a view of "), std::string::npos) << out;

    out = test::run_command(sutra + " install --client claude --wrap-bash 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    EXPECT_EQ(out.find("sutra does not see"), std::string::npos) << out;
    EXPECT_NE(out.find("claude: sutra sees every shell output the host shows the model\n"),
              std::string::npos)
        << out;
    out = test::run_command(sutra + " doctor --client claude 2>&1", &status);
    EXPECT_NE(out.find("PreToolUse route for Bash (always; the sample as in a session that allows "
                       "every Bash command): a failing sample of about "),
              std::string::npos)
        << out;

    out = test::run_command(sutra + " install --client codex 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    const std::string codex_line =
        "codex: sutra does not see shell output beyond Codex's output cap "
        "(tool_output_token_limit unset: 10,000 bytes): Codex cuts it before the hook runs; to "
        "cover it: sutra install --client codex --raise-output-cap";
    EXPECT_NE(out.find(codex_line + "\n"), std::string::npos) << out;
    out = test::run_command(sutra + " doctor --client codex 2>&1", &status);
    EXPECT_NE(out.find("  " + codex_line + "\n"), std::string::npos) << out;
    EXPECT_NE(out.find("  PostToolUse hook: a sample of "), std::string::npos) << out;

    // With the hook gone (removed by hand), a plain `sutra uninstall` still finds the MCP
    // entries sutra left and removes them.
    fs::remove(at("claude/settings.json"));
    fs::remove(at("codex/hooks.json"));
    out = test::run_command(sutra + " uninstall 2>&1", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_FALSE(fs::exists(at("claude/.claude.json"))) << out;
    EXPECT_FALSE(fs::exists(at("codex/config.toml"))) << out;
    EXPECT_TRUE(leftovers().empty());
}

// ---- 11. Uninstall removes only the backups install wrote: a FILE.sutra-backup that was there
// before install (the user's own, or one an earlier install left once the user took sutra's
// entries out by hand) stays byte for byte, and the user's files still come back exactly.

// True for a backup's name (FILE.sutra-backup or FILE.sutra-backup-N), not sutra's record.
bool is_backup_name(const std::string& path) {
    return path.ends_with(".sutra-backup") || path.find(".sutra-backup-") != std::string::npos;
}

TEST_F(SafeInstallTest, BackupsThatWereThereBeforeInstallStay) {
    const std::vector<std::string> configs = {"{\n  \"theme\": \"dark\"\n}\n", "model = \"x\"\n",
                                              "{\n  \"mcp\": {}\n}\n", "model: x\n"};
    const auto hs = hosts();
    for (std::size_t i = 0; i < hs.size(); ++i) {
        SCOPED_TRACE(hs[i].client);
        fs::remove_all(box.dir.path);
        fs::create_directories(box.dir.path);
        const std::string config = at(hs[i].config);
        const std::string hooks = at(hs[i].hooks);
        // Claude Code's and Codex's hook file is the user's settings; OpenCode's and Hermes'
        // is sutra's own plugin file, absent before install.
        const bool users_hooks = hs[i].hooks.ends_with(".json");
        const std::optional<std::string> hooks_text =
            users_hooks ? std::optional<std::string>("{\n  \"model\": \"opus\"\n}\n")
                        : std::nullopt;
        put(config, configs[i]);
        put(hooks, hooks_text);
        std::map<std::string, std::string> kept = {
            {config + ".sutra-backup", "the user's own copy\n"},
            {hooks + ".sutra-backup", "another copy of their own\n"}};
        for (const auto& [path, text] : kept) put(path, text);

        if (!succeeds(hs[i].client, Plugin::Op::install)) continue;
        if (!succeeds(hs[i].client, Plugin::Op::uninstall)) continue;
        EXPECT_EQ(read(config), configs[i]);
        EXPECT_EQ(read(hooks), hooks_text);
        for (const auto& [path, text] : kept) EXPECT_EQ(read(path), text) << path;
        EXPECT_EQ(leftovers().size(), kept.size());

        // An install, then the user takes sutra's entries out by hand: its backups are now
        // files that were there before the next install, and stay through its uninstall.
        if (!succeeds(hs[i].client, Plugin::Op::install)) continue;
        for (const auto& path : leftovers())
            if (is_backup_name(path) && !kept.contains(path)) kept[path] = *read(path);
        EXPECT_EQ(kept.size(), users_hooks ? 4u : 3u);
        put(config, configs[i]);
        if (users_hooks) put(hooks, hooks_text);
        if (!succeeds(hs[i].client, Plugin::Op::install)) continue;
        if (!succeeds(hs[i].client, Plugin::Op::uninstall)) continue;
        EXPECT_EQ(read(config), configs[i]);
        EXPECT_EQ(read(hooks), hooks_text);
        for (const auto& [path, text] : kept) EXPECT_EQ(read(path), text) << path;
        EXPECT_EQ(leftovers().size(), kept.size());
    }
}

// ---- 12. A hook is sutra's only when it is exactly what sutra writes: a user's own hook whose
// command merely runs sutra-host (a wrapper, extra flags) is left alone by install, which adds
// sutra's beside it, and by uninstall; sutra's own from another prefix is still sutra's.

std::string settings_with(const std::string& event, const ojson& group) {
    return ojson{{"hooks", {{event, ojson::array({group})}}}}.dump(2) + "\n";
}

TEST_F(SafeInstallTest, AUsersHookThatMerelyRunsSutraHostStaysTheirs) {
    for (const Host& h : hosts()) {
        const std::string client = h.client;
        if (client != "claude" && client != "codex") continue; // no command hooks to share
        const std::string matcher = client == "claude" ? "Bash|PowerShell|Grep|mcp__.*" : "Bash";
        const std::string ours = "/opt/sutra/bin/sutra-host --adapter " + client;
        const std::string path = at(h.hooks);
        for (const std::string& command :
             {"~/bin/log-then-run.sh sutra-host --adapter " + client,
              "/opt/sutra/bin/sutra-host --verbose --adapter " + client,
              "echo sutra-host; /opt/sutra/bin/sutra-host --adapter " + client, "FOO=1 " + ours}) {
            SCOPED_TRACE(client + ": " + command);
            const std::string text = settings_with(
                "PostToolUse",
                {{"matcher", matcher},
                 {"hooks", ojson::array({{{"type", "command"}, {"command", command}}})}});
            put(path, text);
            if (!succeeds(h.client, Plugin::Op::install)) continue;
            const ojson doc = ojson::parse(*read(path));
            const ojson& groups = doc["hooks"]["PostToolUse"];
            EXPECT_EQ(groups[0]["hooks"][0]["command"], command);
            EXPECT_EQ(groups.size(), 2u) << doc.dump(2);
            if (groups.size() == 2u) {
                EXPECT_EQ(groups[1]["hooks"][0]["command"], ours);
            }
            EXPECT_EQ(read(path + ".sutra-backup"), text);
            if (!succeeds(h.client, Plugin::Op::uninstall)) continue;
            EXPECT_EQ(read(path), text);
            EXPECT_TRUE(leftovers().empty());
        }
        // Sutra's exact command under another matcher is not what sutra wrote either.
        const std::string moved = settings_with(
            "PostToolUse", {{"matcher", "Read"},
                            {"hooks", ojson::array({{{"type", "command"}, {"command", ours}}})}});
        put(path, moved);
        ASSERT_TRUE(call(h.client, Plugin::Op::install)["ok"]);
        ASSERT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]);
        EXPECT_EQ(read(path), moved);

        // An upgrade from a prefix that needs quoting updates sutra's own entry in place.
        put(path, std::nullopt);
        ASSERT_TRUE(call(h.client, Plugin::Op::install, "/opt/my sutra")["ok"]);
        ASSERT_TRUE(call(h.client, Plugin::Op::install, "/opt/b")["ok"]);
        const ojson doc = ojson::parse(*read(path));
        ASSERT_EQ(doc["hooks"]["PostToolUse"].size(), 1u) << doc.dump(2);
        EXPECT_EQ(doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
                  "/opt/b/bin/sutra-host --adapter " + client);
        ASSERT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]);
        EXPECT_FALSE(fs::exists(path));
        EXPECT_TRUE(leftovers().empty());
    }
    // Claude Code's status line: `sutra statusline` through the user's own filter is theirs.
    const std::string path = at("claude/settings.json");
    const std::string text =
        "{\n  \"statusLine\": {\"type\": \"command\", \"command\": \"sutra statusline | cut "
        "-c1-40\"}\n}\n";
    put(path, text);
    ASSERT_TRUE(call("claude", Plugin::Op::install)["ok"]);
    EXPECT_EQ(ojson::parse(*read(path))["statusLine"]["command"], "sutra statusline | cut -c1-40");
    ASSERT_TRUE(call("claude", Plugin::Op::uninstall)["ok"]);
    EXPECT_EQ(read(path), text);
    EXPECT_TRUE(leftovers().empty());
}

// ---- The property: any sequence of installs (two prefixes), user edits, reinstalls and
// uninstalls, then `sutra uninstall`, leaves no sutra entry, no backup, and every byte the
// user wrote.

// One user edit of `h`'s config: a new key or table the user owns, named by `n`.
std::string user_edit(const Host& h, const std::optional<std::string>& text, int n) {
    const std::string key = "user" + std::to_string(n);
    if (h.config.ends_with(".toml"))
        return text.value_or("") + "\n# note " + key + "\n[" + key + "]\nx = " + std::to_string(n) +
               "\n";
    if (h.config.ends_with(".yaml"))
        return text.value_or("") + key + ": " + std::to_string(n) + "\n";
    ojson doc = text ? ojson::parse(*text) : ojson::object();
    doc[key] = n;
    return doc.dump(2) + "\n";
}

TEST_F(SafeInstallTest, AnySequenceThenUninstallLeavesOnlyTheUsersBytes) {
    for (unsigned seed = 1; seed <= 12; ++seed) {
        std::mt19937 rng(seed);
        for (const Host& h : hosts()) {
            SCOPED_TRACE(std::string(h.client) + " seed " + std::to_string(seed));
            fs::remove_all(box.dir.path);
            fs::create_directories(box.dir.path);
            const std::string path = at(h.config);
            const std::optional<std::string> original =
                seed % 3 == 0 ? std::nullopt
                              : std::optional<std::string>(user_edit(h, std::nullopt, 0));
            put(path, original);
            std::vector<std::string> keys;
            std::string trace;
            for (int step = 0; step < 8; ++step) {
                const int op = static_cast<int>(rng() % 5);
                if (op == 0 || op == 1) {
                    const std::string prefix = op == 0 ? "/opt/a" : "/opt/b";
                    trace += " install " + prefix;
                    ASSERT_TRUE(call(h.client, Plugin::Op::install, prefix)["ok"]) << trace;
                } else if (op == 2) {
                    trace += " edit";
                    put(path, user_edit(h, read(path), step + 1));
                    keys.push_back("user" + std::to_string(step + 1));
                } else if (op == 3) {
                    trace += " uninstall";
                    ASSERT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]) << trace;
                } else {
                    trace += " reinstall";
                    ASSERT_TRUE(call(h.client, Plugin::Op::install, "/opt/b")["ok"]) << trace;
                }
            }
            SCOPED_TRACE(trace);
            ASSERT_TRUE(call(h.client, Plugin::Op::uninstall)["ok"]);
            EXPECT_FALSE(any_entry(h));
            EXPECT_FALSE(fs::exists(at(h.hooks)));
            EXPECT_TRUE(leftovers().empty());
            const auto final_text = read(path);
            if (keys.empty()) {
                EXPECT_EQ(final_text, original);
            } else {
                ASSERT_TRUE(final_text.has_value());
                for (const auto& k : keys) {
                    EXPECT_NE(final_text->find(k), std::string::npos) << k;
                }
                if (original) {
                    EXPECT_NE(final_text->find("user0"), std::string::npos);
                }
            }
        }
    }
}

} // namespace
} // namespace sutra::host
