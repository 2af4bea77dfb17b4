// The Bash route never weakens a permission (plugins/claude/permission_guard.*): every deny and
// ask rule of every settings scope is read, and a command that any of them could match under
// the host's own matching stays unwrapped. The property test compares the guard with a model of
// Claude Code's matching (compound commands split on && || ; | and newlines, leading
// assignments skipped, prefix rules `X:*`, exact rules and `*` wildcards).

#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "plugins/claude/permission_guard.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using plugins::claude::add_settings_rules;
using plugins::claude::load_permission_rules;
using plugins::claude::permission_refusal;
using plugins::claude::PermissionRules;
using plugins::claude::RuleScopes;

PermissionRules rules_of(const json& permissions) {
    PermissionRules r;
    add_settings_rules(r, json{{"permissions", permissions}}.dump(), "settings.json");
    return r;
}

bool refused(std::string_view command, const PermissionRules& r, std::string_view cwd = "/w") {
    return permission_refusal(command, cwd, r).has_value();
}

TEST(ClaudePermissionGuard, DenyAndAskRulesKeepTheirCommandsUnwrapped) {
    const auto r = rules_of({{"deny", {"Bash(cat:*)", "Bash(git push:*)"}},
                             {"ask", {"Bash(rm -rf *)", "Bash(npm publish)"}}});
    for (const char* c :
         {"cat case.out; exit 1", "make && cat log", "ls | cat", "FOO=1 cat x", "c'a't x",
          "\"cat\" x", "c\\at x", "echo a\ncat b", "git push origin", "git  push", "git\tpush -f",
          "cd x && git push", "timeout 9 git push", "env A=1 git push", "xargs cat < list",
          "rm -rf build", "npm publish", "if true; then npm publish; fi", "CAT x"})
        EXPECT_TRUE(refused(c, r)) << c;
    for (const char* c : {"ls -la", "git status", "git log -p", "make -j2 && ctest", "rm x",
                          "npm test", "echo push"})
        EXPECT_FALSE(refused(c, r)) << c;
}

TEST(ClaudePermissionGuard, RulesWithoutALiteralRefuseEveryCommand) {
    for (const char* rule :
         {"Bash", "Bash()", "Bash(*)", "Bash(:*)", "Bash(* --force)", "Read", "Read(**)"}) {
        const auto r = rules_of({{"ask", {rule}}});
        EXPECT_TRUE(refused("ls", r)) << rule;
    }
}

TEST(ClaudePermissionGuard, FileRulesCoverCommandsThatNameTheFiles) {
    const auto r = rules_of({{"deny", {"Read(./.env)", "Edit(//etc/**)", "Read(secrets/**)"}}});
    EXPECT_TRUE(refused("cat .env", r));
    EXPECT_TRUE(refused("grep KEY ../app/.env.local", r));
    EXPECT_TRUE(refused("sed -i s/a/b/ /etc/hosts", r));
    EXPECT_TRUE(refused("cat key.pem", r, "/w/proj/secrets")); // the folder is the cwd
    EXPECT_TRUE(refused("ls secrets", r));
    EXPECT_FALSE(refused("cat README.md", r, "/w/proj"));
}

TEST(ClaudePermissionGuard, OtherToolsAndAllowRulesDoNotRefuse) {
    const auto r =
        rules_of({{"allow", {"Bash"}}, {"deny", {"WebFetch(domain:example.com)", "mcp__x__y"}}});
    EXPECT_TRUE(r.doubts.empty());
    EXPECT_FALSE(refused("curl example.com", r));
}

TEST(ClaudePermissionGuard, UnreadableSettingsRefuseEveryCommand) {
    for (const std::string& text : std::vector<std::string>{
             "{", "[]", "{\"permissions\": []}", "{\"permissions\": {\"deny\": \"Bash(cat:*)\"}}",
             "{\"permissions\": {\"ask\": [1]}}",
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

// ---- the property: whatever Claude Code's matching would catch, the guard refuses ----------

std::vector<std::string> split_subcommands(const std::string& c) {
    std::vector<std::string> out;
    std::string cur;
    for (std::size_t i = 0; i < c.size(); ++i) {
        const bool two = i + 1 < c.size() &&
                         ((c[i] == '&' && c[i + 1] == '&') || (c[i] == '|' && c[i + 1] == '|'));
        if (two || c[i] == ';' || c[i] == '|' || c[i] == '\n') {
            out.push_back(cur);
            cur.clear();
            if (two) ++i;
        } else {
            cur += c[i];
        }
    }
    out.push_back(cur);
    return out;
}

// Words with quotes removed, leading NAME=value words dropped, joined by one space.
std::string matcher_text(const std::string& sub) {
    std::vector<std::string> words;
    std::string w;
    auto flush = [&] {
        if (!w.empty()) words.push_back(w);
        w.clear();
    };
    for (char ch : sub) {
        if (ch == ' ' || ch == '\t')
            flush();
        else if (ch != '\'' && ch != '"' && ch != '\\')
            w += ch;
    }
    flush();
    std::size_t k = 0;
    while (k < words.size() && words[k].find('=') != std::string::npos) ++k;
    std::string out;
    for (; k < words.size(); ++k) out += (out.empty() ? "" : " ") + words[k];
    return out;
}

bool glob(std::string_view p, std::string_view s) {
    if (p.empty()) return s.empty();
    if (p[0] == '*') return glob(p.substr(1), s) || (!s.empty() && glob(p, s.substr(1)));
    return !s.empty() && p[0] == s[0] && glob(p.substr(1), s.substr(1));
}

bool claude_matches(const std::string& pattern, const std::string& command) {
    for (const std::string& sub : split_subcommands(command)) {
        const std::string t = matcher_text(sub);
        if (pattern.ends_with(":*")) {
            const std::string prefix = pattern.substr(0, pattern.size() - 2);
            if (t == prefix || t.starts_with(prefix + " ")) return true;
        } else if (glob(pattern, t)) {
            return true;
        }
    }
    return false;
}

TEST(ClaudePermissionGuard, RefusesWheneverTheHostsMatchingCouldMatch) {
    const std::vector<std::string> words = {"git",  "push", "cat",  "ls",   "rm",    "-rf",   "npm",
                                            "test", "run",  "make", "grep", "x.txt", "origin"};
    const std::vector<std::string> seps = {" && ", " || ", "; ", " | ", "\n"};
    std::mt19937 rng(20261201);
    auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
    int matched = 0, wrapped = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string command;
        std::vector<std::vector<std::string>> plain; // each subcommand's words, unquoted
        const int subs = 1 + static_cast<int>(rng() % 3);
        for (int s = 0; s < subs; ++s) {
            if (s > 0) command += pick(seps);
            if (rng() % 4 == 0) command += "FOO=1 ";
            plain.emplace_back();
            const int n = 1 + static_cast<int>(rng() % 3);
            for (int k = 0; k < n; ++k) {
                std::string w = pick(words);
                plain.back().push_back(w);
                if (rng() % 5 == 0) w = "'" + w + "'";
                if (rng() % 7 == 0) w = "\"" + w + "\"";
                command += (k > 0 ? (rng() % 3 ? " " : "  ") : "") + w;
            }
        }
        // Half the rules are taken from the command's own words, so that many of them match.
        std::string rule;
        if (rng() % 2) {
            const auto& sub = plain[rng() % plain.size()];
            rule = sub[0];
            if (sub.size() > 1 && rng() % 2) rule += " " + sub[1];
        } else {
            rule = pick(words);
            if (rng() % 2) rule += " " + pick(words);
        }
        switch (rng() % 3) {
        case 0:
            rule += ":*";
            break;
        case 1:
            rule += " *";
            break;
        default:
            break;
        }
        const auto r = rules_of({{rng() % 2 ? "deny" : "ask", {"Bash(" + rule + ")"}}});
        const bool host = claude_matches(rule, command);
        const bool guard = refused(command, r);
        if (host) {
            ++matched;
            EXPECT_TRUE(guard) << "rule Bash(" << rule << ") would match: " << command;
        }
        if (!guard) ++wrapped;
    }
    // Both sides of the property were exercised: many matches, and many commands still routed.
    EXPECT_GT(matched, 1000);
    EXPECT_GT(wrapped, 400);
}

// ---- every scope is read ------------------------------------------------------------------

void write_file(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

TEST(ClaudePermissionScopes, ManagedUserProjectAndLocalRulesAreAllRead) {
    test::TempDir t;
    RuleScopes s;
    s.config_dir = t.path + "/config";
    s.managed_dir = t.path + "/managed";
    s.project_dirs = {t.path + "/repo/sub/dir"};
    s.read_process_flags = false;
    write_file(s.managed_dir + "/managed-settings.json",
               R"j({"permissions":{"deny":["Bash(shutdown:*)"]}})j");
    write_file(s.managed_dir + "/managed-settings.d/10-team.json",
               R"j({"permissions":{"ask":["Bash(kubectl:*)"]}})j");
    write_file(s.config_dir + "/settings.json", R"j({"permissions":{"deny":["Bash(cat:*)"]}})j");
    write_file(t.path + "/repo/.claude/settings.json",
               R"j({"permissions":{"ask":["Bash(git push:*)"]}})j");
    write_file(t.path + "/repo/sub/.claude/settings.local.json",
               R"j({"permissions":{"deny":["Read(./.env)"]}})j");
    const auto r = load_permission_rules(s);
    EXPECT_TRUE(r.doubts.empty()) << r.doubts.front();
    for (const char* c :
         {"shutdown now", "kubectl delete pod x", "cat x", "git push", "cat .env", "grep K .env"})
        EXPECT_TRUE(permission_refusal(c, s.project_dirs[0], r).has_value()) << c;
    EXPECT_FALSE(permission_refusal("make test", s.project_dirs[0], r).has_value());
}

TEST(ClaudePermissionScopes, AFifoDeviceOrBrokenFileIsADoubtNeverAHang) {
    test::TempDir t;
    RuleScopes s;
    s.config_dir = t.path + "/config";
    s.managed_dir = t.path + "/managed";
    s.read_process_flags = false;
    fs::create_directories(s.config_dir);
    ASSERT_EQ(::mkfifo((s.config_dir + "/settings.json").c_str(), 0600), 0);
    auto r = load_permission_rules(s);
    EXPECT_FALSE(r.doubts.empty());
    EXPECT_TRUE(permission_refusal("ls", "/w", r).has_value());

    fs::remove(s.config_dir + "/settings.json");
    fs::create_symlink("/dev/zero", s.config_dir + "/settings.json");
    r = load_permission_rules(s);
    EXPECT_FALSE(r.doubts.empty());

    fs::remove(s.config_dir + "/settings.json");
    write_file(s.config_dir + "/settings.json", "{ not json");
    r = load_permission_rules(s);
    EXPECT_FALSE(r.doubts.empty());

    fs::remove(s.config_dir + "/settings.json");
    r = load_permission_rules(s); // nothing anywhere: no rule, no doubt
    EXPECT_TRUE(r.doubts.empty());
    EXPECT_FALSE(permission_refusal("ls", "/w", r).has_value());
}

// ---- through the real module --------------------------------------------------------------

TEST(ClaudePermissionHook, ADeniedCommandIsNotRoutedAndAnAllowedOneStillIs) {
    test::HostSandbox box;
    box.env.set("SUTRA_PROGRAM", SUTRA_BINARY);
    box.env.set("CLAUDE_PROJECT_DIR", std::nullopt);
    PluginRegistry registry{box.build_tree()};
    auto p = registry.load("claude");
    ASSERT_TRUE(p.has_value());
    const std::string proj = box.dir.path + "/proj";
    fs::create_directories(proj);
    auto hook = [&](const std::string& command) {
        const json payload = {{"session_id", "63c7aa"},
                              {"cwd", proj},
                              {"hook_event_name", "PreToolUse"},
                              {"tool_name", "Bash"},
                              {"tool_input", {{"command", command}}},
                              {"tool_use_id", "toolu_1"}};
        std::string why;
        return run_hook(**p, payload.dump(), why);
    };
    EXPECT_NE(hook("cat /etc/hostname; exit 1"), "");
    write_file(box.dir.path + "/claude/settings.json",
               R"j({"permissions":{"deny":["Bash(cat:*)"]}})j");
    EXPECT_EQ(hook("cat /etc/hostname; exit 1"), "");
    EXPECT_NE(hook("ls /; exit 1"), "");
    write_file(proj + "/.claude/settings.local.json",
               R"j({"permissions":{"ask":["Bash(ls:*)"]}})j");
    EXPECT_EQ(hook("ls /; exit 1"), "");
    EXPECT_NE(hook("printf x; exit 1"), "");
    write_file(proj + "/.claude/settings.json", "{ broken");
    EXPECT_EQ(hook("printf x; exit 1"), ""); // when in doubt, do not wrap
}

} // namespace
} // namespace sutra::host
