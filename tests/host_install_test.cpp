// Install and uninstall through the modules: backups, idempotence, dry runs, the host's kill
// switch, and the promise that install then uninstall leaves every file byte-identical.

#include "host/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

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
    EXPECT_TRUE(fs::exists(claude_settings + ".sutra-backup")); // kept: the user may want it
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

} // namespace
} // namespace sutra::host
