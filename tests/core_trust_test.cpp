// Trusted project rules: a repository's `.sutra.toml` is ignored until `sutra trust` records its
// hash; any change, an unsafe file or a key a project may not set makes it ignored again.

#include "core/config.hpp"
#include "core/trust.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::core {
namespace {

namespace fs = std::filesystem;
using Env = std::map<std::string, std::string>;

// A home folder with a project two levels below it.
struct Project {
    test::TempDir tmp;
    std::string home = tmp.path + "/home";
    std::string root = home + "/proj";
    std::string cwd = root + "/src/deep";
    std::string file = root + "/.sutra.toml";
    Env env{{"HOME", home}, {"XDG_CONFIG_HOME", home + "/.config"}};

    Project() { fs::create_directories(cwd); }

    void write(const std::string& text, mode_t mode = 0644) {
        test::write_file(file, text);
        ::chmod(file.c_str(), mode);
    }
    std::string canonical() const { return fs::canonical(root).string() + "/.sutra.toml"; }
    void trust() {
        const ProjectRules rules = inspect_project_file(file);
        ASSERT_NE(rules.state, ProjectState::refused) << rules.reason;
        auto entries = read_trusts(trust_file_path(env));
        ASSERT_TRUE(entries) << entries.error();
        entries->push_back(TrustEntry{rules.path, rules.hash});
        auto written = write_trusts(trust_file_path(env), *entries);
        ASSERT_TRUE(written) << written.error();
    }
    Config load() const {
        auto config = load_config_in(cwd, env);
        EXPECT_TRUE(config) << (config ? "" : config.error());
        return config.value_or(Config{});
    }
};

const std::string k_full = "[compress]\nmode = \"full\"\nkeep_patterns = [\"ZEBRA\"]\n";

TEST(TrustTest, UntrustedFileIsIgnored) {
    Project p;
    p.write(k_full);
    const Config c = p.load();
    EXPECT_EQ(c.project.state, ProjectState::untrusted);
    EXPECT_EQ(c.project.path, p.canonical());
    EXPECT_EQ(c.mode, Mode::automatic);
    EXPECT_TRUE(c.keep_patterns.empty());
    EXPECT_NE(describe_config(c).find("project file = " + p.canonical() + " (not trusted"),
              std::string::npos);
}

TEST(TrustTest, TrustedFileIsAppliedWithItsSource) {
    Project p;
    p.write(k_full);
    p.trust();
    const Config c = p.load();
    EXPECT_EQ(c.project.state, ProjectState::applied);
    EXPECT_EQ(c.mode, Mode::full);
    ASSERT_EQ(c.keep_patterns.size(), 1u);
    EXPECT_EQ(c.sources.at("compress.mode"), p.canonical() + ":2");
    EXPECT_NE(describe_config(c).find("(trusted, applied)"), std::string::npos);
    // The trust file is private and was written without leftovers.
    struct stat st {};
    ASSERT_EQ(::lstat(trust_file_path(p.env).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    for (const auto& e : fs::directory_iterator(fs::path(trust_file_path(p.env)).parent_path()))
        EXPECT_EQ(e.path().filename(), "trusted-projects");
}

TEST(TrustTest, AnyEditMakesItUntrustedAgain) {
    Project p;
    p.write(k_full);
    p.trust();
    for (const std::string& edit : {k_full + " ", k_full.substr(1), std::string("\n") + k_full}) {
        p.write(edit);
        const Config c = p.load();
        EXPECT_EQ(c.project.state, ProjectState::changed);
        EXPECT_EQ(c.mode, Mode::automatic);
    }
    p.write(k_full);
    EXPECT_EQ(p.load().project.state, ProjectState::applied);
}

TEST(TrustTest, UnsafeFilesAreRefusedEvenWhenTrusted) {
    Project p;
    p.write(k_full);
    p.trust();
    for (mode_t mode : {0664, 0646, 0666}) {
        p.write(k_full, mode);
        const Config c = p.load();
        EXPECT_EQ(c.project.state, ProjectState::refused) << std::oct << mode;
        EXPECT_NE(c.project.reason.find("writable by group or others"), std::string::npos);
        EXPECT_EQ(c.mode, Mode::automatic);
    }
    // A symlink to a file with trusted content.
    p.write(k_full, 0644);
    fs::rename(p.file, p.root + "/real.toml");
    fs::create_symlink(p.root + "/real.toml", p.file);
    Config c = p.load();
    EXPECT_EQ(c.project.state, ProjectState::refused);
    EXPECT_NE(c.project.reason.find("symlink"), std::string::npos);
    EXPECT_EQ(c.mode, Mode::automatic);
    // A FIFO must not block.
    fs::remove(p.file);
    ASSERT_EQ(::mkfifo(p.file.c_str(), 0600), 0);
    c = p.load();
    EXPECT_EQ(c.project.state, ProjectState::refused);
    EXPECT_NE(c.project.reason.find("not a regular file"), std::string::npos);
}

TEST(TrustTest, AnotherUsersFileIsRefused) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown";
    Project p;
    p.write(k_full);
    p.trust();
    ASSERT_EQ(::chown(p.file.c_str(), 65534, 65534), 0);
    const Config c = p.load();
    EXPECT_EQ(c.project.state, ProjectState::refused);
    EXPECT_NE(c.project.reason.find("owned by uid 65534"), std::string::npos);
    EXPECT_EQ(c.mode, Mode::automatic);
}

TEST(TrustTest, ProjectMayNotTouchStoreRetentionOrLimits) {
    for (const std::string line :
         {"[store]\ndir = \"/tmp/elsewhere\"\n", "[store]\nenabled = false\n",
          "[store]\nttl_seconds = 99999999\n", "[restore]\nmax_bytes = 65536\n",
          "[stats]\nenabled = false\n", "[compress]\nmax_input_bytes = 99\n",
          "[compress]\nbogus = 1\n", "top = 1\n"}) {
        Project p;
        p.write(line.starts_with("[compress]") ? line + "mode = \"full\"\n"
                                               : "[compress]\nmode = \"full\"\n" + line);
        p.trust();
        const Config c = p.load();
        EXPECT_EQ(c.project.state, ProjectState::invalid) << line;
        EXPECT_NE(c.project.reason.find("may not be set by a project file"), std::string::npos)
            << c.project.reason;
        // Ignored as a whole: not even the allowed part applies.
        EXPECT_EQ(c.mode, Mode::automatic);
        EXPECT_EQ(c.store_dir, "");
        EXPECT_TRUE(c.store_enabled);
    }
}

TEST(TrustTest, EnvironmentStillWinsAndKeepPatternsAdd) {
    Project p;
    p.write(k_full);
    p.trust();
    p.env["SUTRA_MODE"] = "concise";
    p.env["SUTRA_KEEP"] = "LION";
    p.env["SUTRA_CONFIG"] = p.tmp.path + "/user.toml";
    test::write_file(p.tmp.path + "/user.toml", "[compress]\nkeep_patterns = [\"TIGER\"]\n");
    const Config c = p.load();
    EXPECT_EQ(c.mode, Mode::concise);
    EXPECT_EQ(c.keep_patterns, (std::vector<std::string>{"TIGER", "ZEBRA", "LION"}));
}

TEST(TrustTest, HostileContentFailsSafe) {
    Project p;
    // Too large to read.
    p.write("# " + std::string(k_max_project_file_bytes, 'x') + "\n");
    Config c = p.load();
    EXPECT_EQ(c.project.state, ProjectState::refused);
    EXPECT_NE(c.project.reason.find("larger than"), std::string::npos);
    // Deep nesting, broken syntax, NULs and random bytes, each trusted: ignored, never applied
    // half-way, never a crash.
    std::mt19937 rng(7);
    std::vector<std::string> docs = {
        "[compress]\nmode = " + std::string(20000, '[') + "\n",
        "[compress]\nkeep_patterns = " + std::string(30000, '[') + std::string(30000, ']'),
        "[compress\nmode = \"full\"\n",
        std::string("[compress]\nmode = \"fu\0ll\"\n", 26),
        "[compress]\nmode = \"full\"\nmode = \"full\"\n",
        "[compress]\nmin_bytes = -1\n",
        "[compress]\nkeep_patterns = [\"" + std::string(200, 'k') + "\"]\n",
    };
    for (int i = 0; i < 40; ++i) {
        std::string junk(static_cast<std::size_t>(rng() % 3000), '\0');
        for (char& ch : junk) ch = static_cast<char>(rng() % 256);
        docs.push_back("[compress]\nmode = \"full\"\n" + junk);
    }
    for (const std::string& doc : docs) {
        Project q;
        q.write(doc);
        q.trust();
        c = q.load();
        ASSERT_TRUE(c.project.state == ProjectState::invalid ||
                    c.project.state == ProjectState::applied)
            << describe_project_state(c.project);
        if (c.project.state == ProjectState::invalid) {
            EXPECT_EQ(c.mode, Mode::automatic);
            EXPECT_TRUE(c.keep_patterns.empty());
        }
    }
}

TEST(TrustTest, SearchStopsAtHomeAndAtTheFirstFile) {
    Project p;
    // Above $HOME: never consulted.
    test::write_file(p.tmp.path + "/.sutra.toml", k_full);
    EXPECT_EQ(p.load().project.state, ProjectState::none);
    EXPECT_EQ(find_project_file(p.cwd, p.home), "");
    // In $HOME itself: found.
    test::write_file(p.home + "/.sutra.toml", k_full);
    EXPECT_EQ(find_project_file(p.cwd, p.home), p.home + "/.sutra.toml");
    // The nearest one wins.
    p.write(k_full);
    EXPECT_EQ(find_project_file(p.cwd, p.home), p.root + "/.sutra.toml");
    // Outside $HOME the walk goes to the root: from the temp folder, the planted one is found.
    EXPECT_EQ(find_project_file(p.tmp.path, p.home), p.tmp.path + "/.sutra.toml");
}

TEST(TrustTest, UnsafeOrMalformedTrustFileTrustsNothing) {
    Project p;
    p.write(k_full);
    p.trust();
    const std::string trusts = trust_file_path(p.env);
    ::chmod(trusts.c_str(), 0620);
    Config c = p.load();
    EXPECT_EQ(c.project.state, ProjectState::refused);
    EXPECT_NE(c.project.reason.find("trust file"), std::string::npos);
    EXPECT_EQ(c.mode, Mode::automatic);
    ::chmod(trusts.c_str(), 0600);
    test::write_file(trusts, "not a hash line\n");
    c = p.load();
    EXPECT_EQ(c.project.state, ProjectState::refused);
    EXPECT_EQ(c.mode, Mode::automatic);
    // A symlinked trust file is refused too.
    fs::remove(trusts);
    test::write_file(p.tmp.path + "/elsewhere", "");
    fs::create_symlink(p.tmp.path + "/elsewhere", trusts);
    EXPECT_FALSE(read_trusts(trusts));
}

// The CLI: `sutra trust`, `--list`, `--revoke`, `sutra config`, and the one warning.
std::string
sutra(const Project& p, const std::string& args, int* status, const std::string& stdin_text = "") {
    std::string cmd = "cd '" + p.cwd + "' && env -u SUTRA_CONFIG -u SUTRA_MODE HOME='" + p.home +
                      "' XDG_CONFIG_HOME='" + p.home + "/.config' SUTRA_HOME='" + p.tmp.path +
                      "/store' SUTRA_STATS=0 " + SUTRA_BINARY + " " + args;
    if (!stdin_text.empty()) cmd = "printf '%s' '" + stdin_text + "' | (" + cmd + ")";
    return test::run_command(cmd + " 2>&1", status);
}

TEST(TrustCliTest, TrustListRevokeAndWarn) {
    Project p;
    p.write(k_full);
    int status = -1;
    std::string out = sutra(p, "compress", &status, "hello\n");
    EXPECT_EQ(status, 0);
    EXPECT_EQ(out, "sutra: warning: project file " + p.canonical() +
                       " not trusted: ignored (run `sutra trust` to apply it)\nhello\n");
    // exec warns once too, from the configuration it loads for the run.
    out = sutra(p, "exec -- echo hello", &status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(out, "sutra: warning: project file " + p.canonical() +
                       " not trusted: ignored (run `sutra trust` to apply it)\nhello\n");
    out = sutra(p, "config", &status);
    EXPECT_NE(out.find("compress.mode = \"auto\""), std::string::npos) << out;

    out = sutra(p, "trust", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(out.rfind("trusted " + p.canonical() + " (sha256:", 0), 0u) << out;
    out = sutra(p, "config", &status);
    EXPECT_NE(out.find("compress.mode = \"full\"  # " + p.canonical() + ":2"), std::string::npos)
        << out;
    EXPECT_NE(out.find("(trusted, applied)"), std::string::npos);
    EXPECT_EQ(sutra(p, "compress", &status, "hello\n"), "hello\n");

    out = sutra(p, "trust --list", &status);
    EXPECT_NE(out.find(p.canonical() + "  sha256:"), std::string::npos) << out;
    EXPECT_NE(out.find("(trusted)"), std::string::npos) << out;
    p.write(k_full + "\n");
    EXPECT_NE(sutra(p, "trust --list", &status).find("changed since trusted"), std::string::npos);
    EXPECT_NE(sutra(p, "compress", &status, "x\n").find("changed since it was trusted"),
              std::string::npos);

    out = sutra(p, "trust --revoke", &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(sutra(p, "trust --list", &status), "no trusted project files\n");
    sutra(p, "trust --revoke", &status);
    EXPECT_EQ(status, 1);

    // Refusals name the problem; nothing is recorded.
    p.write("[store]\ndir = \"/tmp/x\"\n");
    out = sutra(p, "trust", &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(out.find("store.dir may not be set by a project file"), std::string::npos) << out;
    p.write(k_full, 0666);
    out = sutra(p, "trust " + p.root, &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(out.find("writable by group or others"), std::string::npos) << out;
    EXPECT_EQ(sutra(p, "trust --list", &status), "no trusted project files\n");
}

} // namespace
} // namespace sutra::core
