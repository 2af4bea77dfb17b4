// Outputs of one line over and over (issue 25): long runs of identical lines are indexed
// condensed (core/rewrite/line_runs.hpp), planned as a few lines, and still give exact views and
// restores. How fast is bench/degenerate_bench.cpp's question; these tests check what is shown.

#include "core/compress.hpp"
#include "core/rewrite/line_runs.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/text_rewrite.hpp"
#include "core/store/store.hpp"
#include "core/util/byte_scan.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace sutra::core {
namespace {

std::string repeated(std::string_view line, std::size_t count) {
    std::string s;
    for (std::size_t i = 0; i < count; ++i) s.append(line);
    return s;
}

// Random texts made of runs of a few kinds of lines, short and long runs alike.
std::string runs_text(std::mt19937& rng) {
    static const char* const kinds[] = {"\n", " \n", "\r\n", "x\n", "y\n", "same line\n", "\r"};
    std::string s;
    const std::size_t pieces = rng() % 12;
    for (std::size_t p = 0; p < pieces; ++p) {
        const std::size_t length = rng() % 2 ? rng() % 8 : rng() % 300;
        s += repeated(kinds[rng() % 7], length);
    }
    if (rng() % 3 == 0) s += "tail without newline";
    return s;
}

// The condensed lines name exactly the original's lines: each condensed line's range is its
// weight in whole original lines, all copies of its first one.
void expect_condenses(const std::string& s, const CondensedLines& c) {
    const LineIndex full = index_lines(s);
    ASSERT_EQ(c.original_lines(), full.count()) << s.size();
    ASSERT_EQ(c.index.starts.back(), s.size());
    std::uint64_t line = 0;
    for (std::size_t i = 0; i < c.index.count(); ++i) {
        ASSERT_EQ(c.index.begin(i), full.begin(line)) << i;
        const std::uint64_t w = c.weight(i);
        ASSERT_GE(w, 1u);
        ASSERT_EQ(c.index.end(i), full.end(line + w - 1)) << i;
        const std::string_view first =
            std::string_view(s).substr(full.begin(line), full.end(line) - full.begin(line));
        for (std::uint64_t k = 1; k < w; ++k)
            ASSERT_EQ(std::string_view(s).substr(full.begin(line + k), first.size()), first);
        if (w > 1) {
            // Only a long run stands behind one line, its edges kept.
            ASSERT_GE(w + 2 * k_run_edge, k_run_min);
        }
        line += w;
    }
    EXPECT_EQ(line, full.count());
}

TEST(LineRuns, CondensedLinesNameTheOriginalsLinesExactly) {
    std::mt19937 rng(41);
    std::size_t condensed = 0;
    for (int round = 0; round < 400; ++round) {
        const std::string s = runs_text(rng);
        const CondensedLines one_pass = index_condensed(s);
        expect_condenses(s, one_pass);
        // From a full index (as restore condenses) the result is the same.
        const CondensedLines from_index = condense_runs(s, index_lines(s));
        EXPECT_EQ(one_pass.index.starts, from_index.index.starts);
        EXPECT_EQ(one_pass.first, from_index.first);
        condensed += one_pass.condensed();
    }
    EXPECT_GT(condensed, 100u);
}

TEST(LineRuns, AMillionBlankLinesArePlannedAsNineLines) {
    const std::string s = repeated("\n", 1'000'000);
    const CondensedLines c = index_condensed(s);
    ASSERT_TRUE(c.condensed());
    EXPECT_EQ(c.index.count(), 2 * k_run_edge + 1);
    EXPECT_EQ(c.original_lines(), 1'000'000u);
    EXPECT_EQ(c.weight(k_run_edge), 1'000'000u - 2 * k_run_edge);
    // Runs under k_run_min lines are left as they are.
    const std::string short_run = repeated("\n", k_run_min - 1) + "end\n";
    EXPECT_FALSE(index_condensed(short_run).condensed());
}

TEST(ByteScan, MatchesAPlainLoop) {
    std::mt19937 rng(5);
    for (int round = 0; round < 300; ++round) {
        std::string s(rng() % 100, 'a');
        for (char& ch : s) ch = "\n d@DF \t\r"[rng() % 9];
        std::vector<std::size_t> newlines, expected_newlines, starts, expected_starts;
        for_each_newline(s, [&](std::size_t at) { return newlines.push_back(at), true; });
        for_each_line_starting_with(s, "d@DF",
                                    [&](std::size_t at) { return starts.push_back(at), true; });
        std::size_t blank_end = 0;
        while (blank_end < s.size() &&
               std::string_view(" \t\r\n").find(s[blank_end]) != std::string_view::npos)
            ++blank_end;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '\n') expected_newlines.push_back(i);
            if ((i == 0 || s[i - 1] == '\n') &&
                (s[i] == 'd' || s[i] == '@' || s[i] == 'D' || s[i] == 'F'))
                expected_starts.push_back(i);
        }
        EXPECT_EQ(newlines, expected_newlines);
        EXPECT_EQ(count_newlines(s), expected_newlines.size());
        EXPECT_EQ(starts, expected_starts);
        EXPECT_EQ(skip_blank(s), blank_end);
        const std::size_t period = 1 + rng() % 3;
        if (s.size() > period) {
            std::size_t expected = period;
            while (expected < s.size() && s[expected] == s[expected - period]) ++expected;
            EXPECT_EQ(first_mismatch(s, period, period), expected);
        }
    }
}

class Degenerate : public ::testing::Test {
protected:
    test::TempDir m_dir;
    Config m_config = test::test_config(m_dir.path);

    Response compressed(const std::string& text) {
        Request r;
        r.output = text;
        return compress(r, m_config);
    }

    std::string restored(const Response& r, const Elision& e) {
        StoreOptions so;
        so.dir = resolve_store_dir(m_config);
        auto bytes = Store::open(so)->read(*r.id, e.begin, e.end);
        return bytes ? *bytes : "<not restored>";
    }
};

TEST_F(Degenerate, TwoHundredThousandBlankLinesAreOneLineAndOneMarker) {
    for (const std::string line : {"\n", " \n", "\t\t\n", "\r\n"}) {
        const std::string text = repeated(line, 200'000);
        const Response r = compressed(text);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        ASSERT_EQ(r.elisions.size(), 1u);
        const Elision& e = r.elisions[0];
        EXPECT_EQ(e.reason, Reason::repeated_lines);
        EXPECT_EQ(e.first_line, 2u);
        EXPECT_EQ(e.last_line, 200'000u);
        EXPECT_EQ(e.items, 199'999u);
        EXPECT_EQ(e.begin, line.size());
        EXPECT_EQ(e.end, text.size());
        EXPECT_EQ(restored(r, e), text.substr(line.size()));
        EXPECT_TRUE(r.view.starts_with(line +
                                       "[sutra: the line above repeats 199999 more times "
                                       "(repeated lines); lines 2-200000, bytes " +
                                       std::to_string(line.size()) + "-" +
                                       std::to_string(text.size())))
            << r.view;
    }
}

TEST_F(Degenerate, OneCharacterLinesKeepTheirEnds) {
    const std::string text = repeated("x\n", 200'000);
    const Response r = compressed(text);
    ASSERT_TRUE(r.rewritten);
    ASSERT_EQ(r.elisions.size(), 1u);
    EXPECT_EQ(r.elisions[0].first_line, 2u);
    EXPECT_EQ(r.elisions[0].last_line, 199'999u);
    EXPECT_EQ(restored(r, r.elisions[0]), text.substr(2, text.size() - 4));
    EXPECT_TRUE(r.view.starts_with("x\n[sutra: 199998 similar lines elided")) << r.view;
    EXPECT_TRUE(r.view.ends_with("]\nx\n")) << r.view;
}

TEST_F(Degenerate, AnErrorAmongAMillionBlankLinesIsShownAndListed) {
    const std::string text =
        repeated("\n", 500'000) + "error: disk full\n" + repeated("\n", 500'000);
    const Response r = compressed(text);
    ASSERT_TRUE(r.rewritten);
    EXPECT_NE(r.view.find("\nerror: disk full\n"), std::string::npos) << r.view;
    for (const Elision& e : r.elisions)
        EXPECT_EQ(restored(r, e), text.substr(e.begin, e.end - e.begin));
    // The --critical listing names the error by its original line number.
    const LineIndex lines = index_lines(text);
    EXPECT_EQ(critical_lines(text, lines, KeyMatcher{}), std::vector<std::size_t>{500'000});
}

TEST_F(Degenerate, ALineOfCarriageReturnsIsOneLongRedrawnLine) {
    // No newline until the end: one line, redrawn 200,000 times, too long to show whole.
    const std::string text = repeated("\r", 200'000) + "done\n";
    const Response r = compressed(text);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    ASSERT_EQ(r.elisions.size(), 1u);
    EXPECT_EQ(r.elisions[0].reason, Reason::long_line);
    EXPECT_EQ(restored(r, r.elisions[0]),
              text.substr(r.elisions[0].begin, r.elisions[0].end - r.elisions[0].begin));
    EXPECT_NE(r.view.find("]done\n[sutra: progress redraws removed"), std::string::npos) << r.view;
}

} // namespace
} // namespace sutra::core
