#include <gtest/gtest.h>

#include "core/classify.hpp"
#include "core/lines.hpp"
#include "core/utf8.hpp"

namespace sutra::core {
namespace {

TEST(Lines, IndexCoversEveryByte) {
    for (std::string s : {"", "a", "a\n", "a\nb", "\n\n\n", "one\ntwo\nthree\n", "x\r\ny\r\n"}) {
        const LineIndex idx = index_lines(s);
        std::string joined;
        for (std::size_t i = 0; i < idx.count(); ++i)
            joined += s.substr(idx.begin(i), idx.end(i) - idx.begin(i));
        EXPECT_EQ(joined, s);
        EXPECT_EQ(idx.starts.back(), s.size());
    }
    EXPECT_EQ(index_lines("a\nb").count(), 2u);
    EXPECT_EQ(index_lines("a\nb\n").count(), 2u);
    EXPECT_EQ(index_lines("").count(), 0u);
}

TEST(Lines, CleanStripsEscapesAndKeepsEnding) {
    Noise n;
    EXPECT_EQ(clean_line("\x1b[31mFAILED\x1b[0m test\n", n), "FAILED test\n");
    EXPECT_TRUE(n.ansi);
    Noise m;
    EXPECT_EQ(clean_line("\x1b]8;;http://x\x07link\x1b]8;;\x07 ok\r\n", m), "link ok\r\n");
    Noise cut;
    EXPECT_EQ(clean_line("text\x1b[3", cut), "text"); // a sequence cut at the end
}

TEST(Lines, RedrawsKeepTheLastSegment) {
    Noise n;
    EXPECT_EQ(clean_line("10%\r50%\r100%\n", n), "100%\n");
    EXPECT_TRUE(n.redraw);
    Noise m;
    EXPECT_EQ(clean_line("done\r\r\n", m), "done\r\n"); // the CRLF ending stays
    Noise k;
    EXPECT_FALSE(has_noise("plain\r\n"));
    EXPECT_TRUE(has_noise("a\rb\n"));
    EXPECT_EQ(clean_line("plain\r\n", k), "plain\r\n");
}

TEST(Classify, KeyWordsAreCaseInsensitive) {
    const KeyMatcher keys;
    EXPECT_EQ(keys.level("src/a.c:1:2: error: boom"), Level::critical);
    EXPECT_EQ(keys.level("FAILED tests/x.py::t"), Level::critical);
    EXPECT_EQ(keys.level("thread 'main' panicked at src/main.rs:2:5"), Level::critical);
    EXPECT_EQ(keys.level("Permission DENIED"), Level::critical);
    EXPECT_EQ(keys.level("warning: unused"), Level::notable);
    EXPECT_EQ(keys.level("all good here"), Level::none);
    const KeyMatcher custom({"lease"});
    EXPECT_EQ(custom.level("worker lost its LEASE"), Level::critical);
}

TEST(Classify, SignaturesIgnoreNumbersHashesAndPaths) {
    EXPECT_EQ(shape_signature("took 12ms\n"), shape_signature("took 950ms\n"));
    EXPECT_EQ(shape_signature("commit 3f9a2b1c0d"), shape_signature("commit 77ab90e1ff"));
    EXPECT_EQ(shape_signature("GET /a/b.js 200"), shape_signature("GET /c/d/e.css 404"));
    EXPECT_NE(shape_signature("test_a PASSED"), shape_signature("test_a FAILED"));
    EXPECT_NE(shape_signature("alpha"), shape_signature("beta"));
}

TEST(Classify, LocationsAndContinuations) {
    EXPECT_TRUE(is_location("src/main.rs:12:5"));
    EXPECT_TRUE(is_location("  File \"app.py\", line 3, in f"));
    EXPECT_TRUE(is_location("\tat com.x.Y.run(Y.java:41)"));
    EXPECT_TRUE(is_location("src/a.ts(12,5): error TS2322"));
    EXPECT_FALSE(is_location("time 12:30 today"));
    EXPECT_TRUE(is_continuation("   |     ^^^ expected"));
    EXPECT_TRUE(is_continuation("E       assert 1 == 2"));
    EXPECT_FALSE(is_continuation("\n"));
}

TEST(Utf8, ValidationAndBoundaries) {
    EXPECT_TRUE(valid_utf8("héllo 日本 👍"));
    EXPECT_FALSE(valid_utf8("\xc3"));
    EXPECT_FALSE(valid_utf8("\xed\xa0\x80"));     // surrogate
    EXPECT_FALSE(valid_utf8("\xc0\xaf"));         // overlong
    const std::string s = "a日b";                 // 日 is 3 bytes at 1..3
    EXPECT_EQ(utf8_floor(s, 2), 1u);
    EXPECT_EQ(utf8_ceil(s, 2), 4u);
    EXPECT_EQ(utf8_floor(s, 99), s.size());
    EXPECT_TRUE(looks_binary(std::string("abc\0def", 7)));
    EXPECT_FALSE(looks_binary("plain text\nwith caf\xe9 latin-1 byte\n"));
}

} // namespace
} // namespace sutra::core
