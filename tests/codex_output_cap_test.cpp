// Codex's output cap (plugins/codex/output_cap.*): the raised line and its exact undo, and
// `sutra install --client codex --raise-output-cap` then `sutra uninstall` through the real
// module, byte for byte, with a fake `codex` reporting the hook's trust
// (codex_hook_trust_test.cpp covers each answer).

#include "host/dispatch/plugin_registry.hpp"
#include "plugins/codex/output_cap.hpp"
#include "plugins/common/files.hpp"
#include "tests/codex_fake.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
namespace codex = plugins::codex;

const std::vector<std::string> k_configs = {
    "",
    "model = \"o3\"\n",
    "model = \"o3\"\ntool_output_token_limit = 12000 # my budget\n\n[mcp_servers.mine]\ncommand = "
    "\"x\"\n",
    "\"tool_output_token_limit\"=500",
    "# top comment\n[profiles.a]\ntool_output_token_limit = 5\n",
    "tool_output_token_limit = 1_000\r\nmodel = \"é ✓\"\r\n",
    "model = \"o3\"\n\n[features]\nhooks = true\n",
};

TEST(CodexOutputCap, RaisedThenRestoredIsByteExact) {
    for (const std::string& user : k_configs) {
        const std::string raised = codex::with_raised_cap(user);
        const auto s = codex::read_cap(raised);
        ASSERT_TRUE(s.tokens.has_value()) << user;
        EXPECT_EQ(*s.tokens, codex::k_raised_cap) << user;
        EXPECT_TRUE(s.raised_by_sutra) << user;
        EXPECT_EQ(codex::with_raised_cap(raised), raised) << user; // idempotent
        EXPECT_EQ(codex::without_raised_cap(raised), user) << raised;
        EXPECT_EQ(codex::without_raised_cap(user), user) << user;
        // A table's own key of that name is not the top-level one.
        EXPECT_EQ(raised.find("[profiles.a]\ntool_output_token_limit = 5\n") != std::string::npos,
                  user.find("[profiles.a]") != std::string::npos);
    }
    // A cap at least as high is the user's choice, left alone; a value we cannot read refuses.
    for (const std::string high :
         {"tool_output_token_limit = 65536\n", "tool_output_token_limit = 900000 # big\n"})
        EXPECT_EQ(codex::with_raised_cap(high), high);
    EXPECT_THROW(codex::with_raised_cap("tool_output_token_limit = \"lots\"\n"),
                 std::runtime_error);
    // sutra's line edited by the user is theirs now: uninstall leaves it.
    const std::string edited = "tool_output_token_limit = 70000 # sutra --raise-output-cap\n";
    EXPECT_EQ(codex::without_raised_cap(edited), edited);
    EXPECT_FALSE(codex::read_cap(edited).raised_by_sutra);
}

// Install's and doctor's coverage lines and --raise-output-cap follow one rule: a cap below what
// the option writes is uncovered and names the option; once raised, nothing is.
TEST(CodexOutputCap, CoverageAgreesWithTheRaise) {
    std::vector<std::string> configs = k_configs;
    for (const std::string extra :
         {"tool_output_token_limit = 10000\n", "tool_output_token_limit = 20000\n",
          "tool_output_token_limit = 65535\n", "tool_output_token_limit = 65536\n",
          "tool_output_token_limit = 900000 # big\n", "tool_output_token_limit = \"lots\"\n"})
        configs.push_back(extra);
    for (const std::string& user : configs) {
        const auto s = codex::read_cap(user);
        const auto u = codex::cap_uncovered(user);
        EXPECT_EQ(u.empty(), !codex::cap_cuts(s)) << user;
        if (!s.readable) {
            ASSERT_EQ(u.size(), 1u) << user;
            EXPECT_THROW(codex::with_raised_cap(user), std::runtime_error);
            continue;
        }
        // What --raise-output-cap writes covers it; a cap it leaves alone was covered already.
        const std::string raised = codex::with_raised_cap(user);
        EXPECT_TRUE(codex::cap_uncovered(raised).empty()) << raised;
        EXPECT_EQ(raised == user, u.empty()) << user;
        if (!u.empty()) {
            EXPECT_EQ(u[0]["command"], "sutra install --client codex --raise-output-cap") << user;
        }
    }
    EXPECT_NE(codex::cap_uncovered("")[0]["what"].get<std::string>().find(
                  "tool_output_token_limit unset: 10,000 bytes"),
              std::string::npos);
    EXPECT_NE(codex::cap_uncovered("tool_output_token_limit = 20000\n")[0]["what"]
                  .get<std::string>()
                  .find("tool_output_token_limit = 20000 tokens"),
              std::string::npos);
}

class CodexCapInstall : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    std::string config = box.dir.path + "/codex/config.toml";
    std::string hooks = box.dir.path + "/codex/hooks.json";
    test::FakeCodex fake{box.env, box.dir.path + "/fake"};

    // What Codex's hooks/list says of the hook that `prefix`'s install writes.
    void codex_says(const std::string& status, const std::string& prefix = "/opt/sutra") {
        fake.list_hook(hooks, prefix + "/bin/sutra-host --adapter codex", status);
    }

    json call(Plugin::Op op, bool raise, const std::string& prefix = "/opt/sutra") {
        auto p = registry.load("codex");
        EXPECT_TRUE(p.has_value());
        if (!p) return json();
        const json o = {{"host_program", prefix + "/bin/sutra-host"},
                        {"sutra_program", prefix + "/bin/sutra"},
                        {"dry_run", false},
                        {"raise_output_cap", raise}};
        return json::parse((*p)->call(op, o.dump()).value_or("null"));
    }
    static std::string messages(const json& r) {
        std::string out;
        for (const auto& m : r.value("messages", json::array())) out += m.get<std::string>() + "\n";
        return out;
    }
};

TEST_F(CodexCapInstall, RaisedOnlyOnceTrustedAndUninstallRestoresEveryByte) {
    const std::string trust =
        "[hooks.state.\"" + hooks + ":post_tool_use:0:0\"]\ntrusted_hash = \"sha256:0123\"\n";
    for (const std::string& cap : {std::string(), std::string("tool_output_token_limit = 12000 "
                                                              "# mine\n")}) {
        fs::remove_all(box.dir.path + "/codex");
        fs::create_directories(box.dir.path + "/codex");
        const std::string user = "model = \"o3\"\n" + cap + "\n" + trust;
        test::write_file(config, user);

        // The hook is new: Codex asks for its trust again, so the cap stays.
        json r = call(Plugin::Op::install, true);
        ASSERT_TRUE(r.value("ok", false)) << r.dump();
        EXPECT_NE(messages(r).find("output cap not raised"), std::string::npos) << messages(r);
        EXPECT_FALSE(codex::read_cap(test::read_file(config)).raised_by_sutra);
        // Trusted (Codex says so) and unchanged: raised.
        codex_says("trusted");
        r = call(Plugin::Op::install, true);
        ASSERT_TRUE(r.value("ok", false)) << r.dump();
        EXPECT_NE(messages(r).find("raised to 65536"), std::string::npos) << messages(r);
        const auto s = codex::read_cap(test::read_file(config));
        EXPECT_TRUE(s.raised_by_sutra);
        EXPECT_EQ(s.tokens.value_or(0), codex::k_raised_cap);
        const json d =
            json::parse((*registry.load("codex"))->call(Plugin::Op::doctor, "{}").value());
        EXPECT_FALSE(d["output_cap"]["cuts_before_sutra"]);
        EXPECT_TRUE(d["output_cap"]["hook_trusted"]);
        EXPECT_FALSE(d["output_cap"]["problem"]);
        const std::string installed = test::read_file(config);
        EXPECT_FALSE(call(Plugin::Op::install, true).value("changed", true)); // idempotent
        EXPECT_EQ(test::read_file(config), installed);

        ASSERT_TRUE(call(Plugin::Op::uninstall, false).value("ok", false));
        EXPECT_EQ(test::read_file(config), user);
        EXPECT_FALSE(fs::exists(hooks));
        EXPECT_EQ(plugins::common::backups(config).size(), 0u);
    }
}

// The cap is raised, then sutra is upgraded from a second prefix (the hook and the MCP table
// change in place, the cap goes back until Codex trusts the new hook) and raised again; then `codex
// mcp remove sutra` and a reinstall while the cap is raised: the file still holds sutra's cap, so
// the reinstall is an upgrade and keeps the one backup. Uninstall still finds sutra's entries and
// backup, and config.toml is the user's byte for byte.
TEST_F(CodexCapInstall, UpgradeAndReinstallWhileRaisedThenUninstallIsByteExact) {
    const std::string trust =
        "[hooks.state.\"" + hooks + ":post_tool_use:0:0\"]\ntrusted_hash = \"sha256:0123\"\n";
    for (const bool remove_table : {false, true}) {
        fs::remove_all(box.dir.path + "/codex");
        fs::create_directories(box.dir.path + "/codex");
        const std::string user = "# mine\nmodel = \"o3\"\ntool_output_token_limit = 12000 # my "
                                 "budget\n\n[mcp_servers.mine]\ncommand = \"x\"\n\n" +
                                 trust;
        test::write_file(config, user);
        ASSERT_TRUE(call(Plugin::Op::install, true).value("ok", false));
        codex_says("trusted");
        json r = call(Plugin::Op::install, true);
        ASSERT_NE(messages(r).find("raised to 65536"), std::string::npos) << messages(r);
        const std::string raised = test::read_file(config);
        EXPECT_NE(raised.find("\"--text-only\"]"), std::string::npos) << raised;

        // The upgrade rewrites the hook, whose trust Codex asks for again: the cap goes back to
        // the user's line in the same change, and is raised again once trusted. (Codex reports
        // the new command's hook modified: the trusted hash was the old one's.)
        codex_says("modified", "/usr/local");
        r = call(Plugin::Op::install, true, "/usr/local");
        ASSERT_TRUE(r.value("ok", false)) << r.dump();
        EXPECT_NE(messages(r).find("put back as it was"), std::string::npos) << messages(r);
        std::string now = test::read_file(config);
        EXPECT_FALSE(codex::read_cap(now).raised_by_sutra) << now;
        EXPECT_NE(now.find("tool_output_token_limit = 12000 # my budget\n"), std::string::npos);
        EXPECT_NE(now.find("command = \"/usr/local/bin/sutra\""), std::string::npos) << now;
        EXPECT_EQ(now.find("/opt/sutra"), std::string::npos) << now;
        r = call(Plugin::Op::install, true, "/usr/local");
        ASSERT_NE(messages(r).find("output cap not raised: Codex reports sutra's hook"),
                  std::string::npos)
            << messages(r);
        codex_says("trusted", "/usr/local"); // the user trusted it again in /hooks
        r = call(Plugin::Op::install, true, "/usr/local");
        ASSERT_NE(messages(r).find("raised to 65536"), std::string::npos) << messages(r);
        now = test::read_file(config);
        EXPECT_TRUE(codex::read_cap(now).raised_by_sutra) << now;
        r = call(Plugin::Op::install, true, "/usr/local");
        EXPECT_FALSE(r.value("changed", true)) << r.dump();
        const json d =
            json::parse((*registry.load("codex"))->call(Plugin::Op::detect, "{}").value());
        EXPECT_TRUE(d["mcp"]["registered"]) << d.dump();
        EXPECT_TRUE(d["uncovered"].empty()) << d.dump();

        if (remove_table) {
            // What `codex mcp remove sutra` leaves: the table gone, the raised cap still there.
            const auto at = now.find("\n[mcp_servers.sutra]");
            ASSERT_NE(at, std::string::npos);
            const auto end = now.find("\n[", at + 1);
            test::write_file(config,
                             now.substr(0, at) + (end == std::string::npos ? "" : now.substr(end)));
            ASSERT_TRUE(call(Plugin::Op::install, true, "/usr/local").value("ok", false));
            EXPECT_EQ(plugins::common::backups(config).size(), 1u);
        }

        r = call(Plugin::Op::uninstall, false, "/usr/local");
        ASSERT_TRUE(r.value("ok", false)) << r.dump();
        EXPECT_EQ(test::read_file(config), user) << remove_table;
        EXPECT_FALSE(fs::exists(hooks));
        EXPECT_EQ(plugins::common::backups(config).size(), 0u);
    }
}

TEST_F(CodexCapInstall, UntrustedHookKeepsTheCapAndDoctorSaysItCuts) {
    fs::create_directories(box.dir.path + "/codex");
    const std::string user = "model = \"o3\"\n";
    test::write_file(config, user);
    ASSERT_TRUE(call(Plugin::Op::install, false).value("ok", false));
    codex_says("untrusted");
    const json r = call(Plugin::Op::install, true);
    EXPECT_NE(messages(r).find("output cap not raised: Codex reports sutra's hook (" + hooks +
                               ":post_tool_use:0:0) untrusted"),
              std::string::npos)
        << messages(r);
    EXPECT_EQ(test::read_file(config).find("tool_output_token_limit"), std::string::npos);
    const json d = json::parse((*registry.load("codex"))->call(Plugin::Op::doctor, "{}").value());
    EXPECT_TRUE(d["output_cap"]["cuts_before_sutra"]);
    EXPECT_NE(d["output_cap"]["note"].get<std::string>().find("10,000 bytes"), std::string::npos);
    EXPECT_NE(d["output_cap"]["note"].get<std::string>().find("--raise-output-cap"),
              std::string::npos);
    // A cap raised while the hook is not trusted is reported as a problem.
    test::write_file(config, codex::with_raised_cap(test::read_file(config)));
    const json d2 = json::parse((*registry.load("codex"))->call(Plugin::Op::doctor, "{}").value());
    EXPECT_TRUE(d2["output_cap"]["problem"]);
    EXPECT_EQ(d2["output_cap"]["hook_trust"], "untrusted");
    ASSERT_TRUE(call(Plugin::Op::uninstall, false).value("ok", false));
    EXPECT_EQ(test::read_file(config), user);
}

} // namespace
} // namespace sutra::host
