#include "core/config.hpp"
#include "core/restore.hpp"
#include "core/store/store.hpp"
#include "core/store/store_options.hpp"
#include "core/util/utf8.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using sutra::core::k_restore_hard_cap;
using sutra::core::k_untrusted_note;
using sutra::core::restore;
using sutra::core::restore_note;
using sutra::core::RestoreError;
using sutra::core::RestoreMode;
using sutra::core::RestoreQuery;
using sutra::core::RestoreResult;
using sutra::core::Store;
using sutra::core::StoreOptions;
using Code = RestoreError::Code;

class RestoreTest : public ::testing::Test {
protected:
    void SetUp() override {
        char pattern[] = "/tmp/sutra-restore-test.XXXXXX";
        const char* made = ::mkdtemp(pattern);
        ASSERT_NE(made, nullptr);
        m_dir = made;
        StoreOptions o;
        o.dir = m_dir + "/store";
        o.fsync = false;
        o.ttl_seconds = 1000;
        o.clock = [t = m_now] { return *t; };
        auto s = Store::open(o);
        ASSERT_TRUE(s) << s.error().message;
        m_store = std::make_unique<Store>(*s);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    std::string put(const std::string& content) {
        auto id = m_store->put(content);
        EXPECT_TRUE(id) << id.error().message;
        return id ? *id : std::string();
    }

    RestoreQuery query(const std::string& id,
                       RestoreMode mode,
                       std::uint64_t start = 0,
                       std::uint64_t end = 0,
                       std::uint64_t max_bytes = 8192) const {
        RestoreQuery q;
        q.id = id;
        q.mode = mode;
        q.start = start;
        q.end = end;
        q.max_bytes = max_bytes;
        return q;
    }

    /// Runs the query, then follows `next` as bytes queries; returns the pages concatenated.
    std::string page_through(RestoreQuery q, std::uint64_t expected_begin) {
        std::string out;
        std::uint64_t expect_at = expected_begin;
        for (int guard = 0; guard < 1'000'000; ++guard) {
            auto r = restore(*m_store, q);
            EXPECT_TRUE(r) << r.error().message;
            if (!r) return out;
            EXPECT_EQ(r->begin, expect_at);
            EXPECT_EQ(r->end - r->begin, r->text.size());
            EXPECT_LE(r->text.size(), std::max<std::uint64_t>(q.max_bytes, 1));
            if (q.mode == RestoreMode::lines && r->next && !r->clipped) {
                EXPECT_TRUE(r->text.ends_with('\n')) << "a lines page should end at a line end";
            }
            out += r->text;
            expect_at = r->end;
            if (!r->next) break;
            EXPECT_EQ(r->next->first, r->end);
            EXPECT_GT(r->text.size(), 0u) << "a page must make progress";
            q.mode = RestoreMode::bytes;
            q.start = r->next->first;
            q.end = r->next->second;
        }
        return out;
    }

    std::string m_dir;
    std::shared_ptr<std::int64_t> m_now = std::make_shared<std::int64_t>(1'700'000'000);
    std::unique_ptr<Store> m_store;
};

std::string random_original(std::mt19937_64& rng) {
    static const std::string alphabet = "abc xyz019-_:\t\r\xc3\xa9\xe2\x82\xac"; // incl. UTF-8
    std::string s;
    const int lines = static_cast<int>(rng() % 40);
    for (int i = 0; i < lines; ++i) {
        const auto kind = rng() % 10;
        const std::size_t len = kind == 0 ? 0 : kind == 1 ? 100 + rng() % 700 : rng() % 60;
        for (std::size_t j = 0; j < len; ++j) s += alphabet[rng() % alphabet.size()];
        if (i + 1 < lines || rng() % 2) s += '\n';
    }
    return s;
}

/// Lines as the restore model defines them: split after each '\n'; a last partial line counts.
std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at < s.size()) {
        const auto nl = s.find('\n', at);
        const auto end = nl == std::string::npos ? s.size() : nl + 1;
        lines.push_back(s.substr(at, end - at));
        at = end;
    }
    return lines;
}

} // namespace

TEST_F(RestoreTest, PagingReproducesRequestedRangesExactly) {
    std::mt19937_64 rng(7);
    for (int round = 0; round < 30; ++round) {
        const std::string original = random_original(rng);
        const std::string id = put(original);
        const auto lines = split_lines(original);
        for (const std::uint64_t max : {7ull, 64ull, 1000ull}) {
            // Bytes mode, random ranges (end may run past the size: it is clamped).
            for (int k = 0; k < 4; ++k) {
                const std::uint64_t a = original.empty() ? 0 : rng() % (original.size() + 1);
                const std::uint64_t b = a + rng() % (original.size() + 10);
                const std::string got = page_through(query(id, RestoreMode::bytes, a, b, max), a);
                ASSERT_EQ(got, original.substr(a, b - a))
                    << "bytes " << a << "-" << b << " max " << max;
            }
            // Full.
            ASSERT_EQ(page_through(query(id, RestoreMode::full, 0, 0, max), 0), original);
            // Lines mode.
            if (lines.empty()) continue;
            for (int k = 0; k < 4; ++k) {
                const std::uint64_t a = 1 + rng() % lines.size();
                const std::uint64_t b = a + rng() % (lines.size() - a + 1);
                std::string expected;
                std::uint64_t begin = 0;
                for (std::uint64_t i = 0; i < a - 1; ++i) begin += lines[i].size();
                for (std::uint64_t i = a; i <= b; ++i) expected += lines[i - 1];
                const std::string got =
                    page_through(query(id, RestoreMode::lines, a, b, max), begin);
                ASSERT_EQ(got, expected) << "lines " << a << "-" << b << " max " << max;
            }
        }
    }
}

TEST_F(RestoreTest, LinesReturnsExactlyThoseLines) {
    const std::string id = put("one\ntwo\n\nfour\nfive");
    auto r = restore(*m_store, query(id, RestoreMode::lines, 2, 4));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->text, "two\n\nfour\n");
    EXPECT_EQ(r->begin, 4u);
    EXPECT_EQ(r->end, 14u);
    EXPECT_EQ(r->total_lines, 5u);
    EXPECT_EQ(r->total_bytes, 18u);
    EXPECT_FALSE(r->next);

    r = restore(*m_store, query(id, RestoreMode::lines, 5, 5));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "five"); // a last line without '\n' still counts
    r = restore(*m_store, query(id, RestoreMode::lines, 3, 3));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "\n");
    r = restore(*m_store, query(id, RestoreMode::lines, 4, 99));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "four\nfive");
}

TEST_F(RestoreTest, LinesPagesEndAtLineEndsAndLongLinesAreClipped) {
    const std::string id = put("aaaa\nbbbb\n" + std::string(30, 'x') + "\nend\n");
    auto r = restore(*m_store, query(id, RestoreMode::lines, 1, 4, 12));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "aaaa\nbbbb\n");
    EXPECT_FALSE(r->clipped);
    ASSERT_TRUE(r->next);
    EXPECT_EQ(r->next->first, 10u);
    EXPECT_EQ(r->next->second, 45u);

    r = restore(*m_store, query(id, RestoreMode::lines, 3, 4, 12));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, std::string(12, 'x'));
    EXPECT_TRUE(r->clipped);
    ASSERT_TRUE(r->next);
    EXPECT_EQ(r->next->first, 22u);
}

TEST_F(RestoreTest, BoundIsClampedToOneAndTheHardCap) {
    const std::string big(200000, 'z');
    const std::string id = put(big);
    auto r = restore(*m_store, query(id, RestoreMode::bytes, 0, big.size(), 0));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "z");
    r = restore(*m_store, query(id, RestoreMode::bytes, 0, big.size(), 1ull << 40));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text.size(), k_restore_hard_cap);
    ASSERT_TRUE(r->next);
    EXPECT_EQ(r->next->first, k_restore_hard_cap);
    EXPECT_EQ(r->next->second, big.size());
}

TEST_F(RestoreTest, FullReturnsASmallOriginalWhole) {
    const std::string original = "line 1\nline 2\n";
    const std::string id = put(original);
    auto r = restore(*m_store, query(id, RestoreMode::full));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, original);
    EXPECT_FALSE(r->next);
    EXPECT_EQ(r->total_lines, 2u);

    const std::string empty_id = put("");
    r = restore(*m_store, query(empty_id, RestoreMode::full));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "");
    EXPECT_EQ(r->total_lines, 0u);
}

TEST_F(RestoreTest, FullOfALargeOriginalIsTheFirstPage) {
    std::string original;
    for (int i = 1; i <= 2000; ++i) original += "row " + std::to_string(i) + "\n";
    const std::string id = put(original);
    auto r = restore(*m_store, query(id, RestoreMode::full, 0, 0, 100));
    ASSERT_TRUE(r);
    EXPECT_LE(r->text.size(), 100u);
    EXPECT_EQ(original.substr(0, r->text.size()), r->text);
    ASSERT_TRUE(r->next);
    EXPECT_EQ(r->next->second, original.size());
}

TEST_F(RestoreTest, SearchFindsLinesInOrder) {
    std::string original;
    for (int i = 1; i <= 100; ++i) {
        original += "line " + std::to_string(i);
        if (i == 5 || i == 17 || i == 42) original += " NEEDLE here NEEDLE";
        original += "\n";
    }
    const std::string id = put(original);
    auto q = query(id, RestoreMode::search);
    q.query = "NEEDLE";
    auto r = restore(*m_store, q);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->matches.size(), 3u);
    EXPECT_EQ(r->matches[0].line, 5u);
    EXPECT_EQ(r->matches[1].line, 17u);
    EXPECT_EQ(r->matches[2].line, 42u);
    EXPECT_EQ(original.substr(r->matches[1].offset, 6), "NEEDLE");
    EXPECT_LT(r->matches[0].offset, r->matches[1].offset);
    EXPECT_EQ(r->text, "5:line 5 NEEDLE here NEEDLE\n17:line 17 NEEDLE here NEEDLE\n"
                       "42:line 42 NEEDLE here NEEDLE\n");
    EXPECT_FALSE(r->more_matches);

    q.query = "absent";
    r = restore(*m_store, q);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->matches.empty());
    EXPECT_EQ(r->text, "");
}

TEST_F(RestoreTest, SearchCapsAtTwentyAndClipsLongLines) {
    std::string original;
    for (int i = 1; i <= 30; ++i) original += "hit " + std::to_string(i) + "\n";
    const std::string id = put(original);
    auto q = query(id, RestoreMode::search);
    q.query = "hit";
    auto r = restore(*m_store, q);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->matches.size(), 20u);
    EXPECT_TRUE(r->more_matches);
    EXPECT_EQ(r->matches.back().line, 20u);

    const std::string long_line = "start " + std::string(5000, 'q') + " TARGET\nnext\n";
    const std::string id2 = put(long_line);
    q = query(id2, RestoreMode::search, 0, 0, 400);
    q.query = "TARGET";
    r = restore(*m_store, q);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->matches.size(), 1u);
    EXPECT_TRUE(r->clipped);
    EXPECT_EQ(r->text, "1:start " + std::string(100 - 6, 'q') + "\n");
    EXPECT_LE(r->text.size(), 400u);
}

TEST_F(RestoreTest, SearchRejectsEmptyAndOverlongQueries) {
    const std::string id = put(std::string(300, 'a') + "\n");
    auto q = query(id, RestoreMode::search);
    q.query = std::string(201, 'a');
    auto r = restore(*m_store, q);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Code::bad_query);
    q.query = "";
    r = restore(*m_store, q);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Code::bad_query);
    q.query = std::string(200, 'a');
    r = restore(*m_store, q);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->matches.size(), 1u);
}

TEST_F(RestoreTest, BadRangesNameTheValidRange) {
    std::string original;
    for (int i = 0; i < 120; ++i) original += "x\n";
    const std::string id = put(original);
    const auto expect_bad = [&](RestoreMode mode, std::uint64_t a, std::uint64_t b,
                                const std::string& names) {
        auto r = restore(*m_store, query(id, mode, a, b));
        ASSERT_FALSE(r) << a << "-" << b;
        EXPECT_EQ(r.error().code, Code::bad_range);
        EXPECT_NE(r.error().message.find(names), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    };
    expect_bad(RestoreMode::bytes, 10, 5, "bytes 0-240");
    expect_bad(RestoreMode::bytes, 241, 300, "bytes 0-240");
    expect_bad(RestoreMode::lines, 0, 5, "lines 1-120 exist");
    expect_bad(RestoreMode::lines, 9, 3, "lines 1-120 exist");
    expect_bad(RestoreMode::lines, 121, 130, "lines 1-120 exist");

    const std::string empty = put("");
    auto r = restore(*m_store, query(empty, RestoreMode::lines, 1, 1));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Code::bad_range);
    r = restore(*m_store, query(empty, RestoreMode::bytes, 0, 0));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "");
}

// `--lines A-B` and `--critical --lines A-B` take and refuse the same ranges, in the same words
// (core/rewrite/ranges.hpp); 0-0 is refused in both, not taken as "everything".
TEST_F(RestoreTest, LineRangesFollowOneRuleInEveryMode) {
    std::string original;
    for (int i = 1; i <= 30; ++i) original += i % 5 == 0 ? "error: step failed\n" : "ok\n";
    const std::string id = put(original);
    const std::uint64_t edges[] = {0, 1, 2, 15, 29, 30, 31, 40};
    for (const std::uint64_t a : edges) {
        for (const std::uint64_t b : edges) {
            auto lines = restore(*m_store, query(id, RestoreMode::lines, a, b));
            auto q = query(id, RestoreMode::critical, a, b);
            q.range_given = true;
            auto critical = restore(*m_store, q);
            ASSERT_EQ(lines.has_value(), critical.has_value()) << a << "-" << b;
            if (!lines) {
                EXPECT_EQ(lines.error().message, critical.error().message);
                EXPECT_EQ(critical.error().code, Code::bad_range);
            }
        }
    }
    auto q = query(id, RestoreMode::critical, 0, 0);
    q.range_given = true;
    auto r = restore(*m_store, q);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "lines are numbered from 1; lines 1-30 exist");
}

// A --critical page holds whole `LINE:text` rows, at least one, never over the bound; a row alone
// longer than the bound is cut (never to nothing) and the rest of its line named by bytes. Paged
// through, the rows (with each cut line's rest) are every error line, whole.
TEST_F(RestoreTest, CriticalPagesHoldWholeRowsAndNameTheRestOfALongOne) {
    std::mt19937_64 rng(31);
    std::size_t cut = 0, pages = 0;
    for (int round = 0; round < 60; ++round) {
        std::string original;
        std::vector<std::pair<std::uint64_t, std::string>> errors; // line, text
        const int lines = 1 + static_cast<int>(rng() % 300);
        for (int i = 1; i <= lines; ++i) {
            if (rng() % 4) {
                original += "fine " + std::to_string(i) + "\n";
                continue;
            }
            std::string text = "error: job " + std::to_string(i) + " failed ";
            text += std::string(rng() % 3 == 0 ? rng() % 9000 : rng() % 40, 'x');
            errors.emplace_back(i, text);
            original += text + "\n";
        }
        const std::string id = put(original);
        auto q = query(id, RestoreMode::critical, 0, 0, 64 + rng() % 3000);
        std::string listed, expected;
        for (const auto& [line, text] : errors)
            expected += std::to_string(line) + ":" + text + "\n";
        for (int guard = 0; guard < 100000; ++guard) {
            auto r = restore(*m_store, q);
            ASSERT_TRUE(r) << r.error().message;
            ++pages;
            ASSERT_LE(r->text.size(), q.max_bytes);
            if (errors.empty()) break;
            ASSERT_FALSE(r->matches.empty()) << "a page holds at least one row";
            listed += r->text;
            if (r->rest) {
                ++cut;
                ASSERT_EQ(r->matches.size(), 1u);
                ASSERT_TRUE(listed.ends_with('\n'));
                listed.pop_back(); // the row continues with the rest of its line
                auto rest = restore(*m_store, query(id, RestoreMode::bytes, r->rest->first,
                                                    r->rest->second, 65536));
                ASSERT_TRUE(rest);
                listed += rest->text + "\n";
            }
            if (!r->next_lines) break;
            q.start = r->next_lines->first;
            q.end = r->next_lines->second;
        }
        EXPECT_EQ(listed, expected) << round;
    }
    EXPECT_GT(pages, 200u);
    EXPECT_GT(cut, 20u);
}

TEST_F(RestoreTest, CriticalRefusesABoundUnderOneRow) {
    const std::string id = put("error: one\nerror: two\n");
    auto r = restore(*m_store, query(id, RestoreMode::critical, 0, 0, 1));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Code::bad_range);
    EXPECT_EQ(r.error().message, "the error lines are listed whole, a line a row: max_bytes 1 "
                                 "cannot hold one; ask for at least 64");
    r = restore(*m_store, query(id, RestoreMode::critical, 0, 0, 64));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "1:error: one\n2:error: two\n");
}

TEST_F(RestoreTest, StoreErrorsMapToCodes) {
    auto r = restore(*m_store, query("../../etc/passwd", RestoreMode::full));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Code::bad_id);
    EXPECT_EQ(r.error().message.find("passwd"), std::string::npos);

    const std::string unknown = "su_0123456789abcdef0123456789abcdef";
    r = restore(*m_store, query(unknown, RestoreMode::full));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Code::not_found);

    const std::string id = put("soon gone\n");
    *m_now += 1000;
    r = restore(*m_store, query(id, RestoreMode::full));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Code::expired);
    EXPECT_EQ(r.error().message, "id " + id + " expired; re-run the command, narrower if you can");

    const std::string id2 = put("will be damaged\n");
    {
        const std::string data = m_dir + "/store/" + id2 + ".data";
        FILE* f = std::fopen(data.c_str(), "r+b");
        ASSERT_NE(f, nullptr);
        std::fputc('W', f);
        std::fclose(f);
    }
    r = restore(*m_store, query(id2, RestoreMode::bytes, 0, 4));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Code::corrupt);
}

TEST_F(RestoreTest, NoteCarriesTheWarningWhatAndNext) {
    const std::string original(100, 'n');
    const std::string id = put(original);
    auto q = query(id, RestoreMode::bytes, 10, 90, 30);
    auto r = restore(*m_store, q);
    ASSERT_TRUE(r);
    const std::string note = restore_note(q, *r);
    EXPECT_NE(note.find(k_untrusted_note), std::string::npos);
    EXPECT_NE(note.find("bytes 10-40 of 100"), std::string::npos) << note;
    EXPECT_NE(note.find("next: sutra restore " + id + " --bytes 40-90"), std::string::npos) << note;

    q = query(id, RestoreMode::full);
    r = restore(*m_store, q);
    ASSERT_TRUE(r);
    const std::string whole = restore_note(q, *r);
    EXPECT_NE(whole.find("bytes 0-100 of 100"), std::string::npos) << whole;
    EXPECT_EQ(whole.find("next:"), std::string::npos);

    q = query(id, RestoreMode::search);
    q.query = "nnn";
    r = restore(*m_store, q);
    ASSERT_TRUE(r);
    const std::string found = restore_note(q, *r);
    EXPECT_NE(found.find(k_untrusted_note), std::string::npos);
    EXPECT_NE(found.find("1 match"), std::string::npos) << found;
}

// The one restore path of every front end (core::restore with a request and the config): the
// store is the request's namespace, the next-page hint names that namespace in the caller's
// dialect, text-only pages never split a character, and every outcome reaches the stats.
class RestoreEntryTest : public ::testing::Test {
protected:
    void SetUp() override {
        char pattern[] = "/tmp/sutra-restore-entry.XXXXXX";
        const char* made = ::mkdtemp(pattern);
        ASSERT_NE(made, nullptr);
        m_dir = made;
        m_config.store_dir = m_dir + "/store";
        m_config.stats_enabled = true;
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string put(const std::string& text, const std::string& ns = {}) {
        auto store = Store::open(sutra::core::store_options(m_config, ns));
        EXPECT_TRUE(store.has_value());
        auto id = store->put(text);
        EXPECT_TRUE(id.has_value());
        return id.value_or("");
    }
    std::string stats_log() const {
        std::ifstream in(m_dir + "/store/stats.jsonl");
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
    std::string m_dir;
    sutra::core::Config m_config;
};

TEST_F(RestoreEntryTest, NextPageHintNamesTheNamespaceInEachDialect) {
    const std::string id = put(std::string(100, 'n'), "hermes-work");
    sutra::core::RestoreRequest req;
    req.query = {id, RestoreMode::bytes, 0, 100, {}, 30, {}};
    req.route.store_namespace = "hermes-work";
    auto cli = sutra::core::restore(req, m_config);
    ASSERT_TRUE(cli) << cli.error().message;
    EXPECT_EQ(cli->result.text, std::string(30, 'n'));
    EXPECT_NE(
        cli->note.find("next: sutra restore --namespace hermes-work " + id + " --bytes 30-100"),
        std::string::npos)
        << cli->note;

    req.max_bytes_given = true;
    req.route.kind = sutra::core::RestoreRoute::Kind::mcp;
    req.route.tool = "mcp_sutra_sutra_restore";
    auto mcp = sutra::core::restore(req, m_config);
    ASSERT_TRUE(mcp);
    EXPECT_NE(mcp->note.find("next: mcp_sutra_sutra_restore(id=\"" + id +
                             "\", mode=\"bytes\", start=30, end=100, max_bytes=30, "
                             "namespace=\"hermes-work\")"),
              std::string::npos)
        << mcp->note;

    // The same id in the default store does not exist: the namespace chose the store.
    req.route = {};
    auto elsewhere = sutra::core::restore(req, m_config);
    ASSERT_FALSE(elsewhere);
    EXPECT_EQ(elsewhere.error().code, Code::not_found);
}

TEST_F(RestoreEntryTest, TextOnlyPagesNeverSplitACharacterAndSayWhenTheBoundIsTooSmall) {
    const std::string text = "a\xF0\x9F\x98\x80"
                             "b"; // a, U+1F600 (4 bytes), b
    const std::string id = put(text);
    for (std::uint64_t bound = 1; bound <= 3; ++bound) {
        sutra::core::RestoreRequest req;
        req.query = {id, RestoreMode::bytes, 1, 6, {}, bound, {}};
        req.text_only = true;
        auto r = sutra::core::restore(req, m_config);
        ASSERT_FALSE(r) << bound;
        EXPECT_EQ(r.error().code, Code::bad_range) << r.error().message;
        EXPECT_NE(r.error().message.find("smaller than the UTF-8 character at byte 1"),
                  std::string::npos)
            << r.error().message;
    }
    // Pages of any bound from 4 up concatenate to the original, each valid UTF-8.
    for (std::uint64_t bound = 4; bound <= 7; ++bound) {
        std::string got;
        std::uint64_t start = 0;
        for (int guard = 0; guard < 10 && start < text.size(); ++guard) {
            sutra::core::RestoreRequest req;
            req.query = {id, RestoreMode::bytes, start, text.size(), {}, bound, {}};
            req.text_only = true;
            auto r = sutra::core::restore(req, m_config);
            ASSERT_TRUE(r) << r.error().message;
            EXPECT_TRUE(sutra::core::valid_utf8(r->result.text));
            got += r->result.text;
            start = r->result.end;
        }
        EXPECT_EQ(got, text) << bound;
    }
}

TEST_F(RestoreEntryTest, EveryOutcomeIsLoggedIncludingTheWholeOriginal) {
    const std::string id = put("hello\n");
    sutra::core::RestoreRequest req;
    req.all = true;
    req.query.id = id;
    auto all = sutra::core::restore(req, m_config);
    ASSERT_TRUE(all);
    EXPECT_EQ(all->result.text, "hello\n");
    req.query.id = "su_" + std::string(32, '0');
    EXPECT_FALSE(sutra::core::restore(req, m_config));
    req.query.id = "../../etc/passwd";
    EXPECT_FALSE(sutra::core::restore(req, m_config));
    const std::string log = stats_log();
    EXPECT_NE(log.find("\"ok\""), std::string::npos) << log;
    EXPECT_NE(log.find("\"not_found\""), std::string::npos) << log;
    EXPECT_NE(log.find("\"bad_id\""), std::string::npos) << log;
    EXPECT_EQ(log.find("\"error\""), std::string::npos) << log;
}
