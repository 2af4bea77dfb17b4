// Claude Code's PreToolUse route for Bash (plugins/claude/bash_route.*): which commands may run
// under `sutra exec`, that a routed command means the same (output bytes, order, exit status,
// stdin, working directory), the hook answer's shape, and install/uninstall of the opt-in.

#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "plugins/claude/bash_route.hpp"
#include "plugins/common/files.hpp"
#include "plugins/common/shell_words.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using plugins::claude::route_refusal;

// PATH as a test sees it, plus names that stand for the user's own programs.
bool on_path(std::string_view name) {
    static const std::set<std::string, std::less<>> extra = {"make", "pytest", "cargo", "npm"};
    const char* path = std::getenv("PATH");
    return extra.contains(name) || plugins::claude::program_on_path(name, path ? path : "");
}

TEST(ClaudeRoute, PlainCommandsAreRouted) {
    for (const char* c : {
             "make -j4 && ctest --output-on-failure",
             "pytest -q tests/ 2>&1 | tail -50",
             "cargo build --release; echo done",
             "FOO=1 BAR='x y' make check",
             "ls -la /tmp > /dev/null 2>&1 || echo missing",
             "for f in *.txt; do wc -l \"$f\"; done",
             "if [ -f x ]; then cat x; else echo none; fi",
             "while read l; do echo \"$l\"; done < input.txt",
             "case $1 in a) echo a;; *) echo other;; esac",
             "[[ -d build ]] && make -C build",
             "(cd sub && make) 2>&1",
             "cat <<EOF\ncd /\nEOF",
             "cat <<-'END'\n\tpopd\n\tEND\necho after",
             "echo \"$(cd / && pwd)\"",
             "{ echo a; echo b; } | sort",
             "! grep -q error log.txt",
             "time make",
             "npm test -- --watch=false",
             "echo 'it''s' \"a ; cd b\" \\; cd",
             "diff <(echo a) <(echo b)",
             "./configure --prefix=/usr && make",
             "exit 3",
             "set -o pipefail; false | true",
             "echo ok # cd would be a comment",
             "2>/dev/null make",
             "git log -p -n 3 | cat",
         }) {
        const auto why = route_refusal(c, on_path);
        EXPECT_FALSE(why.has_value()) << c << " → " << why.value_or("");
    }
}

TEST(ClaudeRoute, CommandsWhoseMeaningWouldChangeAreRefused) {
    const std::vector<std::pair<const char*, const char*>> cases = {
        {"cd build && make", "working directory"},
        {"make; cd ..", "working directory"},
        {"pushd /tmp", "working directory"},
        {"echo x && popd", "working directory"},
        {"if true; then cd /; fi", "working directory"},
        {"npm run dev &", "background"},
        {"sleep 1 & wait", "background"},
        {"ll -a", "not a program"},
        {"make && my_function arg", "not a program"},
        {"\"$CMD\" --flag", "computed at run time"},
        {"$(which make)", "computed at run time"},
        {"sutra restore su_0123 --all", "sutra itself"},
        {"make && /usr/bin/sutra exec -- ls", "sutra itself"},
        {"echo 'unterminated", "cannot read"},
        {"echo \"unterminated", "cannot read"},
        {"cat <<EOF\nno end", "here-document"},
        {"echo $(unbalanced", "cannot read"},
        {"", "empty"},
        {"   \n", "empty"},
    };
    for (const auto& [c, want] : cases) {
        const auto why = route_refusal(c, on_path);
        ASSERT_TRUE(why.has_value()) << c;
        EXPECT_NE(why->find(want), std::string::npos) << c << " → " << *why;
    }
    EXPECT_TRUE(route_refusal(std::string("echo a\0b", 8), on_path).has_value());
    EXPECT_TRUE(route_refusal(std::string(70000, 'x'), on_path).has_value());
}

TEST(ClaudeRoute, WrappedCommandQuotesTheLineExactly) {
    plugins::claude::Wrapper w{"/opt/my sutra/sutra", "/bin/bash", "mcp__sutra__sutra_restore",
                               8192};
    const std::string line = "echo 'a'\"b\" $X \\\n\t'";
    const std::string wrapped = plugins::claude::wrap_command(w, line);
    EXPECT_EQ(wrapped.rfind("'/opt/my sutra/sutra' exec --shell /bin/bash --max-view-bytes 8192 "
                            "--no-status-line --mcp-tool mcp__sutra__sutra_restore --sh '",
                            0),
              0u)
        << wrapped;
    // The shell reads the quoted line back to exactly the original.
    const std::string quoted = wrapped.substr(wrapped.find(" --sh ") + 6);
    EXPECT_EQ(test::run_command("printf '%s' " + quoted), line);
    EXPECT_EQ(plugins::common::sutra_subcommand(wrapped), "exec");
}

// Runs `line` through bash directly and through the wrapper, from the same folder with the same
// standard input; output (stdout and stderr together) and exit status must match.
class RouteMeaning : public ::testing::Test {
protected:
    test::TempDir dir;
    test::ScopedEnv env;
    void SetUp() override {
        env.set("SUTRA_HOME", dir.path + "/store");
        env.set("SUTRA_STATS", "0");
        env.set("SUTRA_CONFIG", dir.path + "/none.toml");
        env.set("SUTRA_MIN_BYTES", std::nullopt);
        env.set("SUTRA_MODE", std::nullopt);
        fs::create_directories(dir.path + "/work/sub");
        test::write_file(dir.path + "/work/input.txt", "first line\nsecond line\n");
    }
    std::string run(const std::string& bash_line, int& status) {
        const std::string cmd = "cd " + plugins::common::shell_word(dir.path + "/work") +
                                " && printf 'in1\\nin2\\n' | bash -c " +
                                plugins::common::shell_word(bash_line) + " 2>&1";
        return test::run_command(cmd, &status);
    }
    std::string wrapped(const std::string& line) {
        return plugins::claude::wrap_command({SUTRA_BINARY, "/bin/bash", "", 8192}, line);
    }
};

TEST_F(RouteMeaning, SmallOutputsAndStatusesAreIdentical) {
    const std::vector<std::string> lines = {
        "echo a; echo b >&2; echo c",
        "exit 7",
        "false",
        "printf '%s\\n' \"it's\" 'a \"b\"' $'tab\\there'",
        "x=1; echo $((x + 1))",
        "[[ abc == a* ]] && echo glob-match",
        "arr=(one two three); echo \"${arr[1]} ${#arr[@]}\"",
        "read l; echo \"<$l>\"; cat",
        "cat <<EOF\nheredoc $((2 * 3))\nEOF",
        "(cd sub && pwd) | sed 's|.*/||'; pwd | sed 's|.*/||'",
        "set -e; false; echo not-reached",
        "trap 'echo bye' EXIT; echo hi",
        "echo héllo wörld ✓",
        "printf 'a\\0b\\n'",
        "kill -TERM $$",
        "seq 1 5 | tail -2",
        "for i in 1 2 3; do echo $i; done; exit 2",
        "case x in x) echo matched;; esac",
        "echo \"$(echo nested 'q')\" `echo back`",
        "exec echo replaced",
        "wc -l < input.txt",
        "diff <(echo a) <(echo b); echo status=$?",
        "ls nonexistent-file",
        "printf 'no newline at end'",
        "",
    };
    for (const std::string& line : lines) {
        if (line.empty()) continue;
        ASSERT_FALSE(route_refusal(line, on_path).has_value()) << line;
        int direct_status = -1, routed_status = -1;
        const std::string direct = run(line, direct_status);
        const std::string routed = run(wrapped(line), routed_status);
        EXPECT_TRUE(routed == direct) << line << "\nrouted: " << routed.substr(0, 2000)
                                      << "\ndirect: " << direct.substr(0, 2000);
        EXPECT_EQ(routed_status, direct_status) << line;
    }
}

TEST_F(RouteMeaning, LargeFailingOutputBecomesARestorableViewWithTheSameStatus) {
    const std::string line =
        "for i in $(seq 1 4000); do echo \"[INFO] step $i compiling module_$((i % 9)).cpp ok\"; "
        "done; echo 'src/a.cpp:12:3: error: expected ;' >&2; exit 4";
    int direct_status = -1, routed_status = -1;
    const std::string direct = run(line, direct_status);
    const std::string view = run(wrapped(line), routed_status);
    EXPECT_EQ(direct_status, 4);
    EXPECT_EQ(routed_status, 4);
    EXPECT_LT(view.size(), 8192u + 512u); // the cap given, so Claude Code's ~10,000 cut misses it
    EXPECT_LT(view.size() * 5, direct.size());
    EXPECT_NE(view.find("src/a.cpp:12:3: error: expected ;"), std::string::npos);
    EXPECT_NE(view.find("step 4000"), std::string::npos);
    EXPECT_EQ(view.find("command exited with status"), std::string::npos); // the host says so
    const auto at = view.find("sutra restore su_");
    ASSERT_NE(at, std::string::npos) << view;
    const std::string id = view.substr(at + 14, view.find(' ', at + 14) - at - 14);
    int status = -1;
    const std::string restored =
        test::run_command(std::string(SUTRA_BINARY) + " restore " + id + " --all", &status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(restored == direct)
        << restored.size() << " bytes restored, " << direct.size() << " expected";
}

// The hook itself, through the dispatcher and the real module.
class ClaudePreToolUse : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    void SetUp() override { box.env.set("SUTRA_PROGRAM", SUTRA_BINARY); }

    std::string hook(const json& payload) {
        auto p = registry.load("claude");
        EXPECT_TRUE(p.has_value());
        if (!p) return "?";
        std::string why;
        return run_hook(**p, payload.dump(), why);
    }
    static json pre(const json& input, const std::string& tool = "Bash") {
        return json{{"session_id", "63c7aa"},
                    {"transcript_path", "/nowhere/x.jsonl"},
                    {"cwd", "/tmp"},
                    {"permission_mode", "default"},
                    {"hook_event_name", "PreToolUse"},
                    {"tool_name", tool},
                    {"tool_input", input},
                    {"tool_use_id", "toolu_1"}};
    }
};

TEST_F(ClaudePreToolUse, AnswersWithTheWholeInputAndOnlyTheCommandChanged) {
    const json input = {{"command", "make -j2 && ctest"},
                        {"description", "build and test"},
                        {"timeout", 600000},
                        {"dangerouslyDisableSandbox", false}};
    const std::string out = hook(pre(input));
    ASSERT_FALSE(out.empty());
    const json j = json::parse(out);
    const json& h = j["hookSpecificOutput"];
    EXPECT_EQ(h["hookEventName"], "PreToolUse");
    EXPECT_FALSE(h.contains("permissionDecision")); // the user's rules and prompts still apply
    json updated = h["updatedInput"];
    const std::string cmd = updated["command"];
    EXPECT_EQ(cmd.rfind(plugins::common::shell_word(SUTRA_BINARY) + " exec --shell ", 0), 0u)
        << cmd;
    EXPECT_NE(cmd.find(" --sh 'make -j2 && ctest'"), std::string::npos) << cmd;
    updated["command"] = input["command"];
    EXPECT_EQ(updated, input);
}

TEST_F(ClaudePreToolUse, PassesWhatItMustNotRoute) {
    EXPECT_EQ(hook(pre({{"command", "cd build && make"}})), "");
    EXPECT_EQ(hook(pre({{"command", "make"}, {"run_in_background", true}})), "");
    EXPECT_EQ(hook(pre({{"command", "make"}, {"run_in_background", "yes"}})), "");
    EXPECT_EQ(hook(pre({{"file_path", "/etc/passwd"}}, "Read")), "");
    EXPECT_EQ(hook(pre({{"command", 42}})), "");
    EXPECT_EQ(hook(pre(json::array())), "");
    box.env.set("SUTRA_PROGRAM", "/nonexistent/sutra");
    // Without a usable sutra binary (none beside the test executable either) nothing is routed.
    EXPECT_EQ(hook(pre({{"command", "make"}})), "");
}

TEST_F(ClaudePreToolUse, PostToolUseLeavesRoutedAndRestoreOutputAlone) {
    std::string big;
    for (int i = 0; i < 500; ++i) big += "[INFO] line " + std::to_string(i) + " ok\n";
    json post = pre({{"command", ""}});
    post["hook_event_name"] = "PostToolUse";
    post["tool_response"] = {{"stdout", big}, {"stderr", ""}, {"interrupted", false}};
    for (const std::string cmd : {"'/opt/x y/sutra' exec --shell /bin/bash --sh 'make'",
                                  "sutra restore su_00 --all", "/usr/bin/sutra exec -- make"}) {
        post["tool_input"]["command"] = cmd;
        EXPECT_EQ(hook(post), "") << cmd;
    }
    post["tool_input"]["command"] = "make";
    EXPECT_NE(hook(post), ""); // the same output from an ordinary command is compressed
}

TEST_F(ClaudePreToolUse, InstallWithWrapThenUninstallIsByteIdentical) {
    const std::string settings = box.dir.path + "/claude/settings.json";
    const std::string user = "{\n  \"model\": \"opus\",\n  \"hooks\": {\"PreToolUse\": "
                             "[{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", "
                             "\"command\": \"rtk-rewrite.sh\"}]}]}\n}\n";
    auto p = registry.load("claude");
    ASSERT_TRUE(p.has_value());
    auto call = [&](Plugin::Op op, bool wrap) {
        const json o = {{"host_program", "/opt/sutra/bin/sutra-host"},
                        {"sutra_program", "/opt/sutra/bin/sutra"},
                        {"dry_run", false},
                        {"wrap_bash", wrap}};
        return json::parse((*p)->call(op, o.dump()).value_or("null"));
    };
    for (const bool user_file : {false, true}) {
        fs::remove_all(box.dir.path + "/claude");
        fs::create_directories(box.dir.path + "/claude");
        if (user_file) test::write_file(settings, user);
        // Plain install, then an upgrade to the route, then uninstall: the user's bytes return.
        ASSERT_TRUE(call(Plugin::Op::install, false)["ok"]);
        EXPECT_FALSE(call(Plugin::Op::detect, false)["wrap_bash"]);
        ASSERT_TRUE(call(Plugin::Op::install, true)["ok"]);
        const json doc = json::parse(test::read_file(settings));
        const json& pre_groups = doc["hooks"]["PreToolUse"];
        const json& ours = pre_groups[pre_groups.size() - 1];
        EXPECT_EQ(ours["matcher"], "Bash");
        EXPECT_EQ(ours["hooks"][0]["command"],
                  "SUTRA_PROGRAM=/opt/sutra/bin/sutra /opt/sutra/bin/sutra-host --adapter claude");
        EXPECT_EQ(doc["hooks"]["PostToolUse"].size(), 1u);
        EXPECT_TRUE(call(Plugin::Op::detect, false)["wrap_bash"]);
        const std::string installed = test::read_file(settings);
        EXPECT_FALSE(call(Plugin::Op::install, true)["changed"]);  // idempotent
        EXPECT_FALSE(call(Plugin::Op::install, false)["changed"]); // keeps the route
        EXPECT_EQ(test::read_file(settings), installed);
        ASSERT_TRUE(call(Plugin::Op::uninstall, false)["ok"]);
        if (user_file) {
            EXPECT_EQ(test::read_file(settings), user);
        } else {
            EXPECT_FALSE(fs::exists(settings));
        }
        EXPECT_EQ(plugins::common::backups(settings).size(), 0u);
    }
}

} // namespace
} // namespace sutra::host
