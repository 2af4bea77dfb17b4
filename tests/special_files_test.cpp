// A FIFO or a device where sutra expects a file (issue 14, items 6 and 8): every path sutra
// opens on a user's or a payload's behalf is opened without blocking, read only when it is a
// regular file, and read with a bound. Each case runs under `timeout`, so a hang fails the test
// instead of stalling it; a FIFO is never opened for writing here, so nothing ever unblocks one.
// (The host-persisted output has its own cases in tests/host_attack_test.cpp, AttackPersisted.)

#include "core/util/posix_io.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::TempDir;
using test::write_file;

// A FIFO and a symlink to /dev/zero, the two shapes that hang a blocking open or an unbounded read.
struct Specials {
    std::string fifo;
    std::string zero;
};

Specials plant(const std::string& fifo, const std::string& zero) {
    fs::create_directories(fs::path(fifo).parent_path());
    fs::create_directories(fs::path(zero).parent_path());
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << fifo;
    fs::create_symlink("/dev/zero", zero);
    return {fifo, zero};
}

// Runs a shell command under `timeout 20`; `seconds` gets the wall time it took.
std::string timed(const std::string& command, int* status, double* seconds) {
    const auto start = std::chrono::steady_clock::now();
    std::string out = test::run_command("timeout 20 " + command, status);
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

std::string build_log(int lines = 400) {
    std::string out;
    for (int i = 0; i < lines; ++i)
        out += "[INFO] compiling module_" + std::to_string(i % 7) + ".cpp ... ok\n";
    return out + "error: the one line that matters\n";
}

TEST(SpecialFiles, ReadRegularFileRefusesEachShapePromptly) {
    TempDir tmp;
    const auto s = plant(tmp.path + "/fifo", tmp.path + "/zero");
    write_file(tmp.path + "/big", std::string(100, 'x'));
    write_file(tmp.path + "/ok", "fine\n");
    fs::create_symlink(tmp.path + "/ok", tmp.path + "/link");
    auto problem = [](const auto& r) { return r ? core::FileProblem{} : r.error().problem; };
    EXPECT_EQ(problem(core::read_regular_file(s.fifo, 1000)), core::FileProblem::not_regular);
    EXPECT_EQ(problem(core::read_regular_file(s.zero, 1000)), core::FileProblem::not_regular);
    EXPECT_EQ(problem(core::read_regular_file("/dev/zero", 1000)), core::FileProblem::not_regular);
    EXPECT_EQ(problem(core::read_regular_file(tmp.path, 1000)), core::FileProblem::not_regular);
    EXPECT_EQ(problem(core::read_regular_file(tmp.path + "/big", 99)),
              core::FileProblem::too_large);
    EXPECT_EQ(problem(core::read_regular_file(tmp.path + "/none", 99)), core::FileProblem::absent);
    EXPECT_EQ(*core::read_regular_file(tmp.path + "/big", 100), std::string(100, 'x'));
    EXPECT_EQ(*core::read_regular_file(tmp.path + "/link", 100), "fine\n");
    EXPECT_EQ(problem(core::read_regular_file(tmp.path + "/link", 100, core::Links::refuse)),
              core::FileProblem::not_regular);
}

// A read confined to folders judges the file it opened, not the name: a link inside that leads
// out is outside, a sibling folder that shares the root's prefix is outside, ".." is resolved.
TEST(SpecialFiles, ReadWithinFoldersJudgesTheOpenedFile) {
    TempDir tmp;
    const std::string proj = tmp.path + "/proj";
    fs::create_directories(proj + "/sub");
    fs::create_directories(tmp.path + "/proj2");
    write_file(proj + "/sub/in.txt", "inside\n");
    write_file(tmp.path + "/proj2/.env", "TOKEN=secret\n");
    fs::create_symlink(tmp.path + "/proj2/.env", proj + "/out");
    fs::create_symlink(proj + "/sub/in.txt", tmp.path + "/proj2/in-link");
    const std::vector<std::string> within{proj};
    auto problem = [](const auto& r) { return r ? core::FileProblem{} : r.error().problem; };
    EXPECT_EQ(*core::read_regular_file(proj + "/sub/in.txt", 100, core::Links::follow, within),
              "inside\n");
    EXPECT_EQ(
        *core::read_regular_file(tmp.path + "/proj2/in-link", 100, core::Links::follow, within),
        "inside\n");
    for (const std::string& path :
         {proj + "/out", tmp.path + "/proj2/.env", proj + "/../proj2/.env"})
        EXPECT_EQ(problem(core::read_regular_file(path, 100, core::Links::follow, within)),
                  core::FileProblem::outside)
            << path;
    EXPECT_TRUE(core::path_within("/a/b", "/a"));
    EXPECT_TRUE(core::path_within("/a", "/a"));
    EXPECT_TRUE(core::path_within("/a", "/"));
    EXPECT_FALSE(core::path_within("/ab", "/a"));
    EXPECT_FALSE(core::path_within("/", "/a"));
}

// A link swapped between a file inside and one outside while it is read, 2,000 times: the read
// confined to the inside folder never returns the outside file's bytes (a check by name, then an
// open by name, returned them in 7 of 2,000 reads).
TEST(SpecialFiles, ASwappedLinkNeverLeadsAConfinedReadOutside) {
    TempDir tmp;
    const std::string proj = tmp.path + "/proj";
    fs::create_directories(proj);
    fs::create_directories(tmp.path + "/other");
    write_file(proj + "/in.txt", "inside\n");
    write_file(tmp.path + "/other/.env", "TOKEN=secret\n");
    fs::create_symlink(proj + "/in.txt", proj + "/link");
    std::atomic<bool> stop{false};
    std::thread swapper([&] {
        for (int k = 0; !stop; ++k) {
            const std::string next = proj + "/next";
            ::unlink(next.c_str());
            const std::string target = k % 2 ? proj + "/in.txt" : tmp.path + "/other/.env";
            if (::symlink(target.c_str(), next.c_str()) == 0)
                ::rename(next.c_str(), (proj + "/link").c_str());
        }
    });
    int inside = 0, refused = 0, leaked = 0;
    for (int k = 0; k < 2000; ++k) {
        const auto r = core::read_regular_file(proj + "/link", 100, core::Links::follow, {proj});
        if (r && *r == "inside\n")
            ++inside;
        else if (r)
            ++leaked;
        else
            ++refused;
    }
    stop = true;
    swapper.join();
    EXPECT_EQ(leaked, 0);
    EXPECT_EQ(inside + refused, 2000);
}

// `sutra read`, `outline`, `symbol` on a FIFO and on /dev/zero: a clear error, at once.
TEST(SpecialFiles, ReadOutlineSymbolRefuseFifosAndDevices) {
    TempDir tmp;
    const auto s = plant(tmp.path + "/pipe.py", tmp.path + "/zero.py");
    for (const std::string& path : {s.fifo, s.zero, std::string("/dev/zero")}) {
        for (const std::string& args : {"read '" + path + "' --lines 1-1", "outline '" + path + "'",
                                        "symbol '" + path + "' f"}) {
            int status = -1;
            double seconds = 0;
            const std::string err = timed(
                std::string(SUTRA_BINARY) + " " + args + " 2>&1 >/dev/null", &status, &seconds);
            EXPECT_NE(status, 124) << args << ": hung";
            EXPECT_NE(status, 0) << args;
            EXPECT_LT(status, 128) << args << ": crashed";
            EXPECT_LT(seconds, 10) << args;
            EXPECT_NE(err.find("not a regular file"), std::string::npos) << args << ": " << err;
        }
    }
}

// MCP sutra_read on a FIFO inside the served folder and on /dev/zero (with /dev allowed; a link
// to it from the folder is refused as outside): an error result, and the next request answered.
TEST(SpecialFiles, McpSutraReadRefusesFifosAndDevicesAndKeepsServing) {
    TempDir tmp;
    const auto s = plant(tmp.path + "/pipe.txt", tmp.path + "/zero.txt");
    std::string input;
    int id = 0;
    for (const std::string& path : {s.fifo, std::string("/dev/zero")})
        input += json{{"jsonrpc", "2.0"},
                      {"id", ++id},
                      {"method", "tools/call"},
                      {"params",
                       {{"name", "sutra_read"}, {"arguments", {{"path", path}, {"lines", "1-1"}}}}}}
                     .dump() +
                 "\n";
    input += R"({"jsonrpc":"2.0","id":9,"method":"ping"})"
             "\n";
    write_file(tmp.path + "/in.jsonl", input);
    int status = -1;
    double seconds = 0;
    const std::string out =
        timed("sh -c \"cd '" + tmp.path + "' && HOME='" + tmp.path + "' SUTRA_STATS=0 " +
                  SUTRA_BINARY + " mcp --tools files --allow-read /dev < in.jsonl 2>/dev/null\"",
              &status, &seconds);
    EXPECT_EQ(status, 0) << "hung or crashed";
    EXPECT_LT(seconds, 10);
    std::vector<json> answers;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) answers.push_back(json::parse(line));
    ASSERT_EQ(answers.size(), 3u) << out;
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(answers[i]["result"]["isError"], true) << answers[i].dump();
        EXPECT_NE(answers[i].dump().find("not a regular file"), std::string::npos)
            << answers[i].dump();
    }
    EXPECT_EQ(answers[2]["id"], 9);
}

// The files a hook reads beside its payload (the host's MCP registration, sutra's own config,
// the registry): a FIFO or /dev/zero there neither holds the hook nor floods it; the hook still
// answers, with the CLI restore route where the registration could not be read.
struct HookCase {
    const char* label;
    const char* adapter;
    std::string payload;
    std::string file; // where the FIFO or the link goes
};

std::vector<HookCase> hook_cases(const test::HostSandbox& box) {
    const std::string log = json(build_log()).dump();
    const std::string claude =
        R"({"session_id":"s","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash",)"
        R"("tool_input":{"command":"make"},"tool_response":{"stdout":)" +
        log + R"(,"stderr":"","interrupted":false}})";
    const std::string codex =
        R"({"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},)"
        R"("tool_response":)" +
        log + "}";
    const std::string opencode =
        R"({"hook":"tool.execute.after","input":{"tool":"bash","args":{"command":"make"}},)"
        R"("output":{"output":)" +
        log + R"(,"metadata":{}}})";
    const std::string hermes_home = box.dir.path + "/.hermes";
    const std::string hermes = R"({"hook":"transform_terminal_output","command":"make","output":)" +
                               log + R"(,"returncode":1,"hermes_home":)" +
                               json(hermes_home).dump() + "}";
    const std::string& d = box.dir.path;
    return {
        {"claude .claude.json", "claude", claude, d + "/claude/.claude.json"},
        {"codex config.toml", "codex", codex, d + "/codex/config.toml"},
        {"opencode opencode.json", "opencode", opencode, d + "/config/opencode/opencode.json"},
        {"hermes config.yaml", "hermes", hermes, hermes_home + "/config.yaml"},
        {"sutra config.toml", "claude", claude, d + "/config/sutra/config.toml"},
    };
}

TEST(SpecialFiles, HooksAnswerPromptlyPastFifosAndDevices) {
    for (const bool fifo : {true, false}) {
        test::HostSandbox box;
        box.env.set("HERMES_HOME", std::nullopt);
        for (const HookCase& c : hook_cases(box)) {
            fs::create_directories(fs::path(c.file).parent_path());
            if (fifo)
                ASSERT_EQ(::mkfifo(c.file.c_str(), 0600), 0) << c.file;
            else
                fs::create_symlink("/dev/zero", c.file);
            write_file(box.dir.path + "/payload.json", c.payload);
            int status = -1;
            double seconds = 0;
            const std::string out =
                timed(std::string(SUTRA_HOST_BINARY) + " --adapter " + c.adapter + " < '" +
                          box.dir.path + "/payload.json' 2>/dev/null",
                      &status, &seconds);
            const std::string what = std::string(c.label) + (fifo ? " (FIFO)" : " (/dev/zero)");
            EXPECT_EQ(status, 0) << what;
            EXPECT_LT(seconds, 10) << what << ": held the hook";
            // sutra's own config refused means pass-through; the host's files only cost the MCP
            // route, and the hook still answers.
            if (std::string(c.label) != "sutra config.toml") {
                EXPECT_NE(out.find("error: the one line that matters"), std::string::npos)
                    << what << ": " << out.substr(0, 200);
            }
            fs::remove(c.file);
        }
    }
}

// A user registry that is a FIFO is reported, not waited on.
TEST(SpecialFiles, RegistryFifoIsReportedNotWaitedOn) {
    TempDir data;
    ::chmod(data.path.c_str(), 0755);
    fs::create_directories(data.path + "/sutra");
    ASSERT_EQ(::mkfifo((data.path + "/sutra/adapters.toml").c_str(), 0600), 0);
    int status = -1;
    double seconds = 0;
    const std::string out = timed("env HOME='" + data.path + "' XDG_DATA_HOME='" + data.path +
                                      "' " + SUTRA_HOST_BINARY + " --list 2>&1",
                                  &status, &seconds);
    EXPECT_NE(status, 124) << "hung";
    EXPECT_LT(seconds, 10);
    EXPECT_NE(out.find("not a regular file"), std::string::npos) << out;
}

// Item 8: the payload names its Hermes home, but only a home of the host's own layout
// ($HERMES_HOME, ~/.hermes, ~/.hermes/profiles/NAME) has its config.yaml read.
TEST(SpecialFiles, HermesReadsOnlyTheConfigOfItsOwnLayout) {
    test::HostSandbox box;
    box.env.set("HERMES_HOME", std::nullopt);
    PluginRegistry registry{box.build_tree()};
    auto hermes = registry.load("hermes");
    ASSERT_TRUE(hermes) << hermes.error();
    const std::string home = box.dir.path + "/.hermes";
    fs::create_directories(home);
    const json options = {{"host_program", SUTRA_HOST_BINARY}, {"sutra_program", SUTRA_BINARY}};
    const json installed =
        json::parse((*hermes)->call(Plugin::Op::install, options.dump()).value());
    ASSERT_TRUE(installed["ok"]) << installed.dump();
    const std::string config = test::read_file(home + "/config.yaml");
    ASSERT_NE(config.find("mcp_servers"), std::string::npos) << config;
    // The same registration in a folder of the payload's choosing.
    const std::string elsewhere = box.dir.path + "/chosen";
    fs::create_directories(elsewhere);
    write_file(elsewhere + "/config.yaml", config);
    auto route = [&](const std::string& claimed) {
        const json payload = {{"hook", "transform_terminal_output"},
                              {"command", "make"},
                              {"output", build_log()},
                              {"hermes_home", claimed}};
        const auto decoded = (*hermes)->call(Plugin::Op::decode, payload.dump());
        return decoded ? json::parse(*decoded)["route"].value("kind", "") : "?";
    };
    EXPECT_EQ(route(home), "mcp");
    EXPECT_EQ(route(home + "/"), "mcp");
    EXPECT_EQ(route(elsewhere), "cli") << "read a config.yaml the payload chose";
    EXPECT_EQ(route(home + "/../chosen"), "cli");
    // A profile of the layout, and $HERMES_HOME, are the host's own.
    fs::create_directories(home + "/profiles/work");
    write_file(home + "/profiles/work/config.yaml", config);
    EXPECT_EQ(route(home + "/profiles/work"), "mcp");
    box.env.set("HERMES_HOME", elsewhere);
    EXPECT_EQ(route(elsewhere), "mcp");
}

} // namespace
} // namespace sutra::host
