// The OpenCode module through the dispatcher's hook call, on the payload shapes of
// docs/adapters.md, "OpenCode" (wrapped by sutra.js as {"hook","input","output",
// "output_file_size"?}), and its install of the plugin file: byte-identical round trip,
// idempotence, dry run, a user's own file left alone.

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

std::string build_log(int lines = 400) {
    std::string out;
    for (int i = 0; i < lines; ++i)
        out += "[INFO] compiling module_" + std::to_string(i % 7) + ".cpp ... ok\n";
    return out + "error: the one line that matters\n";
}

json bash_payload(const std::string& text, const std::string& command = "make", int exit = 0) {
    return json{{"hook", "tool.execute.after"},
                {"input",
                 {{"tool", "bash"},
                  {"sessionID", "ses_1"},
                  {"callID", "call_1"},
                  {"args", {{"command", command}, {"description", "test"}}}}},
                {"output",
                 {{"title", command},
                  {"metadata", {{"output", text}, {"exit", exit}, {"truncated", false}}},
                  {"output", text}}}};
}

json mcp_payload(const std::string& tool, const std::string& text) {
    return json{{"hook", "tool.execute.after"},
                {"input", {{"tool", tool}, {"sessionID", "ses_1"}, {"callID", "c"}, {"args", {}}}},
                {"output", {{"content", json::array({{{"type", "text"}, {"text", text}}})}}}};
}

class OpenCodeTest : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    std::string plugin_file = box.dir.path + "/config/opencode/plugins/sutra.js";

    std::string run(const std::string& payload) {
        auto p = registry.load("opencode");
        EXPECT_TRUE(p.has_value());
        if (!p) return "?";
        std::string why;
        return run_hook(**p, payload, why);
    }
    json call(Plugin::Op op, bool dry_run = false) {
        auto p = registry.load("opencode");
        EXPECT_TRUE(p.has_value());
        if (!p) return json();
        const json options = {{"host_program", "/opt/sutra/bin/sutra-host"}, {"dry_run", dry_run}};
        return json::parse((*p)->call(op, options.dump()).value_or("null"));
    }
};

TEST_F(OpenCodeTest, SmallBashPassesLargeBecomesOutputField) {
    EXPECT_EQ(run(bash_payload("1\n2\n3\n").dump()), "");
    const std::string out = run(bash_payload(build_log()).dump());
    ASSERT_FALSE(out.empty());
    const json j = json::parse(out);
    EXPECT_EQ(j.size(), 1u);
    const std::string view = j["output"];
    EXPECT_NE(view.find("sutra restore su_"), std::string::npos) << view;
    EXPECT_NE(view.find("error: the one line that matters"), std::string::npos);
    EXPECT_LT(view.size(), build_log().size() / 4);
}

TEST_F(OpenCodeTest, ExitCodeComesFromMetadata) {
    // A failing command still reaches the hook; the core is told its code, and a failure gets
    // the less aggressive mode (exit 0 -> concise, else normal).
    const char* words[] = {"alpha",   "beta", "gamma", "delta",  "epsilon", "zeta",   "eta",
                           "theta",   "iota", "kappa", "lambda", "mu",      "nu",     "xi",
                           "omicron", "pi",   "rho",   "sigma",  "tau",     "upsilon"};
    std::string varied; // distinct lines, so the modes keep visibly different amounts
    for (int i = 0; i < 2000; ++i)
        varied += std::string(words[(i * 7) % 20]) + " " + words[(i * 13 + 3) % 20] + " " +
                  std::to_string(i * i % 997) + " " + words[(i * 3 + 1) % 20] + "\n";
    const std::string failed = run(bash_payload(varied, "make", 2).dump());
    const std::string passed = run(bash_payload(varied, "make", 0).dump());
    ASSERT_FALSE(failed.empty());
    ASSERT_FALSE(passed.empty());
    EXPECT_GT(json::parse(failed)["output"].get<std::string>().size(),
              json::parse(passed)["output"].get<std::string>().size());
}

TEST_F(OpenCodeTest, McpContentBecomesOneTextBlock) {
    const std::string out = run(mcp_payload("srv_tool", build_log()).dump());
    ASSERT_FALSE(out.empty());
    const json j = json::parse(out);
    ASSERT_TRUE(j["content"].is_array());
    ASSERT_EQ(j["content"].size(), 1u);
    EXPECT_EQ(j["content"][0]["type"], "text");
    EXPECT_NE(j["content"][0]["text"].get<std::string>().find("sutra restore"), std::string::npos);
    json image = mcp_payload("srv_tool", build_log());
    image["output"]["content"].push_back({{"type", "image"}, {"data", "AAAA"}});
    EXPECT_EQ(run(image.dump()), "");
}

TEST_F(OpenCodeTest, RestoreOwnToolsReadAndMalformedPassThrough) {
    EXPECT_EQ(run(bash_payload(build_log(), "sutra restore su_0123 --full").dump()), "");
    EXPECT_EQ(run(mcp_payload("sutra_sutra_restore", build_log()).dump()), "");
    json read = bash_payload(build_log());
    read["input"]["tool"] = "read";
    EXPECT_EQ(run(read.dump()), "");
    EXPECT_EQ(run("{not json"), "");
    EXPECT_EQ(run(""), "");
    json other = bash_payload(build_log());
    other["hook"] = "tool.execute.before";
    EXPECT_EQ(run(other.dump()), "");
}

// OpenCode cuts the output before the hook and saves the whole of it in
// <data>/opencode/tool-output/. The dispatcher reads that file only under every check.
class OpenCodeTruncatedTest : public OpenCodeTest {
protected:
    std::string dir = box.dir.path + "/data/opencode/tool-output";
    std::string full = build_log(3000) + "LAST LINE only in the saved file\n";
    void SetUp() override { fs::create_directories(dir); }
    json payload(const std::string& path, std::uint64_t size) {
        json p = bash_payload("...output truncated...\n\nFull output saved to: " + path + "\n\n" +
                              full.substr(full.size() - 2000));
        p["output"]["metadata"]["truncated"] = true;
        p["output"]["metadata"]["outputPath"] = path;
        p["output_file_size"] = size;
        return p;
    }
};

TEST_F(OpenCodeTruncatedTest, CompressesTheSavedFileNotThePreview) {
    // OpenCode's own names: tool_<id>, no extension.
    test::write_file(dir + "/tool_01", full);
    const std::string out = run(payload(dir + "/tool_01", full.size()).dump());
    ASSERT_FALSE(out.empty());
    const std::string view = json::parse(out)["output"];
    EXPECT_NE(view.find("LAST LINE only in the saved file"), std::string::npos);
    EXPECT_EQ(view.find("...output truncated..."), std::string::npos);
}

TEST_F(OpenCodeTruncatedTest, AnyFailedCheckPassesThrough) {
    test::write_file(dir + "/tool_01", full);
    // wrong size
    EXPECT_EQ(run(payload(dir + "/tool_01", full.size() - 1).dump()), "");
    // no size measured by the plugin
    json nosize = payload(dir + "/tool_01", full.size());
    nosize.erase("output_file_size");
    EXPECT_EQ(run(nosize.dump()), "");
    // no path
    json nopath = payload(dir + "/tool_01", full.size());
    nopath["output"]["metadata"].erase("outputPath");
    EXPECT_EQ(run(nopath.dump()), "");
    // outside the tool-output folder
    test::write_file(box.dir.path + "/tool_elsewhere", full);
    EXPECT_EQ(run(payload(box.dir.path + "/tool_elsewhere", full.size()).dump()), "");
    // climbing out with ..
    EXPECT_EQ(run(payload(dir + "/../../../tool_elsewhere", full.size()).dump()), "");
    // a symlink
    fs::create_symlink(box.dir.path + "/tool_elsewhere", dir + "/tool_link");
    EXPECT_EQ(run(payload(dir + "/tool_link", full.size()).dump()), "");
    // invalid UTF-8
    test::write_file(dir + "/tool_bin", full + "\xff");
    EXPECT_EQ(run(payload(dir + "/tool_bin", full.size() + 1).dump()), "");
    // a relative path
    EXPECT_EQ(run(payload("tool_01.txt", full.size()).dump()), "");
    // A name that is not OpenCode's (here a .txt) is refused for an OpenCode read.
    test::write_file(dir + "/notes.txt", full);
    EXPECT_EQ(run(payload(dir + "/notes.txt", full.size()).dump()), "");
}

TEST_F(OpenCodeTest, InstallWritesPluginWithAbsoluteHostAndRoundTrips) {
    json r = call(Plugin::Op::install);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_TRUE(r["changed"]);
    const std::string js = test::read_file(plugin_file);
    EXPECT_NE(js.find("const SUTRA_HOST = \"/opt/sutra/bin/sutra-host\""), std::string::npos);
    EXPECT_NE(js.find("\"tool.execute.after\""), std::string::npos);
    const json d = call(Plugin::Op::detect);
    EXPECT_TRUE(d["installed"]);
    EXPECT_EQ(d["command"], "/opt/sutra/bin/sutra-host --adapter opencode");

    r = call(Plugin::Op::install); // idempotent
    EXPECT_FALSE(r["changed"]);
    EXPECT_EQ(test::read_file(plugin_file), js);

    r = call(Plugin::Op::uninstall);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_EQ(r["files"][0]["action"], "delete");
    EXPECT_FALSE(fs::exists(plugin_file));
    EXPECT_FALSE(call(Plugin::Op::detect)["installed"]);
    EXPECT_FALSE(call(Plugin::Op::uninstall)["changed"]);
}

TEST_F(OpenCodeTest, DryRunWritesNothingAndUserFilesAreKept) {
    json r = call(Plugin::Op::install, true);
    EXPECT_TRUE(r["changed"]);
    EXPECT_TRUE(r["files"][0]["before"].is_null());
    EXPECT_FALSE(fs::exists(box.dir.path + "/config/opencode"));

    // A plugin file of the user's own at our name is refused and never touched.
    fs::create_directories(fs::path(plugin_file).parent_path());
    test::write_file(plugin_file, "export const Mine = async () => ({})\n");
    r = call(Plugin::Op::install);
    EXPECT_FALSE(r["ok"]);
    EXPECT_EQ(test::read_file(plugin_file), "export const Mine = async () => ({})\n");
    EXPECT_FALSE(call(Plugin::Op::uninstall)["changed"]);
    EXPECT_EQ(test::read_file(plugin_file), "export const Mine = async () => ({})\n");
    fs::remove(plugin_file);

    // An older sutra plugin (an upgrade): replaced without a backup, since it is sutra's own,
    // and uninstall leaves no sutra plugin at all.
    const std::string old = "// sutra-opencode-plugin v0\nconst SUTRA_HOST = \"/old/sutra-host\"\n";
    test::write_file(plugin_file, old);
    r = call(Plugin::Op::install);
    ASSERT_TRUE(r["ok"]) << r.dump();
    EXPECT_EQ(r["files"][0]["action"], "modify");
    EXPECT_FALSE(fs::exists(plugin_file + ".sutra-backup"));
    const std::string installed = test::read_file(plugin_file);
    EXPECT_TRUE(call(Plugin::Op::uninstall, true)["changed"]);
    EXPECT_EQ(test::read_file(plugin_file), installed); // dry run
    call(Plugin::Op::uninstall);
    EXPECT_FALSE(fs::exists(plugin_file));
    EXPECT_FALSE(fs::exists(plugin_file + ".sutra-backup"));
}

} // namespace
} // namespace sutra::host
