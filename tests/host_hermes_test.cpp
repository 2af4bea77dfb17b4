// The Hermes module through the dispatcher's hook call, on the shapes of docs/adapters.md, "Hermes"
// (as the installed __init__.py sends them), one store namespace per profile, and its install: the
// plugin folder plus a one-line edit of config.yaml that uninstall undoes byte for byte.

#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string test_log(int lines = 800) {
    std::string out;
    for (int i = 0; i < lines; ++i) out += "test_case_" + std::to_string(i % 9) + " ... ok\n";
    return out + "FAILED test_the_one_that_matters\n";
}

json terminal_output(const std::string& text,
                     const std::string& home,
                     const std::string& command = "pytest") {
    return json{{"hook", "transform_terminal_output"},
                {"command", command},
                {"output", text},
                {"returncode", 1},
                {"hermes_home", home}};
}

json tool_result(const std::string& tool,
                 const std::string& result,
                 const std::string& home,
                 const json& args = json::object()) {
    return json{{"hook", "transform_tool_result"},
                {"tool_name", tool},
                {"args", args},
                {"result", result},
                {"status", "ok"},
                {"hermes_home", home}};
}

std::string envelope(const std::string& output, int exit_code = 0) {
    return json{{"output", output}, {"exit_code", exit_code}, {"error", nullptr}}.dump();
}

class HermesTest : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    std::string home = box.dir.path + "/.hermes";
    std::string config = home + "/config.yaml";
    std::string plugin_dir = home + "/plugins/sutra";
    HermesTest() { box.env.set("HERMES_HOME", std::nullopt); }

    std::string run(const std::string& payload) {
        auto p = registry.load("hermes");
        EXPECT_TRUE(p.has_value());
        if (!p) return "?";
        std::string why;
        return run_hook(**p, payload, why);
    }
    json call(Plugin::Op op, bool dry_run = false, const json& extra = json::object()) {
        auto p = registry.load("hermes");
        EXPECT_TRUE(p.has_value());
        if (!p) return json();
        json options = {{"host_program", "/opt/sutra/bin/sutra-host"}, {"dry_run", dry_run}};
        options.update(extra);
        return json::parse((*p)->call(op, options.dump()).value_or("null"));
    }
    std::vector<std::string> tree(const std::string& dir) {
        std::vector<std::string> out;
        if (!fs::exists(dir)) return out;
        for (const auto& e : fs::recursive_directory_iterator(dir))
            out.push_back(fs::relative(e.path(), dir).string());
        std::sort(out.begin(), out.end());
        return out;
    }
};

TEST_F(HermesTest, TerminalOutputSmallPassesLargeBecomesView) {
    EXPECT_EQ(run(terminal_output("1\n2\n3\n", home).dump()), "");
    const std::string out = run(terminal_output(test_log(), home).dump());
    ASSERT_FALSE(out.empty());
    const json j = json::parse(out);
    const std::string view = j["result"];
    // The markers name the profile's store namespace, or restore would look in the default one.
    EXPECT_NE(view.find("sutra restore --namespace hermes su_"), std::string::npos) << view;
    EXPECT_NE(view.find("FAILED test_the_one_that_matters"), std::string::npos);
}

// transform_terminal_output runs before Hermes cuts the output to `tool_output.max_bytes`
// (default 50,000; then 40% head, 60% tail): the decoded request carries that cut for the stats
// log's figure against it. The terminal's transform_tool_result comes after the cut: none there.
TEST_F(HermesTest, TerminalResultsCarryHermesOwnOutputLimit) {
    auto p = registry.load("hermes");
    ASSERT_TRUE(p.has_value());
    const auto decode = [&](const json& payload) {
        return json::parse((*p)->call(Plugin::Op::decode, payload.dump()).value_or("null"));
    };
    const auto cut_of = [&](const std::string& yaml) {
        fs::create_directories(home);
        test::write_file(config, yaml);
        return decode(terminal_output(test_log(), home))["host_cut"];
    };
    const json default_cut = {{"over", 50000}, {"head", 20000}, {"tail", 30000}};
    EXPECT_EQ(cut_of("model: x\n"), default_cut);
    EXPECT_EQ(cut_of("tool_output:\n  max_lines: 10\n  max_bytes: 1000\nother: 1\n"),
              json({{"over", 1000}, {"head", 400}, {"tail", 600}}));
    EXPECT_EQ(cut_of("tool_output:\n    max_bytes: \"12345\"  # quoted\n"),
              json({{"over", 12345}, {"head", 4938}, {"tail", 7407}}));
    // What Hermes would not take as a positive whole number is its default.
    for (const char* bad : {"0", "-5", "abc", "1.5", "", "99999999999999999999"})
        EXPECT_EQ(cut_of(std::string("tool_output:\n  max_bytes: ") + bad + "\n"), default_cut)
            << bad;
    // A max_bytes of another section, or the section's key at the wrong depth, is not it.
    EXPECT_EQ(cut_of("other:\n  max_bytes: 10\ntool_output:\n  max_lines: 3\n"), default_cut);
    EXPECT_EQ(cut_of("tool_output: {max_bytes: 10}\n"), default_cut);
    // No config, or a home outside Hermes' own layout (never read): the default.
    fs::remove(config);
    EXPECT_EQ(decode(terminal_output(test_log(), home))["host_cut"], default_cut);
    test::write_file(box.dir.path + "/elsewhere/config.yaml", "tool_output:\n  max_bytes: 7\n");
    EXPECT_EQ(decode(terminal_output(test_log(), box.dir.path + "/elsewhere"))["host_cut"],
              default_cut);
    const json after = decode(tool_result("terminal", envelope(test_log()), home));
    EXPECT_EQ(after["action"], "compress");
    EXPECT_FALSE(after.contains("host_cut"));
}

TEST_F(HermesTest, TerminalToolResultKeepsItsEnvelope) {
    const std::string out =
        run(tool_result("terminal", envelope(test_log(), 3), home, {{"command", "pytest"}}).dump());
    ASSERT_FALSE(out.empty());
    const json env = json::parse(json::parse(out)["result"].get<std::string>());
    EXPECT_EQ(env["exit_code"], 3);
    EXPECT_TRUE(env["error"].is_null());
    EXPECT_NE(env["output"].get<std::string>().find("sutra restore --namespace hermes su_"),
              std::string::npos);
}

TEST_F(HermesTest, RestoreReadFileAndUnknownShapesPassThrough) {
    EXPECT_EQ(run(terminal_output(test_log(), home, "sutra restore su_1 --full").dump()), "");
    EXPECT_EQ(run(tool_result("terminal", envelope(test_log()), home,
                              {{"command", "sutra restore su_1 --lines 1-9"}})
                      .dump()),
              "");
    EXPECT_EQ(run(tool_result("read_file", test_log(), home).dump()), "");
    EXPECT_EQ(run(tool_result("mcp_sutra_sutra_restore", test_log(), home).dump()), "");
    EXPECT_EQ(run(tool_result("terminal", test_log(), home).dump()), ""); // not an envelope
    EXPECT_EQ(run("{oops"), "");
    EXPECT_EQ(run(json{{"hook", "post_tool_call"}, {"result", test_log()}}.dump()), "");
    EXPECT_FALSE(run(tool_result("mcp_srv_tool", test_log(), home).dump()).empty());
}

TEST_F(HermesTest, EachProfileHasItsOwnStoreNamespace) {
    const std::string store = box.dir.path + "/store";
    ASSERT_FALSE(run(terminal_output(test_log(), home).dump()).empty());
    ASSERT_FALSE(run(terminal_output(test_log(), home + "/profiles/work").dump()).empty());
    const auto names = tree(store);
    auto has = [&](const std::string& part) {
        for (const auto& n : names)
            if (n.find(part) != std::string::npos) return true;
        return false;
    };
    EXPECT_TRUE(has("hermes-work")) << testing::PrintToString(names);
    bool plain = false;
    for (const auto& n : names)
        if (fs::path(n).filename() == "hermes") plain = true;
    EXPECT_TRUE(plain) << testing::PrintToString(names);
}

// Comments, odd spacing, other plugins and no final newline: all must survive.
const char* const k_user_config = "# my hermes\n"
                                  "model:\n"
                                  "  default: m1   # pinned\n"
                                  "plugins:\n"
                                  "    enabled:\n"
                                  "      - \"other\"\n"
                                  "    disabled: []\n"
                                  "toolsets: [web]";

TEST_F(HermesTest, InstallRoundTripIsByteIdenticalAndIdempotent) {
    fs::create_directories(home);
    test::write_file(config, k_user_config);
    json r = call(Plugin::Op::install);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_EQ(test::read_file(config), "# my hermes\n"
                                       "model:\n"
                                       "  default: m1   # pinned\n"
                                       "plugins:\n"
                                       "    enabled:\n"
                                       "      - \"other\"\n"
                                       "      - sutra\n"
                                       "    disabled: []\n"
                                       "toolsets: [web]");
    EXPECT_EQ(test::read_file(config + ".sutra-backup"), k_user_config);
    const std::string init = test::read_file(plugin_dir + "/__init__.py");
    EXPECT_NE(init.find("SUTRA_HOST = \"/opt/sutra/bin/sutra-host\""), std::string::npos);
    EXPECT_NE(test::read_file(plugin_dir + "/plugin.yaml").find("name: sutra"), std::string::npos);
    const json d = call(Plugin::Op::detect);
    EXPECT_TRUE(d["installed"]);
    EXPECT_EQ(d["command"], "/opt/sutra/bin/sutra-host --adapter hermes");

    const auto installed_tree = tree(home);
    r = call(Plugin::Op::install);
    EXPECT_FALSE(r["changed"]);
    EXPECT_EQ(tree(home), installed_tree);

    r = call(Plugin::Op::uninstall);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_EQ(test::read_file(config), k_user_config);
    EXPECT_EQ(tree(home), (std::vector<std::string>{"config.yaml", "plugins"}));
    EXPECT_FALSE(call(Plugin::Op::uninstall)["changed"]);
}

TEST_F(HermesTest, ConfigShapesEditedMinimally) {
    fs::create_directories(home);
    const std::pair<std::string, std::string> cases[] = {
        {"model: m1\n", "model: m1\nplugins:\n  enabled:\n    - sutra\n"},
        {"model: m1", "model: m1\nplugins:\n  enabled:\n    - sutra\n"},
        {"plugins:\n  isolation: host\nx: 1\n",
         "plugins:\n  enabled:\n    - sutra\n  isolation: host\nx: 1\n"},
        {"plugins:\n  enabled: [a, 'b']  # mine\n",
         "plugins:\n  enabled: [a, 'b', sutra]  # mine\n"},
        {"plugins:\n  enabled: []\n", "plugins:\n  enabled: [sutra]\n"},
        {"plugins:\n  enabled:\n  - a\n  disabled:\n  - b\n",
         "plugins:\n  enabled:\n  - a\n  - sutra\n  disabled:\n  - b\n"},
        {"plugins:\n  enabled:\n", "plugins:\n  enabled:\n    - sutra\n"},
    };
    for (const auto& [before, after] : cases) {
        test::write_file(config, before);
        ASSERT_TRUE(call(Plugin::Op::install)["ok"]) << before;
        EXPECT_EQ(test::read_file(config), after) << before;
        EXPECT_FALSE(call(Plugin::Op::install)["changed"]) << before;
        ASSERT_TRUE(call(Plugin::Op::uninstall)["ok"]) << before;
        EXPECT_EQ(test::read_file(config), before) << before;
        EXPECT_FALSE(fs::exists(config + ".sutra-backup")) << before;
    }
    // Shapes we cannot edit safely: refused, nothing written.
    test::write_file(config, "plugins: {enabled: [a]}\n");
    const json r = call(Plugin::Op::install);
    EXPECT_FALSE(r["ok"]);
    EXPECT_EQ(test::read_file(config), "plugins: {enabled: [a]}\n");
    EXPECT_FALSE(fs::exists(plugin_dir));
}

TEST_F(HermesTest, AbsentConfigDryRunAndEditedAfterInstall) {
    json r = call(Plugin::Op::install, true);
    EXPECT_TRUE(r["changed"]);
    EXPECT_EQ(r["files"].size(), 3u);
    EXPECT_FALSE(fs::exists(home));

    ASSERT_TRUE(call(Plugin::Op::install)["ok"]);
    EXPECT_EQ(test::read_file(config), "plugins:\n  enabled:\n    - sutra\n");
    EXPECT_TRUE(call(Plugin::Op::uninstall, true)["changed"]);
    EXPECT_TRUE(fs::exists(plugin_dir + "/__init__.py")); // dry run
    call(Plugin::Op::uninstall);
    EXPECT_FALSE(fs::exists(config)); // install created it

    fs::create_directories(home);
    test::write_file(config, "model: m1\n");
    call(Plugin::Op::install);
    test::write_file(config, test::read_file(config) + "theme: dark\n"); // the user edits
    r = call(Plugin::Op::uninstall);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_EQ(test::read_file(config), "model: m1\nplugins:\n  enabled:\ntheme: dark\n");
    EXPECT_FALSE(fs::exists(config + ".sutra-backup")); // uninstall leaves no backup
}

TEST_F(HermesTest, HonoursHermesHomeAndProfiles) {
    const std::string custom = box.dir.path + "/elsewhere";
    box.env.set("HERMES_HOME", custom);
    ASSERT_TRUE(call(Plugin::Op::install)["ok"]);
    EXPECT_TRUE(fs::exists(custom + "/plugins/sutra/__init__.py"));
    EXPECT_FALSE(fs::exists(home));
    call(Plugin::Op::uninstall);
    box.env.set("HERMES_HOME", std::nullopt);

    const json profile = {{"profile", "work"}};
    EXPECT_FALSE(call(Plugin::Op::install, false, profile)["ok"]); // no such profile yet
    EXPECT_FALSE(fs::exists(home));
    fs::create_directories(home + "/profiles/work");
    ASSERT_TRUE(call(Plugin::Op::install, false, profile)["ok"]);
    EXPECT_TRUE(fs::exists(home + "/profiles/work/plugins/sutra/__init__.py"));
    EXPECT_NE(test::read_file(home + "/profiles/work/config.yaml").find("- sutra"),
              std::string::npos);
    EXPECT_FALSE(fs::exists(config));
    EXPECT_TRUE(call(Plugin::Op::detect, false, profile)["installed"]);
    EXPECT_FALSE(call(Plugin::Op::detect)["installed"]);
    call(Plugin::Op::uninstall, false, profile);
    EXPECT_FALSE(fs::exists(home + "/profiles/work/config.yaml"));
    EXPECT_FALSE(call(Plugin::Op::install, false, {{"profile", "../x"}})["ok"]);
}

// Issue 23, item 4: `sutra uninstall` and `sutra detect` find every profile sutra installed
// into, and detect, uninstall and doctor take --profile too.
TEST_F(HermesTest, UninstallAndDetectFindEveryProfileSutraInstalledInto) {
    const std::string sutra = SUTRA_BINARY;
    const std::string work = home + "/profiles/work";
    fs::create_directories(work);
    fs::create_directories(home + "/profiles/idle");
    test::write_file(work + "/config.yaml", k_user_config);
    int status = 0;
    std::string out =
        test::run_command(sutra + " install --client hermes --profile work 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    ASSERT_TRUE(fs::exists(work + "/plugins/sutra/__init__.py"));

    out = test::run_command(sutra + " detect 2>&1", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("hermes (profile work)"), std::string::npos) << out;
    EXPECT_EQ(out.find("profile idle"), std::string::npos) << out;
    out = test::run_command(sutra + " detect --profile work 2>&1", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find(work + "/plugins/sutra"), std::string::npos) << out;
    out = test::run_command(sutra + " doctor --client hermes 2>&1", &status);
    EXPECT_NE(out.find("hermes (profile work): hook installed in " + work), std::string::npos)
        << out;

    out = test::run_command(sutra + " uninstall 2>&1", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(out.find("no client to uninstall from"), std::string::npos) << out;
    EXPECT_EQ(test::read_file(work + "/config.yaml"), k_user_config);
    EXPECT_EQ(tree(work), (std::vector<std::string>{"config.yaml", "plugins"}));

    // --profile on uninstall; --client hermes alone takes the default home and every profile.
    test::run_command(sutra + " install --client hermes --profile work", &status);
    ASSERT_EQ(status, 0);
    out = test::run_command(sutra + " uninstall --client hermes --profile work 2>&1", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(test::read_file(work + "/config.yaml"), k_user_config);
    test::run_command(sutra + " install --client hermes --profile work", &status);
    test::run_command(sutra + " install --client hermes", &status);
    ASSERT_TRUE(fs::exists(plugin_dir + "/__init__.py"));
    out = test::run_command(sutra + " uninstall --client hermes 2>&1", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(test::read_file(work + "/config.yaml"), k_user_config);
    EXPECT_FALSE(fs::exists(work + "/plugins/sutra")) << out;
    EXPECT_FALSE(fs::exists(plugin_dir)) << out;
    EXPECT_FALSE(fs::exists(config)) << out;
}

// Issue 23, item 4: Hermes's own switch, a `sutra` in plugins.disabled, is named as such, and
// doctor claims no coverage while it is there.
TEST_F(HermesTest, DoctorNamesPluginsDisabledAndClaimsNoCoverage) {
    const std::string sutra = SUTRA_BINARY;
    fs::create_directories(home);
    test::write_file(config, "plugins:\n  disabled:\n    - other\n");
    int status = 0;
    std::string out = test::run_command(sutra + " install --client hermes 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    out = test::run_command(sutra + " doctor --client hermes 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    EXPECT_NE(out.find("sutra sees every shell output"), std::string::npos) << out;

    std::string text = test::read_file(config);
    text.replace(text.find("    - other\n"), 12, "    - sutra\n");
    test::write_file(config, text);
    out = test::run_command(sutra + " doctor --client hermes 2>&1", &status);
    EXPECT_NE(status, 0) << out;
    EXPECT_NE(out.find("problem: " + config + " lists sutra in plugins.disabled"),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("disableAllHooks"), std::string::npos) << out;
    EXPECT_EQ(out.find("sutra sees every shell output"), std::string::npos) << out;
    test::run_command(sutra + " uninstall --client hermes", &status);
}

} // namespace
} // namespace sutra::host
