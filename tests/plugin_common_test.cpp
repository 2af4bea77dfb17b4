// The sutra_plugin_common library (plugins/common/) on its own, without any adapter module: shell
// quoting checked against a real /bin/sh, the sutra-subcommand reader, atomic writes and the
// backup chain, JSON hook settings, install options, baked strings, and the text edits of Codex's
// config.toml (plugins/codex/config_toml.*) and Hermes' config.yaml (plugins/hermes/config_yaml.*).

#include "plugins/codex/config_toml.hpp"
#include "plugins/common/adapter_calls.hpp"
#include "plugins/common/files.hpp"
#include "plugins/common/hook_settings.hpp"
#include "plugins/common/host_report.hpp"
#include "plugins/common/json_text.hpp"
#include "plugins/common/mcp_registration.hpp"
#include "plugins/common/paths.hpp"
#include "plugins/common/plugin_files.hpp"
#include "plugins/common/shell_words.hpp"
#include "plugins/hermes/config_yaml.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <vector>

namespace sutra::plugins {
namespace {

namespace fs = std::filesystem;

// Runs `script` under /bin/sh and returns its standard output.
std::string run_sh(const std::string& script) {
    const std::string command = "/bin/sh -c " + common::shell_word(script);
    FILE* p = ::popen(command.c_str(), "r");
    if (p == nullptr) throw std::runtime_error("popen failed");
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = ::pclose(p);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("sh failed: " + script.substr(0, 200));
    return out;
}

// The words sh sees in `args`: printf writes each one followed by a NUL.
std::vector<std::string> sh_words(const std::string& args) {
    const std::string out = run_sh("printf '%s\\000' " + args);
    std::vector<std::string> words;
    std::size_t start = 0;
    for (auto nul = out.find('\0'); nul != std::string::npos; nul = out.find('\0', start)) {
        words.push_back(out.substr(start, nul - start));
        start = nul + 1;
    }
    EXPECT_EQ(start, out.size()) << "output after the last NUL";
    return words;
}

// Words of every byte but NUL, weighted towards the ones a shell treats specially.
std::vector<std::string> generated_words(std::size_t count) {
    static const std::string special = " \t\n'\"\\$`!*?[]{}()<>|&;#~%^=,-+/.:@";
    std::mt19937 rng(12345);
    std::vector<std::string> words{"", "'", "''", "\\", "a b", "-n", "--", "$HOME", "~", "é ü"};
    while (words.size() < count) {
        const std::size_t len = rng() % 12;
        std::string w;
        for (std::size_t i = 0; i < len; ++i) {
            switch (rng() % 3) {
            case 0:
                w += special[rng() % special.size()];
                break;
            case 1:
                w += static_cast<char>('a' + rng() % 26);
                break;
            default:
                w += static_cast<char>(1 + rng() % 255);
                break;
            }
        }
        words.push_back(w);
    }
    return words;
}

class TempDir : public ::testing::Test {
protected:
    void SetUp() override {
        std::string tmpl = (fs::path(::testing::TempDir()) / "plugin_common_XXXXXX").string();
        ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
        dir = tmpl;
    }
    void TearDown() override { fs::remove_all(dir); }
    static mode_t mode_of(const fs::path& p) {
        struct stat st {};
        EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
        return st.st_mode & 07777;
    }
    static void put(const fs::path& p, const std::string& text) {
        FILE* f = std::fopen(p.c_str(), "wb");
        ASSERT_NE(f, nullptr) << p;
        std::fwrite(text.data(), 1, text.size(), f);
        std::fclose(f);
    }
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
        std::sort(out.begin(), out.end());
        return out;
    }
    fs::path dir;
};

// ---- shell_words

// The four adapters answer detect and doctor through plugins/common/host_report: the same
// fields in the same order, the restore route falling back to the command, doctor's steps.
TEST(HostReport, DetectDoctorAndRouteHaveOneShape) {
    common::HostReport r;
    r.client = "x";
    r.found = r.installed = true;
    r.path = "/p";
    r.command = "sutra-host --adapter x";
    const auto j = common::report_json(r, {{"own", 1}});
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.items()) keys.push_back(k);
    EXPECT_EQ(keys,
              (std::vector<std::string>{"client", "found", "installed", "path", "command",
                                        "uncovered", "disabled", "disabled_by", "mcp", "own"}));
    EXPECT_EQ(j["disabled"], false);
    r.disabled_by = "the host's switch";
    r.command.reset();
    EXPECT_EQ(common::report_json(r)["disabled"], true);
    EXPECT_TRUE(common::report_json(r)["command"].is_null());

    EXPECT_EQ(common::restore_route([] { return true; }, "t"),
              (nlohmann::json{{"kind", "mcp"}, {"tool", "t"}}));
    EXPECT_EQ(common::restore_route([] { return false; }, "t"), (nlohmann::json{{"kind", "cli"}}));
    EXPECT_EQ(common::restore_route([]() -> bool { throw std::runtime_error("unreadable"); }, "t"),
              (nlohmann::json{{"kind", "cli"}}));
    EXPECT_EQ(common::switched_off([]() -> std::string { throw std::runtime_error("bad"); }), "");
    EXPECT_EQ(common::switched_off([] { return std::string("off"); }), "off");

    const auto payload = [](const std::string& out) { return common::ojson{{"out", out}}; };
    // detect's failure is doctor's answer as is; the check's names the file; then the sample.
    const std::string failed = R"({"ok":false,"error":"detect failed"})";
    EXPECT_EQ(common::doctor_report(
                  failed, [] {}, "route", payload),
              failed);
    const auto bad = nlohmann::json::parse(common::doctor_report(
        R"({"client":"x"})", [] { throw std::runtime_error("/p/config: not valid"); }, "route",
        payload));
    EXPECT_EQ(bad["ok"], false);
    EXPECT_EQ(bad["error"], "/p/config: not valid");
    const auto good = nlohmann::json::parse(common::doctor_report(
        R"({"client":"x"})", [] {}, "route", payload, [](common::ojson& d) { d["more"] = true; }));
    const std::string sample = common::doctor_sample_output();
    EXPECT_EQ(good["route"], "route");
    EXPECT_EQ(good["sample_bytes"], sample.size());
    EXPECT_EQ(good["sample_payload"]["out"], sample);
    EXPECT_EQ(good["more"], true);
    EXPECT_TRUE(sample.ends_with("error: sample failure line that must stay visible\n"));
}

TEST(ShellWords, SafeWordsStayBareOthersAreQuoted) {
    EXPECT_EQ(common::shell_word("/usr/bin/sutra-host"), "/usr/bin/sutra-host");
    EXPECT_EQ(common::shell_word("a=b:c@d+e.f_g"), "a=b:c@d+e.f_g");
    EXPECT_EQ(common::shell_word(""), "''");
    EXPECT_EQ(common::shell_word("a b"), "'a b'");
    EXPECT_EQ(common::shell_word("it's"), "'it'\\''s'");
    EXPECT_EQ(common::command_line({"/bin/sutra", "mcp", "a b"}), "/bin/sutra mcp 'a b'");
    EXPECT_EQ(common::command_line({}), "");
}

TEST(ShellWords, EveryQuotedWordReachesShAsItself) {
    const auto words = generated_words(400);
    std::string args;
    for (const auto& w : words) args += " " + common::shell_word(w);
    EXPECT_EQ(sh_words(args), words);
}

TEST(ShellWords, CommandLineReachesShWordForWord) {
    const auto words = generated_words(120);
    EXPECT_EQ(sh_words(common::command_line(words)), words);
}

TEST(ShellWords, SutraSubcommand) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"sutra restore abc", "restore"},
        {"  \t sutra\texec -- ls", "exec"},
        {"/usr/local/bin/sutra stats", "stats"},
        {"./build/bin/sutra restore x", "restore"},
        {"'/opt/my dir/sutra' exec ls", "exec"},
        {"FOO=1 BAR=x/y sutra restore s", "restore"},
        {"PATH=/a:/b sutra compress", "compress"},
        {"/x=y/sutra restore", "restore"},
        {"sutra", ""},
        {"sutra-host --adapter claude", ""},
        {"echo sutra restore", ""},
        {"mysutra restore", ""},
        {"'/opt/sutra restore", ""},
        {"FOO=1", ""},
        {"", ""},
    };
    for (const auto& [command, sub] : cases)
        EXPECT_EQ(common::sutra_subcommand(command), sub) << command;
    EXPECT_TRUE(common::is_restore_command("sutra restore s-1"));
    EXPECT_TRUE(common::is_restore_command(common::shell_word("/tmp/a b/sutra") + " restore"));
    EXPECT_FALSE(common::is_restore_command("sutra exec -- sutra restore"));
    EXPECT_FALSE(common::is_restore_command("cat restore"));
}

// ---- files

TEST_F(TempDir, ReadTextTellsAbsentFromUnreadable) {
    EXPECT_EQ(common::read_text((dir / "none").string()), std::nullopt);
    put(dir / "f", std::string("a\0b", 3));
    EXPECT_EQ(common::read_text((dir / "f").string()), std::string("a\0b", 3));
    EXPECT_THROW(common::read_text(dir.string()), std::runtime_error);
}

// map_text (the hook's read of .claude.json) gives read_text's bytes and answers, for files of
// every size around the page size, and refuses what read_text refuses without blocking.
TEST_F(TempDir, MapTextGivesReadTextsBytesAndRefusesTheSame) {
    EXPECT_FALSE(common::map_text((dir / "none").string()).has_value());
    std::mt19937 rng(5);
    for (std::size_t size : {0u, 1u, 4095u, 4096u, 4097u, 65536u, 1000003u}) {
        std::string bytes(size, '\0');
        for (char& c : bytes) c = static_cast<char>(rng());
        put(dir / "f", bytes);
        const auto mapped = common::map_text((dir / "f").string());
        ASSERT_TRUE(mapped.has_value()) << size;
        EXPECT_TRUE(mapped->text() == bytes) << size;
        EXPECT_EQ(mapped->text(), *common::read_text((dir / "f").string())) << size;
    }
    EXPECT_THROW(common::map_text(dir.string()), std::runtime_error);
    const fs::path fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_THROW(common::map_text(fifo.string()), std::runtime_error);
    EXPECT_THROW(common::map_text("/dev/zero"), std::runtime_error);
    // Moved, the map is released once.
    put(dir / "g", "moved");
    auto a = common::map_text((dir / "g").string());
    common::MappedText b = std::move(*a);
    EXPECT_EQ(b.text(), "moved");
}

TEST_F(TempDir, WriteAtomicKeepsModeAndLeavesNoTempFile) {
    const fs::path f = dir / "settings.json";
    put(f, "old");
    ASSERT_EQ(::chmod(f.c_str(), 0640), 0);
    common::write_atomic(f.string(), "new", common::file_mode(f.string(), 0600));
    EXPECT_EQ(common::read_text(f.string()), "new");
    EXPECT_EQ(mode_of(f), 0640u);

    const fs::path g = dir / "sub" / "deeper" / "g";
    common::write_atomic(g.string(), "", 0751); // exact mode, whatever the umask
    EXPECT_EQ(common::read_text(g.string()), "");
    EXPECT_EQ(mode_of(g), 0751u);
    EXPECT_EQ(common::file_mode((dir / "none").string(), 0604), 0604u);
    EXPECT_EQ(names(), (std::vector<std::string>{"settings.json", "sub"}));
}

TEST_F(TempDir, BackupsOldestFirstUpToTheFirstGap) {
    const std::string f = (dir / "c.json").string();
    EXPECT_TRUE(common::backups(f).empty());
    EXPECT_EQ(common::latest_backup(f), std::nullopt);
    EXPECT_EQ(common::next_backup(f), f + ".sutra-backup");
    put(f + ".sutra-backup-2", "2"); // the numbered ones count without the first
    EXPECT_EQ(common::backups(f), std::vector<std::string>{f + ".sutra-backup-2"});
    EXPECT_EQ(common::next_backup(f), f + ".sutra-backup");
    put(f + ".sutra-backup", "1");
    put(f + ".sutra-backup-3", "3");
    put(f + ".sutra-backup-5", "5"); // after the gap at -4: not part of the chain
    EXPECT_EQ(common::backups(f),
              (std::vector<std::string>{f + ".sutra-backup", f + ".sutra-backup-2",
                                        f + ".sutra-backup-3"}));
    EXPECT_EQ(common::latest_backup(f), f + ".sutra-backup-3");
    EXPECT_EQ(common::next_backup(f), f + ".sutra-backup-4");
}

TEST_F(TempDir, ApplyPlansBacksUpModifiedFilesAndDryRunWritesNothing) {
    const std::string f = (dir / "a.txt").string();
    put(f, "before");
    ASSERT_EQ(::chmod(f.c_str(), 0600), 0);
    const common::FilePlan modify{f, "modify", "before", "after", std::nullopt};
    const common::FilePlan create{(dir / "b.txt").string(), "create", std::nullopt, "b",
                                  std::nullopt};

    const auto dry = common::apply_plans({modify, create}, true);
    EXPECT_TRUE(dry["changed"]);
    EXPECT_EQ(dry["files"].size(), 2u);
    EXPECT_EQ(names(), std::vector<std::string>{"a.txt"});

    const auto r = common::apply_plans({modify, create}, false);
    EXPECT_EQ(r["files"][0]["backup"], f + ".sutra-backup");
    EXPECT_EQ(common::read_text(f + ".sutra-backup"), "before");
    EXPECT_EQ(mode_of(f + ".sutra-backup"), 0600u);
    EXPECT_EQ(common::read_text(f), "after");
    EXPECT_EQ(mode_of(dir / "b.txt"), 0644u);

    common::apply_plans({{f, "restore", "after", "before", f + ".sutra-backup"}}, false);
    EXPECT_EQ(common::read_text(f), "before");
    common::apply_plans({{(dir / "b.txt").string(), "delete", "b", std::nullopt, std::nullopt}},
                        false);
    EXPECT_EQ(names(), std::vector<std::string>{"a.txt"});
}

// A write that fails half-way: the files already written get their bytes back, no backup or
// temporary file stays, and the error names the file that failed.
TEST_F(TempDir, ApplyPlansIsAllOrNothing) {
    const std::string a = (dir / "a.json").string();
    const std::string b = (dir / "b.json").string();
    put(a, "user a");
    fs::create_directories(dir / "c.json"); // a folder where a file should go: rename fails
    const std::vector<common::FilePlan> plans = {
        {a, "modify", "user a", "with sutra", std::nullopt},
        {b, "create", std::nullopt, "new", std::nullopt},
        {(dir / "c.json").string(), "create", std::nullopt, "x", std::nullopt}};
    try {
        common::apply_plans(plans, false);
        ADD_FAILURE() << "no error";
    } catch (const std::exception& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find((dir / "c.json").string()), std::string::npos) << what;
        EXPECT_EQ(what.find("sutra-tmp"), std::string::npos) << what;
    }
    EXPECT_EQ(common::read_text(a), "user a");
    EXPECT_EQ(common::read_text(b), std::nullopt);
    EXPECT_EQ(names(), (std::vector<std::string>{"a.json", "c.json"}));
}

TEST_F(TempDir, ReadOnlyFilesAreRefused) {
    const std::string a = (dir / "a.json").string();
    put(a, "user a");
    ASSERT_EQ(::chmod(a.c_str(), 0444), 0);
    EXPECT_THROW(common::apply_plans({{a, "modify", "user a", "x", std::nullopt}}, false),
                 std::runtime_error);
    EXPECT_EQ(common::read_text(a), "user a");
    EXPECT_EQ(names(), std::vector<std::string>{"a.json"});
}

TEST_F(TempDir, DanglingLinksAreFollowed) {
    const std::string link = (dir / "settings.json").string();
    fs::create_symlink("dotfiles/settings.json", link); // relative and dangling
    EXPECT_EQ(common::real_target(link), (dir / "dotfiles/settings.json").string());
    common::apply_plans({{link, "create", std::nullopt, "{}", std::nullopt}}, false);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(common::read_text(link), "{}");
    common::apply_plans({{link, "delete", "{}", std::nullopt, std::nullopt}}, false);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_FALSE(fs::exists(dir / "dotfiles/settings.json"));
    fs::create_symlink("loop", dir / "loop");
    EXPECT_THROW(common::real_target((dir / "loop").string()), std::runtime_error);
}

TEST_F(TempDir, OwnedFilesRefuseTheUsersOwn) {
    const std::string f = (dir / "sutra.js").string();
    EXPECT_EQ(common::plan_owned_install(f, "// MARK v1", "MARK")->action, "create");
    put(f, "// MARK v1");
    EXPECT_EQ(common::plan_owned_install(f, "// MARK v1", "MARK"), std::nullopt);
    EXPECT_EQ(common::plan_owned_install(f, "// MARK v2", "MARK")->action, "modify");
    EXPECT_EQ(common::plan_owned_uninstall(f, "MARK")->action, "delete");
    EXPECT_FALSE(common::plan_owned_install(f, "// MARK v2", "MARK")->backup_before)
        << "an upgrade keeps no copy of sutra's own older file";
    // Backups sutra's install did not record are not sutra's to remove nor to put back.
    put(f + ".sutra-backup", "// MARK v0");
    put(f + ".sutra-backup-2", "the user's own");
    auto back = common::plan_owned_uninstall(f, "MARK");
    EXPECT_EQ(back->action, "delete");
    EXPECT_TRUE(back->remove_after.empty());
    // Those a record names go, with the record.
    put(common::backup_record(f), "# a record\nsutra.js.sutra-backup-2\nsutra.js.other\n");
    back = common::plan_owned_uninstall(f, "MARK");
    EXPECT_EQ(back->action, "delete");
    EXPECT_EQ(back->remove_after,
              (std::vector<std::string>{f + ".sutra-backup-2", common::backup_record(f)}));
    put(f, "the user's");
    EXPECT_THROW(common::plan_owned_install(f, "// MARK v1", "MARK"), std::runtime_error);
    EXPECT_EQ(common::plan_owned_uninstall(f, "MARK"), std::nullopt);
}

TEST(PluginFiles, BakedStringsReadBackExactly) {
    const std::string text = "a\nconst SUTRA_HOST = \"@HOST@\"\nb \"@HOST@\"\n";
    for (const std::string& value :
         std::vector<std::string>{"/usr/bin/sutra-host", "/a \"b\"\\c/é", ""}) {
        const std::string baked = common::bake_string(text, "\"@HOST@\"", value);
        EXPECT_EQ(baked.find("@HOST@"), std::string::npos);
        EXPECT_EQ(common::baked_string(baked, "const SUTRA_HOST = "), value);
    }
    EXPECT_EQ(common::baked_string(text, "missing = "), std::nullopt);
}

// ---- hook settings

TEST_F(TempDir, HookInstallThenUninstallGivesBackTheExactBytes) {
    const std::string f = (dir / "settings.json").string();
    const std::string original = "{\n    \"model\": \"x\",\n    \"env\": {}\n}"; // no final '\n'
    put(f, original);
    ASSERT_EQ(::chmod(f.c_str(), 0640), 0);
    common::HookSpec spec;
    spec.matcher = "Bash";
    spec.adapter = "claude";
    spec.command = "/opt/sutra-host --adapter claude";

    const auto r = common::install_hook(f, spec, false);
    ASSERT_TRUE(r["ok"]) << r.dump();
    const auto installed = common::read_text(f);
    const auto doc = common::parse_settings(installed, f);
    EXPECT_EQ(common::our_command(doc, spec), spec.command);
    EXPECT_NE(installed->find("\n    \"hooks\""), std::string::npos) << "keeps the indent";
    EXPECT_EQ(mode_of(f), 0640u);
    EXPECT_EQ(common::read_text(f + ".sutra-backup"), original);
    EXPECT_EQ(common::install_hook(f, spec, false)["changed"], false);

    EXPECT_TRUE(common::uninstall_hook(f, spec, false)["changed"]);
    EXPECT_EQ(common::read_text(f), original);
    EXPECT_TRUE(common::backups(f).empty());
}

// ---- JSON and JSONC text edits

TEST(JsonText, SetAndRemoveChangeOnlyThatMember) {
    const common::ojson entry = {{"command", "s"}, {"args", {"mcp"}}};
    const std::vector<std::string> texts = {
        "",
        "{}",
        "{\n  \"a\": 1\n}\n",
        "{\n    \"mcpServers\": {\n        \"mine\": {\"command\": \"m\"}\n    }\n}",
        "{\"mcpServers\":{}}\n",
        "{\"a\": 1, \"mcpServers\": {\"x\": 2}}",
        "{\n  // c1\n  \"a\": [1,], /* c2 */\n  \"mcpServers\": {\n    \"x\": 2, // c3\n  },\n}\n",
        "{\n  \"mcpServers\": {\n    \"x\": 2 // last\n  }\n}\n",
    };
    for (const std::string& text : texts) {
        SCOPED_TRACE(text);
        const bool jsonc = text.find("//") != std::string::npos;
        const auto before =
            text.empty() ? common::ojson::object() : *common::parse_json_text(text, jsonc);
        const std::string with = common::json_text_set(text, "mcpServers", "sutra", entry);
        const auto doc = common::parse_json_text(with, jsonc);
        ASSERT_TRUE(doc.has_value()) << with;
        common::ojson expected = before;
        expected["mcpServers"]["sutra"] = entry;
        EXPECT_EQ(*doc, expected) << with;
        for (const char* comment : {"// c1", "/* c2 */", "// c3", "// last"})
            if (text.find(comment) != std::string::npos) {
                EXPECT_NE(with.find(comment), std::string::npos) << with;
            }
        // Replacing in place changes nothing else; removing gives back the same document.
        const common::ojson other = {{"command", "t"}};
        const auto replaced = common::parse_json_text(
            common::json_text_set(with, "mcpServers", "sutra", other), jsonc);
        ASSERT_TRUE(replaced.has_value());
        EXPECT_EQ((*replaced)["mcpServers"]["sutra"], other);
        const std::string without = common::json_text_remove(with, "mcpServers", "sutra");
        const auto back = common::parse_json_text(without, jsonc);
        ASSERT_TRUE(back.has_value()) << without;
        common::ojson stripped = expected;
        stripped["mcpServers"].erase("sutra");
        if (stripped["mcpServers"].empty()) stripped.erase("mcpServers");
        EXPECT_EQ(*back, stripped) << without;
    }
    EXPECT_THROW(common::json_text_set("[1]", "s", "n", 1), std::runtime_error);
    EXPECT_THROW(common::json_text_set("{\"s\": 1}", "s", "n", 1), std::runtime_error);
    EXPECT_FALSE(common::parse_json_text("{\"a\": 1,}", false).has_value());
    EXPECT_TRUE(common::parse_json_text("{\"a\": \"//,}\", /* x */ \"b\": [1,],}", true));
    EXPECT_EQ((*common::parse_json_text("{\"a\": \"//,}\"}", true))["a"], "//,}");
}

// The same over random documents in every layout: compact, indented by spaces or tabs, with
// comments after commas and trailing commas (JSONC). Every comment survives both edits.
// What json_top_members refuses, so that its callers read the file whole instead (and say
// why it cannot be read, or keep what nlohmann does with a key named twice).
TEST(JsonText, TopMembersOnlyOfAValidObjectWithDistinctKeys) {
    const std::string blank, spaces = " \n\t", bom = "\xEF\xBB\xBF{\"a\": 1}";
    EXPECT_EQ(common::json_top_members(blank, false)->size(), 0u);
    EXPECT_EQ(common::json_top_members(spaces, true)->size(), 0u);
    EXPECT_EQ(common::json_top_members(bom, false)->size(), 1u);
    for (const std::string bad : {"{\"a\": 1, \"a\": 2}", "[1, 2]", "{\"a\": 1", "{\"a\": 1} x",
                                  "{\"a\": [1,]}", "// only a comment", "{\"a\": tru}"})
        EXPECT_FALSE(common::json_top_members(bad, false).has_value()) << bad;
    const std::string commented = "{\"a\": 1 /* c */}";
    EXPECT_FALSE(common::json_top_members(commented, false).has_value());
    const std::string text = "{\"a\": [1,], /* c */ \"b\": {\"c\": 2,},}";
    const auto jsonc = common::json_top_members(text, true);
    ASSERT_TRUE(jsonc.has_value());
    ASSERT_EQ(jsonc->size(), 2u);
    EXPECT_EQ((*jsonc)[0].value, "[1,]");
    EXPECT_EQ((*jsonc)[1].value, "{\"c\": 2,}");
    // Deeper than a user's config may nest.
    const std::string deep = "{\"a\": " + std::string(5000, '[') + std::string(5000, ']') + "}";
    EXPECT_FALSE(common::json_top_members(deep, false).has_value());
}

// json_member_text (the hook's read of .claude.json) against nlohmann over random documents
// with escapes in keys and strings, brackets inside strings, duplicate keys (the last one
// counts, as JSON.parse keeps it) and every layout; and nothing where the text is not JSON.
TEST(JsonText, MemberTextIsWhatAParserFinds) {
    std::mt19937 rng(11);
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const std::vector<std::string> words = {"a",   "b\"q", "c\\\\", "/home/x y", "{[",   "]}",
                                            "é\n", "\\\"", "k",     "sutra",     "mcp\t"};
    std::function<std::string(int)> value = [&](int depth) -> std::string {
        switch (depth > 3 ? pick(3) : pick(5)) {
        case 0:
            return std::to_string(pick(100000) - 50000);
        case 1:
            return nlohmann::json(words[static_cast<std::size_t>(pick(11))]).dump();
        case 2:
            return pick(2) == 0 ? "true" : "null";
        case 3: {
            std::string a = "[";
            for (int i = pick(4); i > 0; --i) a += value(depth + 1) + (i > 1 ? ", " : "");
            return a + "]";
        }
        default: {
            std::string o = "{";
            for (int i = pick(4); i > 0; --i)
                o += nlohmann::json(words[static_cast<std::size_t>(pick(11))]).dump() + ":" +
                     value(depth + 1) + (i > 1 ? ",\n  " : "");
            return o + "}";
        }
        }
    };
    for (int round = 0; round < 2000; ++round) {
        std::string text = pick(4) == 0 ? "\xEF\xBB\xBF" : "";
        text += pick(2) == 0 ? "{" : " \n{\n  ";
        for (int i = pick(6); i > 0; --i)
            text += nlohmann::json(words[static_cast<std::size_t>(pick(11))]).dump() +
                    (pick(2) == 0 ? ":" : " : ") + value(0) + (i > 1 ? ",\n  " : "");
        text += "}\n";
        SCOPED_TRACE(text);
        const auto doc = nlohmann::json::parse(text, nullptr, false);
        ASSERT_FALSE(doc.is_discarded());
        for (const std::string& key : words) {
            const auto found = common::json_member_text(text, key);
            ASSERT_EQ(found.has_value(), doc.contains(key)) << key;
            if (found) {
                EXPECT_EQ(nlohmann::json::parse(*found), doc[key]) << key;
            }
        }
        // Cut short before its last brace: no answer at all.
        const std::size_t cut = static_cast<std::size_t>(pick(static_cast<int>(text.rfind('}'))));
        const std::string broken = text.substr(0, cut);
        for (const std::string& key : words)
            EXPECT_FALSE(common::json_member_text(broken, key).has_value()) << cut << key;
    }
    for (const std::string bad : {"[1]", "{\"a\" 1}", "{\"a\": [1}", "{\"a\": 1", "{a: 1}",
                                  "{\"a\": \"x}", "", "{\"a\": ]}"})
        EXPECT_FALSE(common::json_member_text(bad, "a").has_value()) << bad;
    const std::string deep = "{\"a\": " + std::string(5000, '[') + std::string(5000, ']') + "}";
    EXPECT_FALSE(common::json_member_text(deep, "a").has_value());
    EXPECT_EQ(common::json_member_text("{\"a\":1,\"a\":{\"b\":2}}", "a"), "{\"b\":2}");
}

TEST(JsonText, RandomDocumentsInEveryLayout) {
    std::mt19937 rng(7);
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    std::function<common::ojson(int)> value = [&](int depth) -> common::ojson {
        switch (depth > 2 ? pick(3) : pick(5)) {
        case 0:
            return pick(1000);
        case 1:
            return "s,}/" + std::to_string(pick(9));
        case 2:
            return nullptr;
        case 3: {
            common::ojson a = common::ojson::array();
            for (int i = pick(3); i > 0; --i) a.push_back(value(depth + 1));
            return a;
        }
        default: {
            common::ojson o = common::ojson::object();
            for (int i = pick(4); i > 0; --i) o["k" + std::to_string(pick(20))] = value(depth + 1);
            return o;
        }
        }
    };
    for (int round = 0; round < 300; ++round) {
        common::ojson doc = common::ojson::object();
        for (int i = pick(5); i > 0; --i) doc["k" + std::to_string(pick(20))] = value(1);
        if (pick(2) == 0) {
            doc["mcpServers"] = common::ojson::object();
            for (int i = pick(3); i > 0; --i) doc["mcpServers"]["s" + std::to_string(i)] = value(2);
            if (pick(2) == 0) doc["mcpServers"]["sutra"] = {{"command", "old"}};
        }
        const int layout = pick(4);
        std::string text = layout == 0   ? doc.dump()
                           : layout == 1 ? doc.dump(2)
                           : layout == 2 ? doc.dump(4)
                                         : doc.dump(1, '\t');
        const bool jsonc = pick(2) == 0;
        std::size_t comments = 0;
        if (jsonc) { // a comment after every comma that ends a line, and a trailing comma
            std::string with;
            for (std::size_t i = 0; i < text.size(); ++i) {
                with += text[i];
                if (text[i] == ',' && i + 1 < text.size() && text[i + 1] == '\n') {
                    with += " // c" + std::to_string(comments++);
                }
            }
            text = with;
            const auto close = text.rfind('}');
            if (text.find('\n') != std::string::npos && !doc.empty()) {
                const auto last = text.find_last_not_of(" \t\n", close - 1);
                if (text[last] != '{') text.insert(last + 1, ",");
            }
        }
        SCOPED_TRACE(text);
        const auto parsed = common::parse_json_text(text, jsonc);
        ASSERT_TRUE(parsed.has_value());
        ASSERT_EQ(*parsed, doc);
        // The top level read without building it: every member, in order, its bytes the value.
        const auto top = common::json_top_members(text, jsonc);
        ASSERT_TRUE(top.has_value());
        ASSERT_EQ(top->size(), doc.size());
        std::size_t at = 0;
        for (const auto& [key, member_value] : doc.items()) {
            EXPECT_EQ((*top)[at].key, key);
            EXPECT_EQ(common::parse_json_text(std::string((*top)[at].value), jsonc), member_value);
            ++at;
        }
        const common::ojson entry = {{"command", "/x/sutra"}, {"args", {"mcp", "--restore-tool"}}};
        const std::string with = common::json_text_set(text, "mcpServers", "sutra", entry);
        common::ojson expected = doc;
        expected["mcpServers"]["sutra"] = entry;
        const auto reread = common::parse_json_text(with, jsonc);
        ASSERT_TRUE(reread.has_value()) << with;
        EXPECT_EQ(*reread, expected) << with;
        const std::string without = common::json_text_remove(with, "mcpServers", "sutra");
        common::ojson stripped = expected;
        stripped["mcpServers"].erase("sutra");
        if (stripped["mcpServers"].empty()) stripped.erase("mcpServers");
        const auto back = common::parse_json_text(without, jsonc);
        ASSERT_TRUE(back.has_value()) << without;
        EXPECT_EQ(*back, stripped) << without;
        for (std::size_t c = 0; c < comments; ++c) {
            const std::string comment = "// c" + std::to_string(c) + "\n";
            EXPECT_NE(with.find(comment), std::string::npos) << comment << with;
        }
    }
}

TEST(HookSettings, ParseSettingsAndOurCommand) {
    EXPECT_EQ(common::parse_settings(std::nullopt, "p"), common::ojson::object());
    EXPECT_EQ(common::parse_settings(" \n", "p"), common::ojson::object());
    EXPECT_THROW(common::parse_settings("[1]", "p"), std::runtime_error);
    EXPECT_THROW(common::parse_settings("{", "p"), std::runtime_error);
    EXPECT_TRUE(common::is_our_command("'/a b/sutra-host' --adapter codex", "codex"));
    EXPECT_FALSE(common::is_our_command("/a/sutra-host --adapter codex2", "codex"));
    EXPECT_FALSE(common::is_our_command("other --adapter codex", "codex"));
}

// Exactly the commands sutra writes, from any prefix; anything else that runs sutra-host is the
// user's.
TEST(HookSettings, OurCommandIsExactlyWhatSutraWrites) {
    for (const char* ours :
         {"sutra-host --adapter claude", "/opt/a/bin/sutra-host --adapter claude",
          "'/opt/my sutra/bin/sutra-host' --adapter claude",
          "'/it'\\''s/sutra-host' --adapter claude",
          "SUTRA_PROGRAM=/opt/a/bin/sutra /opt/a/bin/sutra-host --adapter claude",
          "SUTRA_BASH_ROUTE=always SUTRA_PROGRAM='/my dir/sutra' "
          "'/my dir/sutra-host' --adapter claude"})
        EXPECT_TRUE(common::is_our_command(ours, "claude")) << ours;
    for (const char* theirs :
         {"~/bin/log-then-run.sh sutra-host --adapter claude",
          "/opt/a/bin/sutra-host --verbose --adapter claude",
          "echo sutra-host; /opt/a/bin/sutra-host --adapter claude",
          "FOO=1 /opt/a/bin/sutra-host --adapter claude", "/opt/a/bin/sutra-host  --adapter claude",
          "/opt/a/bin/sutra-host --adapter claude ", "'/opt/a/bin/sutra-host' --adapter claude",
          "/opt/a/bin/not-sutra-host --adapter claude",
          "SUTRA_PROGRAM=/x/other sutra-host "
          "--adapter claude",
          "SUTRA_PROGRAM=/x/sutra SUTRA_BASH_ROUTE=always sutra-host --adapter claude", ""})
        EXPECT_FALSE(common::is_our_command(theirs, "claude")) << theirs;
    common::HookSpec status;
    status.setting = "statusLine";
    status.adapter = "statusline";
    EXPECT_TRUE(common::is_ours("'/my dir/sutra' statusline", status));
    EXPECT_FALSE(common::is_ours("sutra statusline | cut -c1-40", status));
    EXPECT_FALSE(common::is_ours("FOO=1 sutra statusline", status));
}

// ---- adapter calls

TEST(AdapterCalls, ParseOptions) {
    const auto o = common::parse_options(R"({"host_program":"/h","sutra_program":"/s",
        "dry_run":true,"wrap_bash":true,"mcp_tools":["files","bogus",1,"exec"]})");
    EXPECT_EQ(o.host_program, "/h");
    EXPECT_EQ(o.sutra_program, "/s");
    EXPECT_TRUE(o.dry_run);
    EXPECT_EQ(o.bash_route, "always"); // the version 1 spelling of --wrap-bash
    EXPECT_EQ(o.mcp_tools, (std::vector<std::string>{"files", "exec"}));
    for (const char* route : {"auto", "always", "off"})
        EXPECT_EQ(
            common::parse_options(std::string(R"({"bash_route":")") + route + "\"}").bash_route,
            route);
    EXPECT_EQ(common::parse_options(R"({"bash_route":"everywhere"})").bash_route, "");
    for (const char* text : {"", "not json", "[1,2]", "{}", R"({"mcp_tools":"files"})"}) {
        const auto d = common::parse_options(text);
        EXPECT_EQ(d.host_program, "") << text;
        EXPECT_EQ(d.sutra_program, "") << text;
        EXPECT_FALSE(d.dry_run) << text;
        EXPECT_EQ(d.bash_route, "") << text;
        EXPECT_TRUE(d.mcp_tools.empty()) << text;
    }
}

TEST(AdapterCalls, PassAndGuarded) {
    EXPECT_EQ(nlohmann::json::parse(common::pass("why")),
              (nlohmann::json{{"action", "pass"}, {"reason", "why"}}));
    EXPECT_EQ(common::guarded([] { return nlohmann::json{{"ok", true}}; }), R"({"ok":true})");
    EXPECT_EQ(common::guarded([]() -> nlohmann::json { throw std::runtime_error("boom"); }),
              R"({"error":"boom","ok":false})");
}

// ---- MCP registration

TEST(McpRegistration, ArgsAndProgram) {
    EXPECT_EQ(common::mcp_args("t"), (std::vector<std::string>{"mcp", "--restore-tool", "t"}));
    EXPECT_EQ(common::mcp_args("t", "ns", {"files"}),
              (std::vector<std::string>{"mcp", "--restore-tool", "t", "--namespace", "ns",
                                        "--tools", "restore,compress,stats,files"}));
    EXPECT_TRUE(common::is_sutra_program("/usr/bin/sutra"));
    EXPECT_TRUE(common::is_sutra_program("sutra"));
    EXPECT_FALSE(common::is_sutra_program("/usr/bin/sutra-host"));
}

// ---- Codex config.toml

const std::string k_table = codex::toml_server_table("/bin/sutra", {"mcp", "a \"q\""});

TEST(ConfigToml, AddReplaceAndRemoveTheTable) {
    EXPECT_EQ(k_table,
              "[mcp_servers.sutra]\ncommand = \"/bin/sutra\"\nargs = [\"mcp\", \"a \\\"q\\\"\"]\n");
    EXPECT_EQ(codex::with_server_table(std::nullopt, k_table), k_table);
    EXPECT_EQ(codex::with_server_table("model = \"o3\"", k_table), "model = \"o3\"\n\n" + k_table);

    const std::string user = "# mine\nmodel = \"o3\"\n\n[other]\nx = 1\n";
    const std::string with = codex::with_server_table(user, k_table);
    EXPECT_EQ(with, user + "\n" + k_table);
    EXPECT_EQ(codex::with_server_table(with, k_table), with) << "already there: same bytes";
    EXPECT_EQ(codex::without_server_table(with), user);

    const std::string old = "[mcp_servers.sutra]\ncommand = \"/old/sutra\"\n\n[after]\ny = 2\n";
    EXPECT_EQ(codex::with_server_table(old, k_table), k_table + "\n[after]\ny = 2\n");
    EXPECT_EQ(codex::without_server_table(old), "[after]\ny = 2\n");
}

TEST(ConfigToml, ReadsTheTableBack) {
    const std::string text = "[mcp_servers.sutra]\ncommand = '/x/sutra'\nargs = [\"mcp\", \"-v\"]\n"
                             "enabled = false\n[mcp_servers.sutra.env]\nA = \"1\"\n[b]\n";
    const auto at = codex::find_server_table(text);
    ASSERT_TRUE(at);
    const std::string table = text.substr(at->begin, at->end - at->begin);
    EXPECT_EQ(table.substr(table.size() - 8), "A = \"1\"\n") << "subtables belong to it";
    EXPECT_EQ(codex::toml_table_string(table, "command"), "/x/sutra");
    EXPECT_EQ(codex::toml_table_strings(table, "args"), (std::vector<std::string>{"mcp", "-v"}));
    EXPECT_TRUE(codex::toml_table_disabled(table));
    EXPECT_FALSE(codex::toml_table_disabled(k_table));
    EXPECT_EQ(codex::toml_table_string(table, "missing"), std::nullopt);
    EXPECT_EQ(codex::toml_header("  [ \"mcp_servers\" . sutra ] # c"), "mcp_servers.sutra");
    EXPECT_EQ(codex::toml_header("a = [1]"), "");
}

TEST(ConfigToml, RefusesInlineServers) {
    EXPECT_THROW(codex::with_server_table("mcp_servers = { sutra = {} }\n", k_table),
                 std::runtime_error);
    EXPECT_THROW(codex::with_server_table("[mcp_servers]\nsutra = { command = \"x\" }\n", k_table),
                 std::runtime_error);
    EXPECT_NO_THROW(codex::with_server_table("[mcp_servers]\nother = 1\n", k_table));
}

// ---- Hermes config.yaml

TEST(ConfigYaml, EnableAndDisableInEveryListShape) {
    EXPECT_EQ(hermes::yaml_enable(std::nullopt, "sutra"), "plugins:\n  enabled:\n    - sutra\n");
    EXPECT_EQ(hermes::yaml_enable("model: x", "sutra"),
              "model: x\nplugins:\n  enabled:\n    - sutra\n");
    const std::vector<std::pair<std::string, std::string>> cases{
        {"plugins:\n  enabled:\n  - a\n  - b\nmodel: x\n",
         "plugins:\n  enabled:\n  - a\n  - b\n  - sutra\nmodel: x\n"},
        {"plugins:\n    enabled: [a]  # c\n", "plugins:\n    enabled: [a, sutra]  # c\n"},
        {"plugins:\n  enabled: []\n", "plugins:\n  enabled: [sutra]\n"},
        {"plugins:\n  disabled: [x]\n", "plugins:\n  enabled:\n    - sutra\n  disabled: [x]\n"},
        {"plugins:\r\n  enabled:\r\n    - a\r\n",
         "plugins:\r\n  enabled:\r\n    - a\r\n    - sutra\r\n"},
    };
    for (const auto& [before, after] : cases) {
        EXPECT_EQ(hermes::yaml_enable(before, "sutra"), after) << before;
        EXPECT_EQ(hermes::yaml_enable(after, "sutra"), after) << "already listed";
        EXPECT_TRUE(hermes::yaml_lists(after, "enabled", "sutra"));
        EXPECT_FALSE(hermes::yaml_lists(before, "enabled", "sutra"));
    }
    EXPECT_EQ(hermes::yaml_disable("plugins:\n  enabled:\n  - a\n  - sutra\n", "sutra"),
              "plugins:\n  enabled:\n  - a\n");
    EXPECT_EQ(hermes::yaml_disable("plugins:\n  enabled: [a, sutra, b]\n", "sutra"),
              "plugins:\n  enabled: [a, b]\n");
    EXPECT_THROW(hermes::yaml_enable("plugins: [a]\n", "sutra"), std::runtime_error);
    EXPECT_THROW(hermes::yaml_enable("plugins:\n  enabled: a\n", "sutra"), std::runtime_error);
}

TEST(ConfigYaml, SetReadAndRemoveTheServer) {
    const auto block = hermes::yaml_server_block("sutra", "/bin/sutra", {"mcp", "-x"});
    EXPECT_EQ(block, (std::vector<std::string>{"sutra:", "  command: \"/bin/sutra\"",
                                               "  args: [\"mcp\", \"-x\"]"}));
    const std::string fresh = hermes::yaml_set_server(std::nullopt, "sutra", block);
    EXPECT_EQ(fresh, "mcp_servers:\n  sutra:\n    command: \"/bin/sutra\"\n"
                     "    args: [\"mcp\", \"-x\"]\n");
    EXPECT_EQ(hermes::yaml_set_server(fresh, "sutra", block), fresh);

    const std::string user = "mcp_servers:\n    other:\n        command: o\n# tail\nmodel: x\n";
    const std::string with = hermes::yaml_set_server(user, "sutra", block);
    EXPECT_EQ(with,
              "mcp_servers:\n    other:\n        command: o\n    sutra:\n"
              "      command: \"/bin/sutra\"\n      args: [\"mcp\", \"-x\"]\n# tail\nmodel: x\n");
    EXPECT_EQ(hermes::yaml_server_command(with, "sutra"), "/bin/sutra");
    EXPECT_EQ(hermes::yaml_server_lines(with, "sutra"), block);
    EXPECT_EQ(hermes::yaml_server_command(user, "sutra"), std::nullopt);
    EXPECT_EQ(hermes::yaml_remove_server(with, "sutra"), user);

    EXPECT_EQ(hermes::yaml_set_server("mcp_servers: {}\n", "sutra", block), fresh);
    EXPECT_THROW(hermes::yaml_set_server("mcp_servers: [a]\n", "sutra", block), std::runtime_error);
}

} // namespace
} // namespace sutra::plugins
