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
        {"make; cd ..", "working directory"},
        {"make && cd ..", "working directory"},
        {"cd build; make", "working directory"},
        {"cd build || make", "working directory"},
        {"cd build && make; echo done", "more than one"},
        {"cd build && make || echo failed", "more than one"},
        {"cd build && make\nls", "more than one"},
        {"cd build && make & wait", "more than one"},
        {"cd build && (make; ls) || echo x", "more than one"},
        {"cd build && case x in x) make;; esac", "more than one"},
        {"cd a && make && cd b", "working directory"},
        {"cd $(mktemp -d) && make", "working directory"},
        {"cd `pwd` && make", "working directory"},
        {"FOO=1 cd build && make", "working directory"},
        {"cd build 2>/dev/null && make", "working directory"},
        {"cd build && pushd x", "working directory"},
        {"cd build && cd ..", "working directory"},
        {"cd build && ", "nothing to run"},
        {"cd build && my_function", "not a program"},
        {"cd build && sutra restore su_0 --all", "sutra itself"},
        {"cd build && make && exit 3", "ends the shell"},
        {"cd build && exec make", "ends the shell"},
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
        const auto plan = plugins::claude::plan_route(c, on_path);
        ASSERT_FALSE(plan.route.has_value()) << c;
        EXPECT_NE(plan.refusal.find(want), std::string::npos) << c << " → " << plan.refusal;
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
                            "--max-view-bytes-on-success 28000 --no-status-line --host-cut "
                            "10000:5000:5000:30000 --host-cut-on-success 30000:2048:0 --mcp-tool "
                            "mcp__sutra__sutra_restore --sh '",
                            0),
              0u)
        << wrapped;
    // The shell reads the quoted line back to exactly the original.
    const std::string quoted = wrapped.substr(wrapped.find(" --sh ") + 6);
    EXPECT_EQ(test::run_command("printf '%s' " + quoted), line);
    EXPECT_EQ(plugins::common::sutra_subcommand(wrapped), "exec");
}

TEST(ClaudeRoute, LeadingDirectoryChangesStayInTheHostsShell) {
    const std::vector<std::tuple<const char*, const char*, const char*>> cases = {
        {"cd build && make test", "cd build && ", "make test"},
        {"cd build&&make", "cd build&&", "make"},
        {"cd 'my dir' && cd sub && make -j2 2>&1 | tail -50", "cd 'my dir' && cd sub && ",
         "make -j2 2>&1 | tail -50"},
        {"cd \"$HOME/src\" && pytest -q && echo ok", "cd \"$HOME/src\" && ",
         "pytest -q && echo ok"},
        {"cd && ls", "cd && ", "ls"},
        {"cd -P ../x && (cd y; make) && ls", "cd -P ../x && ", "(cd y; make) && ls"},
        {"make test", "", "make test"},
    };
    for (const auto& [c, keep, run] : cases) {
        const auto plan = plugins::claude::plan_route(c, on_path);
        ASSERT_TRUE(plan.route.has_value()) << c << " → " << plan.refusal;
        EXPECT_EQ(plan.route->keep, keep) << c;
        EXPECT_EQ(plan.route->run, run) << c;
    }
    const plugins::claude::Wrapper w{"/opt/sutra", "/bin/bash", "", 8192};
    const auto plan = plugins::claude::plan_route("cd sub && make test", on_path);
    ASSERT_TRUE(plan.route.has_value());
    EXPECT_EQ(plugins::claude::wrap_route(w, *plan.route),
              "cd sub && /opt/sutra exec --shell /bin/bash --max-view-bytes 8192 "
              "--max-view-bytes-on-success 28000 --no-status-line --host-cut "
              "10000:5000:5000:30000 --host-cut-on-success 30000:2048:0 --sh 'make test'");
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

// The split form (`cd … && <sutra exec> 'rest'`) against the original, in bash, over generated
// commands: the same exit status, the same output bytes and the same working directory after.
TEST_F(RouteMeaning, SplitCdKeepsStatusOutputAndTheFinalDirectory) {
    fs::create_directories(dir.path + "/work/sub/deep");
    fs::create_directories(dir.path + "/work/with space");
    test::write_file(dir.path + "/work/sub/notes.txt", "in sub\n");
    const std::vector<std::string> dirs = {"sub",  "sub/deep", "'with space'", "\"with space\"",
                                           "..",   "missing",  "-P sub",       "sub/../sub/deep",
                                           "deep", ""};
    // Commands that fail, read `$?` or standard input, and run subshells; bash's own error
    // messages are left out (the child shell names itself by its path, not "bash").
    const std::vector<std::string> pieces = {
        "pwd",
        "echo hi",
        "false",
        "sh -c 'exit 3'",
        "cat notes.txt",
        "ls",
        "test -d deep",
        "(cd .. && pwd)",
        "echo \"status $?\"",
        "read l && echo \"<$l>\"",
        "(exit 5)",
        "printf 'b\\na\\n'",
    };
    // What a pipe feeds: one reader, so no two writers race on the output.
    const std::vector<std::string> sinks = {"sort", "wc -l", "tail -1", "cat"};
    std::uint64_t seed = 0x5eed;
    auto next = [&](std::size_t n) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::size_t>((seed >> 33) % n);
    };
    // Prints the status and the directory after the line; a newline ends any comment first.
    auto with_epilogue = [](const std::string& line) {
        return line + "\nst=$?; echo; echo \"[status=$st pwd=$PWD]\"";
    };
    int routed = 0;
    for (int round = 0; round < 120; ++round) {
        std::string line;
        const std::size_t cds = 1 + next(3);
        for (std::size_t i = 0; i < cds; ++i) line += "cd " + dirs[next(dirs.size())] + " && ";
        const std::size_t count = 1 + next(3);
        for (std::size_t i = 0; i < count; ++i) {
            if (i > 0) line += " && ";
            line += pieces[next(pieces.size())];
            if (next(3) == 0) line += " 2>&1 | " + sinks[next(sinks.size())];
        }
        const auto plan = plugins::claude::plan_route(line, on_path);
        ASSERT_TRUE(plan.route.has_value()) << line << " → " << plan.refusal;
        ++routed;
        const std::string split =
            plugins::claude::wrap_route({SUTRA_BINARY, "/bin/bash", "", 8192}, *plan.route);
        int direct_status = -1, split_status = -1;
        const std::string direct = run(with_epilogue(line), direct_status);
        const std::string wrapped = run(with_epilogue(split), split_status);
        EXPECT_EQ(wrapped, direct) << line << "\nsplit: " << split;
        EXPECT_EQ(split_status, direct_status) << line;
        EXPECT_NE(direct.find("[status="), std::string::npos) << line;
    }
    EXPECT_EQ(routed, 120);
}

// The hook itself, through the dispatcher and the real module.
class ClaudePreToolUse : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    // The route's mechanics, as with --wrap-bash; the auto route has tests of its own.
    void SetUp() override {
        box.env.set("SUTRA_PROGRAM", SUTRA_BINARY);
        box.env.set("SUTRA_BASH_ROUTE", "always");
    }

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

TEST_F(ClaudePreToolUse, KeepsALeadingCdOutsideTheWrapper) {
    const std::string out = hook(pre({{"command", "cd build && make test"}}));
    ASSERT_FALSE(out.empty());
    const std::string cmd = json::parse(out)["hookSpecificOutput"]["updatedInput"]["command"];
    EXPECT_EQ(cmd.rfind("cd build && " + plugins::common::shell_word(SUTRA_BINARY) + " exec ", 0),
              0u)
        << cmd;
    EXPECT_TRUE(cmd.ends_with(" --sh 'make test'")) << cmd;
}

// The permission guard reads the whole command, the kept `cd` part too: a deny rule naming
// the directory or the wrapped command still leaves it unwrapped.
TEST_F(ClaudePreToolUse, DenyRulesSeeTheWholeCdCommand) {
    const std::string settings = box.dir.path + "/claude/settings.json";
    fs::create_directories(box.dir.path + "/claude");
    for (const char* rule : {"Bash(make:*)", "Read(vault/**)", "Bash(cd vault:*)"}) {
        test::write_file(settings, json{{"permissions", {{"deny", {rule}}}}}.dump());
        EXPECT_EQ(hook(pre({{"command", "cd vault && make test"}})), "") << rule;
    }
    test::write_file(settings, json{{"permissions", {{"deny", {"Bash(rm:*)"}}}}}.dump());
    EXPECT_NE(hook(pre({{"command", "cd vault && make test"}})), "");
}

TEST_F(ClaudePreToolUse, PassesWhatItMustNotRoute) {
    EXPECT_EQ(hook(pre({{"command", "cd build; make"}})), "");
    EXPECT_EQ(hook(pre({{"command", "cd build && make || echo failed"}})), "");
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

// The default route wraps only where wrapping changes no permission outcome: every Bash command
// allowed (an allow rule `Bash` the host surely reads) or permissions bypassed.
TEST_F(ClaudePreToolUse, TheAutoRouteWrapsOnlyWhereNoOutcomeCanChange) {
    box.env.set("SUTRA_BASH_ROUTE", std::nullopt);
    box.env.set("CLAUDE_PROJECT_DIR", std::nullopt);
    const std::string settings = box.dir.path + "/claude/settings.json";
    fs::create_directories(box.dir.path + "/claude");
    const json make = {{"command", "make test"}};
    EXPECT_EQ(hook(pre(make)), ""); // no allow rule: a wrapped command would be asked
    json bypass = pre(make);
    bypass["permission_mode"] = "bypassPermissions";
    EXPECT_NE(hook(bypass), "");
    test::write_file(settings, json{{"permissions", {{"allow", {"Bash(make:*)"}}}}}.dump());
    EXPECT_EQ(hook(pre(make)), ""); // allowed one by one: wrapped, it would be asked
    test::write_file(settings, json{{"permissions", {{"allow", {"Bash"}}}}}.dump());
    EXPECT_NE(hook(pre(make)), "");
    // Still under the guard: a deny rule, a guarded path, an allow rule naming the wrapper.
    test::write_file(
        settings, json{{"permissions", {{"allow", {"Bash"}}, {"deny", {"Bash(make:*)"}}}}}.dump());
    EXPECT_EQ(hook(pre(make)), "");
    EXPECT_EQ(hook(bypass), "");
    test::write_file(settings, json{{"permissions", {{"allow", {"Bash"}}}}}.dump());
    EXPECT_EQ(hook(pre({{"command", "echo {} > .mcp.json"}})), "");
    // Modes in which the host weighs commands by what they do: never wrapped.
    for (const char* mode : {"plan", "auto", "someFutureMode"}) {
        json p = pre(make);
        p["permission_mode"] = mode;
        EXPECT_EQ(hook(p), "") << mode;
        box.env.set("SUTRA_BASH_ROUTE", "always");
        EXPECT_EQ(hook(p), "") << mode;
        box.env.set("SUTRA_BASH_ROUTE", std::nullopt);
    }
}

// A `cd` whose words change the shell's state as they expand stays unsplit (and so unwrapped):
// the assignment would happen in the host's shell, out of the wrapped rest's sight.
TEST_F(ClaudePreToolUse, ACdWhoseExpansionAssignsIsNotSplit) {
    for (const char* c : {"cd ${D:=build} && ls \"$D\"", "cd ${D=build} && ls", "cd $((n=1)) && ls",
                          "cd $(mktemp -d) && ls", "cd `pwd` && ls"})
        EXPECT_EQ(hook(pre({{"command", c}})), "") << c;
    EXPECT_NE(hook(pre({{"command", "cd ${D:-build} && make"}})), "");
}

TEST_F(ClaudePreToolUse, InstallChoosesTheRouteThenUninstallIsByteIdentical) {
    const std::string settings = box.dir.path + "/claude/settings.json";
    const std::string user = "{\n  \"model\": \"opus\",\n  \"hooks\": {\"PreToolUse\": "
                             "[{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", "
                             "\"command\": \"rtk-rewrite.sh\"}]}]}\n}\n";
    auto p = registry.load("claude");
    ASSERT_TRUE(p.has_value());
    auto call = [&](Plugin::Op op, const std::string& route) {
        json o = {{"host_program", "/opt/sutra/bin/sutra-host"},
                  {"sutra_program", "/opt/sutra/bin/sutra"},
                  {"dry_run", false}};
        if (!route.empty()) o["bash_route"] = route;
        return json::parse((*p)->call(op, o.dump()).value_or("null"));
    };
    const std::string plain =
        "SUTRA_PROGRAM=/opt/sutra/bin/sutra /opt/sutra/bin/sutra-host --adapter claude";
    auto our_pre = [&]() -> std::string {
        const json doc = json::parse(test::read_file(settings));
        if (!doc["hooks"].contains("PreToolUse")) return "";
        const json& groups = doc["hooks"]["PreToolUse"];
        const json& ours = groups[groups.size() - 1];
        EXPECT_EQ(ours["matcher"], "Bash");
        const std::string cmd = ours["hooks"][0]["command"];
        return cmd == "rtk-rewrite.sh" ? "" : cmd;
    };
    for (const bool user_file : {false, true}) {
        fs::remove_all(box.dir.path + "/claude");
        fs::create_directories(box.dir.path + "/claude");
        if (user_file) test::write_file(settings, user);
        // The default install has the auto route.
        ASSERT_TRUE(call(Plugin::Op::install, "")["ok"]);
        EXPECT_EQ(our_pre(), plain);
        EXPECT_EQ(call(Plugin::Op::detect, "")["bash_route"]["mode"], "auto");
        // --wrap-bash, kept by a later install that does not say, idempotent.
        ASSERT_TRUE(call(Plugin::Op::install, "always")["ok"]);
        EXPECT_EQ(our_pre(), "SUTRA_BASH_ROUTE=always " + plain);
        EXPECT_EQ(call(Plugin::Op::detect, "")["bash_route"]["mode"], "always");
        const std::string installed = test::read_file(settings);
        EXPECT_FALSE(call(Plugin::Op::install, "always")["changed"]);
        EXPECT_FALSE(call(Plugin::Op::install, "")["changed"]);
        EXPECT_EQ(test::read_file(settings), installed);
        EXPECT_EQ(json::parse(installed)["hooks"]["PostToolUse"].size(), 1u);
        // --no-wrap-bash takes the route out and leaves the user's PreToolUse hook.
        ASSERT_TRUE(call(Plugin::Op::install, "off")["ok"]);
        EXPECT_EQ(our_pre(), "");
        EXPECT_EQ(call(Plugin::Op::detect, "")["bash_route"]["mode"], "off");
        EXPECT_FALSE(call(Plugin::Op::detect, "")["wrap_bash"]);
        ASSERT_TRUE(call(Plugin::Op::install, "auto")["ok"]);
        EXPECT_EQ(our_pre(), plain);
        ASSERT_TRUE(call(Plugin::Op::uninstall, "")["ok"]);
        if (user_file) {
            EXPECT_EQ(test::read_file(settings), user);
        } else {
            EXPECT_FALSE(fs::exists(settings));
        }
        EXPECT_EQ(plugins::common::backups(settings).size(), 0u);
    }
}

// `--statusline` sets Claude Code's statusLine only where the user has none; uninstall gives the
// bytes back either way.
TEST_F(ClaudePreToolUse, TheStatusLineIsSetOnlyWhereThereIsNone) {
    const std::string settings = box.dir.path + "/claude/settings.json";
    auto p = registry.load("claude");
    ASSERT_TRUE(p.has_value());
    auto call = [&](Plugin::Op op, bool statusline) {
        const json o = {{"host_program", "/opt/sutra/bin/sutra-host"},
                        {"sutra_program", "/opt/sutra/bin/sutra"},
                        {"dry_run", false},
                        {"statusline", statusline}};
        return json::parse((*p)->call(op, o.dump()).value_or("null"));
    };
    const std::string theirs = "{\n  \"statusLine\": {\"type\": \"command\", \"command\": "
                               "\"~/bin/my-status\"},\n  \"model\": \"opus\"\n}\n";
    for (const std::string& user :
         {std::string(), std::string("{\"model\": \"opus\"}\n"), theirs}) {
        fs::remove_all(box.dir.path + "/claude");
        fs::create_directories(box.dir.path + "/claude");
        if (!user.empty()) test::write_file(settings, user);
        const json r = call(Plugin::Op::install, true);
        ASSERT_TRUE(r["ok"]) << r.dump();
        const json doc = json::parse(test::read_file(settings));
        if (user == theirs) {
            EXPECT_EQ(doc["statusLine"]["command"], "~/bin/my-status");
            EXPECT_EQ(call(Plugin::Op::detect, false)["statusline"], "the user's own");
            EXPECT_NE(r["messages"].dump().find("status line of your own"), std::string::npos);
        } else {
            EXPECT_EQ(doc["statusLine"],
                      (json{{"type", "command"}, {"command", "/opt/sutra/bin/sutra statusline"}}));
            EXPECT_EQ(call(Plugin::Op::detect, false)["statusline"], "sutra");
        }
        ASSERT_TRUE(call(Plugin::Op::uninstall, false)["ok"]);
        if (user.empty())
            EXPECT_FALSE(fs::exists(settings));
        else
            EXPECT_EQ(test::read_file(settings), user);
    }
}

} // namespace
} // namespace sutra::host
