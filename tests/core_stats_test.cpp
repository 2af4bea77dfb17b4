#include "core/compress.hpp"
#include "core/stats.hpp"
#include "core/tokenizer/tokenizer.hpp"
#include "tests/test_util.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sutra::core {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<std::string> read_lines(const fs::path& path) {
    std::vector<std::string> lines;
    std::istringstream in(read_file(path));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

RewriteRecord record(std::string tool,
                     std::string shape,
                     std::uint64_t in,
                     std::uint64_t out,
                     bool rewritten = true) {
    RewriteRecord r;
    r.host = "claude";
    r.tool = std::move(tool);
    r.shape = std::move(shape);
    r.outcome = rewritten ? "rewritten" : "passthrough:small";
    r.bytes_in = in;
    r.bytes_out = out;
    r.lines_in = 10;
    r.lines_out = 2;
    r.rules = {"repeated", "budget"};
    r.micros = 123;
    return r;
}

// A fresh directory per test, used as the store dir so the real HOME is never touched.
class StatsTest : public ::testing::Test {
protected:
    void SetUp() override {
        char dir_template[] = "/tmp/sutra-stats-test-XXXXXX";
        ASSERT_NE(::mkdtemp(dir_template), nullptr);
        m_root = dir_template;
        m_config.store_dir = (m_root / "store").string();
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_root, ec);
    }
    fs::path log() const { return fs::path(m_config.store_dir) / "stats.jsonl"; }

    fs::path m_root;
    Config m_config;
};

TEST_F(StatsTest, RewriteAndRestoreRecordsAreJsonLines) {
    log_rewrite(m_config, record("Bash", "build-log", 1000, 100));
    log_restore(m_config, "ok");

    // The missing store directory was created private.
    struct stat dir_st {};
    ASSERT_EQ(::stat(m_config.store_dir.c_str(), &dir_st), 0);
    EXPECT_EQ(dir_st.st_mode & 0777, 0700u);

    struct stat st {};
    ASSERT_EQ(::lstat(log().c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0600u);

    std::string text = read_file(log());
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    auto lines = read_lines(log());
    ASSERT_EQ(lines.size(), 2u);

    auto rewrite = nlohmann::json::parse(lines[0]);
    EXPECT_EQ(rewrite["event"], "rewrite");
    EXPECT_EQ(rewrite["host"], "claude");
    EXPECT_EQ(rewrite["tool"], "Bash");
    EXPECT_EQ(rewrite["shape"], "build-log");
    EXPECT_EQ(rewrite["outcome"], "rewritten");
    EXPECT_EQ(rewrite["bytes_in"], 1000);
    EXPECT_EQ(rewrite["bytes_out"], 100);
    EXPECT_EQ(rewrite["lines_in"], 10);
    EXPECT_EQ(rewrite["lines_out"], 2);
    EXPECT_EQ(rewrite["rules"], nlohmann::json::array({"repeated", "budget"}));
    EXPECT_EQ(rewrite["us"], 123);
    EXPECT_TRUE(rewrite["day"].is_string()); // the UTC day, for --daily and --weekly
    // Exactly the documented fields: nothing that could carry tool output.
    EXPECT_EQ(rewrite.size(), 12u);

    auto restore = nlohmann::json::parse(lines[1]);
    EXPECT_EQ(restore, (nlohmann::json{{"event", "restore"}, {"outcome", "ok"}}));
}

TEST_F(StatsTest, InvalidUtf8IsReplacedNotThrown) {
    log_rewrite(m_config, record("bad\xff\xfe", "text", 10, 5));
    auto lines = read_lines(log());
    ASSERT_EQ(lines.size(), 1u);
    auto parsed = nlohmann::json::parse(lines[0], nullptr, false);
    ASSERT_FALSE(parsed.is_discarded());
    EXPECT_EQ(parsed["shape"], "text");
}

TEST_F(StatsTest, SymlinkAtLogIsNotFollowed) {
    fs::create_directories(m_config.store_dir);
    fs::path target = m_root / "target.txt";
    {
        std::ofstream out(target);
        out << "precious\n";
    }
    fs::create_symlink(target, log());

    log_rewrite(m_config, record("Bash", "text", 100, 10));
    log_restore(m_config, "ok");

    EXPECT_EQ(read_file(target), "precious\n");
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(log())));
    // A symlink is not rotated away either.
    EXPECT_FALSE(fs::exists(fs::symlink_status(log().string() + ".1")));
}

TEST_F(StatsTest, RotatesPastMaxBytes) {
    m_config.stats_max_bytes = 300;
    log_rewrite(m_config, record("Bash", "text", 100, 10));
    std::uint64_t one = fs::file_size(log());
    ASSERT_LT(one, 300u);
    // Keep writing until the file has passed the limit at least once.
    int writes = 1;
    while (!fs::exists(log().string() + ".1") && writes < 100) {
        log_rewrite(m_config, record("Bash", "text", 100, 10));
        ++writes;
    }
    ASSERT_TRUE(fs::exists(log().string() + ".1"));
    // Rotation happens only once the size is reached, before the append that would follow.
    EXPECT_GE(fs::file_size(log().string() + ".1"), 300u);
    EXPECT_LT(fs::file_size(log().string() + ".1"), 300u + one);
    EXPECT_EQ(read_lines(log()).size(), 1u);

    // Both files are counted by the report.
    auto report = nlohmann::json::parse(stats_report(m_config, true));
    EXPECT_EQ(report["total"]["calls"], writes);

    // A second rotation replaces the old .1.
    std::uint64_t first_rotated_lines = read_lines(log().string() + ".1").size();
    for (int i = 0; i < writes; ++i) log_rewrite(m_config, record("Bash", "text", 100, 10));
    EXPECT_EQ(read_lines(log().string() + ".1").size(), first_rotated_lines);
}

TEST_F(StatsTest, ReportAggregatesByToolAndShape) {
    log_rewrite(m_config, record("Bash", "build-log", 1000, 100));
    log_rewrite(m_config, record("Bash", "text", 500, 500, false));
    log_rewrite(m_config, record("Read", "build-log", 2000, 1000));
    log_rewrite(m_config, record("", "json", 50, 50, false));
    log_restore(m_config, "ok");
    log_restore(m_config, "ok");
    log_restore(m_config, "expired");

    // Garbage and foreign lines are skipped, not fatal.
    {
        std::ofstream out(log(), std::ios::app);
        out << "not json\n{\"event\":\"other\"}\n[1,2]\n\n{\"event\":\"rewrite\",\"tool\":";
    }

    auto report = nlohmann::json::parse(stats_report(m_config, true));
    EXPECT_EQ(report["log"], log().string());

    auto bash = report["tools"]["Bash"];
    EXPECT_EQ(bash["calls"], 2);
    EXPECT_EQ(bash["rewritten"], 1);
    EXPECT_EQ(bash["bytes_in"], 1500);
    EXPECT_EQ(bash["bytes_out"], 600);
    EXPECT_EQ(bash["saved_bytes"], 900);

    auto read = report["tools"]["Read"];
    EXPECT_EQ(read["calls"], 1);
    EXPECT_EQ(read["saved_bytes"], 1000);
    EXPECT_EQ(report["tools"].size(), 3u); // Bash, Read and the unnamed tool

    auto build = report["shapes"]["build-log"];
    EXPECT_EQ(build["calls"], 2);
    EXPECT_EQ(build["rewritten"], 2);
    EXPECT_EQ(build["bytes_in"], 3000);
    EXPECT_EQ(build["bytes_out"], 1100);
    EXPECT_EQ(build["saved_bytes"], 1900);
    EXPECT_EQ(report["shapes"]["text"]["saved_bytes"], 0);
    EXPECT_EQ(report["shapes"]["json"]["calls"], 1);

    auto total = report["total"];
    EXPECT_EQ(total["calls"], 4);
    EXPECT_EQ(total["rewritten"], 2);
    EXPECT_EQ(total["bytes_in"], 3550);
    EXPECT_EQ(total["bytes_out"], 1650);
    EXPECT_EQ(total["saved_bytes"], 1900);

    EXPECT_EQ(report["restores"], (nlohmann::json{{"expired", 1}, {"ok", 2}}));

    // Keys come out sorted, so the output is stable.
    std::string dumped = stats_report(m_config, true);
    EXPECT_LT(dumped.find("\"Bash\""), dumped.find("\"Read\""));
    EXPECT_EQ(dumped, stats_report(m_config, true));
}

TEST_F(StatsTest, TextReportHasTablesBarsAndRestores) {
    log_rewrite(m_config, record("Bash", "build-log", 1000, 500)); // 50% saved
    log_rewrite(m_config, record("Grep", "text", 1000, 0));        // 100% saved
    log_restore(m_config, "not_found");
    std::string text = stats_report(m_config, false);

    EXPECT_THAT(text, HasSubstr("tool"));
    EXPECT_THAT(text, HasSubstr("shape"));
    EXPECT_THAT(text, HasSubstr("total"));
    EXPECT_THAT(text, HasSubstr("restores: not_found 1"));
    EXPECT_THAT(text, HasSubstr(std::string(10, '#') + std::string(10, '.')));
    EXPECT_THAT(text, HasSubstr(std::string(20, '#')));
    EXPECT_THAT(text, HasSubstr("50.0%"));

    // Columns are aligned: every table row has the bar starting at the same column.
    std::istringstream in(text);
    std::vector<std::size_t> bar_columns;
    for (std::string line; std::getline(in, line);) {
        auto pct = line.find("% ");
        bool has_bar = !line.empty() && (line.back() == '#' || line.back() == '.');
        if (pct != std::string::npos && has_bar) bar_columns.push_back(pct);
    }
    ASSERT_EQ(bar_columns.size(), 6u); // two rows + total, in two tables
    EXPECT_EQ(bar_columns[0], bar_columns[1]);
    EXPECT_EQ(bar_columns[0], bar_columns[2]);
}

TEST_F(StatsTest, TokenTotalsComeOnlyFromCountedRecords) {
    RewriteRecord a = record("Bash", "build-log", 1000, 100);
    a.tokens_in = 250;
    a.tokens_out = 25;
    RewriteRecord b = record("Bash", "text", 400, 40);
    b.tokens_in = 50;
    b.tokens_out = 5;
    log_rewrite(m_config, a);
    log_rewrite(m_config, b);
    log_rewrite(m_config, record("Grep", "text", 1000, 10)); // rewritten, not counted
    log_rewrite(m_config, record("Grep", "text", 10, 10, false));

    std::string text = stats_report(m_config, false);
    EXPECT_THAT(text, HasSubstr("tokens (o200k_base, exact): 300 in, 30 out, 270 saved (90.0%) "
                                "over 2 counted rewrites; 1 rewrite not counted"));
    auto report = nlohmann::json::parse(stats_report(m_config, true));
    EXPECT_EQ(report["encoding"], "o200k_base");
    EXPECT_EQ(report["total"]["saved_tokens"], 270);
    EXPECT_EQ(report["total"]["token_counted"], 2);
    EXPECT_EQ(report["tools"]["Bash"]["tokens_in"], 300);
    EXPECT_EQ(report["tools"]["Grep"]["saved_tokens"], 0);
}

// Through compress(): each rewrite's record carries the exact o200k counts of the original and
// of the view; pass-throughs and the switched-off setting carry none.
TEST_F(StatsTest, CompressRecordsExactTokenCounts) {
    if (!tokenizer::has_rank_data()) GTEST_SKIP() << "this build has no o200k rank data";
    std::vector<std::pair<std::string, Response>> runs;
    for (unsigned seed = 1; seed <= 12; ++seed) {
        std::mt19937 rng(seed);
        std::string text = test::random_log(rng, 300 + seed * 40);
        Request req;
        req.output = text;
        req.host = "test";
        runs.emplace_back(text, compress(req, m_config));
    }
    std::vector<std::string> lines = read_lines(log());
    ASSERT_EQ(lines.size(), runs.size());
    std::size_t counted = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto j = nlohmann::json::parse(lines[i]);
        const auto& [original, response] = runs[i];
        if (!response.rewritten) {
            EXPECT_FALSE(j.contains("tokens_in")) << lines[i];
            continue;
        }
        ++counted;
        EXPECT_EQ(j["encoding"], "o200k_base");
        EXPECT_EQ(j["tokens_in"].get<std::size_t>(), *tokenizer::count_tokens(original));
        EXPECT_EQ(j["tokens_out"].get<std::size_t>(), *tokenizer::count_tokens(response.view));
        EXPECT_LT(j["tokens_out"].get<std::size_t>(), j["tokens_in"].get<std::size_t>());
    }
    EXPECT_GT(counted, 6u);

    m_config.stats_count_tokens = false;
    Request req;
    std::mt19937 rng(99);
    std::string text = test::random_log(rng, 800);
    req.output = text;
    ASSERT_TRUE(compress(req, m_config).rewritten);
    auto last = nlohmann::json::parse(read_lines(log()).back());
    EXPECT_FALSE(last.contains("tokens_in"));
}

// The hook counts after its answer (StatsLater, log_counted): over many outputs, with and without
// the host's cut, the record it logs is the one compress alone logs, time aside.
TEST_F(StatsTest, ARecordCountedAfterTheAnswerIsTheOneCompressLogs) {
    if (!tokenizer::has_rank_data()) GTEST_SKIP() << "this build has no o200k rank data";
    auto without_time = [](const std::string& line) {
        auto j = nlohmann::json::parse(line);
        j.erase("us");
        return j;
    };
    std::size_t due = 0;
    for (unsigned seed = 1; seed <= 16; ++seed) {
        std::mt19937 rng(seed);
        const std::string text = test::random_log(rng, 20 + seed * 90);
        Request req;
        req.output = text;
        req.host = "claude";
        req.session = "S" + std::to_string(seed);
        if (seed % 2 == 0) req.host_cut = *parse_host_cut("30000:2048:0");
        SCOPED_TRACE(seed);
        const Response now = compress(req, m_config);
        const auto logged = read_lines(log());
        StatsLater later;
        const Response answered = compress(req, m_config, later);
        EXPECT_EQ(answered.view, now.view);
        // Only a record to be counted waits; any other is logged at once, as by compress.
        EXPECT_EQ(later.due, now.rewritten);
        EXPECT_EQ(read_lines(log()).size(), logged.size() + (later.due ? 0 : 1));
        if (later.due) {
            ++due;
            log_counted(later, text, answered.view, m_config);
            EXPECT_TRUE(without_time(read_lines(log()).back()).contains("tokens_in"));
        }
        EXPECT_EQ(without_time(read_lines(log()).back()), without_time(logged.back()));
    }
    EXPECT_GT(due, 8u);
}

// A report made while a record is still being counted (a hook's detached child holds the
// pending lock) waits for it, so a call that has returned is always in the report.
TEST_F(StatsTest, AReportWaitsForARecordStillBeingCounted) {
    log_rewrite(m_config, record("Bash", "build-log", 1000, 100));
    UniqueFd hold = hold_stats_pending(m_config);
    ASSERT_TRUE(hold.ok());
    std::thread counter([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        log_rewrite(m_config, record("Grep", "listing", 500, 50));
        hold.reset();
    });
    StatsQuery q;
    q.format = StatsQuery::Format::json;
    const auto j = nlohmann::json::parse(stats_report(m_config, q));
    counter.join();
    EXPECT_EQ(j["total"]["calls"], 2) << j.dump();
    EXPECT_TRUE(j["tools"].contains("Grep")) << j.dump();
    // Holds are shared: two counters at once, and the report waits for both.
    UniqueFd first = hold_stats_pending(m_config), second = hold_stats_pending(m_config);
    EXPECT_TRUE(first.ok() && second.ok());
}

// The pending lock is a file beside the log and is checked as the log is: a symlink or a FIFO
// at its name is never locked, followed or waited on (the hook then counts before it answers).
TEST_F(StatsTest, APendingLockIsNeverTakenThroughALinkOrAFifo) {
    log_rewrite(m_config, record("Bash", "build-log", 1000, 100));
    const fs::path pending = fs::path(m_config.store_dir) / "stats.pending";
    const fs::path victim = m_root / "victim";
    std::ofstream(victim) << "precious";
    fs::create_symlink(victim, pending);
    EXPECT_FALSE(hold_stats_pending(m_config).ok());
    EXPECT_THAT(stats_report(m_config, false), HasSubstr("Bash"));
    EXPECT_EQ(read_file(victim), "precious");
    fs::remove(pending);
    ASSERT_EQ(::mkfifo(pending.c_str(), 0600), 0);
    EXPECT_FALSE(hold_stats_pending(m_config).ok());
    EXPECT_THAT(stats_report(m_config, false), HasSubstr("Bash"));
    fs::remove(pending);
    UniqueFd hold = hold_stats_pending(m_config);
    ASSERT_TRUE(hold.ok());
    struct stat st {};
    ASSERT_EQ(::lstat(pending.c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// The host's own cut (core/host_cut.hpp) over many sizes: the shown text is the head and the tail
// of the window, its size is host_shown_bytes, an output within the cut is shown whole.
TEST(HostCut, ShownTextAndBytesAgreeOverManySizes) {
    std::mt19937 rng(7);
    const std::vector<std::string> specs = {"10000:5000:5000:30000", "30000:2048:0",
                                            "51200:0:51200", "100:60:60", "0:0:0"};
    for (const std::string& spec : specs) {
        const auto cut = parse_host_cut(spec);
        ASSERT_TRUE(cut) << spec;
        for (int k = 0; k < 200; ++k) {
            const std::size_t size = std::uniform_int_distribution<std::size_t>(0, 70000)(rng);
            std::string text(size, 'x');
            for (char& c : text) c = static_cast<char>('a' + rng() % 26);
            const std::string shown = host_shown_text(*cut, text);
            SCOPED_TRACE(spec + " at " + std::to_string(size));
            EXPECT_EQ(shown.size(), host_shown_bytes(*cut, size));
            const std::size_t window =
                cut->window ? std::min<std::size_t>(size, cut->window) : size;
            if (window <= cut->over) {
                EXPECT_EQ(shown, text.substr(0, window));
                continue;
            }
            const std::size_t head = std::min<std::size_t>(cut->head, window);
            EXPECT_EQ(shown.substr(0, head), text.substr(0, head));
            EXPECT_EQ(shown.substr(head),
                      text.substr(window - (shown.size() - head), shown.size() - head));
        }
    }
    EXPECT_EQ(host_shown_bytes(HostCut{}, 12345), 12345u); // unknown: all of it
    for (const char* bad : {"", "1", "1:2", "a:b:c", "1:2:3:4:5", "-1:2:3", "1::3"})
        EXPECT_FALSE(parse_host_cut(bad)) << bad;
}

// Savings against what the host would have shown: a view larger than the host's 2 KB preview
// saves less than nothing against it, however much it saves against the raw output; a record
// without a cut counts the raw output; the report says both.
TEST_F(StatsTest, SavingsAreAlsoCountedAgainstTheHostsOwnCut) {
    std::mt19937 rng(3);
    const std::string text = test::random_log(rng, 3000);
    Request req;
    req.output = text;
    req.host = "claude";
    req.session = "S";
    req.host_cut = *parse_host_cut("30000:2048:0");
    const Response r = compress(req, m_config);
    ASSERT_TRUE(r.rewritten);
    ASSERT_GT(text.size(), 30000u);
    ASSERT_GT(r.view.size(), 2048u);
    auto rec = nlohmann::json::parse(read_lines(log()).back());
    EXPECT_EQ(rec["host_bytes"], 2048);
    if (tokenizer::has_rank_data()) {
        EXPECT_EQ(rec["host_tokens"].get<std::size_t>(),
                  *tokenizer::count_tokens(std::string_view(text).substr(0, 2048)));
    }
    // Within the host's cut the host shows it whole: its figure is the original's own.
    std::mt19937 small_rng(5);
    const std::string small = test::random_log(small_rng, 400);
    ASSERT_LT(small.size(), 30000u);
    req.output = small;
    req.session = "U";
    ASSERT_TRUE(compress(req, m_config).rewritten);
    rec = nlohmann::json::parse(read_lines(log()).back());
    EXPECT_EQ(rec["host_bytes"], rec["bytes_in"]);
    if (rec.contains("tokens_in")) {
        EXPECT_EQ(rec["host_tokens"], rec["tokens_in"]);
    }
    req.output = text;
    req.host_cut = {};
    req.session = "T";
    ASSERT_TRUE(compress(req, m_config).rewritten);
    EXPECT_FALSE(nlohmann::json::parse(read_lines(log()).back()).contains("host_bytes"));

    StatsQuery q;
    q.format = StatsQuery::Format::json;
    q.session = "S";
    auto j = nlohmann::json::parse(stats_report(m_config, q))["total"];
    EXPECT_EQ(j["host_cut_records"], 1);
    EXPECT_EQ(j["host_bytes"], 2048);
    EXPECT_EQ(j["saved_bytes_vs_host"].get<std::int64_t>(),
              2048 - static_cast<std::int64_t>(r.view.size()));
    EXPECT_EQ(j["saved_bytes"], text.size() - r.view.size());
    q.session = "T";
    j = nlohmann::json::parse(stats_report(m_config, q))["total"];
    EXPECT_EQ(j["host_cut_records"], 0);
    EXPECT_EQ(j["host_bytes"], text.size());
    EXPECT_EQ(j["saved_bytes_vs_host"], j["saved_bytes"]);
    q.session.clear();
    q.format = StatsQuery::Format::text;
    const std::string report = stats_report(m_config, q);
    EXPECT_NE(report.find("against what the hosts would have shown without sutra (2 of 3 calls "
                          "named the host's own cut"),
              std::string::npos)
        << report;
    if (tokenizer::has_rank_data()) {
        EXPECT_NE(statusline_text(m_config, "S").find(" vs the host's own cut)"), std::string::npos)
            << statusline_text(m_config, "S");
    }
}

TEST_F(StatsTest, EmptyReportSaysSo) {
    EXPECT_THAT(stats_report(m_config, false),
                HasSubstr("no records yet (" + log().string() + ")"));
    auto report = nlohmann::json::parse(stats_report(m_config, true));
    EXPECT_EQ(report["total"]["calls"], 0);
    EXPECT_TRUE(report["tools"].empty());
    EXPECT_TRUE(report["restores"].empty());
}

TEST_F(StatsTest, DisabledWritesNothing) {
    m_config.stats_enabled = false;
    log_rewrite(m_config, record("Bash", "text", 100, 10));
    log_restore(m_config, "ok");
    EXPECT_FALSE(fs::exists(m_config.store_dir));
    EXPECT_FALSE(fs::exists(log()));
}

TEST_F(StatsTest, UnwritableDirectoryIsIgnored) {
    // The store dir is a regular file: logging fails quietly and touches nothing (the functions
    // are noexcept, so what they did is the whole test).
    const fs::path store = m_root / "store";
    ASSERT_EQ(fs::path(m_config.store_dir), store);
    std::ofstream(store) << "x";
    log_rewrite(m_config, record("Bash", "text", 100, 10));
    log_restore(m_config, "ok");
    EXPECT_TRUE(fs::is_regular_file(store));
    EXPECT_EQ(read_file(store), "x");
    EXPECT_EQ(std::distance(fs::directory_iterator(m_root), fs::directory_iterator()), 1);
    EXPECT_THAT(stats_report(m_config, false), HasSubstr("no records yet"));
    // The failure is not sticky: once the folder can be made, the next records are written.
    fs::remove(store);
    log_rewrite(m_config, record("Bash", "text", 100, 10));
    log_restore(m_config, "ok");
    EXPECT_EQ(read_lines(log()).size(), 2u);
}

TEST_F(StatsTest, SessionsDaysAndWeeksAreReportedApart) {
    // Records as the log holds them: two of session A on two days of one week, one of B on a
    // day of the next week, one without a session and one written before days were logged.
    fs::create_directories(m_config.store_dir);
    ::chmod(m_config.store_dir.c_str(), 0700);
    std::ofstream(log(), std::ios::binary)
        << R"({"event":"rewrite","tool":"Bash","shape":"text","outcome":"rewritten","bytes_in":1000,"bytes_out":100,"session":"A","day":"2026-11-30"})"
        << "\n"
        << R"({"event":"rewrite","tool":"Bash","shape":"text","outcome":"rewritten","bytes_in":500,"bytes_out":100,"session":"A","day":"2026-12-06"})"
        << "\n"
        << R"({"event":"rewrite","tool":"Bash","shape":"text","outcome":"rewritten","bytes_in":300,"bytes_out":100,"session":"B","day":"2026-12-07"})"
        << "\n"
        << R"({"event":"rewrite","tool":"Grep","shape":"text","outcome":"rewritten","bytes_in":200,"bytes_out":100,"day":"2026-12-07"})"
        << "\n"
        << R"({"event":"rewrite","tool":"Grep","shape":"text","outcome":"rewritten","bytes_in":100,"bytes_out":100})"
        << "\n";
    ::chmod(log().c_str(), 0600);
    StatsQuery q;
    q.format = StatsQuery::Format::json;
    q.session = "A";
    auto j = nlohmann::json::parse(stats_report(m_config, q));
    EXPECT_EQ(j["total"]["calls"], 2);
    EXPECT_EQ(j["total"]["bytes_in"], 1500);
    EXPECT_EQ(j["session"], "A");
    q.session = "nobody";
    EXPECT_EQ(nlohmann::json::parse(stats_report(m_config, q))["total"]["calls"], 0);

    q.session.clear();
    q.period = StatsQuery::Period::day;
    j = nlohmann::json::parse(stats_report(m_config, q));
    ASSERT_EQ(j["periods"].size(), 4u) << j["periods"].dump();
    EXPECT_EQ(j["periods"][0]["day"], "(undated)");
    EXPECT_EQ(j["periods"][3]["day"], "2026-12-07");
    EXPECT_EQ(j["periods"][3]["calls"], 2);
    q.period = StatsQuery::Period::week; // 2026-11-30 is a Monday: W49 runs to 2026-12-06
    j = nlohmann::json::parse(stats_report(m_config, q));
    ASSERT_EQ(j["periods"].size(), 3u) << j["periods"].dump();
    EXPECT_EQ(j["periods"][1]["week"], "2026-W49");
    EXPECT_EQ(j["periods"][1]["calls"], 2);
    EXPECT_EQ(j["periods"][2]["week"], "2026-W50");
    q.format = StatsQuery::Format::csv;
    const std::string csv = stats_report(m_config, q);
    EXPECT_EQ(
        csv.substr(0, csv.find('\n')),
        "week,calls,rewritten,bytes_in,bytes_out,saved_bytes,tokens_in,tokens_out,saved_tokens,"
        "host_bytes,saved_bytes_vs_host,host_tokens,saved_tokens_vs_host");
    // No record names the host's cut: the raw output is the baseline, so both figures agree.
    EXPECT_NE(csv.find("\n\"2026-W49\",2,2,1500,200,1300,0,0,0,1500,1300,0,0\n"), std::string::npos)
        << csv;
    EXPECT_NE(csv.find("\n\"total\",5,5,2100,500,1600,0,0,0,2100,1600,0,0\n"), std::string::npos)
        << csv;

    EXPECT_EQ(statusline_text(m_config, "B"), "sutra: 200 B saved (67%) in 1 call");
    EXPECT_EQ(statusline_text(m_config, "C"), "sutra: 0 tokens saved");
    EXPECT_EQ(statusline_text(m_config, "bad id"), "sutra: no session");
}

TEST_F(StatsTest, ARecordKeepsAValidSessionAndToday) {
    RewriteRecord r = record("Bash", "text", 100, 10);
    r.session = "63c7aa-01";
    log_rewrite(m_config, r);
    r.session = "bad id\nwith a newline";
    log_rewrite(m_config, r);
    const auto lines = read_lines(log());
    ASSERT_EQ(lines.size(), 2u);
    const auto a = nlohmann::json::parse(lines[0]), b = nlohmann::json::parse(lines[1]);
    EXPECT_EQ(a["session"], "63c7aa-01");
    EXPECT_FALSE(b.contains("session"));
    const std::string day = a["day"];
    EXPECT_EQ(day.size(), 10u);
    EXPECT_EQ(day[4], '-');
    EXPECT_EQ(day[7], '-');
}

} // namespace
} // namespace sutra::core
