// Deep JSON at every parser of untrusted input, 10^5 and 10^6 levels (issue 14, items 3-4):
// `sutra mcp` answers an error and keeps serving; every adapter, through `sutra-host` and called
// directly, passes through (exit 0, no output); the CLI commands that read JSON fail cleanly.
// Then the crash guard itself: a module that overflows its stack still ends in a silent exit 0.
// Each case runs as a child process, so a crash or a hang fails the test instead of ending it.

#include "core/util/json_nesting.hpp"
#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <functional>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::TempDir;
using test::write_file;

using test::in_child;
using test::k_hung;

// Arrays and objects alternating, `levels` deep: 3 bytes a level on average.
std::string deep_value(std::size_t levels) {
    std::string open;
    std::string close;
    open.reserve(levels * 4);
    close.reserve(levels);
    for (std::size_t i = 0; i < levels; ++i) {
        open += i % 2 == 0 ? "[" : "{\"k\":";
        close += i % 2 == 0 ? ']' : '}';
    }
    return open + "1" + std::string(close.rbegin(), close.rend());
}

std::string build_log(int lines = 400) {
    std::string out;
    for (int i = 0; i < lines; ++i)
        out += "[INFO] compiling module_" + std::to_string(i % 7) + ".cpp ... ok\n";
    return out + "error: the one line that matters\n";
}

class DeepJson : public ::testing::TestWithParam<std::size_t> {
protected:
    std::string deep = deep_value(GetParam());
};

INSTANTIATE_TEST_SUITE_P(Levels,
                         DeepJson,
                         ::testing::Values(std::size_t{100000}, std::size_t{1000000}));

TEST(DeepJsonScan, CountsOnlyBracketsOutsideStrings) {
    EXPECT_TRUE(core::json_nesting_within(deep_value(512)));
    EXPECT_FALSE(core::json_nesting_within(deep_value(513)));
    EXPECT_TRUE(core::json_nesting_within("[\"" + std::string(100000, '[') + "\"]", 1));
    EXPECT_TRUE(core::json_nesting_within(R"(["\"[[["])", 1));
    EXPECT_FALSE(core::json_nesting_within(R"(["\\",[[]]])", 2));
    EXPECT_TRUE(core::parse_within_nesting<json>(deep_value(1000)).is_discarded());
    EXPECT_EQ(core::parse_within_nesting<json>(R"({"a":[1]})")["a"][0], 1);
}

// ---- sutra mcp -----------------------------------------------------------------------------

std::vector<json>
mcp_answers(const TempDir& tmp, const std::vector<std::string>& lines, int* status) {
    std::string input;
    for (const auto& l : lines) input += l + "\n";
    write_file(tmp.path + "/in.jsonl", input);
    const std::string out = test::run_command(
        "cd '" + tmp.path + "' && env HOME='" + tmp.path + "' SUTRA_HOME='" + tmp.path +
            "/store' SUTRA_STATS=0 timeout 60 " + SUTRA_BINARY + " mcp < in.jsonl 2>/dev/null",
        status);
    std::vector<json> answers;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) answers.push_back(json::parse(line));
    return answers;
}

TEST_P(DeepJson, McpAnswersAParseErrorAndKeepsServing) {
    TempDir tmp;
    const std::vector<std::string> lines = {
        // A deep value followed by another key, in params and in tools/call arguments.
        R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":)" + deep + R"(,"y":1}})",
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sutra_compress",)"
        R"("arguments":{"output":)" +
            deep + R"(,"tool":"x"}}})",
        // Within the limit: served as usual.
        R"({"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":)" + deep_value(500) + "}}",
        R"({"jsonrpc":"2.0","id":4,"method":"ping"})",
    };
    int status = -1;
    const auto answers = mcp_answers(tmp, lines, &status);
    EXPECT_EQ(status, 0) << "the server crashed or hung";
    ASSERT_EQ(answers.size(), 4u);
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(answers[i]["error"]["code"], -32700) << answers[i].dump();
        EXPECT_NE(answers[i]["error"]["message"].get<std::string>().find("nest"),
                  std::string::npos);
    }
    EXPECT_EQ(answers[2]["id"], 3);
    EXPECT_TRUE(answers[2].contains("result")) << answers[2].dump();
    EXPECT_EQ(answers[3]["id"], 4);
    EXPECT_TRUE(answers[3].contains("result")) << answers[3].dump();
}

// ---- every adapter, through sutra-host and called directly -----------------------------------

struct AdapterCase {
    const char* label;
    const char* adapter;
    std::function<std::string(const std::string& value)> payload; // `value` is raw JSON
    bool rewrites;                                                // the shallow control answers
};

std::string str(const std::string& s) {
    return json(s).dump();
}

std::vector<AdapterCase> adapter_cases(const std::string& home) {
    const std::string log = str(build_log());
    return {
        {"claude Grep tool_response", "claude",
         [=](const std::string& v) {
             return R"({"session_id":"s","cwd":"/tmp","hook_event_name":"PostToolUse",)"
                    R"("tool_name":"Grep","tool_input":{"pattern":"x"},"tool_response":)"
                    R"({"mode":"content","content":)" +
                    log + R"(,"numLines":401,"extra":)" + v + "}}";
         },
         true},
        {"claude Bash tool_response", "claude",
         [=](const std::string& v) {
             return R"({"session_id":"s","cwd":"/tmp","hook_event_name":"PostToolUse",)"
                    R"("tool_name":"Bash","tool_input":{"command":"make"},"tool_response":)"
                    R"({"stdout":)" +
                    log + R"(,"stderr":"","interrupted":false,"extra":)" + v + "}}";
         },
         true},
        {"claude PreToolUse tool_input", "claude",
         [=](const std::string& v) {
             return R"({"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse",)"
                    R"("permission_mode":"bypassPermissions",)"
                    R"("tool_name":"Bash","tool_input":{"command":"ls -la","extra":)" +
                    v + "}}";
         },
         true},
        {"codex tool_input", "codex",
         [=](const std::string& v) {
             return R"({"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":)"
                    R"({"command":"make","extra":)" +
                    v + R"(},"tool_response":)" + log + "}";
         },
         true},
        {"opencode input", "opencode",
         [=](const std::string& v) {
             return R"({"hook":"tool.execute.after","input":{"tool":"bash","args":)"
                    R"({"command":"make"},"extra":)" +
                    v + R"(},"output":{"output":)" + log + R"(,"metadata":{}}})";
         },
         true},
        {"hermes payload", "hermes",
         [=](const std::string& v) {
             return R"({"hook":"transform_terminal_output","command":"make","output":)" + log +
                    R"(,"returncode":1,"hermes_home":)" + str(home) + R"(,"extra":)" + v + "}";
         },
         true},
    };
}

std::string sutra_host(const test::HostSandbox& box,
                       const std::string& adapter,
                       const std::string& payload,
                       int* status) {
    write_file(box.dir.path + "/payload.json", payload);
    return test::run_command("SUTRA_PROGRAM='" + std::string(SUTRA_BINARY) + "' timeout 60 " +
                                 SUTRA_HOST_BINARY + " --adapter " + adapter + " < '" +
                                 box.dir.path + "/payload.json' 2>/dev/null",
                             status);
}

TEST_P(DeepJson, EveryAdapterPassesThroughUnderSutraHost) {
    test::HostSandbox box;
    box.env.set("HERMES_HOME", std::nullopt);
    for (const AdapterCase& c : adapter_cases(box.dir.path + "/.hermes")) {
        int status = -1;
        if (GetParam() == 100000 && c.rewrites) {
            // The same payload, shallow: the adapter answers, so silence below is the depth's.
            const std::string shallow = sutra_host(box, c.adapter, c.payload("[1]"), &status);
            EXPECT_EQ(status, 0) << c.label;
            EXPECT_FALSE(shallow.empty()) << c.label << ": the shallow control passed through";
        }
        const std::string out = sutra_host(box, c.adapter, c.payload(deep), &status);
        EXPECT_EQ(status, 0) << c.label << ": sutra-host crashed or hung";
        EXPECT_EQ(out, "") << c.label;
    }
}

// The modules' own parses, without the dispatcher's check in front: decode passes, encode finds
// no payload to answer, and neither crashes.
TEST_P(DeepJson, EveryModuleRefusesItOnItsOwn) {
    test::HostSandbox box;
    box.env.set("SUTRA_PROGRAM", std::string(SUTRA_BINARY));
    PluginRegistry registry{box.build_tree()};
    const std::string result = json{{"view", "v"}, {"rewritten", true}}.dump();
    for (const AdapterCase& c : adapter_cases(box.dir.path + "/.hermes")) {
        auto plugin = registry.load(c.adapter);
        ASSERT_TRUE(plugin) << plugin.error();
        const std::string payload = c.payload(deep);
        const int rc = in_child([&] {
            const auto decoded = (*plugin)->call(Plugin::Op::decode, payload);
            if (!decoded) return 2;
            if (json::parse(*decoded).value("action", "") != "pass") return 3;
            // Codex's encode never reads the payload; the others find no payload in it.
            const auto encoded = (*plugin)->encode(payload, result);
            return encoded && (encoded->empty() || std::string(c.adapter) == "codex") ? 0 : 4;
        });
        EXPECT_EQ(rc, 0) << c.label << ": 2 = no decode, 3 = not a pass, 4 = encoded, " << k_hung
                         << " = hung, 100+ = crashed";
    }
}

// ---- the CLI commands that read JSON -----------------------------------------------------------

TEST_P(DeepJson, CliCommandsHandleItAndItRestoresExactly) {
    TempDir tmp;
    const std::string doc = R"({"a":)" + deep + R"(,"b":1})" + "\n";
    write_file(tmp.path + "/deep.json", doc);
    const std::string env = "env HOME='" + tmp.path + "' SUTRA_HOME='" + tmp.path +
                            "/store' SUTRA_STATS=0 timeout 60 " + SUTRA_BINARY;
    for (const char* args : {"compress", "compress --tool curl", "tokens"}) {
        int status = -1;
        const std::string out = test::run_command(
            env + " " + args + " < '" + tmp.path + "/deep.json' 2>/dev/null", &status);
        EXPECT_EQ(status, 0) << args;
        EXPECT_FALSE(out.empty()) << args;
    }
    // Not JSON past the core's depth limit: the text rules apply (one long line, clipped), and
    // the original restores byte for byte.
    int status = -1;
    const std::string out = test::run_command(
        env + " compress --json < '" + tmp.path + "/deep.json' 2>/dev/null", &status);
    EXPECT_EQ(status, 0);
    const json answer = json::parse(out, nullptr, false);
    ASSERT_TRUE(answer.is_object()) << out.substr(0, 200);
    ASSERT_TRUE(answer["view"].is_string());
    if (answer["id"].is_string()) {
        const std::string restored = test::run_command(
            env + " restore " + answer["id"].get<std::string>() + " --all 2>/dev/null", &status);
        EXPECT_EQ(status, 0);
        EXPECT_TRUE(restored == doc) << "the restore differs (" << restored.size() << " bytes)";
    } else {
        EXPECT_TRUE(answer["view"] == doc) << "passed through, but not whole";
    }
}

// ---- the user's own config (issue 23, item 4) -------------------------------------------------

// Far deeper than any config a person writes: install refuses it with a message that says so,
// naming the file, writes nothing, and does not crash.
TEST_P(DeepJson, InstallRefusesAnAbsurdlyDeepConfigByName) {
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    const std::string settings = box.dir.path + "/claude/settings.json";
    const std::string config = box.dir.path + "/config/opencode/opencode.json";
    const std::string doc = R"({"a":)" + deep + "}\n";
    fs::create_directories(box.dir.path + "/claude");
    fs::create_directories(box.dir.path + "/config/opencode");
    write_file(settings, doc);
    write_file(config, doc);
    const json options = {{"host_program", "/opt/sutra/bin/sutra-host"},
                          {"sutra_program", "/opt/sutra/bin/sutra"}};
    for (const auto& [client, path] :
         {std::pair{"claude", settings}, std::pair{"opencode", config}}) {
        auto plugin = registry.load(client);
        ASSERT_TRUE(plugin) << plugin.error();
        const int rc = in_child([&] {
            const auto r =
                json::parse((*plugin)->call(Plugin::Op::install, options.dump()).value());
            const std::string error = r.value("error", std::string());
            return !r.value("ok", true) && error.find(path) != std::string::npos &&
                           error.find("nests deeper than") != std::string::npos
                       ? 0
                       : 3;
        });
        EXPECT_EQ(rc, 0) << client << ": 3 = not refused by name, 100+ = crashed";
        EXPECT_EQ(test::read_file(path), doc);
    }
}

// ---- the crash guard ---------------------------------------------------------------------------

// A module that overflows its stack in decode: the guard's handler runs on its own stack and
// leaves with status 0 and no output (docs/security.md).
TEST(CrashGuard, StackOverflowInAModuleStillExitsZeroSilently) {
    TempDir data;
    ::chmod(data.path.c_str(), 0755);
    fs::create_directories(data.path + "/sutra/plugins");
    write_file(data.path + "/sutra/adapters.toml", "[adapters.overflow]\nmodule = \"" +
                                                       std::string(SUTRA_TEST_PLUGIN_DIR) +
                                                       "/libsutra_test_overflow_in_decode.so\"\n");
    write_file(data.path + "/in.json",
               json{{"tool_name", "Bash"}, {"tool_response", {{"stdout", build_log()}}}}.dump());
    int status = -1;
    const std::string out = test::run_command(
        "env HOME='" + data.path + "' XDG_DATA_HOME='" + data.path + "' SUTRA_HOME='" + data.path +
            "/store' SUTRA_STATS=0 timeout 60 " + SUTRA_HOST_BINARY + " --adapter overflow < '" +
            data.path + "/in.json' 2>/dev/null",
        &status);
    EXPECT_EQ(status, 0) << "139 is the overflow itself: the handler had no stack to run on";
    EXPECT_EQ(out, "");
}

} // namespace
} // namespace sutra::host
