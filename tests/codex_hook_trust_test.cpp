// Codex's trust of sutra's hook as Codex itself reports it (plugins/codex/app_server.*,
// hook_trust.*): the app-server exchange against a fake `codex` (tests/codex_fake.hpp), its
// failures (hang, flood, early exit, garbage, no program), and what install and doctor make of
// each answer through the real module: the output cap is raised only for a hook Codex lists
// trusted and enabled with sutra's command, and is otherwise left byte for byte as it was.

#include "host/dispatch/plugin_registry.hpp"
#include "plugins/codex/app_server.hpp"
#include "plugins/codex/hook_trust.hpp"
#include "plugins/codex/output_cap.hpp"
#include "tests/codex_fake.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
namespace codex = plugins::codex;
using test::FakeCodex;
using namespace std::chrono_literals;

const std::string k_command = "/opt/sutra/bin/sutra-host --adapter codex";

class CodexHookTrust : public ::testing::Test {
protected:
    test::HostSandbox box;
    std::string home = box.dir.path + "/codex";
    std::string hooks = home + "/hooks.json";
    FakeCodex fake{box.env, box.dir.path + "/fake"};

    codex::HookTrust ask(std::chrono::milliseconds timeout = codex::k_app_server_timeout) {
        return codex::check_hook_trust(home, k_command, timeout);
    }
};

TEST_F(CodexHookTrust, TheExchangeIsCodexsOwn) {
    fake.list_hook(hooks, k_command, "trusted");
    const auto r = codex::list_hooks(fake.program(), home);
    ASSERT_TRUE(r.has_value()) << r.error();
    EXPECT_EQ((*r)["data"][0]["hooks"][0]["trustStatus"], "trusted");
    // CODEX_HOME as the install sees it, run from "/", and the three messages in order.
    EXPECT_EQ(test::read_file(fake.dir() + "/codex_home"), home + "\n");
    EXPECT_EQ(test::read_file(fake.dir() + "/cwd"), "/\n");
    const std::string requests = test::read_file(fake.dir() + "/requests");
    const auto init = requests.find(R"("method":"initialize")");
    const auto initialized = requests.find(R"("method":"initialized")");
    const auto list = requests.find(R"("method":"hooks/list","params":{"cwds":["/"]})");
    ASSERT_NE(list, std::string::npos) << requests;
    EXPECT_LT(init, initialized);
    EXPECT_LT(initialized, list);
}

TEST_F(CodexHookTrust, OnlyTrustedEnabledAndTheSameCommandIsVerified) {
    struct Case {
        std::string status;
        bool enabled;
        std::string command;
        bool verified;
        std::string reported;
    };
    const std::vector<Case> cases = {
        {"trusted", true, k_command, true, "trusted"},
        {"modified", true, k_command, false, "modified"},
        {"untrusted", true, k_command, false, "untrusted"},
        {"trusted", false, k_command, false, "disabled"},
        {"trusted", true, "/usr/local/bin/sutra-host --adapter codex", false, "another command"},
        {"trusted", true, "my-own-hook", false, "not listed"},
    };
    for (const auto& c : cases) {
        fake.list_hook(hooks, c.command, c.status, c.enabled);
        const auto t = ask();
        EXPECT_EQ(t.verified, c.verified) << c.status << " " << c.command;
        EXPECT_EQ(t.status, c.reported) << t.why;
        EXPECT_FALSE(t.why.empty());
    }
    // Another file's hook with our command is not ours; nor is another event's.
    fake.list_hook(box.dir.path + "/proj/.codex/hooks.json", k_command, "trusted");
    EXPECT_EQ(ask().status, "not listed");
    EXPECT_FALSE(codex::judge_hooks_list(json::object(), hooks, k_command).verified);
    EXPECT_FALSE(codex::judge_hooks_list(json{{"data", "x"}}, hooks, k_command).verified);
}

TEST_F(CodexHookTrust, NoAnswerIsNeverTrust) {
    // Garbage, a result that is no object, an error, an early exit.
    for (const std::string garbage : {"not json at all", R"({"id":2,"result":"trusted"})",
                                      R"({"id":2,"error":{"code":-32601,"message":"no"}})", ""}) {
        fake.set_answer(garbage);
        const auto t = ask();
        EXPECT_FALSE(t.verified) << garbage;
        EXPECT_EQ(t.status, "no answer") << garbage;
    }
    fake.set_mode(FakeCodex::Mode::quit); // exits before reading: no SIGPIPE may kill the caller
    for (int i = 0; i < 5; ++i) EXPECT_EQ(ask().status, "no answer");
    // More than the bound, without an answer.
    fake.set_mode(FakeCodex::Mode::flood);
    const auto flood = codex::list_hooks(fake.program(), home, 20s, 64 * 1024);
    ASSERT_FALSE(flood.has_value());
    EXPECT_NE(flood.error().find("more than 65536 bytes"), std::string::npos) << flood.error();
    // No program, or one that does not run.
    box.env.set("SUTRA_CODEX_BIN", "");
    EXPECT_EQ(ask().status, "no codex");
    box.env.set("SUTRA_CODEX_BIN", box.dir.path + "/nowhere/codex");
    EXPECT_EQ(ask().status, "no codex");
    test::write_file(box.dir.path + "/not-a-program", "\x7f"
                                                      "ELF garbage");
    fs::permissions(box.dir.path + "/not-a-program", fs::perms::owner_all);
    box.env.set("SUTRA_CODEX_BIN", box.dir.path + "/not-a-program");
    EXPECT_EQ(ask().status, "no answer");
}

TEST_F(CodexHookTrust, AHangIsCutAtTheDeadlineWithItsWholeGroup) {
    fake.set_mode(FakeCodex::Mode::hang);
    const auto start = std::chrono::steady_clock::now();
    const auto t = ask(1s);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
    EXPECT_FALSE(t.verified);
    EXPECT_NE(t.why.find("within 1 s"), std::string::npos) << t.why;
    // The fake's own child was killed with it (gone, or a zombie left for init to reap).
    const int sleeper = std::stoi(test::read_file(fake.dir() + "/sleep_pid"));
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) {
        const std::string stat = "/proc/" + std::to_string(sleeper) + "/stat";
        gone = !fs::exists(stat) || test::read_file(stat).find(") Z ") != std::string::npos;
        if (!gone) std::this_thread::sleep_for(10ms);
    }
    EXPECT_TRUE(gone);
}

TEST_F(CodexHookTrust, FoundInAbsolutePathEntriesOnly) {
    box.env.set("SUTRA_CODEX_BIN", std::nullopt);
    const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    box.env.set("PATH", "/nonexistent:" + fake.dir());
    EXPECT_EQ(codex::find_codex(), fake.program());
    // A relative entry would run a `codex` from whatever folder install runs in.
    box.env.set("PATH", "fake:.:");
    EXPECT_EQ(codex::find_codex(), "");
    box.env.set("PATH", path);
    box.env.set("SUTRA_CODEX_BIN", fake.program());
    EXPECT_EQ(codex::find_codex(), fake.program());
}

// Through the real module: install with --raise-output-cap and doctor for each answer.
class CodexTrustInstall : public CodexHookTrust {
protected:
    PluginRegistry registry{box.build_tree()};
    std::string config = home + "/config.toml";

    json call(Plugin::Op op, bool raise) {
        auto p = registry.load("codex");
        EXPECT_TRUE(p.has_value());
        if (!p) return json();
        const json o = {{"host_program", "/opt/sutra/bin/sutra-host"},
                        {"sutra_program", "/opt/sutra/bin/sutra"},
                        {"dry_run", false},
                        {"raise_output_cap", raise}};
        return json::parse((*p)->call(op, o.dump()).value_or("null"));
    }
    json doctor() { return call(Plugin::Op::doctor, false)["output_cap"]; }
    static std::string messages(const json& r) {
        std::string out;
        for (const auto& m : r.value("messages", json::array())) out += m.get<std::string>() + "\n";
        return out;
    }
};

TEST_F(CodexTrustInstall, RaisedOnlyWhenCodexReportsTrustedEnabledAndTheSameCommand) {
    fs::create_directories(home);
    test::write_file(config, "model = \"o3\"\n");
    ASSERT_TRUE(call(Plugin::Op::install, false).value("ok", false));
    const std::string user = test::read_file(config);
    struct Case {
        std::string name;
        std::function<void()> set;
        std::string said;
    };
    const std::vector<Case> refused = {
        {"modified", [&] { fake.list_hook(hooks, k_command, "modified"); }, "modified"},
        {"untrusted", [&] { fake.list_hook(hooks, k_command, "untrusted"); }, "untrusted"},
        {"disabled", [&] { fake.list_hook(hooks, k_command, "trusted", false); }, "disabled"},
        {"another command",
         [&] { fake.list_hook(hooks, "/old/bin/sutra-host --adapter codex", "trusted"); },
         "another sutra-host command"},
        {"garbage", [&] { fake.set_answer("}{ garbage"); }, "could not ask Codex"},
        {"no binary", [&] { box.env.set("SUTRA_CODEX_BIN", ""); }, "no codex program"},
    };
    for (const auto& c : refused) {
        c.set();
        const json r = call(Plugin::Op::install, true);
        ASSERT_TRUE(r.value("ok", false)) << c.name << r.dump();
        EXPECT_NE(messages(r).find("output cap not raised: "), std::string::npos) << messages(r);
        EXPECT_NE(messages(r).find(c.said), std::string::npos) << c.name << messages(r);
        EXPECT_EQ(test::read_file(config), user) << c.name;
        box.env.set("SUTRA_CODEX_BIN", fake.program());
    }
    fake.list_hook(hooks, k_command, "trusted");
    const json r = call(Plugin::Op::install, true);
    EXPECT_NE(messages(r).find("raised to 65536 tokens (Codex reports sutra's hook trusted"),
              std::string::npos)
        << messages(r);
    EXPECT_TRUE(codex::read_cap(test::read_file(config)).raised_by_sutra);
    const json d = doctor();
    EXPECT_FALSE(d["problem"]) << d.dump();
    EXPECT_EQ(d["hook_trust"], "trusted");
}

// A cap raised while Codex trusted the hook, which Codex no longer runs: doctor calls it a
// problem naming what Codex reported, and the next install (even without the option) puts the
// user's line back.
TEST_F(CodexTrustInstall, ARaisedCapWithoutTrustIsAProblemAndInstallPutsItBack) {
    fs::create_directories(home);
    const std::string user = "model = \"o3\"\ntool_output_token_limit = 12000 # mine\n";
    test::write_file(config, user);
    ASSERT_TRUE(call(Plugin::Op::install, false).value("ok", false));
    const std::string installed = test::read_file(config);
    fake.list_hook(hooks, k_command, "trusted");
    ASSERT_TRUE(call(Plugin::Op::install, true).value("ok", false));
    ASSERT_TRUE(codex::read_cap(test::read_file(config)).raised_by_sutra);
    for (const std::string status : {"modified", "untrusted"}) {
        fake.list_hook(hooks, k_command, status);
        const json d = doctor();
        EXPECT_TRUE(d["problem"]) << d.dump();
        EXPECT_EQ(d["hook_trust"], status);
        EXPECT_NE(d["note"].get<std::string>().find("Codex reports sutra's hook (" + hooks +
                                                    ":post_tool_use:0:0) " + status),
                  std::string::npos)
            << d.dump();
    }
    fake.list_hook(hooks, k_command, "trusted", false);
    EXPECT_EQ(doctor()["hook_trust"], "disabled");
    const json r = call(Plugin::Op::install, false);
    ASSERT_TRUE(r.value("ok", false)) << r.dump();
    EXPECT_NE(messages(r).find("put back as it was: Codex reports sutra's hook"), std::string::npos)
        << messages(r);
    EXPECT_EQ(test::read_file(config), installed);
    EXPECT_NE(installed.find("tool_output_token_limit = 12000 # mine\n"), std::string::npos);
}

// A cap the user set high themselves is theirs; doctor still says when Codex does not run the
// hook, and asks Codex nothing while the cap cuts anyway.
TEST_F(CodexTrustInstall, DoctorAsksOnlyWhenTheCapLetsWholeOutputsThrough) {
    fs::create_directories(home);
    test::write_file(config, "model = \"o3\"\n");
    ASSERT_TRUE(call(Plugin::Op::install, false).value("ok", false));
    fake.list_hook(hooks, k_command, "untrusted");
    json d = doctor();
    EXPECT_FALSE(d["problem"]);
    EXPECT_TRUE(d["hook_trust"].is_null());
    EXPECT_EQ(fake.calls(), 0);
    // Install without the option asks nothing either while sutra raised nothing.
    ASSERT_TRUE(call(Plugin::Op::install, false).value("ok", false));
    EXPECT_EQ(fake.calls(), 0);

    test::write_file(config, "tool_output_token_limit = 100000\n" + test::read_file(config));
    d = doctor();
    EXPECT_TRUE(d["problem"]) << d.dump();
    EXPECT_NE(d["note"].get<std::string>().find("lower the cap"), std::string::npos);
    box.env.set("SUTRA_CODEX_BIN", "");
    d = doctor();
    EXPECT_TRUE(d["problem"]);
    EXPECT_EQ(d["hook_trust"], "no codex");
    box.env.set("SUTRA_CODEX_BIN", fake.program());
    fake.list_hook(hooks, k_command, "trusted");
    EXPECT_FALSE(doctor()["problem"]);
}

} // namespace
} // namespace sutra::host
