#include "core/rewrite/classify.hpp"
#include "core/rewrite/lines.hpp"
#include "core/util/utf8.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <string>
#include <vector>

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

// Whether the occurrence of a built-in word at p is part of a flag, a path or an identifier,
// the slow way: cut the token out and look at it.
bool reference_inside_name(const std::string& s, std::size_t p, std::size_t len) {
    const std::string seps = std::string(" \t\"'`()[]{},;<>|\n\r");
    const std::size_t before = p == 0 ? std::string::npos : s.find_last_of(seps, p - 1);
    const std::size_t a = before == std::string::npos ? 0 : before + 1;
    const std::size_t after = s.find_first_of(seps, p + len);
    const std::string token = s.substr(a, (after == std::string::npos ? s.size() : after) - a);
    const std::size_t at = p - a;
    if (at > 256 || token.size() - (at + len) > 256) return true; // a blob, not a message
    auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    if (token.size() > 1 && token[0] == '-' && (letter(token[1]) || token[1] == '-')) return true;
    // A line's first token ending with a colon is a label: letters and slashes, or the word at
    // its start (after an optional '%') and then letters, digits, '-' and '_'.
    const bool first = s.find_first_not_of(" \t") == a;
    auto name_byte = [&](char c) {
        return letter(c) || (c >= '0' && c <= '9') || c == '-' || c == '_';
    };
    if (first && token.size() > 1 && token.back() == ':' &&
        (std::all_of(token.begin(), token.end() - 1,
                     [&](char c) { return letter(c) || c == '/'; }) ||
         ((at == 0 || (at == 1 && token[0] == '%')) &&
          std::all_of(token.begin() + static_cast<std::ptrdiff_t>(at), token.end() - 1,
                      name_byte))))
        return false;
    if (token.find('/') != std::string::npos) return true;
    std::size_t e = at + len;
    while (e < token.size() && letter(token[e])) ++e;
    if (e < token.size() && token[e] == ':') return false;
    if (at > 0 && token[at - 1] == '_') return true;
    if (e < token.size() && token[e] == '_') return true;
    auto alnum = [&](char c) { return letter(c) || (c >= '0' && c <= '9'); };
    if (s.substr(p, len).find('-') == std::string::npos &&
        ((at > 1 && token[at - 1] == '-' && alnum(token[at - 2])) ||
         (e + 1 < token.size() && token[e] == '-' && alnum(token[e + 1]))))
        return true;
    return e + 1 < token.size() && token[e] == '.' && letter(token[e + 1]);
}

// Whether one of the two words before p negates the word at p ("no errors", "0 failed"), the
// slow way.
bool reference_negated(const std::string& lower, std::size_t p) {
    std::size_t q = p;
    for (int k = 0; k < 2; ++k) {
        if (q < 2 || lower[q - 1] != ' ') return false;
        std::size_t b = q - 1;
        while (b > 0 && std::isalnum(static_cast<unsigned char>(lower[b - 1]))) --b;
        const std::string w = lower.substr(b, q - 1 - b);
        if (w.empty()) return false;
        if (w == "0" || w == "no" || w == "zero" || w == "without") return true;
        q = b;
    }
    return false;
}

// What level() must return, written the slow and obvious way.
Level reference_level(std::string_view line, const std::vector<std::string>& extra) {
    std::string lower(line);
    for (char& c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    Level best = Level::none;
    for (const KeyWord& w : builtin_key_words()) {
        const std::string word(w.text);
        for (std::size_t at = lower.find(word); at != std::string::npos;
             at = lower.find(word, at + 1)) {
            if (w.lead) {
                // A mark: only as the line's first, after its blanks.
                if (line.find_first_not_of(" \t") == at) best = std::max(best, w.level);
                continue;
            }
            if (w.tag) {
                // A tag: the original bytes in capitals, no letter, digit or '_' either side.
                auto word_byte = [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                };
                const std::string orig(line.substr(at, word.size()));
                bool upper = true;
                for (char c : orig) upper = upper && !(c >= 'a' && c <= 'z');
                if (upper && !(at > 0 && word_byte(line[at - 1])) &&
                    !(at + word.size() < line.size() && word_byte(line[at + word.size()])))
                    best = std::max(best, w.level);
                continue;
            }
            if (!reference_inside_name(lower, at, word.size()) && !reference_negated(lower, at))
                best = std::max(best, w.level);
        }
    }
    for (std::string e : extra) {
        if (e.size() < 2) continue;
        for (char& c : e)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
        if (lower.find(e) != std::string::npos) best = Level::critical;
    }
    return best;
}

// Words inside flags, paths and identifiers name no failure; the same words standing alone,
// and verdict lines, do (issue 15, item 7). The lines are taken from the real corpus
// (tests/data/real/).
TEST(Classify, KeyWordsInsideFlagsPathsAndNamesDoNotCount) {
    const KeyMatcher keys;
    for (const char* plain : {
             "/usr/bin/c++ -Wall -Werror -Wno-error=dangling-else -c src/part_15.cpp",
             "-- Installing: /usr/include/errors.h",
             "[ 40%] Building CXX object src/error/CMakeFiles/x.dir/handler.cpp.o",
             "    self.on_error = callback",
             "  --fail-fast  stop at the first broken test",
             "      at com.example.ErrorHandler.handle(ErrorHandler.java:42)",
             "compiling error_code.cpp",
             "==18820== 2 bytes in 1 blocks are possibly lost in loss record 1 of 1,617",
             "gcc -g -fsanitize=address,leak -c src/leak_check.c",
             // package names joined by hyphens (apt, ls)
             "Inst libboost-exception1.74-dev (1.74.0+ds1-21 Debian:12.15/oldstable [amd64])",
             "liberror-prone-java",
             "libgpg-error0",
             "            \"http-errors\": {",
             // negated (php -l, a linter's clean summary)
             "No syntax errors detected in ./google/datastore/v1/datastore.php",
             "lint: 0 errors, no warnings",
         })
        EXPECT_NE(keys.level(plain), Level::critical) << plain;
    for (const char* critical : {
             "src/a.c:12:5: error: expected ';' before '}' token",
             "lib/x.js(16,28): error TS7016: Could not find a declaration file",
             "FAILED tests/test_api.py::test_error_path - AssertionError",
             "make: *** [Makefile:12: all] Error 2",
             "java.lang.NullPointerException: name is null",
             "error[E0425]: cannot find value `x` in this scope",
             "[pid  1611] +++ exited with 1 +++",
             "-- Build files have been written to: /tmp/build",
             "2 upgraded, 133 newly installed, 0 to remove and 139 not upgraded.",
             "Fetched 5568 kB in 1s (4214 kB/s)",
             "quota_exceeded: tenant t-9932 over plan by 17 percent",
             // valgrind memcheck, run on this machine (a leaking C program, perl -MPOSIX)
             "==18306== Invalid read of size 4",
             "==18306== Conditional jump or move depends on uninitialised value(s)",
             "==18820== 3 bytes in 1 blocks are definitely lost in loss record 11 of 1,617",
             "==18820==    definitely lost: 30,437 bytes in 34 blocks",
             "Direct leak of 40 bytes in 1 object(s) allocated from: (a memory leak)",
             "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010",
             "SUMMARY: AddressSanitizer: heap-use-after-free src/a.c:9 in main",
             "SUMMARY: AddressSanitizer: stack-buffer-overflow src/b.c:4 in f",
             "X-Error-Reason: upstream timed out",
             "Tests: 3 failed, 0 skipped, 45 passed",
             "PHP Parse error:  syntax error, unexpected '}' in ./a.php on line 12",
             // helgrind over a racy program and git rebase, run on this machine
             "==7261== Possible data race during read of size 8 at 0x10C060 by thread #3",
             "==7261== Thread #3: lock order \"0x10C140 before 0x10C100\" violated",
             "WARNING: DATA RACE",
             "CONFLICT (content): Merge conflict in f048.txt",
             // git status after it: paths still unmerged
             "\tboth modified:   f006.txt",
             "\tdeleted by us:   src/old.c",
             "\tadded by them:   src/new.c",
         })
        EXPECT_EQ(keys.level(critical), Level::critical) << critical;
    // A conflict is a tag only in capitals, as git writes it.
    EXPECT_NE(keys.level("merge conflict markers are explained in the manual"), Level::critical);
    // A change staged or not is no conflict.
    EXPECT_NE(keys.level("\tmodified:   f007.txt"), Level::critical);
    EXPECT_NE(keys.level("\tdeleted:    f008.txt"), Level::critical);
    // A word inside a long unbroken token (a base64 blob, a minified bundle) is part of it; the
    // same word beside the blob, after a blank, is not.
    std::string blob;
    for (int i = 0; i < 2000; ++i) blob += "QmFzZTY0+x"[i % 10];
    for (const std::size_t at : {300u, 1000u, 1700u}) {
        std::string line = blob;
        line.insert(at, "error");
        EXPECT_NE(keys.level(line), Level::critical) << at;
        EXPECT_EQ(keys.level(line + " error"), Level::critical) << at;
        EXPECT_EQ(keys.level("error " + line), Level::critical) << at;
    }
}

// The matcher tests every other byte pair; a word at any offset, in any case, next to any
// bytes, must still be found, with or without a two-byte custom word (which forces every pair).
TEST(Classify, KeyLevelsMatchAPlainSearchOverRandomLines) {
    std::mt19937 rng(7);
    const std::string filler = "abcdefxyzERWOT0123 _-:/.\t'\xe2\x97\x8f\x9c\x95";
    std::vector<std::string> words;
    for (const KeyWord& w : builtin_key_words()) words.emplace_back(w.text);
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{}, std::vector<std::string>{"lease", "Qz"},
          std::vector<std::string>{"xy"}}) {
        const KeyMatcher keys(extra);
        std::vector<std::string> pool = words;
        pool.insert(pool.end(), extra.begin(), extra.end());
        for (int round = 0; round < 20000; ++round) {
            std::string line;
            const int parts = static_cast<int>(rng() % 4);
            for (int p = 0; p <= parts; ++p) {
                for (unsigned k = rng() % 6; k > 0; --k) line += filler[rng() % filler.size()];
                // Now and then an unbroken run of 250-262 bytes, around the 256-byte reach.
                if (rng() % 16 == 0) line.append(250 + rng() % 13, "xQ0."[rng() % 4]);
                if (rng() % 3 == 0) {
                    std::string w = pool[rng() % pool.size()];
                    // Random case, and sometimes one byte cut off so near-misses occur too.
                    for (char& c : w)
                        if (rng() % 2 && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
                    if (rng() % 4 == 0 && w.size() > 2) w.pop_back();
                    line += w;
                }
            }
            ASSERT_EQ(keys.level(line), reference_level(line, extra)) << "line: " << line;
        }
    }
}

// The normalised form signatures stand for, written the slow way: tokens holding a path
// separator become P, hex runs of 7+ holding a digit become 0, digit runs become 0, runs of
// spaces become one space.
std::string reference_shape(std::string_view line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    line = line.substr(0, 512);
    auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    auto space = [](char c) { return c == ' ' || c == '\t'; };
    std::string out;
    std::size_t i = 0;
    while (i < line.size()) {
        if (space(line[i])) {
            while (i < line.size() && space(line[i])) ++i;
            out += ' ';
            continue;
        }
        std::size_t end = i;
        while (end < line.size() && !space(line[end])) ++end;
        std::string_view token = line.substr(i, end - i);
        std::size_t sep = token.find_first_of("/\\");
        std::string t;
        for (std::size_t k = 0; k < (sep == std::string_view::npos ? token.size() : sep);) {
            if (!hex(token[k])) {
                t += token[k++];
                continue;
            }
            std::size_t e = k;
            bool any_digit = false;
            while (e < token.size() && hex(token[e])) any_digit |= digit(token[e++]);
            if (sep != std::string_view::npos) e = std::min(e, sep);
            if (any_digit && e - k >= 7) {
                t += '0';
                k = e;
                continue;
            }
            for (; k < e;) {
                if (digit(token[k])) {
                    while (k < e && digit(token[k])) ++k;
                    t += '0';
                } else {
                    t += token[k++];
                }
            }
        }
        out += sep == std::string_view::npos ? t : "P";
        i = end;
    }
    return out;
}

TEST(Classify, EqualSignaturesMeanEqualShapesOverRandomLines) {
    std::mt19937 rng(11);
    const std::vector<std::string> templates = {"GET /api/items/# 200 #ms",
                                                "worker # handled job #",
                                                "step # done",
                                                "commit #",
                                                "[#%] Building CXX object src/unit#.cpp.o",
                                                "cache hit ratio #.#",
                                                "Downloading pkg-# (# kB)",
                                                "abc # def",
                                                "deadbeef #",
                                                "  #  spaced\tout  #"};
    auto fill = [&](const std::string& t) {
        std::string out;
        for (char c : t) {
            if (c != '#') {
                out += c;
                continue;
            }
            switch (rng() % 4) {
            case 0:
                out += std::to_string(rng() % 1000);
                break;
            case 1:
                out += std::to_string(rng());
                break;
            case 2: { // a hex id, sometimes too short or without a digit
                const char* h = "0123456789abcdef";
                for (unsigned n = 3 + rng() % 10; n > 0; --n) out += h[rng() % 16];
                break;
            }
            default:
                out += "x/y" + std::to_string(rng() % 9);
                break;
            }
        }
        return out;
    };
    std::size_t equal_shapes = 0;
    for (int round = 0; round < 20000; ++round) {
        const std::string a = fill(templates[rng() % templates.size()]);
        const std::string b = fill(templates[rng() % templates.size()]);
        const bool same = reference_shape(a) == reference_shape(b);
        equal_shapes += same;
        ASSERT_EQ(shape_signature(a) == shape_signature(b), same) << a << " | " << b;
        ASSERT_EQ(shape_signature(a + "\n"), shape_signature(a));
    }
    EXPECT_GT(equal_shapes, 500u); // the property was tested on equal pairs, not only unequal
}

TEST(Classify, LocationsAndContinuations) {
    EXPECT_TRUE(is_file_place("src/main.rs:12:5"));
    EXPECT_TRUE(is_file_place("  File \"app.py\", line 3, in f"));
    EXPECT_TRUE(is_file_place("\tat com.x.Y.run(Y.java:41)"));
    EXPECT_TRUE(is_file_place("src/a.ts(12,5): error TS2322"));
    EXPECT_FALSE(is_file_place("time 12:30 today"));
    EXPECT_TRUE(is_file_place("c:\\src\\main.cpp(12): error C2065"));
    // A call in a code excerpt (jest's, under a failure) is not a place.
    EXPECT_FALSE(is_file_place("    > 4 |   test('t', () => { expect(total([1,2])).toBe(6); });"));
    EXPECT_FALSE(is_file_place("     5 |   x.toBe(6)"));
    // OCaml's range of lines; Nim's pair with a blank, before its label (a call is none).
    EXPECT_TRUE(is_file_place("File \"m1.ml\", lines 3-4, characters 2-19:"));
    EXPECT_TRUE(is_file_place("/src/bad.nim(8, 7) Hint: 'x' is declared but not used"));
    EXPECT_TRUE(names_place("/src/bad.nim(14, 19) Error: type mismatch"));
    EXPECT_FALSE(is_file_place("  r = m.add(7, 14);"));
    EXPECT_FALSE(names_place("  r = m.add(7, 14);"));
    // A place named in words, with its file (what a TAP producer prints under `not ok`).
    EXPECT_TRUE(names_file_name("# (in test file paths.bats, line 66)"));
    EXPECT_TRUE(names_file_name("#   at t/02-title.t line 38."));
    EXPECT_TRUE(names_file_name("error in \"config.toml\": line 4"));
    EXPECT_FALSE(names_file_name("ok line 51"));
    EXPECT_FALSE(names_file_name("version 1.2 on line 3"));
    EXPECT_FALSE(names_file_name("see ./.. and ... here"));
    EXPECT_TRUE(is_continuation("   |     ^^^ expected"));
    EXPECT_TRUE(is_continuation("E       assert 1 == 2"));
    EXPECT_FALSE(is_continuation("\n"));
}

TEST(Utf8, ValidationAndBoundaries) {
    EXPECT_TRUE(valid_utf8("héllo 日本 👍"));
    EXPECT_FALSE(valid_utf8("\xc3"));
    EXPECT_FALSE(valid_utf8("\xed\xa0\x80")); // surrogate
    EXPECT_FALSE(valid_utf8("\xc0\xaf"));     // overlong
    const std::string s = "a日b";             // 日 is 3 bytes at 1..3
    EXPECT_EQ(utf8_floor(s, 2), 1u);
    EXPECT_EQ(utf8_ceil(s, 2), 4u);
    EXPECT_EQ(utf8_floor(s, 99), s.size());
    EXPECT_TRUE(looks_binary(std::string("abc\0def", 7)));
    EXPECT_FALSE(looks_binary("plain text\nwith caf\xe9 latin-1 byte\n"));
}

} // namespace
} // namespace sutra::core
