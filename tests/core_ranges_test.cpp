// Line and byte ranges (core/rewrite/ranges.hpp): one syntax, one set of rules and one pager for
// every mode and front end. The pager is checked as a property: for random texts, spans and bounds,
// the pages (and the rest of any line cut) concatenated are exactly the lines asked for, each
// once, in file order; no page is over its bound, and every page holds something.

#include "core/rewrite/lines.hpp"
#include "core/rewrite/ranges.hpp"
#include "core/util/utf8.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace sutra::core {
namespace {

TEST(Ranges, SyntaxIsAOrAMinusBCommaSeparated) {
    EXPECT_EQ(parse_line_spans("3").value(), (std::vector<LineSpan>{{3, 3}}));
    EXPECT_EQ(parse_line_spans("1-2,5-9,4").value(),
              (std::vector<LineSpan>{{1, 2}, {5, 9}, {4, 4}}));
    // What the numbers say is checked against a text, not here.
    EXPECT_EQ(parse_line_spans("0-0").value(), (std::vector<LineSpan>{{0, 0}}));
    EXPECT_EQ(parse_line_spans("9-2").value(), (std::vector<LineSpan>{{9, 2}}));
    for (const char* bad :
         {"", "a-b", "1-", "-4", "1,,2", "1-2-3", " 1-2", "1-2,", "+1", "99999999999999999999"}) {
        const auto r = parse_line_spans(bad);
        ASSERT_FALSE(r.has_value()) << bad;
        EXPECT_NE(r.error().find("give A-B (one-based, inclusive)"), std::string::npos)
            << r.error();
    }
}

TEST(Ranges, OneRuleForEveryLineRange) {
    EXPECT_EQ(check_line_span({0, 0}, 10).error(), "lines are numbered from 1; lines 1-10 exist");
    EXPECT_EQ(check_line_span({0, 4}, 10).error(), "lines are numbered from 1; lines 1-10 exist");
    EXPECT_EQ(check_line_span({5, 4}, 10).error(), "lines 5-4 run backwards; lines 1-10 exist");
    EXPECT_EQ(check_line_span({11, 12}, 10).error(), "line 11 is past the end; lines 1-10 exist");
    EXPECT_EQ(check_line_span({1, 1}, 0).error(), "there are no lines: the text is empty");
    EXPECT_EQ(check_line_span({3, 99}, 10).value(), (LineSpan{3, 10})); // the end is clamped
    EXPECT_EQ(check_line_span({10, 10}, 10).value(), (LineSpan{10, 10}));
    EXPECT_EQ(check_byte_range(5, 2, 10).error(),
              "bytes 5-2 run backwards; bytes 0-10 exist (zero-based, end exclusive)");
    EXPECT_EQ(check_byte_range(11, 12, 10).error(),
              "byte 11 is past the end; bytes 0-10 exist (zero-based, end exclusive)");
    EXPECT_EQ(check_byte_range(4, 99, 10).value(),
              (std::pair<std::uint64_t, std::uint64_t>{4, 10}));
}

TEST(Ranges, RepeatedAndOverlappingSpansMergeInFileOrder) {
    EXPECT_EQ(merge_line_spans({{1, 10}, {1, 10}, {1, 10}}), (std::vector<LineSpan>{{1, 10}}));
    EXPECT_EQ(merge_line_spans({{8, 9}, {1, 3}, {2, 5}, {6, 6}, {20, 20}}),
              (std::vector<LineSpan>{{1, 6}, {8, 9}, {20, 20}}));
    EXPECT_EQ(format_line_spans({{1, 6}, {8, 8}}), "1-6,8");
}

std::string random_text(std::mt19937& rng) {
    static const std::string alphabet = "abc xyz\t\xc3\xa9\xe2\x82\xac"; // with UTF-8
    std::string s;
    const std::size_t lines = 1 + rng() % 60;
    for (std::size_t i = 0; i < lines; ++i) {
        const std::size_t len = rng() % 5 == 0 ? 200 + rng() % 3000 : rng() % 40;
        for (std::size_t k = 0; k < len; ++k) s += alphabet[rng() % alphabet.size()];
        if (i + 1 < lines || rng() % 2) s += '\n';
    }
    return s;
}

TEST(Ranges, PagesConcatenateToTheLinesAskedForAndStayUnderTheBound) {
    std::mt19937 rng(2024);
    std::size_t pages = 0, cut_lines = 0;
    for (int round = 0; round < 600; ++round) {
        const std::string text = random_text(rng);
        const LineIndex lines = index_lines(text);
        const std::uint64_t n = lines.count();
        if (n == 0) continue;
        std::vector<LineSpan> asked;
        const std::size_t count = 1 + rng() % 20;
        for (std::size_t k = 0; k < count; ++k) {
            std::uint64_t a = 1 + rng() % n, b = 1 + rng() % n;
            if (a > b) std::swap(a, b);
            asked.push_back({a, b});
        }
        // The lines asked for, each once, in file order.
        std::vector<bool> wanted(n, false);
        for (const LineSpan& s : asked)
            for (std::uint64_t l = s.first; l <= s.last; ++l) wanted[l - 1] = true;
        std::string expected;
        for (std::uint64_t l = 0; l < n; ++l)
            if (wanted[l]) expected += text.substr(lines.begin(l), lines.end(l) - lines.begin(l));

        const std::uint64_t bound = rng() % 3 == 0 ? 1 + rng() % 16 : 16 + rng() % 5000;
        std::vector<LineSpan> spans = merge_line_spans(asked);
        std::string got;
        for (int guard = 0; !spans.empty() && guard < 100000; ++guard) {
            const LinePage page = page_line_spans(text, lines, spans, bound);
            ++pages;
            ASSERT_LE(page.text.size(), bound);
            ASSERT_FALSE(page.text.empty()) << "a page must hold something";
            got += page.text;
            if (page.rest) {
                ++cut_lines;
                // Only a line alone longer than the page is cut, and only on a character
                // boundary when the bound allows one.
                ASSERT_TRUE(page.shown.empty());
                const std::uint64_t size =
                    lines.end(page.rest_line - 1) - lines.begin(page.rest_line - 1);
                ASSERT_GT(size, bound);
                if (bound >= 4) {
                    EXPECT_TRUE(valid_utf8(page.text) ||
                                !valid_utf8(text.substr(lines.begin(page.rest_line - 1), size)));
                }
                // The rest is read by bytes (restore's or read's --bytes), a page at a time.
                for (std::uint64_t at = page.rest->first; at < page.rest->second; at += bound)
                    got += text.substr(at, std::min(bound, page.rest->second - at));
            }
            spans = page.next;
        }
        ASSERT_TRUE(spans.empty());
        EXPECT_EQ(got, expected) << round;
    }
    EXPECT_GT(pages, 2000u);
    EXPECT_GT(cut_lines, 100u);
}

} // namespace
} // namespace sutra::core
