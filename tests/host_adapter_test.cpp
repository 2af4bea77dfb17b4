// The Claude Code and Codex modules end to end through the dispatcher's hook call, on the payload
// shapes docs/adapters.md describes: small outputs pass, large ones become a view with its marker,
// persisted output is read only under every check, and restore output and unknown tools pass
// untouched.

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

json bash_payload(const std::string& stdout_text, const std::string& command = "make") {
    return json{{"session_id", "63c7aa"},
                {"transcript_path", "/nowhere/63c7aa.jsonl"},
                {"cwd", "/tmp/proj"},
                {"hook_event_name", "PostToolUse"},
                {"tool_name", "Bash"},
                {"tool_input", {{"command", command}, {"description", "test"}}},
                {"tool_response",
                 {{"stdout", stdout_text},
                  {"stderr", ""},
                  {"interrupted", false},
                  {"isImage", false},
                  {"noOutputExpected", false}}},
                {"tool_use_id", "toolu_1"},
                {"duration_ms", 249}};
}

class AdapterTest : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};

    std::string run(const char* adapter, const std::string& payload) {
        auto p = registry.load(adapter);
        EXPECT_TRUE(p.has_value());
        if (!p) return "?";
        std::string why;
        return run_hook(**p, payload, why);
    }
};

TEST_F(AdapterTest, ClaudeSmallBashPassesThrough) {
    EXPECT_EQ(run("claude", bash_payload("1\n2\n3").dump()), "");
}

TEST_F(AdapterTest, ClaudeLargeBashBecomesAViewInBashShape) {
    const std::string out = run("claude", bash_payload(build_log()).dump());
    ASSERT_FALSE(out.empty());
    const json j = json::parse(out);
    EXPECT_EQ(j["hookSpecificOutput"]["hookEventName"], "PostToolUse");
    const json& r = j["hookSpecificOutput"]["updatedToolOutput"];
    ASSERT_TRUE(r.is_object()); // a bare string is ignored by Claude Code for Bash
    EXPECT_EQ(r.size(), 3u);
    EXPECT_EQ(r["stderr"], "");
    EXPECT_EQ(r["interrupted"], false);
    const std::string view = r["stdout"];
    EXPECT_NE(view.find("sutra restore su_"), std::string::npos) << view;
    EXPECT_NE(view.find("error: the one line that matters"), std::string::npos);
    EXPECT_LT(view.size(), build_log().size() / 4);
}

TEST_F(AdapterTest, ClaudeKeepsInterrupted) {
    json p = bash_payload(build_log());
    p["tool_response"]["interrupted"] = true;
    const json j = json::parse(run("claude", p.dump()));
    EXPECT_EQ(j["hookSpecificOutput"]["updatedToolOutput"]["interrupted"], true);
}

TEST_F(AdapterTest, ClaudePassesReadRestoreOwnToolsAndUnknownTools) {
    EXPECT_EQ(run("claude", bash_payload(build_log(), "sutra restore su_0123 --full").dump()), "");
    EXPECT_EQ(run("claude",
                  bash_payload(build_log(), "  /usr/bin/sutra restore su_1 --lines 1-9").dump()),
              "");
    json read = bash_payload("");
    read["tool_name"] = "Read";
    read["tool_response"] = {
        {"type", "text"},
        {"file", {{"filePath", "/x"}, {"content", build_log()}, {"numLines", 401}}}};
    EXPECT_EQ(run("claude", read.dump()), "");
    json mcp = bash_payload("");
    mcp["tool_name"] = "mcp__sutra__sutra_restore";
    mcp["tool_response"] = json::array({{{"type", "text"}, {"text", build_log()}}});
    EXPECT_EQ(run("claude", mcp.dump()), "");
    json unknown = bash_payload("");
    unknown["tool_name"] = "WebFetch";
    unknown["tool_response"] = {{"result", build_log()}};
    EXPECT_EQ(run("claude", unknown.dump()), "");
    json failure = bash_payload(build_log());
    failure["hook_event_name"] = "PostToolUseFailure";
    EXPECT_EQ(run("claude", failure.dump()), "");
}

TEST_F(AdapterTest, MalformedPayloadPrintsNothing) {
    for (const char* adapter : {"claude", "codex"}) {
        EXPECT_EQ(run(adapter, "{not json"), "");
        EXPECT_EQ(run(adapter, ""), "");
        EXPECT_EQ(run(adapter, "[1,2]"), "");
        EXPECT_EQ(run(adapter, R"({"hook_event_name":"PostToolUse","tool_name":"Bash"})"), "");
    }
}

TEST_F(AdapterTest, ClaudeGrepAndMcpKeepTheirShape) {
    json grep = bash_payload("");
    grep["tool_name"] = "Grep";
    grep["tool_response"] = {{"mode", "content"},
                             {"numFiles", 3},
                             {"filenames", json::array()},
                             {"content", build_log()},
                             {"numLines", 401}};
    const json g = json::parse(run("claude", grep.dump()));
    const json& gr = g["hookSpecificOutput"]["updatedToolOutput"];
    EXPECT_EQ(gr["mode"], "content");
    EXPECT_EQ(gr["numFiles"], 3);
    EXPECT_NE(gr["content"].get<std::string>().find("sutra restore"), std::string::npos);

    json mcp = bash_payload("");
    mcp["tool_name"] = "mcp__srv__tool";
    mcp["tool_response"] = json::array({{{"type", "text"}, {"text", build_log()}}});
    const json m = json::parse(run("claude", mcp.dump()));
    const json& mr = m["hookSpecificOutput"]["updatedToolOutput"];
    ASSERT_TRUE(mr.is_array());
    EXPECT_EQ(mr[0]["type"], "text");
    EXPECT_NE(mr[0]["text"].get<std::string>().find("sutra restore"), std::string::npos);
}

// Large Bash output persisted by Claude Code: the full text comes from the file, under checks.
class PersistedTest : public AdapterTest {
protected:
    std::string projects = box.dir.path + "/claude/projects";
    std::string results = projects + "/-tmp-proj/63c7aa/tool-results";
    std::string full = build_log(3000) + "LAST LINE only in the persisted file\n";
    void SetUp() override {
        fs::create_directories(results);
        test::write_file(results + "/bl6izw2k4.txt", full);
    }
    json payload(const std::string& path, std::uint64_t size) {
        json p = bash_payload(full.substr(0, 30000));
        p["tool_response"]["persistedOutputPath"] = path;
        p["tool_response"]["persistedOutputSize"] = size;
        return p;
    }
};

TEST_F(PersistedTest, CompressesTheFullFileNotThePreview) {
    const std::string out = run("claude", payload(results + "/bl6izw2k4.txt", full.size()).dump());
    ASSERT_FALSE(out.empty());
    const json r = json::parse(out)["hookSpecificOutput"]["updatedToolOutput"];
    EXPECT_FALSE(r.contains("persistedOutputPath")); // it would re-wrap stdout into the preview
    EXPECT_NE(r["stdout"].get<std::string>().find("LAST LINE only in the persisted file"),
              std::string::npos);
}

// A persisted output past the store's per-entry quota (32 MiB) reaches the model as a bounded
// view with every error line, and the markers past the quota say they are not retained.
TEST_F(PersistedTest, AnOutputPastTheStoreQuotaGetsABoundedView) {
    std::string big;
    big.reserve(41u << 20);
    std::vector<std::string> errors;
    for (std::size_t i = 0; big.size() < (40u << 20); ++i) {
        if (i % 100000 == 4242) {
            errors.push_back("ERROR: batch " + std::to_string(i) + " was rejected");
            big += errors.back() + "\n";
        }
        big += "worker " + std::to_string(i % 17) + " copied block " + std::to_string(i) + "\n";
    }
    test::write_file(results + "/huge.txt", big);
    json p = bash_payload(big.substr(0, 30000));
    p["tool_response"]["persistedOutputPath"] = results + "/huge.txt";
    p["tool_response"]["persistedOutputSize"] = big.size();
    const std::string out = run("claude", p.dump());
    ASSERT_FALSE(out.empty());
    const std::string view =
        json::parse(out)["hookSpecificOutput"]["updatedToolOutput"]["stdout"].get<std::string>();
    EXPECT_LE(view.size(), 65536u);
    for (const auto& e : errors) EXPECT_NE(view.find(e), std::string::npos) << e;
    EXPECT_NE(view.find("not retained: past the store's per-entry quota"), std::string::npos);
}

TEST_F(PersistedTest, TranscriptPathNamesTheProjectFolder) {
    // A project folder the cwd does not sanitize to (the host shortens long names).
    const std::string other = projects + "/-tmp-proj-shortened/63c7aa/tool-results";
    fs::create_directories(other);
    test::write_file(other + "/x.txt", full);
    json p = payload(other + "/x.txt", full.size());
    p["transcript_path"] = projects + "/-tmp-proj-shortened/63c7aa.jsonl";
    EXPECT_FALSE(run("claude", p.dump()).empty());
}

TEST_F(PersistedTest, AnyFailedCheckPassesThrough) {
    // wrong size
    EXPECT_EQ(run("claude", payload(results + "/bl6izw2k4.txt", full.size() - 1).dump()), "");
    // outside the session's tool-results folder
    test::write_file(box.dir.path + "/elsewhere.txt", full);
    EXPECT_EQ(run("claude", payload(box.dir.path + "/elsewhere.txt", full.size()).dump()), "");
    // another session's folder
    const std::string other = projects + "/-tmp-proj/other/tool-results";
    fs::create_directories(other);
    test::write_file(other + "/y.txt", full);
    EXPECT_EQ(run("claude", payload(other + "/y.txt", full.size()).dump()), "");
    // a symlink
    fs::create_symlink(box.dir.path + "/elsewhere.txt", results + "/link.txt");
    EXPECT_EQ(run("claude", payload(results + "/link.txt", full.size()).dump()), "");
    // invalid UTF-8
    test::write_file(results + "/bin.txt", full + "\xff");
    EXPECT_EQ(run("claude", payload(results + "/bin.txt", full.size() + 1).dump()), "");
    // a non-shell tool with the same fields
    json grep = payload(results + "/bl6izw2k4.txt", full.size());
    grep["tool_name"] = "Grep";
    EXPECT_EQ(run("claude", grep.dump()), "");
    // no size
    json nosize = payload(results + "/bl6izw2k4.txt", full.size());
    nosize["tool_response"].erase("persistedOutputSize");
    EXPECT_EQ(run("claude", nosize.dump()), "");
    // a session id that tries to climb out
    json climb = payload(results + "/bl6izw2k4.txt", full.size());
    climb["session_id"] = "../63c7aa";
    EXPECT_EQ(run("claude", climb.dump()), "");
}

json codex_payload(const std::string& output, const std::string& command = "cargo test") {
    return json{{"session_id", "01a2"},
                {"turn_id", "01a2"},
                {"cwd", "/tmp/proj"},
                {"hook_event_name", "PostToolUse"},
                {"model", "m1"},
                {"tool_name", "Bash"},
                {"tool_input", {{"command", command}}},
                {"tool_response", output},
                {"tool_use_id", "call_1"}};
}

TEST_F(AdapterTest, CodexLargeBashBecomesBlockReason) {
    EXPECT_EQ(run("codex", codex_payload("1\n2\n3\n").dump()), "");
    const std::string out = run("codex", codex_payload(build_log()).dump());
    ASSERT_FALSE(out.empty());
    const json j = json::parse(out);
    EXPECT_EQ(j.size(), 2u);
    EXPECT_EQ(j["decision"], "block");
    const std::string reason = j["reason"];
    EXPECT_NE(reason.find("sutra restore su_"), std::string::npos);
    EXPECT_NE(reason.find("error: the one line that matters"), std::string::npos);
    EXPECT_EQ(reason.find("exit code"), std::string::npos); // Codex gave none; claim none
}

TEST_F(AdapterTest, CodexPassesRestoreAndOtherTools) {
    EXPECT_EQ(run("codex", codex_payload(build_log(), "sutra restore su_1 --full").dump()), "");
    json patch = codex_payload(build_log());
    patch["tool_name"] = "apply_patch";
    EXPECT_EQ(run("codex", patch.dump()), "");
    json mcp = codex_payload(build_log());
    mcp["tool_name"] = "mcp__sutra__sutra_restore";
    EXPECT_EQ(run("codex", mcp.dump()), "");
}

// `sutra-host` answers first and counts the stats' tokens in a detached child after (its host
// waits for its exit). A report made as soon as the hook has exited still has every call, with
// exact counts, once each; and the answer is the one the in-process call gives.
TEST_F(AdapterTest, TheHooksStatsRecordIsCountedAfterItsAnswerAndReportedOnceItExits) {
    box.env.set("SUTRA_STATS", "1");
    const std::string log = build_log(1200);
    test::write_file(box.dir.path + "/payload.json", bash_payload(log).dump());
    const std::string in_process = run("claude", bash_payload(log).dump());
    ASSERT_FALSE(in_process.empty());
    const std::string in_process_log = test::read_file(box.dir.path + "/store/stats.jsonl");
    const json first = json::parse(in_process_log);
    ASSERT_TRUE(first.contains("tokens_in")) << in_process_log; // this build counts tokens
    for (int call = 1; call <= 4; ++call) {
        int status = -1;
        const std::string out =
            test::run_command(std::string(SUTRA_HOST_BINARY) + " --adapter claude < '" +
                                  box.dir.path + "/payload.json' 2>/dev/null",
                              &status);
        EXPECT_EQ(status, 0);
        EXPECT_EQ(out, in_process);
        const json report =
            json::parse(test::run_command(std::string(SUTRA_BINARY) + " stats --json"));
        SCOPED_TRACE(call);
        EXPECT_EQ(report["total"]["calls"], call + 1) << report.dump();
        EXPECT_EQ(report["total"]["token_counted"], call + 1) << report.dump();
        EXPECT_EQ(report["total"]["tokens_in"],
                  first["tokens_in"].get<std::uint64_t>() * (call + 1));
        EXPECT_EQ(report["total"]["tokens_out"],
                  first["tokens_out"].get<std::uint64_t>() * (call + 1));
    }
}

} // namespace
} // namespace sutra::host
