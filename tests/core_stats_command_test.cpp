// Per-command savings (issue 13 item 3): the program name of a command line, and the by-command
// rows of `sutra stats`, which must never hold an argument, a path or output.
#include "core/compress.hpp"
#include "core/stats.hpp"
#include "core/stats_command.hpp"
#include "tests/test_util.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace sutra::core {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(CommandName, IsTheProgramBehindAssignmentsWrappersAndPaths) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"pytest -x tests/test_api.py", "pytest"},
        {"  cargo test --release", "cargo"},
        {"API_TOKEN=abc123 DEBUG=1 npm run build", "npm"},
        {"sudo -u ci /usr/bin/python3 -m pytest", "python3"},
        {"sudo -E make -j8", "make"},
        {"env -u HOME PATH=/x:/y FOO=bar tsc --noEmit", "tsc"},
        {"timeout -s KILL 30s git log --oneline", "git"},
        {"timeout 10 ./scripts/run-tests.sh --token=s3cret", "run-tests.sh"},
        {"nice -n 5 nohup time cmake --build build", "cmake"},
        {"stdbuf -o L go test ./...", "go"},
        {"cd /home/me/secret-project && make test", "make"},
        {"cd sub; pushd deeper && npx jest", "npx"},
        {"(cd build && ctest -V)", "ctest"},
        {"'/opt/my tools/gradle' build", "gradle"},
        {"make 2>&1 | tee build.log", "make"},
        {"FOO='a b' \"g++\" -o main main.cpp", "g++"},
        {"$CC -c x.c", "(other)"},
        {"`which python` x.py", "(other)"},
        {std::string(100, 'a') + " --flag", "(other)"},
        {"cd /tmp", "cd"},
        {"", ""},
        {"   ", ""},
        {"A=1", ""},
    };
    for (const auto& [line, want] : cases) EXPECT_EQ(command_name(line), want) << line;
}

TEST(CommandName, NeverReturnsMoreThanOnePlainWord) {
    // Property: whatever the line, the name is empty, "(other)" or one plain word of the line.
    const std::vector<std::string> lines = {"x=1 y=2",
                                            "sudo",
                                            "env",
                                            "timeout",
                                            "timeout 5",
                                            "sudo -u",
                                            "\\",
                                            "'unterminated",
                                            "\"a b\" c",
                                            "a\\ b c",
                                            ";;;",
                                            "&& make",
                                            "| grep",
                                            "echo $(cat /etc/passwd)",
                                            "if true; then make; fi",
                                            "! pytest",
                                            "{ make; }",
                                            "env -- -weird",
                                            "/"};
    for (const auto& line : lines) {
        const std::string name = command_name(line);
        EXPECT_TRUE(name.empty() || name == "(other)" ||
                    (plain_command_name(name) && line.find(name) != std::string::npos))
            << line << " -> " << name;
        EXPECT_EQ(name.find(' '), std::string::npos) << line;
    }
}

class StatsCommandTest : public ::testing::Test {
protected:
    void SetUp() override {
        char pattern[] = "/tmp/sutra-stats-command.XXXXXX";
        ASSERT_NE(::mkdtemp(pattern), nullptr);
        m_dir = pattern;
        m_config = test::test_config(m_dir);
        m_config.stats_enabled = true;
    }
    void TearDown() override { fs::remove_all(m_dir); }
    std::string log() const { return test::read_file(m_config.store_dir + "/stats.jsonl"); }

    std::string m_dir;
    Config m_config;
};

std::string test_log(std::string_view secret, std::size_t lines) {
    std::string out;
    for (std::size_t i = 0; i < lines; ++i)
        out += "tests/test_mod_" + std::to_string(i % 9) + ".py::test_case PASSED [" +
               std::string(secret) + "]\n";
    return out + "FAILED tests/test_mod_1.py::test_x - assert 1 == 2\n";
}

TEST_F(StatsCommandTest, CompressFeedsTheByCommandRowsWithProgramNamesOnly) {
    const std::vector<std::pair<std::string, int>> runs = {
        {"SECRET_TOKEN=hunter2 pytest -k login /home/me/private", 2},
        {"cargo test --features secret-feature", 1},
        {"sudo npm run deploy --password=swordfish", 1}};
    for (const auto& [command, times] : runs)
        for (int i = 0; i < times; ++i) {
            const std::string output = test_log("output-secret-" + std::to_string(i), 400);
            Request req;
            req.output = output;
            req.command = command;
            req.tool = "Bash";
            ASSERT_TRUE(compress(req, m_config).rewritten);
        }
    Request small;
    small.output = "tiny";
    small.command = "git status --porcelain";
    compress(small, m_config); // a pass-through counts as a call too

    const std::string text = log();
    for (const char* secret : {"hunter2", "SECRET_TOKEN", "login", "private", "secret-feature",
                               "swordfish", "deploy", "output-secret", "porcelain", "PASSED"})
        EXPECT_THAT(text, Not(HasSubstr(secret))) << secret;

    const auto report = nlohmann::json::parse(stats_report(m_config, true));
    ASSERT_TRUE(report["commands"].is_array());
    std::map<std::string, nlohmann::json> rows;
    for (const auto& row : report["commands"]) rows[row["command"].get<std::string>()] = row;
    ASSERT_EQ(rows.size(), 4u) << report["commands"].dump();
    EXPECT_EQ(rows["pytest"]["calls"], 2);
    EXPECT_EQ(rows["cargo"]["calls"], 1);
    EXPECT_EQ(rows["npm"]["calls"], 1);
    EXPECT_EQ(rows["git"]["calls"], 1);
    EXPECT_EQ(rows["git"]["bytes_in"], 4);
    EXPECT_EQ(rows["git"]["bytes_out"], 4);
    for (const auto& [name, row] : rows) {
        for (const char* key : {"calls", "bytes_in", "bytes_out", "tokens_in", "tokens_out"})
            EXPECT_TRUE(row[key].is_number_unsigned()) << name << " " << key;
        EXPECT_LE(row["bytes_out"].get<std::uint64_t>(), row["bytes_in"].get<std::uint64_t>());
    }
    EXPECT_GT(rows["pytest"]["bytes_in"].get<std::uint64_t>(),
              rows["pytest"]["bytes_out"].get<std::uint64_t>());
    // Largest input first.
    EXPECT_EQ(report["commands"][0]["command"], "pytest");

    const std::string table = stats_report(m_config, false);
    EXPECT_THAT(table, HasSubstr("by command"));
    EXPECT_THAT(table, HasSubstr("tokens in"));
    EXPECT_THAT(table, HasSubstr("\npytest "));
    EXPECT_THAT(table, HasSubstr("\ncargo "));
}

TEST_F(StatsCommandTest, ALoggedCommandThatIsNotAPlainNameIsShownAsOther) {
    fs::create_directories(m_config.store_dir);
    test::write_file(
        m_config.store_dir + "/stats.jsonl",
        R"({"event":"rewrite","tool":"Bash","command":"rm -rf /secret","bytes_in":10,"bytes_out":5})"
        "\n"
        R"({"event":"rewrite","tool":"Bash","command":"make","bytes_in":10,"bytes_out":5})"
        "\n");
    const auto report = nlohmann::json::parse(stats_report(m_config, true));
    ASSERT_EQ(report["commands"].size(), 2u);
    const std::string text = stats_report(m_config, false);
    EXPECT_THAT(text, Not(HasSubstr("secret")));
    EXPECT_THAT(text, HasSubstr("(other)"));
}

TEST_F(StatsCommandTest, RecordsWithoutACommandLeaveTheTableEmpty) {
    RewriteRecord r;
    r.tool = "Read";
    r.outcome = "rewritten";
    r.bytes_in = 100;
    r.bytes_out = 10;
    log_rewrite(m_config, r);
    EXPECT_THAT(log(), Not(HasSubstr("\"command\"")));
    const auto report = nlohmann::json::parse(stats_report(m_config, true));
    EXPECT_TRUE(report["commands"].empty());
    EXPECT_THAT(stats_report(m_config, false), HasSubstr("no record names a command yet"));
}

} // namespace
} // namespace sutra::core
