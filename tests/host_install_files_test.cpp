// How install and uninstall write a user's files (plugins/common/files.cpp, write_atomic), on
// every host: a hard-linked config stays one file under all its names, an other user's file keeps
// its owner (run as root, as an admin installing for a user), temporary files a killed run left
// are swept, and one lock keeps `sutra uninstall & sutra install` from leaving a host half
// installed.

#include "host/dispatch/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A user's own file of each host, with bytes install edits and uninstall gives back.
struct UserFile {
    const char* client;
    std::string path; // relative to the sandbox
    std::string text;
};

std::vector<UserFile> user_files() {
    return {
        {"claude", "claude/settings.json", "{\n  \"model\": \"opus\"\n}\n"},
        {"claude", "claude/.claude.json", "{\n  \"numStartups\": 3\n}\n"},
        {"codex", "codex/config.toml", "model = \"o3\"\n"},
        {"opencode", "config/opencode/opencode.json", "{\n  \"theme\": \"dark\"\n}\n"},
        {"hermes", "hermes/config.yaml", "model: gpt\n"},
    };
}

const char* const k_clients[] = {"claude", "codex", "opencode", "hermes"};

class InstallFilesTest : public ::testing::Test {
protected:
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    InstallFilesTest() { box.env.set("HERMES_HOME", box.dir.path + "/hermes"); }

    std::string at(const std::string& rel) const { return box.dir.path + "/" + rel; }

    json call(const char* client, Plugin::Op op) {
        auto p = registry.load(client);
        EXPECT_TRUE(p.has_value());
        if (!p) return json();
        const json options = {{"host_program", "/opt/sutra/bin/sutra-host"},
                              {"sutra_program", "/opt/sutra/bin/sutra"},
                              {"dry_run", false}};
        return json::parse((*p)->call(op, options.dump()).value_or("null"));
    }
    void put_user_files() {
        for (const UserFile& f : user_files()) {
            fs::create_directories(fs::path(at(f.path)).parent_path());
            test::write_file(at(f.path), f.text);
        }
    }
};

struct stat stat_of(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
    return st;
}

// A dotfiles manager links ~/.claude/settings.json to its own copy: install and uninstall write
// through the link, so both names hold the same bytes at every step and stay one file.
TEST_F(InstallFilesTest, HardLinkedConfigsStayOneFile) {
    put_user_files();
    const std::vector<UserFile> files = user_files();
    fs::create_directories(at("dotfiles"));
    std::vector<std::string> links;
    for (const UserFile& f : files) {
        links.push_back(at("dotfiles/") + fs::path(f.path).filename().string() + "-" + f.client);
        fs::create_hard_link(at(f.path), links.back());
    }
    for (const char* client : k_clients) ASSERT_TRUE(call(client, Plugin::Op::install)["ok"]);
    for (std::size_t i = 0; i < links.size(); ++i) {
        const UserFile& f = files[i];
        SCOPED_TRACE(f.path);
        EXPECT_NE(test::read_file(at(f.path)), f.text) << "install edits every one of them";
        EXPECT_EQ(test::read_file(links[i]), test::read_file(at(f.path)));
        EXPECT_EQ(stat_of(links[i]).st_ino, stat_of(at(f.path)).st_ino);
    }
    for (const char* client : k_clients) ASSERT_TRUE(call(client, Plugin::Op::uninstall)["ok"]);
    for (std::size_t i = 0; i < links.size(); ++i) {
        const UserFile& f = files[i];
        SCOPED_TRACE(f.path);
        EXPECT_EQ(test::read_file(at(f.path)), f.text);
        EXPECT_EQ(test::read_file(links[i]), f.text);
        EXPECT_EQ(stat_of(links[i]).st_ino, stat_of(at(f.path)).st_ino);
        EXPECT_EQ(stat_of(at(f.path)).st_nlink, 2u);
    }
}

// Run as root over another user's home: every file and folder install makes or edits (hook
// files, configs, backups, plugin folders) belongs to that user afterwards, and so does what
// uninstall leaves.
TEST_F(InstallFilesTest, AnotherUsersFilesStayTheirs) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to own files as another user";
    put_user_files();
    const uid_t uid = 4242;
    const gid_t gid = 4343;
    for (const auto& e : fs::recursive_directory_iterator(box.dir.path))
        ASSERT_EQ(::lchown(e.path().c_str(), uid, gid), 0);
    ASSERT_EQ(::chown(box.dir.path.c_str(), uid, gid), 0);
    auto expect_all_theirs = [&](const char* when) {
        for (const auto& e : fs::recursive_directory_iterator(box.dir.path)) {
            const struct stat st = stat_of(e.path().string());
            EXPECT_EQ(st.st_uid, uid) << when << ": " << e.path();
            EXPECT_EQ(st.st_gid, gid) << when << ": " << e.path();
        }
    };
    for (const char* client : k_clients) ASSERT_TRUE(call(client, Plugin::Op::install)["ok"]);
    expect_all_theirs("after install");
    for (const char* client : k_clients) ASSERT_TRUE(call(client, Plugin::Op::uninstall)["ok"]);
    expect_all_theirs("after uninstall");
    for (const UserFile& f : user_files()) EXPECT_EQ(test::read_file(at(f.path)), f.text);
}

// A run killed between making its temporary file and renaming it leaves NAME.sutra-tmp-PID. The
// next install beside it removes those whose process is gone, and nothing else.
TEST_F(InstallFilesTest, TemporaryFilesOfDeadRunsAreSwept) {
    put_user_files();
    const pid_t dead = ::fork();
    if (dead == 0) ::_exit(0);
    ASSERT_GT(dead, 0);
    ::waitpid(dead, nullptr, 0);
    const std::string live = std::to_string(::getppid());
    std::vector<std::string> swept, kept;
    for (const UserFile& f : user_files()) {
        swept.push_back(at(f.path) + ".sutra-tmp-" + std::to_string(dead));
        kept.push_back(at(f.path) + ".sutra-tmp-" + live); // another process, still running
        kept.push_back(at(f.path) + ".sutra-tmp-12ab");    // not sutra's pattern
        kept.push_back(at(f.path) + "-other.sutra-tmp-1"); // another file's
    }
    for (const auto& p : swept) test::write_file(p, "half written");
    for (const auto& p : kept) test::write_file(p, "someone's");
    for (const char* client : k_clients) ASSERT_TRUE(call(client, Plugin::Op::install)["ok"]);
    for (const auto& p : swept) EXPECT_FALSE(fs::exists(p)) << p;
    for (const auto& p : kept) EXPECT_EQ(test::read_file(p), "someone's") << p;
}

// `sutra uninstall & sutra install` at the same moment, ten rounds on Codex (a hook file and an
// MCP table in config.toml): each round ends wholly installed or wholly uninstalled.
TEST_F(InstallFilesTest, InstallAndUninstallAtOnceLeaveAWholeState) {
    put_user_files();
    const std::string sutra = SUTRA_BINARY;
    auto spawn = [&](const char* op) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1);
            ::dup2(null, 2);
            ::execl(sutra.c_str(), sutra.c_str(), op, "--client", "codex",
                    static_cast<char*>(nullptr));
            ::_exit(127);
        }
        return pid;
    };
    int installed = 0, uninstalled = 0;
    for (int round = 0; round < 10; ++round) {
        const pid_t a = spawn(round % 2 ? "install" : "uninstall");
        const pid_t b = spawn(round % 2 ? "uninstall" : "install");
        for (const pid_t p : {a, b}) {
            int status = 0;
            ::waitpid(p, &status, 0);
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << round;
        }
        const std::string config = test::read_file(at("codex/config.toml"));
        const bool hook =
            fs::exists(at("codex/hooks.json")) &&
            test::read_file(at("codex/hooks.json")).find("sutra-host") != std::string::npos;
        const bool mcp = config.find("[mcp_servers.sutra]") != std::string::npos;
        EXPECT_EQ(hook, mcp) << "round " << round << ": half installed\n" << config;
        (hook ? installed : uninstalled) += 1;
    }
    EXPECT_EQ(installed + uninstalled, 10);
}

} // namespace
} // namespace sutra::host
