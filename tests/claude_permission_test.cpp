// The Bash route never weakens a permission (plugins/claude/permission_guard.*,
// permission_rules.*, host_checks.cpp): every rule of every source the host reads is found, a
// command that a rule's program could name stays unwrapped, a rule that could match the wrapper
// refuses every command, and a command the host's own path checks would look at stays as
// written. claude_guard_property_test.cpp holds the property against a model of the host.

#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "plugins/claude/permission_guard.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using plugins::claude::add_settings_rules;
using plugins::claude::GuardContext;
using plugins::claude::HostProcess;
using plugins::claude::load_permission_rules;
using plugins::claude::permission_refusal;
using plugins::claude::PermissionRules;
using plugins::claude::RuleScopes;

PermissionRules rules_of(const json& permissions) {
    PermissionRules r;
    add_settings_rules(r, json{{"permissions", permissions}}.dump(), "settings.json");
    return r;
}

GuardContext context(std::string cwd = "/w/proj") {
    return {std::move(cwd),
            "/home/u",
            {"/home/u/.claude", "/home/u/cfg"},
            {"/opt/sutra/bin/sutra", "exec", "--shell", "/bin/bash", "--max-view-bytes", "8192",
             "--no-status-line", "--sh"}};
}

bool refused(std::string_view command, const PermissionRules& r, std::string cwd = "/w/proj") {
    return permission_refusal(command, r, context(std::move(cwd))).has_value();
}

TEST(ClaudePermissionGuard, ARulesProgramAnywhereInTheCommandKeepsItUnwrapped) {
    const auto r = rules_of({{"deny", {"Bash(cat:*)", "Bash(git push:*)"}},
                             {"ask", {"Bash(rm -rf *)", "Bash(npm publish)"}}});
    for (const char* c :
         {"cat case.out; exit 1", "make && cat log", "ls | cat", "FOO=1 cat x", "c'a't x",
          "\"cat\" x", "c\\at x", "echo a\ncat b", "git push origin", "git  push", "git\tpush -f",
          "cd x && git push", "timeout 9 git push", "env A=1 git push", "xargs cat < list",
          "rm -rf build", "npm publish", "if true; then npm publish; fi", "CAT x",
          // the forms the host normalises away: redirections and empty expansions between the
          // words, and what the guard sees through besides (shells, brace lists, options)
          "git 2>/dev/null push origin", "rm 2>/dev/null -rf x", "npm 2>/dev/null run deploy",
          "git ${X} push", "git $X push", "git ${X:-} push", "git \"$@\" push", "g${X}it push",
          "bash -c 'git push'", "sh -c \"npm publish\"", "{git,x} push", "make --with=git",
          "/usr/bin/git push", "ls # ; git push", "cat <<EOF\ngit push\nEOF", "git status", "rm x",
          "npm test"})
        EXPECT_TRUE(refused(c, r)) << c;
    for (const char* c : {"ls -la", "make -j2 && ctest", "echo push", "pytest -q tests/",
                          "python3 -m pytest 2>&1 | tail -50", "cargo build --release"})
        EXPECT_FALSE(refused(c, r)) << c;
}

TEST(ClaudePermissionGuard, AWordThatExpandsStandsForAnyWord) {
    const auto r = rules_of({{"deny", {"Bash(git push:*)"}}});
    for (const char* c : {"echo $HOME", "$CMD push", "echo \"$(date)\"", "echo `date`",
                          "diff <(ls) x", "printf $'\\x67it'", "cat <<EOF\n$X\nEOF"})
        EXPECT_TRUE(refused(c, r)) << c;
    // Without a Bash rule, expansions are no reason to refuse.
    EXPECT_FALSE(refused("echo $HOME", rules_of({{"deny", {"WebFetch"}}})));
    // Single quotes hold no expansion.
    EXPECT_FALSE(refused("awk '{print $1}' data.txt", r));
}

TEST(ClaudePermissionGuard, RulesWithoutALiteralProgramRefuseEveryCommand) {
    for (const char* rule :
         {"Bash", "Bash()", "Bash(*)", "Bash(:*)", "Bash(* --force)", "Read", "Read(**)"}) {
        const auto r = rules_of({{"ask", {rule}}});
        EXPECT_TRUE(refused("ls", r)) << rule;
    }
}

TEST(ClaudePermissionGuard, ARuleThatCouldMatchTheWrapperRefusesEveryCommand) {
    for (const char* rule :
         {"Bash(/opt/sutra/bin/sutra:*)", "Bash(sutra:*)", "Bash(sutra exec:*)", "Bash(/opt:*)",
          "Bash(bash:*)", "Bash(/bin/bash:*)", "Bash(* --help)", "Bash(exec:*)", "Bash(SUTRA *)"}) {
        for (const char* kind : {"allow", "deny", "ask"})
            EXPECT_TRUE(refused("make test", rules_of({{kind, {rule}}}))) << kind << " " << rule;
    }
    // Allow rules that cannot match the wrapper widen nothing by wrapping.
    for (const char* rule : {"Bash", "Bash(*)", "Bash(npm test:*)", "Bash(make:*)"})
        EXPECT_FALSE(refused("make test", rules_of({{"allow", {rule}}}))) << rule;
}

TEST(ClaudePermissionGuard, FileRulesCoverCommandsThatNameTheFiles) {
    const auto r =
        rules_of({{"deny", {"Read(./config.yml)", "Edit(//etc/**)", "Read(secrets/**)"}}});
    EXPECT_TRUE(refused("cat config.yml", r));
    EXPECT_TRUE(refused("grep KEY ../app/config.yml", r));
    EXPECT_TRUE(refused("sed -i s/a/b/ /etc/hosts", r));
    EXPECT_TRUE(refused("cat key.txt", r, "/w/proj/secrets")); // the folder is the cwd
    EXPECT_TRUE(refused("ls secrets", r));
    EXPECT_FALSE(refused("cat README.md", r, "/w/proj"));
}

TEST(ClaudePermissionGuard, OtherToolsDoNotRefuse) {
    const auto r =
        rules_of({{"allow", {"Bash"}}, {"deny", {"WebFetch(domain:example.com)", "mcp__x__y"}}});
    EXPECT_TRUE(r.doubts.empty());
    EXPECT_FALSE(refused("curl example.com", r));
}

TEST(ClaudePermissionGuard, UnreadableSettingsRefuseEveryCommand) {
    for (const std::string& text : std::vector<std::string>{
             "{", "[]", "{\"permissions\": []}", "{\"permissions\": {\"deny\": \"Bash(cat:*)\"}}",
             "{\"permissions\": {\"ask\": [1]}}", "{\"permissions\": {\"allow\": {}}}",
             std::string(100000, '[') + std::string(100000, ']')}) {
        PermissionRules r;
        add_settings_rules(r, text, "s.json");
        EXPECT_FALSE(r.doubts.empty()) << text.substr(0, 60);
        EXPECT_TRUE(refused("ls", r)) << text.substr(0, 60);
    }
    PermissionRules fine;
    add_settings_rules(fine, "{\"model\": \"opus\", \"permissions\": {\"allow\": []}}", "s.json");
    EXPECT_TRUE(fine.doubts.empty());
    EXPECT_FALSE(refused("ls", fine));
}

// ---- the host's own path checks ----------------------------------------------------------

TEST(ClaudeHostChecks, CommandsNamingPathsTheHostGuardsStayUnwrapped) {
    const PermissionRules none;
    for (const char* c : {"echo {} > .claude/settings.json",
                          "cp x ~/.claude/settings.json",
                          "echo x >> ~/.bashrc",
                          "echo {} > .mcp.json",
                          "echo x > .git/hooks/pre-commit",
                          "touch .env",
                          "ln -s /tmp .claude",
                          "cat ~/.ssh/id_rsa",
                          "cp key id_ed25519",
                          "vi secrets.yaml",
                          "openssl x -out server.pem",
                          "sed -i s/a/b/ CLAUDE.md",
                          "echo x > /etc/claude-code/managed-settings.json",
                          "rmdir ~",
                          "rm -rf ~/",
                          "rmdir ..",
                          "rm -rf ../..",
                          "rm -rf /",
                          "ls /",
                          "rm -rf /usr",
                          "rm -rf .",
                          "rm -rf /w/proj",
                          "rm -rf /w",
                          "rm -rf $DIR",
                          "rm -rf \"$HOME\"/x",
                          "rm -rf *",
                          "rm -rf ./*",
                          "ls ~other/x",
                          "cd .. && rm -rf proj",
                          "find . -delete",
                          "cd ~ && echo x > .profile",
                          "python3 -c \"open('.bashrc','w')\"",
                          "echo x > /home/u/.claude.json",
                          "cat CLAUDE.local.md",
                          "cp x /home/u/cfg/settings.json"})
        EXPECT_TRUE(refused(c, none)) << c;
    for (const char* c :
         {"pytest -q tests/", "make -j2 && ctest", "cat src/main.rs", "python3 run_tests.py",
          "ls .", "find . -name '*.py'", "ls *.py", "cargo test 2>&1 | tail -40",
          "cat /tmp/build/big.log; exit 3", "rm -rf build/", "git status", "npm test -- --ci"})
        EXPECT_FALSE(refused(c, none)) << c;
    // A working directory the host guards: every command there.
    EXPECT_TRUE(refused("make", none, "/home/u/.config/app"));
    EXPECT_TRUE(refused("make", none, "/home/u/.claude/plugins/x"));
    EXPECT_TRUE(refused("make", none, "/etc/claude-code"));
    EXPECT_FALSE(refused("make", none, "/home/u/src/claude-tools")); // a project's own name
}

// ---- every source is read ----------------------------------------------------------------

void write_file(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

std::string deny(const std::string& rule) {
    return json{{"permissions", {{"deny", {rule}}}}}.dump();
}

struct Scopes {
    test::TempDir t;
    RuleScopes s;
    Scopes() {
        s.home = t.path + "/home";
        s.system_managed_dir = t.path + "/managed";
        s.payload_cwd = t.path + "/repo/sub/dir";
        s.processes = {HostProcess{{"sutra-host", "--adapter", "claude"}, s.payload_cwd, {}},
                       HostProcess{{"claude", "-p", "go"}, t.path + "/repo", {}}};
        fs::create_directories(s.payload_cwd);
    }
    HostProcess& host() { return s.processes[1]; }
    bool refuses(const std::string& c) {
        const auto r = load_permission_rules(s);
        return permission_refusal(c, r, context(s.payload_cwd)).has_value();
    }
};

TEST(ClaudePermissionScopes, ManagedUserProjectAndLocalRulesAreAllRead) {
    Scopes x;
    write_file(x.s.system_managed_dir + "/managed-settings.json", deny("Bash(shutdown:*)"));
    write_file(x.s.system_managed_dir + "/managed-settings.d/10-team.json",
               R"j({"permissions":{"ask":["Bash(kubectl:*)"]}})j");
    write_file(x.s.home + "/.claude/settings.json", deny("Bash(cat:*)"));
    write_file(x.t.path + "/repo/.claude/settings.json",
               R"j({"permissions":{"ask":["Bash(git push:*)"]}})j");
    write_file(x.t.path + "/repo/sub/.claude/settings.local.json", deny("Read(./notes.txt)"));
    const auto r = load_permission_rules(x.s);
    EXPECT_TRUE(r.doubts.empty()) << r.doubts.front();
    for (const char* c :
         {"shutdown now", "kubectl delete pod x", "cat x", "git push", "grep K notes.txt"})
        EXPECT_TRUE(x.refuses(c)) << c;
    EXPECT_FALSE(x.refuses("make test"));
}

TEST(ClaudePermissionScopes, AConfigDirIsReadAsTheHostResolvesIt) {
    { // relative: against the host's working directory, as the host reads ./conf
        Scopes x;
        x.host().environment = {"CLAUDE_CONFIG_DIR=conf"};
        write_file(x.t.path + "/repo/conf/settings.json", deny("Bash(git push:*)"));
        EXPECT_TRUE(x.refuses("git push"));
    }
    { // relative to the session's directory too (the hook cannot know which one the host used)
        Scopes x;
        x.s.processes[0].environment = {"CLAUDE_CONFIG_DIR=conf"};
        write_file(x.s.payload_cwd + "/conf/settings.json", deny("Bash(git push:*)"));
        EXPECT_TRUE(x.refuses("git push"));
    }
    { // `~`
        Scopes x;
        x.host().environment = {"CLAUDE_CONFIG_DIR=~/alt"};
        write_file(x.s.home + "/alt/settings.json", deny("Bash(git push:*)"));
        EXPECT_TRUE(x.refuses("git push"));
    }
    { // absolute, and the remote settings beside the user settings
        Scopes x;
        x.host().environment = {"CLAUDE_CONFIG_DIR=" + x.t.path + "/abs"};
        write_file(x.t.path + "/abs/remote-settings.json", deny("Bash(git push:*)"));
        EXPECT_TRUE(x.refuses("git push"));
        EXPECT_FALSE(x.refuses("make"));
    }
    { // a managed folder named by the environment
        Scopes x;
        x.host().environment = {"CLAUDE_CODE_MANAGED_SETTINGS_PATH=" + x.t.path + "/policy"};
        write_file(x.t.path + "/policy/managed-settings.json", deny("Bash(git push:*)"));
        EXPECT_TRUE(x.refuses("git push"));
    }
}

TEST(ClaudePermissionScopes, RulesFromTheEnvironmentAreRead) {
    Scopes x;
    x.host().environment = {
        "CLAUDE_CODE_SESSION_KIND=bg",
        R"j(CLAUDE_BG_SESSION_PERMISSION_RULES={"allow":["Bash"],"deny":["Bash(git push:*)"]})j"};
    auto r = load_permission_rules(x.s);
    EXPECT_TRUE(r.doubts.empty());
    EXPECT_TRUE(r.bash_allowed_whole());
    EXPECT_TRUE(x.refuses("git 2>/dev/null push"));
    EXPECT_FALSE(x.refuses("make"));
    // Another session kind: the deny rule is still read, the allow no longer relied on.
    x.host().environment[0] = "CLAUDE_CODE_SESSION_KIND=fg";
    r = load_permission_rules(x.s);
    EXPECT_FALSE(r.bash_allowed_whole());
    EXPECT_TRUE(x.refuses("git push"));
    // Unreadable rules, or a variable the guard does not know that may carry rules: doubt.
    for (const std::string& e :
         {std::string("CLAUDE_BG_SESSION_PERMISSION_RULES=[oops"),
          std::string("CLAUDE_CODE_MOCK_REMOTE_SETTINGS=1"),
          std::string("CLAUDE_CODE_EVEN_MORE_DANGEROUSLY_SKIP_PERMISSIONS=1"),
          std::string("CLAUDE_CODE_AUTO_MODE_EXTERNAL_PERMISSIONS=x")}) {
        x.host().environment = {e};
        EXPECT_FALSE(load_permission_rules(x.s).doubts.empty()) << e;
        EXPECT_TRUE(x.refuses("make")) << e;
    }
    x.host().environment = {"CLAUDE_CODE_HIDE_SETTINGS_HINT=1",
                            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"};
    EXPECT_TRUE(load_permission_rules(x.s).doubts.empty());
}

TEST(ClaudePermissionScopes, TheHostsCommandLineIsRead) {
    Scopes x;
    x.host().args = {"claude",
                     "-p",
                     "go",
                     "--disallowedTools",
                     "Bash(git push:*),WebFetch",
                     "--allowedTools",
                     "Bash mcp__sutra__sutra_restore"};
    auto r = load_permission_rules(x.s);
    EXPECT_TRUE(r.bash_allowed_whole());
    EXPECT_FALSE(r.bypass);
    EXPECT_TRUE(x.refuses("git push"));
    EXPECT_FALSE(x.refuses("make"));

    const std::string flag_settings = deny("Bash(npm run deploy)");
    x.host().args = {"claude", "--settings", flag_settings};
    EXPECT_TRUE(x.refuses("npm 2>/dev/null run deploy"));
    write_file(x.t.path + "/repo/flag.json", deny("Bash(curl:*)"));
    x.host().args = {"claude", "--settings", "flag.json"}; // relative to the host's directory
    EXPECT_TRUE(x.refuses("curl example.com"));
    x.host().args = {"claude", "--settings", "missing.json"};
    EXPECT_FALSE(x.refuses("curl example.com")); // no such file: the host reads none either

    x.host().args = {"claude", "--permission-mode", "bypassPermissions"};
    EXPECT_TRUE(load_permission_rules(x.s).bypass);
    x.host().args = {"claude", "--dangerously-skip-permissions"};
    EXPECT_TRUE(load_permission_rules(x.s).bypass);
    // Bash allowed by a process that is not the host is not relied on (its deny still counts).
    x.host().args = {"tmux", "--allowedTools", "Bash"};
    EXPECT_FALSE(load_permission_rules(x.s).bash_allowed_whole());
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"claude", "--input-format", "stream-json"},
             {"claude", "--permission-prompt-tool", "mcp__x__y"}}) {
        x.host().args = args;
        EXPECT_TRUE(x.refuses("make")) << args[1];
    }
}

TEST(ClaudePermissionScopes, OnlyAllowRulesTheHostSurelyReadsAllowBashAsAWhole) {
    Scopes x;
    const std::string allow_bash = R"({"permissions":{"allow":["Bash"]}})";
    write_file(x.t.path + "/repo/.claude/settings.json", allow_bash); // a parent of the cwd
    EXPECT_FALSE(load_permission_rules(x.s).bash_allowed_whole());
    x.host().environment = {"CLAUDE_PROJECT_DIR=" + x.t.path + "/repo"}; // now the project's
    EXPECT_TRUE(load_permission_rules(x.s).bash_allowed_whole());
    write_file(x.s.system_managed_dir + "/managed-settings.json",
               R"({"allowManagedPermissionRulesOnly": true})");
    EXPECT_FALSE(load_permission_rules(x.s).bash_allowed_whole());
    fs::remove(x.s.system_managed_dir + "/managed-settings.json");
    write_file(x.s.home + "/.claude/settings.json", allow_bash);
    x.host().environment.clear();
    EXPECT_TRUE(load_permission_rules(x.s).bash_allowed_whole());
    x.host().args = {"claude", "--setting-sources", "project"}; // user settings not read
    EXPECT_FALSE(load_permission_rules(x.s).bash_allowed_whole());
}

TEST(ClaudePermissionScopes, AFifoDeviceOrBrokenFileIsADoubtNeverAHang) {
    Scopes x;
    const std::string settings = x.s.home + "/.claude/settings.json";
    fs::create_directories(x.s.home + "/.claude");
    ASSERT_EQ(::mkfifo(settings.c_str(), 0600), 0);
    EXPECT_FALSE(load_permission_rules(x.s).doubts.empty());
    EXPECT_TRUE(x.refuses("ls"));

    fs::remove(settings);
    fs::create_symlink("/dev/zero", settings);
    EXPECT_FALSE(load_permission_rules(x.s).doubts.empty());

    fs::remove(settings);
    write_file(settings, "{ not json");
    EXPECT_FALSE(load_permission_rules(x.s).doubts.empty());

    fs::remove(settings);
    EXPECT_TRUE(load_permission_rules(x.s).doubts.empty()); // nothing anywhere
    EXPECT_FALSE(x.refuses("ls"));
}

TEST(ClaudePermissionScopes, TheRealProcessChainIsReadAndBounded) {
    const auto chain = plugins::claude::host_processes();
    ASSERT_FALSE(chain.empty());
    EXPECT_FALSE(chain[0].environment.empty()); // this process's own
    EXPECT_LE(chain.size(), 9u);
    if (chain.size() > 1) {
        EXPECT_FALSE(chain[1].args.empty()); // the test runner's parent
    }
}

// ---- through the real module --------------------------------------------------------------

TEST(ClaudePermissionHook, ADeniedCommandIsNotRoutedAndAnAllowedOneStillIs) {
    test::HostSandbox box;
    box.env.set("SUTRA_PROGRAM", SUTRA_BINARY);
    box.env.set("SUTRA_BASH_ROUTE", "always");
    box.env.set("CLAUDE_PROJECT_DIR", std::nullopt);
    PluginRegistry registry{box.build_tree()};
    auto p = registry.load("claude");
    ASSERT_TRUE(p.has_value());
    const std::string proj = box.dir.path + "/proj";
    fs::create_directories(proj);
    auto hook = [&](const std::string& command) {
        const json payload = {
            {"session_id", "63c7aa"},       {"cwd", proj},
            {"permission_mode", "default"}, {"hook_event_name", "PreToolUse"},
            {"tool_name", "Bash"},          {"tool_input", {{"command", command}}},
            {"tool_use_id", "toolu_1"}};
        std::string why;
        return run_hook(**p, payload.dump(), why);
    };
    EXPECT_NE(hook("cat hostname.txt; exit 1"), "");
    write_file(box.dir.path + "/claude/settings.json", deny("Bash(cat:*)"));
    EXPECT_EQ(hook("cat hostname.txt; exit 1"), "");
    EXPECT_EQ(hook("cat 2>/dev/null hostname.txt; exit 1"), "");
    EXPECT_NE(hook("ls -l; exit 1"), "");
    write_file(proj + "/.claude/settings.local.json",
               R"j({"permissions":{"ask":["Bash(ls:*)"]}})j");
    EXPECT_EQ(hook("ls -l; exit 1"), "");
    EXPECT_NE(hook("printf x; exit 1"), "");
    write_file(proj + "/.claude/settings.json", R"j({"permissions":{"allow":["Bash(sutra:*)"]}})j");
    EXPECT_EQ(hook("printf x; exit 1"), ""); // an allow rule naming the wrapper
    write_file(proj + "/.claude/settings.json", "{ broken");
    EXPECT_EQ(hook("printf x; exit 1"), ""); // when in doubt, do not wrap
}

} // namespace
} // namespace sutra::host
