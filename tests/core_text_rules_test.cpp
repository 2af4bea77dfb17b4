// The text rewrite's fidelity rules, each over generated outputs: a compiler's subordinate notes
// are not errors of their own, a repeated error shows once, a long line keeps every error word
// it holds, a marker that hides errors counts them, and the errors a view cannot show are listed
// by the one call it gives.

#include "core/compress.hpp"
#include "core/restore.hpp"
#include "core/rewrite/classify.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/text_rewrite.hpp"
#include "core/store/store.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace sutra::core {
namespace {

using test::TempDir;

Response run(const std::string& input, const Config& c) {
    Request req;
    req.output = input;
    req.exit_code = 1;
    return compress(req, c);
}

std::size_t count_of(std::string_view hay, std::string_view needle) {
    std::size_t n = 0;
    for (std::size_t at = hay.find(needle); at != std::string_view::npos;
         at = hay.find(needle, at + 1))
        ++n;
    return n;
}

// g++ explains one error with hundreds of `note:` lines, many saying "substitution failed":
// the error stays, and the notes no longer crowd the view as errors of their own.
TEST(TextRules, CompilerNotesAreNotErrorsOfTheirOwn) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(5);
    for (int round = 0; round < 10; ++round) {
        std::string in = "main.cpp: In function 'int main()':\n"
                         "main.cpp:7:28: error: no match for 'operator<<'\n";
        const int candidates = 60 + static_cast<int>(rng() % 200);
        for (int k = 0; k < candidates; ++k) {
            const std::string at = "/usr/include/c++/12/ostream:" + std::to_string(100 + k * 7);
            in += at + ":5: note: candidate: 'template<class _Tp> operator<<(_Tp" +
                  std::to_string(k) + ")'\n";
            in += "  " + std::to_string(100 + k * 7) + " |     operator<<(_Tp __x)\n";
            in += at + ":5: note:   template argument deduction/substitution failed:\n";
            in += "main.cpp:7:31: note:   cannot convert 'o' (type 'Order') to type 'T" +
                  std::to_string(k) + "'\n";
        }
        in += "main.cpp:9:1: error: expected ';' before '}' token\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_NE(r.view.find("main.cpp:7:28: error: no match for 'operator<<'"),
                  std::string::npos);
        EXPECT_NE(r.view.find("main.cpp:9:1: error: expected ';' before '}' token"),
                  std::string::npos);
        // Under 30% of the bytes: the candidates are not all kept as critical (they were half).
        EXPECT_LT(r.view.size() * 10, in.size() * 3) << r.view.size() << " of " << in.size();
    }
}

// A hundred copies of one error line are one error: the first copy is shown, the others
// become elidable, and distinct errors around them all stay.
TEST(TextRules, ARepeatedErrorLineShowsOnceAmongDistinctOnes) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(9);
    for (int round = 0; round < 10; ++round) {
        std::string in;
        std::vector<std::string> distinct;
        const int lines = 3000 + static_cast<int>(rng() % 3000);
        for (int i = 0; i < lines; ++i) {
            if (rng() % 5 == 0)
                in += "127.0.0.1 - - code 404, message File not found\n";
            else if (rng() % 300 == 0) {
                distinct.push_back("ERROR worker " + std::to_string(i) + " lost its lease");
                in += distinct.back() + "\n";
            } else
                in += "127.0.0.1 - - \"GET /static/" + std::to_string(rng() % 100000) +
                      ".js HTTP/1.1\" 200 -\n";
        }
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        for (const auto& d : distinct) EXPECT_NE(r.view.find(d), std::string::npos) << d;
        // Every copy critical, the view would hold a thousand of them (over 40 KB).
        EXPECT_LT(count_of(r.view, "code 404, message File not found") * 5,
                  count_of(in, "code 404, message File not found"));
    }
}

// A long line keeps a window around each error word in its middle, not only its two ends; every
// gap between the windows is a marker whose range restores exactly.
TEST(TextRules, LongLinesKeepEveryErrorWordTheyHold) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    StoreOptions so;
    so.dir = resolve_store_dir(c);
    const Store store = *Store::open(so);
    std::mt19937 rng(13);
    for (int round = 0; round < 20; ++round) {
        std::string line;
        std::vector<std::string> errors;
        const int words = 4 + static_cast<int>(rng() % 4);
        for (int k = 0; k < words; ++k) {
            line += std::string(15000 + rng() % 15000, "abcdefgh"[rng() % 8]);
            errors.push_back("ERROR#" + std::to_string(rng() % 100000));
            line += " " + errors.back() + " ";
        }
        line += std::string(3000, 'z');
        const std::string in = "header\n" + line + "\nfooter done\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        for (const auto& e : errors) EXPECT_NE(r.view.find(e), std::string::npos) << e;
        ASSERT_TRUE(r.id);
        for (const auto& e : r.elisions) {
            EXPECT_EQ(e.reason, Reason::long_line);
            EXPECT_EQ(*store.read(*r.id, e.begin, e.end), in.substr(e.begin, e.end - e.begin));
        }
    }
}

// When errors alone overflow the ceiling, the markers that hide some say how many each holds,
// and those counts add up to every error not shown.
TEST(TextRules, MarkersCountTheErrorsTheyHide) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string in;
    std::vector<std::string> errors;
    for (int i = 0; i < 4000; ++i) {
        errors.push_back("src/mod" + std::to_string(i % 50) + ".ts(" + std::to_string(i) +
                         ",5): error TS7006: Parameter 'p" + std::to_string(i) +
                         "' implicitly has an 'any' type.");
        in += errors.back() + "\n";
        if (i % 3 == 0) in += "  Type 'string' is not assignable to type 'number'.\n";
    }
    const Response r = run(in, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    EXPECT_LE(r.view.size(), c.max_view_bytes);
    std::uint64_t shown = 0, counted = 0;
    for (const auto& e : errors) shown += r.view.find(e + "\n") != std::string::npos ? 1 : 0;
    for (const auto& e : r.elisions) counted += e.keys;
    EXPECT_GT(shown, 100u);
    EXPECT_EQ(shown + counted, errors.size());
    EXPECT_NE(r.view.find(" with errors"), std::string::npos);
}

// An error whose place is on the line below its header (rustc's `--> file:line:col`, a stack's
// `at file:line:col`) keeps that line with it: a hundred identical headers are a hundred errors
// at a hundred places, each place shown, even for the errors that go without context.
TEST(TextRules, AnErrorsLocationBelowItStaysWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(29);
    for (int round = 0; round < 6; ++round) {
        const bool rustc = round % 2 == 0;
        const int count = 150 + static_cast<int>(rng() % 300);
        std::string in;
        std::vector<std::string> places;
        for (int i = 0; i < count; ++i) {
            const std::string at = "src/m" + std::to_string(rng() % 9) +
                                   ".rs:" + std::to_string(i + 1) + ":" +
                                   std::to_string(1 + rng() % 60);
            if (rustc) {
                in += "error[E0308]: mismatched types\n";
                places.push_back("  --> " + at);
                in += places.back() + "\n   |\n" + std::to_string(i + 1) +
                      " |     let x: u32 = \"s\";\n   |            ^^^ expected `u32`\n\n";
            } else {
                in += "TypeError: handler is not a function\n";
                places.push_back("    at dispatch (" + at + ")");
                in += places.back() + "\n    at process (node:internal/" +
                      std::to_string(rng() % 5) + ":1:1)\n    at run (node:internal/main:9:3)\n";
            }
        }
        in +=
            "error: could not compile `bad` due to " + std::to_string(count) + " previous errors\n";
        const Response r = run(in, c);
        const std::string_view view = view_of(r, in);
        ASSERT_LE(view.size(), c.max_view_bytes) << round;
        std::size_t shown = 0;
        for (const auto& p : places) shown += view.find(p + "\n") != std::string::npos ? 1 : 0;
        EXPECT_EQ(shown, places.size()) << round;
    }
    // The same header at the same place again is one error.
    std::string twice;
    for (int i = 0; i < 400; ++i)
        twice += "error[E0308]: mismatched types\n  --> src/a.rs:7:3\nstep " + std::to_string(i) +
                 " of the build went on\n";
    const Response r = run(twice, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    EXPECT_LT(r.view.size(), twice.size() / 4);
}

// Later errors of one kind show their header and place; their code excerpts repeat the first
// few's and stay behind a short marker: the head filling the budget for other lines stops at
// them rather than show the first few dozen anyway. A notable line among them (rustc's
// "expected `u32`, found `&str`") saying what the first few said is not shown for its own sake
// either (cargo showed 45 of 700 excerpts whole for it); one in other words still is.
TEST(TextRules, ALaterErrorsRepeatedExcerptStaysFolded) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(43);
    for (int round = 0; round < 8; ++round) {
        const int count = 40 + static_cast<int>(rng() % 120);
        std::string in = "   Compiling bad v0.1.0 (/work/crate)\n";
        std::vector<std::string> places, code;
        for (int i = 0; i < count; ++i) {
            places.push_back(" --> src/main.rs:" + std::to_string(i + 2) + ":" +
                             std::to_string(15 + rng() % 9));
            code.push_back(std::to_string(i + 2) + " |     let x" + std::to_string(i) +
                           ": u32 = \"s" + std::to_string(i) + "\";");
            // rustc's own words under the caret ("expected") make those lines notable: they
            // repeat the first excerpts' all the same.
            const bool odd_one = round % 2 == 1 && i == count / 2;
            in += "error[E0308]: mismatched types\n" + places.back() + "\n  |\n" + code.back() +
                  (round % 2 == 0 ? "\n  |             ---   ^^^^ a `&str` here\n"
                                    "  |             |\n  |             a `u32` there\n\n"
                   : odd_one      ? "\n  |             ---   ^^^^ expected `i64`, found `&str`\n"
                                    "  |             |\n  |             expected due to this\n\n"
                                  : "\n  |             ---   ^^^^ expected `u32`, found `&str`\n"
                                    "  |             |\n  |             expected due to this\n\n");
        }
        in += "error: could not compile `bad` (bin \"bad\") due to " + std::to_string(count) +
              " previous errors\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const auto& p : places) EXPECT_NE(view.find("\n" + p + "\n"), std::string::npos);
        // The first three excerpts are shown, and the last (the output's tail); no other.
        std::string shown;
        for (int i = 0; i < count; ++i)
            if (view.find("\n" + code[static_cast<std::size_t>(i)] + "\n") != std::string::npos)
                shown += std::to_string(i) + " ";
        // (and in odd rounds the one whose words differ, with the lines around its words)
        EXPECT_EQ(shown, "0 1 2 " + (round % 2 == 1 ? std::to_string(count / 2) + " " : "") +
                             std::to_string(count - 1) + " ")
            << round;
        if (round % 2 == 1) {
            EXPECT_NE(view.find("^^^^ expected `i64`, found `&str`\n"), std::string::npos);
        }
        EXPECT_NE(view.find("due to " + std::to_string(count) + " previous errors"),
                  std::string::npos);
    }
}

// gfortran writes an error's place on a line of its own above it, then the quoted code and its
// caret, then the message: that line is the error's place. Errors of one wording at different
// places are different errors (none folded into another), each shown with its place.
TEST(TextRules, APlaceOnItsOwnLineAboveAnErrorIsItsPlace) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(53);
    for (int round = 0; round < 8; ++round) {
        const int files = 20 + static_cast<int>(rng() % 60);
        std::string in;
        std::vector<std::string> error_places;
        for (int f = 0; f < files; ++f) {
            const std::string file = "m" + std::to_string(100 + f) + ".f90:";
            for (int w = 0; w < 4; ++w) // warnings, each at its own place
                in += file + std::to_string(20 + w) + ":24:\n\n   " + std::to_string(20 + w) +
                      " |     integer :: k, spare" + std::to_string(w) +
                      "\n      |                        1\nWarning: Unused variable ‘spare" +
                      std::to_string(w) + "’ declared at (1) [-Wunused-variable]\n";
            if (f % 3 != 0) continue;
            const std::string line = std::to_string(40 + rng() % 9);
            error_places.push_back(file + line + ":8:");
            in += error_places.back() + "\n\n   " + line +
                  " |     r = x + 'abc'\n      |        1\nError: Operands of binary numeric "
                  "operator ‘+’ at (1) are INTEGER(4)/CHARACTER(3)\n";
        }
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const auto& p : error_places)
            EXPECT_NE(view.find(p + "\n"), std::string::npos) << p << " round " << round;
        EXPECT_EQ(count_of(view, "\nError: Operands"), error_places.size()) << round;
    }
}

// doctest -v: a failure's place is the line above `Failed example:`, and the example and what it
// got are below; each failure keeps its place and its `Got:` value among two hundred passing
// examples.
TEST(TextRules, ADoctestFailuresPlaceAboveItStaysWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(61);
    for (int round = 0; round < 6; ++round) {
        const int examples = 150 + static_cast<int>(rng() % 150);
        std::string in;
        std::vector<std::string> places, got;
        for (int e = 0; e < examples; ++e) {
            const std::string call = "    triple(" + std::to_string(e) + ")\n";
            in += "Trying:\n" + call + "Expecting:\n    " + std::to_string(3 * e) + "\n";
            if (rng() % 10 != 0) {
                in += "ok\n";
                continue;
            }
            places.push_back("File \"/src/calc.py\", line " + std::to_string(16 + 2 * e) +
                             ", in calc");
            in += "**********************************************************************\n" +
                  places.back() + "\nFailed example:\n" + call + "Expected:\n    " +
                  std::to_string(3 * e) + "\nGot:\n    " + std::to_string(3 * e + 1) + "\n";
            got.push_back("Got:\n    " + std::to_string(3 * e + 1) + "\n");
        }
        in += "1 items had failures:\n   " + std::to_string(places.size()) + " of " +
              std::to_string(examples) + " in calc\n***Test Failed*** " +
              std::to_string(places.size()) + " failures.\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const auto& p : places)
            EXPECT_NE(view.find(p + "\nFailed example:\n"), std::string::npos) << p << round;
        // And what each one got, under its label.
        for (const auto& g : got) EXPECT_NE(view.find(g), std::string::npos) << g << round;
    }
}

// perl and PHP name a message's place in words at its end, often with no error word: `"my"
// variable $v masks earlier declaration in same scope at mod023.pl line 8.`, `… in
// /srv/app/a.php on line 12`. Each is a finding, never folded among the passing files' lines.
TEST(TextRules, AMessageNamingItsFileAndLineInWordsIsAFinding) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(67);
    for (int round = 0; round < 6; ++round) {
        const bool php = round % 2 == 1;
        const int files = 800 + static_cast<int>(rng() % 400);
        std::string in;
        std::vector<std::string> findings;
        for (int f = 0; f < files; ++f) {
            const std::string name = "mod" + std::to_string(1000 + f);
            if (rng() % 8 == 0) {
                const std::string line = std::to_string(5 + rng() % 40);
                findings.push_back(
                    php ? "PHP Notice:  Undefined variable $v" + std::to_string(f) +
                              " in /srv/app/" + name + ".php on line " + line
                        : "\"my\" variable $v masks earlier declaration in same scope at " + name +
                              ".pl line " + line + ".");
                in += findings.back() + "\n";
            }
            in += php ? "No syntax errors detected in /srv/app/" + name + ".php\n"
                      : name + ".pl syntax OK\n";
        }
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        ASSERT_LT(view.size(), in.size()); // the passing files' lines fold
        for (const auto& f : findings)
            EXPECT_NE(view.find(f + "\n"), std::string::npos) << f << " round " << round;
    }
}

// mocha prints an assertion's message lines flush left between the error and its stack, so
// the stack is not in an indented block below it: the first frame in the program (not
// node:internal) is still the failure's place, shown with every failure, later ones included.
TEST(TextRules, AFailuresFirstProgramFrameAfterItsMessageIsItsPlace) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(71);
    for (int round = 0; round < 6; ++round) {
        const int failures = 20 + static_cast<int>(rng() % 40);
        std::string in = "\n  daysInMonth\n";
        for (int f = 0; f < failures; ++f)
            in += "    " + std::to_string(f + 1) + ") has 30 days in month " + std::to_string(f) +
                  "\n";
        for (int p = 0; p < 400; ++p)
            in += "    \xe2\x9c\x94 passes case " + std::to_string(p) + "\n";
        in += "\n  400 passing (25ms)\n  " + std::to_string(failures) + " failing\n\n";
        std::vector<std::string> places;
        for (int f = 0; f < failures; ++f) {
            const int got = 28 + static_cast<int>(rng() % 4);
            places.push_back("      at Context.<anonymous> (test/lib.spec.js:" +
                             std::to_string(6 + 3 * f) + ":12)");
            in += "  " + std::to_string(f + 1) + ") daysInMonth\n       has 30 days in month " +
                  std::to_string(f) +
                  ":\n\n      AssertionError [ERR_ASSERTION]: Expected values to be strictly "
                  "equal:\n\n" +
                  std::to_string(got) + " !== 30\n\n      + expected - actual\n\n      -" +
                  std::to_string(got) + "\n      +30\n      \n" + places.back() +
                  "\n      at process.processImmediate (node:internal/timers:483:21)\n\n";
        }
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const auto& p : places)
            EXPECT_NE(view.find(p + "\n"), std::string::npos) << p << " round " << round;
    }
}

// When the critical lines overflow the view, errors go before warnings: a clang -Weverything
// run with 800 located warnings and a few errors among them shows every error (and its place),
// and the warnings share what room is left.
TEST(TextRules, ErrorsAreShownBeforeWarningsWhenNotAllFit) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(59);
    for (int round = 0; round < 6; ++round) {
        const int units = 150 + static_cast<int>(rng() % 100);
        std::string in;
        std::vector<std::string> errors;
        int warnings = 0;
        for (int u = 0; u < units; ++u) {
            const std::string file = "u" + std::to_string(u) + ".c:";
            for (int w = 0; w < 5; ++w, ++warnings)
                in += file + std::to_string(10 + w) +
                      ":5: warning: no previous prototype for "
                      "function 'helper_" +
                      std::to_string(u * 7 + w) + "_with_a_long_name' [-Wmissing-prototypes]\n";
            if (rng() % 25 == 0) {
                errors.push_back(file + std::to_string(18) +
                                 ":46: error: no member named 'missing" + std::to_string(u) +
                                 "' in 'struct rec" + std::to_string(u) + "'");
                in += errors.back() + "\n";
            }
        }
        in += std::to_string(warnings) + " warnings and " + std::to_string(errors.size()) +
              " errors generated.\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        ASSERT_LE(view.size(), c.max_view_bytes);
        ASSERT_LT(count_of(view, ": warning: "), static_cast<std::size_t>(warnings)) << round;
        EXPECT_GT(count_of(view, ": warning: "), 0u) << round;
        for (const auto& e : errors)
            EXPECT_NE(view.find(e + "\n"), std::string::npos) << e << " round " << round;
        EXPECT_NE(view.find(" errors generated.\n"), std::string::npos);
    }
}

// A TAP failure's place is the line right below it, named in words: bats' `# (in test file
// paths.bats, line 66)`, perl's `#   at t/02-title.t line 38.`. Every failure's place is shown
// with it, however many failures of one kind there are.
TEST(TextRules, APlaceNamedInWordsBelowAFailureStaysWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(47);
    for (int round = 0; round < 8; ++round) {
        const bool bats = round % 2 == 0;
        const int count = 30 + static_cast<int>(rng() % 150);
        std::string in = "1.." + std::to_string(count * 2) + "\n";
        std::vector<std::string> places;
        for (int i = 0; i < count * 2; ++i) {
            const std::string n = std::to_string(i + 1);
            if (i % 2 == 0) {
                in += "ok " + n + " case " + n + " holds\n";
                continue;
            }
            const std::string line = std::to_string(10 + 4 * i);
            places.push_back(bats ? "# (in test file paths.bats, line " + line + ")"
                                  : "#   at t/0" + std::to_string(i % 7) + "-title.t line " + line +
                                        ".");
            in += "not ok " + n + " case " + n + " holds\n" + places.back() + "\n" +
                  "#   `[ \"$output\" = \"" + std::to_string(rng() % 1000) + "\" ]' failed\n";
            for (int k = 0; k < 12; ++k)
                in += "#   output line " + std::to_string(k) +
                      " of the run: " + std::to_string(rng()) + "\n";
        }
        in += "# failed " + std::to_string(count) + " of " + std::to_string(count * 2) + "\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        std::size_t shown = 0;
        for (const auto& p : places) shown += view.find("\n" + p + "\n") != std::string::npos;
        EXPECT_EQ(shown, places.size()) << round << (bats ? " bats" : " prove");
    }
}

// psql goes on after a failed statement and exits 0; each error's `DETAIL:` (and `HINT:`) below
// it, flush with it under a label in capitals, says which row or key: later errors of a kind
// keep theirs too (9 of 41 were hidden before), and an indented or unlabelled line does not.
TEST(TextRules, AnErrorsDetailsUnderCapitalLabelsStayWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(47);
    for (int round = 0; round < 6; ++round) {
        std::string in;
        std::vector<std::string> details;
        int line = 1;
        const int count = 20 + static_cast<int>(rng() % 40);
        for (int e = 0; e < count; ++e) {
            for (int k = static_cast<int>(10 + rng() % 60); k > 0; --k, ++line)
                in += "INSERT 0 1\n";
            const std::string at = "psql:load.sql:" + std::to_string(line++) + ": ERROR:  ";
            const int id = 100 + e * 7 + static_cast<int>(rng() % 5);
            if (e % 2 == 0) {
                in += at + "duplicate key value violates unique constraint \"orders_pkey\"\n";
                details.push_back("DETAIL:  Key (id)=(" + std::to_string(id) + ") already exists.");
            } else {
                in += at + "insert or update on table \"items\" violates foreign key constraint\n";
                details.push_back("DETAIL:  Key (order_id)=(" + std::to_string(id) +
                                  ") is not present in table \"orders\".");
            }
            in += details.back() + "\n";
            if (e % 5 == 0) {
                details.push_back("HINT:  Row " + std::to_string(id) + " was loaded twice.");
                in += details.back() + "\n";
            }
            in += "  CONTEXT " + std::to_string(id) + ": indented, not a detail\n";
        }
        Request req;
        req.output = in;
        req.exit_code = 0;
        const Response r = compress(req, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        std::size_t shown = 0;
        for (const auto& d : details) shown += view.find("\n" + d + "\n") != std::string::npos;
        EXPECT_EQ(shown, details.size()) << round;
        EXPECT_LT(count_of(view, ": indented, not a detail"), static_cast<std::size_t>(count))
            << round;
    }
}

// UBSan names each error's place itself (`ub2.c:8:27: runtime error: …`); the top frame right
// under it names the function (`#0 0x… in op5 /src/ub2.c:8`): shown with every error, later
// ones of a kind included (56 of 75 were hidden before); the frames below it are not.
TEST(TextRules, ALocatedErrorsTopFrameStaysWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(53);
    const std::vector<std::string> kinds = {
        "left shift of 715827882 by 30 places cannot be represented in type 'int'",
        "signed integer overflow: 715827882 + 2147483646 cannot be represented in type 'int'",
        "division by zero"};
    for (int round = 0; round < 6; ++round) {
        const int count = 20 + static_cast<int>(rng() % 60);
        std::string in = "round 0 starting\n";
        std::vector<std::string> tops;
        for (int e = 0; e < count; ++e) {
            const std::string line = std::to_string(4 + e);
            const std::string fn = "op" + std::to_string(e);
            in += "ub2.c:" + line + ":27: runtime error: " + kinds[rng() % kinds.size()] + "\n";
            tops.push_back("    #0 0x55d441fe" + std::to_string(5000 + e * 13) + " in " + fn +
                           " /src/ub2.c:" + line);
            in += tops.back() +
                  "\n    #1 0x55d441fe6fe7 in main /src/ub2.c:" + std::to_string(66 + e) +
                  "\n    #2 0x7f1ff6245249 in __libc_start_call_main "
                  "../sysdeps/nptl/libc_start_call_main.h:58\n\n";
        }
        in += "Segmentation fault\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        std::size_t shown = 0;
        for (const auto& t : tops) shown += view.find("\n" + t + "\n") != std::string::npos;
        EXPECT_EQ(shown, tops.size()) << round;
        EXPECT_LT(count_of(view, "__libc_start_call_main"), static_cast<std::size_t>(count) / 2)
            << round;
    }
}

// Maven's -e prints each `Caused by:` of a chained exception with its whole stack; the bottom
// frames each shares with the stack above say nothing new (Java itself writes `... 23 more`):
// they are elided, while every cause and the frames of its own stay. mvn -X's 20.9 KB view came
// back whole before ("not smaller"), now 11.2 KB.
TEST(TextRules, AStacksBottomFramesSharedWithTheStackAboveAreElided) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(59);
    for (int round = 0; round < 6; ++round) {
        std::vector<std::string> common;
        // Frames of real stacks differ in shape (package depth, names), so no run of them
        // folds as similar lines.
        const std::vector<std::string> parts = {"internal", "impl",    "DefaultMaven",
                                                "cli",      "builder", "LifecycleStarter"};
        for (int f = 0, n = 20 + static_cast<int>(rng() % 20); f < n; ++f) {
            std::string frame = "    at org.apache";
            for (int d = 0; d < 1 + f % 5; ++d) frame += "." + parts[(f + d) % parts.size()];
            frame += (f % 3 == 0   ? ".execute ("
                      : f % 3 == 1 ? ".<init> ("
                                   : "$1.run (") +
                     parts[f % parts.size()] + ".java:" + std::to_string(100 + f * 7) + ")";
            common.push_back(frame);
        }
        std::string in;
        for (int k = 0; k < 400; ++k)
            in += "[DEBUG] resolving artifact " + std::to_string(k) + "\n";
        in += "[ERROR] Failed to execute goal: plugin could not be resolved\n";
        std::vector<std::string> causes, own;
        const int chain = 3 + static_cast<int>(rng() % 3);
        for (int e = 0; e < chain; ++e) {
            causes.push_back(e == 0
                                 ? "org.apache.maven.plugin.PluginResolutionException: no plugin " +
                                       std::to_string(round)
                                 : "Caused by: org.eclipse.aether.Cause" + std::to_string(e) +
                                       "Exception: offline " + std::to_string(e));
            in += causes.back() + "\n";
            own.push_back("    at org.eclipse.aether.Resolver" + std::to_string(e) +
                          ".resolve (Resolver" + std::to_string(e) +
                          ".java:" + std::to_string(300 + e) + ")");
            in += own.back() + "\n";
            for (const auto& f : common) in += f + "\n";
        }
        for (int k = 0; k < 12; ++k)
            in += "[ERROR] For more information about error " + std::to_string(k) + ", read on\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const auto& l : causes) EXPECT_NE(view.find(l + "\n"), std::string::npos) << l;
        for (const auto& l : own) EXPECT_NE(view.find("\n" + l + "\n"), std::string::npos) << l;
        // The shared frames once, under the first stack.
        EXPECT_EQ(count_of(view, common.back() + "\n"), 1u) << round;
        EXPECT_EQ(count_of(view, common.front() + "\n"), 1u) << round;
    }
}

// node --test writes each failure's values in its YAML block, `expected: 50` and `actual: 51` on
// their labels' lines, 13 lines below `not ok`. "expected" is a notable word by itself: the view
// showed every expected value and 3 of 110 actual ones. Both are the failure's, shown with every
// failure, equal values under two failures included.
TEST(TextRules, AFailuresInlineValuesStayWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(61);
    for (int round = 0; round < 6; ++round) {
        const int count = 30 + static_cast<int>(rng() % 60);
        std::string in = "TAP version 13\n";
        for (int t = 0; t < count; ++t) {
            for (int k = 0; k < 4; ++k)
                in += "    ok " + std::to_string(t * 5 + k + 1) + " - price qty " +
                      std::to_string(k) + "\n      ---\n      duration_ms: 0." +
                      std::to_string(rng() % 1000) + "\n      ...\n";
            const int expected = static_cast<int>(rng() % 5) * 10;
            in +=
                "    not ok " + std::to_string(t * 5 + 5) + " - price qty " + std::to_string(t) +
                "\n      ---\n      duration_ms: 1.48\n      location: '/src/test/mod" +
                std::to_string(t) +
                ".test.js:7:10'\n      failureType: 'testCodeFailure'\n"
                "      error: |-\n        Expected values to be strictly equal:\n        \n       "
                " " +
                std::to_string(expected + 1) + " !== " + std::to_string(expected) +
                "\n        \n      code: 'ERR_ASSERTION'\n      name: 'AssertionError'\n"
                "      expected: " +
                std::to_string(expected) + "\n      actual: " + std::to_string(expected + 1) +
                "\n      operator: 'strictEqual'\n      stack: |-\n        TestContext.<anonymous> "
                "(/src/test/mod0.test.js:9:14)\n        Test.run "
                "(node:internal/test_runner/test:796:25)\n      ...\n";
        }
        in += "# tests " + std::to_string(count * 5) + "\n# fail " + std::to_string(count) + "\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        EXPECT_EQ(count_of(view, "\n      actual: "), static_cast<std::size_t>(count)) << round;
        EXPECT_EQ(count_of(view, "\n      expected: "), static_cast<std::size_t>(count)) << round;
    }
}

// unittest prints a traceback per failure; when two tests fail with the same message
// (`AssertionError: 2 != 3`), the later traceback lost its error end as "said before" while its
// `Traceback` and frames stayed (63 of 72 hidden). The last frame is the error end's place: a
// traceback always keeps its error end.
TEST(TextRules, EveryTracebackKeepsItsErrorEnd) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(67);
    const std::vector<std::string> messages = {"AssertionError: 2 != 3", "AssertionError: 11 != 12",
                                               "store.StoreError: out of stock"};
    for (int round = 0; round < 6; ++round) {
        const int count = 20 + static_cast<int>(rng() % 50);
        std::string in;
        for (int t = 0; t < count * 4; ++t)
            in += "test_case_" + std::to_string(t) + " (test_store.TestStore.test_case_" +
                  std::to_string(t) + ") ... " + (t % 4 == 0 ? "FAIL" : "ok") + "\n";
        for (int t = 0; t < count; ++t)
            in += "\n======================================================================\n"
                  "FAIL: test_case_" +
                  std::to_string(t * 4) + " (test_store.TestStore.test_case_" +
                  std::to_string(t * 4) +
                  ")\n----------------------------------------------------------------------\n"
                  "Traceback (most recent call last):\n  File \"/src/test_store.py\", line " +
                  std::to_string(100 + t * 7) + ", in test_case_" + std::to_string(t * 4) +
                  "\n    self.assertEqual(total(" + std::to_string(t) + "), 3)\n" +
                  messages[rng() % messages.size()] + "\n";
        in += "\n----------------------------------------------------------------------\nRan " +
              std::to_string(count * 4) +
              " tests in 0.012s\n\nFAILED (failures=" + std::to_string(count) + ")\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        std::size_t ends = 0;
        for (const auto& m : messages) ends += count_of(view, "\n" + m + "\n");
        EXPECT_EQ(ends, static_cast<std::size_t>(count)) << round;
    }
}

// luacheck writes each finding as `    src/m005.lua:11:10: accessing undefined variable 'x'`: a
// place in the GNU form and a message, no severity word, no code. 501 of 661 were hidden as
// plain lines; each is a finding at its place. A match listing (`path:12:5:code`, no blank after
// the column) is not.
TEST(TextRules, ARowInTheGnuFormIsAFindingWithoutASeverityWord) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(71);
    const std::vector<std::string> messages = {
        "accessing undefined variable 'total_", "unused argument 'x",
        "setting non-standard global '", "line is too long (141 > 120) near '"};
    for (int round = 0; round < 6; ++round) {
        std::string in;
        std::vector<std::string> rows;
        const int files = 200 + static_cast<int>(rng() % 200);
        for (int f = 0; f < files; ++f) {
            const std::string name = "src/m" + std::to_string(f) + ".lua";
            if (rng() % 5 != 0) {
                in += "Checking " + name + "                             OK\n";
                continue;
            }
            in += "Checking " + name + "                             2 warnings\n\n";
            for (int k = 0; k < 2; ++k) {
                rows.push_back("    " + name + ":" + std::to_string(3 + rng() % 90) + ":" +
                               std::to_string(1 + rng() % 40) + ": " +
                               messages[rng() % messages.size()] + std::to_string(f) + "'");
                in += rows.back() + "\n";
            }
            in += "\n";
        }
        in += "Total: " + std::to_string(rows.size()) + " warnings / 0 errors in " +
              std::to_string(files) + " files\n";
        const Response r = run(in, c);
        const std::string_view view = r.rewritten ? view_of(r, in) : std::string_view(in);
        std::size_t shown = 0;
        for (const auto& row : rows) shown += view.find("\n" + row + "\n") != std::string::npos;
        EXPECT_EQ(shown, rows.size()) << round;
    }
    // A listing of matches with their columns: no finding, folded as ever.
    std::string listing;
    for (int i = 0; i < 3000; ++i)
        listing += "src/file" + std::to_string(i % 40) + ".c:" + std::to_string(i + 1) +
                   ":5:    int value_" + std::to_string(i) + " = compute();\n";
    const Response r = run(listing, c);
    ASSERT_TRUE(r.rewritten);
    EXPECT_LT(view_of(r, listing).size(), listing.size() / 4);
}

// mypy --pretty wraps a long message onto the next line, flush left: `…has no attribute` over
// `"name"  [union-attr]`. That line carries the rest of the message and its code; it went with
// the excerpt under later errors of a kind (156 copies hidden). It is the error's own line.
TEST(TextRules, AMessageWrappedOntoTheLineBelowStaysWhole) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(73);
    const std::vector<std::pair<std::string, std::string>> kinds = {
        {"error: Item \"None\" of \"Optional[Item]\" has no attribute", "[union-attr]"},
        {"error: Incompatible types in assignment (expression has type", "[assignment]"},
        {"error: Argument 1 to \"price\" has incompatible type \"str\";", "[arg-type]"}};
    for (int round = 0; round < 6; ++round) {
        std::string in;
        std::vector<std::string> rests;
        const int count = 60 + static_cast<int>(rng() % 60);
        for (int e = 0; e < count; ++e) {
            const auto& kind = kinds[rng() % kinds.size()];
            const std::string module = "shop/m" + std::to_string(e) + ".py";
            in += module + ": note: In function \"use_" + std::to_string(e) + "\":\n";
            in += module + ":" + std::to_string(10 + e % 40) + ": " + kind.first + "\n";
            rests.push_back("\"field_" + std::to_string(e) + "\"  " + kind.second);
            in += rests.back() + "\n        return find(xs, \"a\").field_" + std::to_string(e) +
                  "\n               ^~~~~~~~~~~~~~~~~~~~\n";
        }
        in += "Found " + std::to_string(count) + " errors in " + std::to_string(count) +
              " files (checked 80 source files)\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        std::size_t shown = 0;
        for (const auto& rest : rests) shown += view.find("\n" + rest + "\n") != std::string::npos;
        EXPECT_EQ(shown, rests.size()) << round;
    }
}

// A line that ends with a colon announces its message below it: Rust prints every panic as
// `thread 'NAME' panicked at PLACE:` over the message, which names no error word of its own
// (`index out of bounds: …`). Each message is shown with its panic, however many there are.
TEST(TextRules, AnErrorsMessageOnTheLineBelowItStaysWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(41);
    const std::vector<std::string> words = {"index out of bounds: the len is 0 but the index is",
                                            "called `Option::unwrap()` on a `None` value at",
                                            "attempt to subtract with overflow near",
                                            "unexpected state reached in step"};
    for (int round = 0; round < 6; ++round) {
        const int count = 8 + static_cast<int>(rng() % 40);
        std::string in = "running " + std::to_string(count * 10) + " tests\n";
        std::vector<std::string> messages;
        for (int i = 0; i < count * 10; ++i)
            in += "test tests::case_" + std::to_string(i) + " ... ok\n";
        in += "\nfailures:\n\n";
        for (int i = 0; i < count; ++i) {
            messages.push_back(words[rng() % words.size()] + " " + std::to_string(rng() % 1000));
            in += "---- tests::case_" + std::to_string(i) + " stdout ----\n\nthread 'tests::case_" +
                  std::to_string(i) + "' (" + std::to_string(1000 + i) +
                  ") panicked at src/lib.rs:" + std::to_string(10 + i) + ":5:\n" + messages.back() +
                  "\nstack backtrace:\n";
            for (int f = 0; f < 12; ++f)
                in += "  " + std::to_string(f) + ": core::panicking::frame_" + std::to_string(f) +
                      "\n             at /rustc/abc/library/core/src/panicking.rs:" +
                      std::to_string(80 + f) + ":14\n";
            in += "note: Some details are omitted, run with `RUST_BACKTRACE=full`.\n\n";
        }
        in += "test result: FAILED. 0 passed; " + std::to_string(count) + " failed\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        std::size_t shown = 0;
        for (const auto& m : messages) shown += view.find("\n" + m + "\n") != std::string::npos;
        EXPECT_EQ(shown, messages.size()) << round;
    }
}

// A failure whose place is further down its indented block (jest prints the diff and a code
// excerpt, whose calls such as `toBe(6)` are not places, before the first frame; a JVM prints
// thirty frames): the block's first place is shown with it, for every failure, and the frames
// after it are not errors of their own.
TEST(TextRules, AFailuresFirstPlaceInItsBlockStaysWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(47);
    for (int round = 0; round < 4; ++round) {
        const bool jest = round % 2 == 0;
        std::string in;
        std::vector<std::string> places;
        const int failures = 40 + static_cast<int>(rng() % 60);
        for (int i = 0; i < failures; ++i) {
            const std::string line = std::to_string(3 + i);
            for (int k = 0; k < 30; ++k)
                in += "    \xe2\x9c\x93 case " + std::to_string(i * 30 + k) + " ok (1 ms)\n";
            if (jest) {
                in += "  \xe2\x97\x8f suite " + std::to_string(i % 4) + " \xe2\x80\xba case " +
                      std::to_string(i) +
                      "\n\n    expect(received).toBe(expected)\n\n"
                      "    Expected: " +
                      std::to_string(i) + "\n    Received: " + std::to_string(i + 1) + "\n\n";
                for (int k = 0; k < 5; ++k)
                    in += "      " + std::to_string(i + k) +
                          " |   test('case', () => { expect(total(" + std::to_string(k) +
                          ")).toBe(" + std::to_string(i) + "); });\n";
                places.push_back("      at Object.toBe (__tests__/lib.test.js:" + line + ":55)");
                in += "\n" + places.back() + "\n";
                in += "      at process.processTicksAndRejections (node:internal/process/"
                      "task_queues:95:5)\n\n";
            } else {
                in += "Exception in thread \"worker-" + std::to_string(i % 3) +
                      "\" java.lang.IllegalStateException: queue closed\n";
                places.push_back("\tat com.example.Queue.take(Queue.java:" + line + ")");
                in += places.back() + "\n";
                for (int k = 0; k < 30; ++k)
                    in += "\tat com.example.Frame" + std::to_string(k) + ".run(Frame" +
                          std::to_string(k) + ".java:" + std::to_string(10 + k) + ")\n";
            }
        }
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        std::size_t shown = 0;
        for (const auto& p : places) shown += r.view.find(p + "\n") != std::string::npos;
        EXPECT_EQ(shown, places.size()) << round;
        // The frames after the first place stay context, not errors: most of them go.
        if (!jest) {
            EXPECT_LT(r.view.size(), in.size() / 4) << round;
        }
    }
}

// Linters that name a finding's severity by a label or a code rather than a word (cppcheck's
// `style:`, pylint's `E1120:`, flake8's `E711`, rubocop's `C:`) or by a mark (stylelint's `✖`):
// among thousands of progress lines, every finding stays, and a compiler's notes, a grep of
// `file:12:text` and a label without a column are not findings.
TEST(TextRules, FindingsNamedByALabelACodeOrAMarkAreKept) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(41);
    const std::vector<std::string> labels = {
        "style: Variable 'x' is reassigned",
        "portability: Returning an integer",
        "performance: Function parameter passed by value",
        "E1120: No value for argument 'response'",
        "W0611: Unused import os (unused-import)",
        "E711 comparison to None should be 'if cond is None:'",
        "C: [Correctable] Style/StringLiterals: Prefer single"};
    for (int round = 0; round < 6; ++round) {
        std::string in;
        std::vector<std::string> findings;
        const int count = 300 + static_cast<int>(rng() % 300);
        for (int i = 0; i < count; ++i) {
            for (int k = 0; k < 3; ++k)
                in += "Checking src/part" + std::to_string(i) + "_" + std::to_string(k) +
                      ".c: config=" + std::to_string(rng() % 9) + "...\n";
            findings.push_back("src/m" + std::to_string(rng() % 30) +
                               ".c:" + std::to_string(1 + rng() % 900) + ":" +
                               std::to_string(1 + rng() % 80) + ": " +
                               labels[rng() % labels.size()] + " " + std::to_string(i));
            in += findings.back() + "\n";
            in += "include/api.h:" + std::to_string(rng() % 500) + ":3: note: declared here\n";
        }
        in += "Checked " + std::to_string(count * 3) + " files\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        std::size_t shown = 0;
        for (const auto& f : findings) shown += r.view.find(f + "\n") != std::string::npos;
        EXPECT_EQ(shown, findings.size()) << round;
        EXPECT_LT(r.view.size(), in.size() * 2 / 3) << round; // the progress lines go
    }
    // Marks: a stylish row with `✖` is an error, one with `⚠` a located warning.
    std::string in;
    std::vector<std::string> rows;
    for (int i = 0; i < 300; ++i) in += "building chunk " + std::to_string(i) + " of the bundle\n";
    in += "css/site.css\n";
    for (int i = 0; i < 40; ++i) {
        rows.push_back("  " + std::to_string(10 + i * 3) + ":5  " +
                       (i % 2 ? "\xe2\x9c\x96" : "\xe2\x9a\xa0") + "  Unexpected unit rule-" +
                       std::to_string(i));
        in += rows.back() + "\n";
    }
    for (int i = 300; i < 600; ++i)
        in += "building chunk " + std::to_string(i) + " of the bundle\n";
    const Response marks = run(in, c);
    ASSERT_TRUE(marks.rewritten) << marks.passthrough;
    for (const auto& row : rows) EXPECT_NE(marks.view.find(row + "\n"), std::string::npos) << row;

    // Not findings: notes, a grep's `file:12:text`, a label with no column.
    std::string plain;
    for (int i = 0; i < 2000; ++i)
        plain += "src/a" + std::to_string(i % 7) + ".c:" + std::to_string(i) +
                 (i % 3 == 0   ? ":4: note: candidate here"
                  : i % 3 == 1 ? ":all: build target"
                               : ":    x = compute(" + std::to_string(i) + ");") +
                 "\n";
    const LineIndex lines = index_lines(plain);
    EXPECT_TRUE(critical_lines(plain, lines, KeyMatcher{}).empty());
}

// An indented error sits under the line that says what it is about: a stylish linter's rows
// under their file's name, shellcheck's finding under its code line and `In FILE line N:`, a
// test runner's assertion under the test's name. Whichever rows a view shows, each is shown
// under its own file; a warning under a place is a located warning; and the same assertion
// under two test names is two failures.
TEST(TextRules, AnIndentedErrorKeepsTheLinesItSitsUnder) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(43);
    for (int round = 0; round < 6; ++round) {
        // Stylish: files with runs of rows, more than the ceiling holds.
        std::string in;
        std::vector<std::pair<std::string, std::string>> rows; // (file, row)
        const int files = 3 + static_cast<int>(rng() % 8);
        for (int f = 0; f < files; ++f) {
            const std::string file = "../css/sheet-" + std::to_string(f) + ".css";
            in += file + "\n";
            const int n = 50 + static_cast<int>(rng() % 500);
            for (int i = 0; i < n; ++i) {
                rows.emplace_back(file, "  " + std::to_string(i + 1) + ":" +
                                            std::to_string(1 + rng() % 40) +
                                            "  \xe2\x9c\x96  Unexpected vendor prefix \"-webkit-" +
                                            std::to_string(rng() % 1000) + "\"   prefix-rule");
                in += rows.back().second + "\n";
            }
            in += "\n";
        }
        in += "\xe2\x9c\x96 " + std::to_string(rows.size()) + " problems\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_LE(r.view.size(), c.max_view_bytes);
        std::size_t shown = 0;
        for (const auto& [file, row] : rows) {
            const std::size_t at = r.view.find(row + "\n");
            if (at == std::string::npos) continue;
            ++shown;
            // The nearest line above it that is not a row or a marker is its file's name.
            std::size_t end = at;
            std::string above;
            while (end > 0) {
                const std::size_t begin = r.view.rfind('\n', end - 2);
                const std::string line =
                    r.view.substr(begin == std::string::npos ? 0 : begin + 1,
                                  end - (begin == std::string::npos ? 0 : begin + 1) - 1);
                if (line.rfind("  ", 0) != 0 && line.rfind("[sutra:", 0) != 0) {
                    above = line;
                    break;
                }
                if (begin == std::string::npos) break;
                end = begin + 1;
            }
            ASSERT_EQ(above, file) << row;
        }
        EXPECT_GT(shown, 50u) << round;
    }

    // shellcheck's tty format: every warning is shown with its place.
    std::string sc;
    std::vector<std::string> headers;
    for (int i = 0; i < 120; ++i) {
        headers.push_back("In /usr/bin/tool" + std::to_string(i % 5) + " line " +
                          std::to_string(10 + i * 7) + ":");
        sc += "\n" + headers.back() + "\n";
        sc += "    eval $(apt-config shell VAR_" + std::to_string(i) + " Dir)\n";
        sc += i % 4 == 0 ? "         ^-- SC2046 (warning): Quote this to prevent word splitting.\n"
                         : "         ^-- SC2086 (info): Double quote to prevent globbing.\n";
        sc +=
            "\nDid you mean:\n    eval \"$(apt-config shell VAR_" + std::to_string(i) + " Dir)\"\n";
    }
    sc += "\nFor more information:\n  https://www.shellcheck.net/wiki/SC2046\n";
    const Response r = run(sc, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    for (std::size_t i = 0; i < headers.size(); i += 4) {
        const std::size_t at = r.view.find(headers[i] + "\n");
        ASSERT_NE(at, std::string::npos) << headers[i];
        EXPECT_NE(r.view.find("SC2046 (warning)", at), std::string::npos) << headers[i];
    }

    // mocha: one assertion message under many test names is many failures.
    std::string mocha;
    for (int i = 1; i <= 48; ++i)
        mocha += "  " + std::to_string(i) + ") suite " + std::to_string(i % 4) + "\n       case " +
                 std::to_string(i) +
                 " total:\n\n      AssertionError [ERR_ASSERTION]: Expected "
                 "values to be strictly equal:\n\n" +
                 std::to_string(i + 5) + " !== " + std::to_string(i + 6) +
                 "\n\n      at Context.<anonymous> (test/lib.spec.js:" + std::to_string(i) +
                 ":52)\n      at process.processImmediate "
                 "(node:internal/timers:483:21)\n\n";
    for (int i = 0; i < 200; ++i) mocha += "    \xe2\x9c\x94 case " + std::to_string(i) + " ok\n";
    const Response m = run(mocha, c);
    ASSERT_TRUE(m.rewritten) << m.passthrough;
    EXPECT_EQ(count_of(m.view, "AssertionError [ERR_ASSERTION]"), 48u);

    // A place far up the paragraph (the first line of a log with no blank line) is not the place
    // of a warning hundreds of lines below: that warning stays a plain warning.
    std::string log = "server.py:12: starting\n";
    for (int i = 0; i < 500; ++i) log += "  step " + std::to_string(i) + " ok\n";
    log += "    warning: disk 91% full\n";
    const LineIndex log_lines = index_lines(log);
    EXPECT_TRUE(critical_lines(log, log_lines, KeyMatcher{}).empty());
    for (int i = 1; i <= 48; ++i)
        EXPECT_NE(m.view.find("  " + std::to_string(i) + ") suite"), std::string::npos) << i;
}

// When the error lines alone overflow the ceiling, one line after the view counts those the
// markers hide and names the call that lists them all; that call, paged, lists exactly the
// output's error lines, each as the original has it. A view that shows every error has no
// such line. Both dialects.
TEST(TextRules, ErrorsThatDoNotFitAreListedByOneCall) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(17);
    for (int round = 0; round < 8; ++round) {
        const bool mcp = round % 2 == 1;
        const int count = round < 6 ? 900 + static_cast<int>(rng() % 1500) : 100;
        std::string in;
        std::vector<std::string> errors;
        for (int i = 0; i < count; ++i) {
            errors.push_back("lib/m" + std::to_string(rng() % 40) + ".js(" + std::to_string(i) +
                             "," + std::to_string(rng() % 80) + "): error TS" +
                             std::to_string(2000 + rng() % 6000) + ": Parameter 'p" +
                             std::to_string(i) + "' implicitly has an 'any' type.");
            in += errors.back() + "\n";
            for (unsigned k = rng() % 3; k > 0; --k)
                in += "  Type '" + std::to_string(rng()) + "' is not assignable here.\n";
        }
        if (round >= 6) // errors that fit, among plenty of noise
            for (int k = 0; k < 3000; ++k) in += "step " + std::to_string(k) + " ok\n";
        in += "Found " + std::to_string(count) + " errors.\n";
        Request req;
        req.output = in;
        req.exit_code = 2;
        if (mcp) req.route.kind = RestoreRoute::Kind::mcp;
        const Response r = compress(req, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        ASSERT_TRUE(r.id);
        EXPECT_LE(r.view.size(), c.max_view_bytes);
        std::size_t shown = 0;
        for (const auto& e : errors) shown += r.view.find(e + "\n") != std::string::npos ? 1 : 0;
        const std::string call = mcp ? "sutra_restore(id=\"" + *r.id + "\", mode=\"critical\")"
                                     : "sutra restore " + *r.id + " --critical";
        if (round >= 6) {
            EXPECT_EQ(shown, errors.size());
            EXPECT_EQ(r.view.find("--critical"), std::string::npos) << round;
            EXPECT_EQ(r.view.find("mode=\"critical\""), std::string::npos) << round;
            continue;
        }
        EXPECT_NE(r.view.find("[sutra: " + std::to_string(errors.size() - shown) + " of the " +
                              std::to_string(errors.size() + 1) + " lines with errors"),
                  std::string::npos)
            << round; // + 1: "Found N errors." is a verdict line with an error word
        EXPECT_NE(r.view.find(call + "]"), std::string::npos) << round;

        RestoreRequest rq;
        rq.query.id = *r.id;
        rq.query.mode = RestoreMode::critical;
        rq.query.max_bytes = 1500 + rng() % 3000;
        std::vector<std::string> listed;
        for (int page = 0; page < 10000; ++page) {
            auto got = restore(rq, c);
            ASSERT_TRUE(got) << got.error().message;
            std::string_view text = got->result.text;
            while (!text.empty()) {
                const std::size_t eol = text.find('\n');
                listed.emplace_back(text.substr(text.find(':') + 1, eol - text.find(':') - 1));
                text.remove_prefix(eol + 1);
            }
            if (!got->result.next_lines) break;
            EXPECT_NE(got->note.find("next: sutra restore " + *r.id + " --critical --lines "),
                      std::string::npos);
            rq.query.start = got->result.next_lines->first;
            rq.query.end = got->result.next_lines->second;
        }
        ASSERT_EQ(listed.size(), errors.size() + 1) << round;
        for (std::size_t i = 0; i < errors.size(); ++i) ASSERT_EQ(listed[i], errors[i]) << round;
        EXPECT_EQ(listed.back(), "Found " + std::to_string(count) + " errors.");
    }
}

// Test runners' failures, each with what tells it apart: phpunit's numbered title over its error
// and the places listed alone after it; rspec's `Failure/Error:` label (a slash, yet no path);
// vitest's `×` mark among `✓` lines and its `❯ file:line:col` frame; go test -v's located
// message above its `--- FAIL:` verdict and a panic's first frame in the program. Before, these
// were hidden (phpunit's 8.8 KB run showed 41 of 50 failures without their test's name).
TEST(TextRules, EveryFailedTestKeepsItsNameAndPlace) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(61);
    for (int round = 0; round < 4; ++round) {
        const int count = 30 + static_cast<int>(rng() % 40);
        std::vector<std::string> must;
        std::string php = "PHPUnit 9.6.7\n\nThere were " + std::to_string(count) + " errors:\n\n";
        std::string rspec; // --format documentation: a line per passing example first
        for (int p = 0; p < 1500; ++p) rspec += "  Calc adds " + std::to_string(p) + " and 1\n";
        rspec += "\nFailures:\n\n";
        std::string vitest;
        std::string go;
        std::string testdox = "PHPUnit 9.6.7\n\n";
        for (int e = 0; e < count; ++e) {
            const std::string k = std::to_string(e + 1), v = std::to_string(rng() % 90 + 10);
            // phpunit
            const std::string title = k + ") Cart" + k + "Test::testBadType";
            const std::string place = "/p/tests/Cart" + k + "Test.php:" + v;
            php += title + "\nTypeError: Cart::add(): Argument #2 ($qty) must be of type int\n\n" +
                   "/p/src/Cart.php:4\n" + place + "\n\n";
            must.push_back(title);
            must.push_back(place);
            // rspec
            const std::string label =
                "     Failure/Error: expect(calc.add(" + k + ", 1)).to eq(" + v + ")";
            const std::string frame =
                "     # ./spec/calc" + k + "_spec.rb:" + v + ":in `block (2 levels)'";
            rspec += "  " + k + ") Calc adds " + k + "\n" + label + "\n\n       expected: " + v +
                     "\n            got: 1\n\n" + "       (compared using ==)\n" + frame + "\n\n";
            must.push_back(label);
            must.push_back(frame);
            // vitest
            for (int p = 0; p < 12; ++p)
                vitest += " \xe2\x9c\x93 test/lib.test.js > slug > sample " + k + "." +
                          std::to_string(p) + " 0ms\n";
            const std::string cross = " \xc3\x97 test/lib.test.js > slug > sample " + k + " 13ms";
            vitest += cross + "\n";
            must.push_back(cross);
            // go test -v
            const std::string msg = "    pkg_test.go:" + v + ": Lookup(k" + k + ") = 1, want 2";
            for (int p = 0; p < 10; ++p)
                go += "=== RUN   TestOk" + k + "x" + std::to_string(p) + "\n--- PASS: TestOk" + k +
                      "x" + std::to_string(p) + " (0.00s)\n";
            go += "=== RUN   TestLookup" + k + "\n" + msg + "\n--- FAIL: TestLookup" + k +
                  " (0.00s)\n";
            must.push_back(msg);
            // phpunit --testdox: a failure drawn in a gutter, its place after the diff
            testdox += "Cart" + k + "\n";
            for (int p = 0; p < 12; ++p)
                testdox += " \xe2\x9c\x94 Total " + std::to_string(p) + "\n";
            const std::string gutter_place = "   \xe2\x94\x82 /p/tests/Cart" + k + "Test.php:" + v;
            testdox +=
                " \xe2\x9c\x98 Skus\n   \xe2\x94\x82\n   \xe2\x94\x82 Failed asserting that "
                "two arrays are identical.\n   \xe2\x94\x82 --- Expected\n   \xe2\x94\x82 +++ "
                "Actual\n   \xe2\x94\x82 -    0 => 'b'\n   \xe2\x94\x82 +    0 => 'a'\n   "
                "\xe2\x94\x82\n" +
                gutter_place + "\n   \xe2\x94\x82\n\n";
            must.push_back(gutter_place);
        }
        vitest += "\n\xe2\x8e\xaf\xe2\x8e\xaf Failed Tests\n\n FAIL  test/lib.test.js > slug\n"
                  "AssertionError: expected 'a' to be 'b' // Object.is equality\n\n"
                  "Expected: \"b\"\nReceived: \"a\"\n\n \xe2\x9d\xaf test/lib.test.js:24:67\n"
                  "     22|   it('x', () => {\n";
        must.push_back(" \xe2\x9d\xaf test/lib.test.js:24:67");
        go +=
            "=== RUN   TestIndex\n--- FAIL: TestIndex (0.00s)\n"
            "panic: runtime error: index out of range [5] with length 3 [recovered]\n"
            "\tpanic: runtime error: index out of range [5] with length 3\n\n"
            "goroutine 64 [running]:\ntesting.tRunner.func1.2({0x51cbc0, 0xc0000d4060})\n"
            "\t/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e\n"
            "panic({0x51cbc0, 0xc0000d4060})\n\t/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212\n"
            "example.com/gop/pkg48.Index(...)\n\t/src/gop/pkg48/pkg.go:31\n"
            "FAIL\texample.com/gop/pkg48\t0.035s\n";
        must.push_back("\t/src/gop/pkg48/pkg.go:31");
        for (const std::string* in : {&php, &rspec, &vitest, &go, &testdox}) {
            const Response r = run(*in, c);
            // A run of failures alone may pass whole, every line shown; the others may not.
            if (!r.rewritten && in == &php) continue;
            ASSERT_TRUE(r.rewritten) << r.passthrough;
            const std::string view = "\n" + std::string(view_of(r, *in));
            for (const std::string& line : must) {
                if (in->find("\n" + line + "\n") == std::string::npos) continue; // another runner's
                EXPECT_NE(view.find("\n" + line + "\n"), std::string::npos)
                    << round << ": " << line;
            }
        }
    }
}

// A `×` or `⨯` counts as a failed test's mark only as a line's first mark: `3 × 4` in a message
// is no failure.
TEST(TextRules, AFailureMarkCountsOnlyAtTheStartOfALine) {
    const KeyMatcher keys;
    EXPECT_EQ(keys.level(" \xc3\x97 test/a.test.js > sums 3ms"), Level::critical);
    EXPECT_EQ(keys.level("\t\xe2\xa8\xaf tests/test_a.py::test_sum"), Level::critical);
    EXPECT_EQ(keys.level("matrix is 3 \xc3\x97 4 cells"), Level::none);
    EXPECT_EQ(keys.level("     Failure/Error: expect(x).to eq(3)"), Level::critical);
    EXPECT_NE(keys.level("compiling src/Failure/Error.cpp"), Level::critical);
    // A label that opens with the word: verilator's `%Warning-WIDTH:`, `%Error-PINMISSING:`.
    EXPECT_EQ(keys.level("%Warning-WIDTH: rtl/a.v:16:19: Operator ADD expects 16 bits"),
              Level::notable);
    EXPECT_EQ(keys.level("%Error-PINMISSING: rtl/top.v:4:3: Cell has missing pin"),
              Level::critical);
    EXPECT_NE(keys.level("libgpg-error0: installed"), Level::critical);
}

// When the errors alone pass the ceiling, the run's closing lines still stay: sphinx's `build
// succeeded, 861 warnings.` sat two lines above its last line and was hidden.
TEST(TextRules, TheClosingVerdictStaysWhenErrorsPassTheCeiling) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int count : {2000, 5000}) {
        std::string in = "Running Sphinx v5.3.0\n";
        for (int e = 0; e < count; ++e)
            in += "/src/page" + std::to_string(e) + ".rst:6: WARNING: unknown document: 'x" +
                  std::to_string(e) + "'\n";
        const std::string verdict = "build succeeded, " + std::to_string(count) + " warnings.";
        in += "dumping object inventory... done\n" + verdict + "\n\nThe HTML pages are in build.\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        EXPECT_LE(view.size(), c.max_view_bytes);
        EXPECT_NE(view.find("\n" + verdict + "\n"), std::string::npos) << count;
    }
}

// The view's count of error lines is the count `restore --critical` lists: pyright's rows sit
// under their file's name, which the listing gives with them; the view said "889" where the
// listing said "1089".
TEST(TextRules, TheViewCountsTheLinesTheCriticalListingGives) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string in = "Running pyright\n";
    for (int f = 0; f < 400; ++f) {
        const std::string file = "/p/pkg/mod" + std::to_string(f) + ".py";
        in += file + "\n";
        for (int e = 0; e < 4; ++e)
            in += "  " + file + ":" + std::to_string(13 + e) + ":12 - error: Type \"float\" is " +
                  "not assignable to return type \"int\" (reportReturnType)\n";
    }
    in += "1600 errors, 0 warnings, 0 informations\n";
    const Response r = run(in, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    const std::string_view view = view_of(r, in);
    const std::size_t at = view.find("list all ");
    ASSERT_NE(at, std::string_view::npos);
    const std::size_t listed = critical_lines(in, index_lines(in), KeyMatcher()).size();
    EXPECT_EQ(std::string(view.substr(at + 9, view.find(':', at) - at - 9)),
              std::to_string(listed));
    EXPECT_GT(listed, 1600u); // the rows and the files' names
}

// eunit prints a failed assertion as an Erlang term over several lines (`**error:{assertEqual,
// [{module,m},` then `{line,6},`, `{expected,26},`, `{value,25}]}`): the lines that close the
// term are the error's own, so every failure keeps its line and what it got, however many of
// one wording there are. erlc quotes the source under each warning behind `%    3| `: quoted
// code, whose `?assertEqual` is no error word, so the warnings themselves stay in view.
TEST(TextRules, AnErrorsOpenTermAndAQuotedExcerptKeepTheirRoles) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(83);
    for (int round = 0; round < 4; ++round) {
        const int count = 40 + static_cast<int>(rng() % 60);
        std::string eunit, erlc;
        std::vector<std::string> lines, values, warnings;
        for (int t = 0; t < count; ++t) {
            const std::string mod = "ledger" + std::to_string(t) + "_tests";
            const std::string line = std::to_string(3 + rng() % 40);
            const std::string value = std::to_string(rng() % 9000);
            eunit += mod + ": split_test...*failed*\nin function " + mod + ":split_test/0 (src/" +
                     mod + ".erl, line " + line + ")\n" +
                     "in call from eunit_test:run_testfun/1 (eunit_test.erl, line 71)\n"
                     "in call from eunit_proc:run_test/1 (eunit_proc.erl, line 531)\n"
                     "in call from eunit_proc:with_timeout/3 (eunit_proc.erl, line 356)\n"
                     "in call from eunit_proc:handle_test/2 (eunit_proc.erl, line 514)\n"
                     "in call from eunit_proc:tests_inorder/3 (eunit_proc.erl, line 456)\n"
                     "**error:{assertEqual,[{module," +
                     mod + "},\n              {line," + line +
                     "},\n              {expression,\"money : split ( 126 , 5 )\"},\n" +
                     "              {expected,26},\n              {value," + value +
                     "}]}\n  output:<<\"\">>\n\n";
            lines.push_back("{line," + line + "},\n");
            values.push_back("{value," + value + "}]}\n");
            const std::string w = "src/" + mod + ".erl:" + line + ":19: Warning: variable 'U" +
                                  std::to_string(t) + "' is unused\n";
            erlc += w + "%   " + line + "| t() -> U" + std::to_string(t) +
                    " = 1, ?assertEqual(301, money:split(602, 2)).\n%     |       ^\n\n";
            warnings.push_back(w);
        }
        eunit += "  Failed: " + std::to_string(count) + ".  Skipped: 0.  Passed: 400.\n";
        for (const auto& [in, wanted] :
             {std::pair{eunit, lines}, std::pair{eunit, values}, std::pair{erlc, warnings}}) {
            const Response r = run(in, c);
            ASSERT_TRUE(r.rewritten) << r.passthrough;
            const std::string_view view = view_of(r, in);
            for (const std::string& w : wanted)
                EXPECT_NE(view.find(w), std::string_view::npos) << round << ": " << w;
        }
    }
}

// oxlint (miette's report format) opens each report with its rule as a call, `  ! eslint(
// no-debugger): …`, and gives its place in the block below, `   ,-[src/a.js:8:3]`, over a code
// excerpt: a finding with its place, with no error word (194 of them showed 20 before). The
// excerpt's last line, just above the next report, is quoted code: no finding sits under it.
TEST(TextRules, AReportOpeningWithItsRuleAsACallIsAFinding) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(97);
    const char* rules[] = {"eslint(no-debugger): `debugger` statement is not allowed",
                           "eslint(no-unreachable): Unreachable code.",
                           "eslint(no-dupe-keys): Duplicate key 'a'",
                           "typescript-eslint(no-unused-vars): Variable 'x' is never used."};
    for (int round = 0; round < 4; ++round) {
        const int count = 80 + static_cast<int>(rng() % 120);
        std::string in;
        std::vector<std::string> wanted;
        for (int f = 0; f < count; ++f) {
            const std::string header = std::string("  ! ") + rules[rng() % 4] + "\n";
            const int line = 3 + static_cast<int>(rng() % 40);
            const std::string place = "   ,-[src/mod" + std::to_string(f % 7) + "/file" +
                                      std::to_string(f) + ".js:" + std::to_string(line) + ":3]\n";
            in += header + place + " " + std::to_string(line - 1) + " |   }\n " +
                  std::to_string(line) + " |   debugger;\n   :   ^^^^^^^^^\n " +
                  std::to_string(line + 1) + " |   if (total > limit) { return limit; }\n" +
                  "   `----\n  help: Remove the debugger statement\n\n";
            wanted.push_back(header);
            wanted.push_back(place);
        }
        in += "Found " + std::to_string(count) + " warnings and 0 errors.\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const std::string& w : wanted)
            EXPECT_NE(view.find(w), std::string_view::npos) << round << ": " << w;
        const LineIndex lines = index_lines(in);
        for (const std::size_t i : critical_lines(in, lines, KeyMatcher()))
            EXPECT_EQ(std::string_view(in)
                          .substr(lines.begin(i), lines.end(i) - lines.begin(i))
                          .find(" | "),
                      std::string_view::npos)
                << i;
    }
}

// jasmine lists its failures under `Failures:` as `1) module3 pricing prices 308 units`, then
// `  Message:` over `    Expected 27692.28 to equal 30769.2.` and the stack: no error word in
// most of them, and the titles alike but for their numbers (219 of 226 were hidden). A
// failures list's numbered titles are failed tests; the message under `Message:` and the
// first frame in the program are each one's own.
TEST(TextRules, AFailuresListsNumberedTitlesKeepTheirMessagesAndPlaces) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(101);
    for (int round = 0; round < 4; ++round) {
        const int count = 60 + static_cast<int>(rng() % 120);
        std::string in = "Started\n" + std::string(2000, '.') + "\n\nFailures:\n";
        std::vector<std::string> wanted;
        for (int f = 1; f <= count; ++f) {
            const std::string title = std::to_string(f) + ") module" + std::to_string(f) +
                                      " pricing prices 308 units at " + std::to_string(100 + f) +
                                      " with 10% off\n";
            // An error line that reads as a heading (`…: … equal:`) opens no list of its own.
            const unsigned pick = rng() % 4;
            const std::string message =
                pick == 0   ? std::string("    Expected $.currency = undefined to equal 'EUR'.\n")
                : pick == 1 ? std::string("    AssertionError [ERR_ASSERTION]: Expected values "
                                          "to be strictly equal:\n")
                            : "    Expected " + std::to_string(rng() % 90000) + ".28 to equal " +
                                  std::to_string(rng() % 90000) + ".2.\n";
            const std::string frame = "        at UserContext.<anonymous> (/p/spec/module" +
                                      std::to_string(f) +
                                      "Spec.js:" + std::to_string(3 + rng() % 60) + ":34)\n";
            in += title + "  Message:\n" + message + "  Stack:\n        at <Jasmine>\n" + frame +
                  "        at <Jasmine>\n        at processTicksAndRejections "
                  "(node:internal/process/task_queues:95:5)\n        at async Promise.all "
                  "(index 0)\n\n";
            wanted.push_back(title);
            wanted.push_back(frame);
            if (pick > 1) wanted.push_back(message);
        }
        in += "1000 specs, " + std::to_string(count) + " failures\nRandomized with seed 42\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const std::string& w : wanted)
            EXPECT_NE(view.find(w), std::string_view::npos) << round << ": " << w;
    }
}

// ava prints each failed test as its title, its place alone between blank lines, a numbered code
// excerpt, `Difference (- actual, + expected):` over the diff, and `› test/x.js:22:5`; node-tap
// as `✖ title`, its place, an excerpt and a unified diff (`--- expected`, `+++ actual`, `@@`).
// No line holds an error word (206 of 374 must-keep lines were absent). The place alone, the
// title right above it, the diff and the `›` frame are the failure's; a diff of values the
// failure already said (mocha's `31 !== 30` over `-31`, `+30`) stays folded.
TEST(TextRules, AFailuresPlaceAloneItsTitleAndItsDiffAreKept) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(103);
    for (int round = 0; round < 4; ++round) {
        const int count = 40 + static_cast<int>(rng() % 40);
        std::string ava, tap, mocha;
        std::vector<std::string> ava_wanted, tap_wanted;
        for (int t = 0; t < 400; ++t)
            ava += "  \xe2\x9c\x94 stats" + std::to_string(t) + " \xe2\x80\xba mean of 5 values\n";
        ava += "  \xe2\x94\x80\n\n";
        for (int f = 0; f < count; ++f) {
            const std::string file = "test/stats" + std::to_string(f) + ".test.js";
            const std::string line = std::to_string(4 + rng() % 40);
            const std::string got = std::to_string(rng() % 900), want = std::to_string(rng() % 900);
            const std::string title = "  stats" + std::to_string(f) + " \xe2\x80\xba median of 4 " +
                                      "values starting at " + std::to_string(f) + "\n";
            const std::string place = "  " + file + ":" + line + "\n";
            const std::string frame = "  \xe2\x80\xba " + file + ":" + line + ":5\n";
            const std::string pad(40, ' ');
            ava += "\n\n" + title + "\n" + place + "\n   20: test('median of 4 values', t => {" +
                   pad + "\n   " + line + ":   t.is(median([" + got + "]), " + want + ");" + pad +
                   "\n   22: });" + pad + pad + "\n\n  Difference (- actual, + expected):\n\n  - " +
                   got + "\n  + " + want + "\n\n" + frame + "\n";
            ava_wanted.insert(ava_wanted.end(),
                              {title, place, "  - " + got + "\n", "  + " + want + "\n", frame});
            const std::string mark =
                "\xe2\x9c\x96 slug case " + std::to_string(f) + " > should be equal\n";
            tap += mark + "  " + file + "\n   3 t.test('slug', t => { t.equal(slug('Q" + got +
                   "'), 'q-" + want + "');\n   \xe2\x94\x81\xe2\x94\x81\xe2\x94\x9b\n" +
                   "  --- expected\n  +++ actual\n  @@ -1,1 +1,1 @@\n  -q-" + want + "\n  +q" +
                   got + "\n  compare: ===\n  Test.<anonymous> (" + file + ":3:32)\n" +
                   "  Object.<anonymous> (" + file + ":3:3)\n\n";
            tap_wanted.insert(tap_wanted.end(), {mark, "  -q-" + want + "\n", "  +q" + got + "\n"});
            mocha += "  " + std::to_string(f + 1) + ") daysInMonth\n       has " + want +
                     " days:\n\n      AssertionError [ERR_ASSERTION]: Expected values to be "
                     "strictly equal:\n\n" +
                     got + " !== " + want + "\n\n      + expected - actual\n\n      -" + got +
                     "\n      +" + want + "\n      \n      at Context.<anonymous> (test/lib.spec" +
                     ".js:" + line + ":12)\n      at process.processImmediate " +
                     "(node:internal/timers:483:21)\n\n";
        }
        ava += "  " + std::to_string(count) + " tests failed\n";
        tap += "Asserts:  77 pass  " + std::to_string(count) + " fail\n";
        mocha = "  " + std::to_string(count) + " failing\n\n" + mocha;
        for (const auto& [in, wanted] : {std::pair{ava, ava_wanted}, std::pair{tap, tap_wanted}}) {
            const Response r = run(in, c);
            ASSERT_TRUE(r.rewritten) << r.passthrough;
            const std::string_view view = view_of(r, in);
            for (const std::string& w : wanted)
                EXPECT_NE(view.find(w), std::string_view::npos) << round << ": " << w;
        }
        const Response r = run(mocha, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_LT(count_of(view_of(r, mocha), "+ expected - actual"), 5u) << round;
    }
}

// htmlhint names each file alone on a line, then per finding its row, `      L11 |<p>…`, and
// under it a caret and the message ending with the rule's name, `(tag-pair)`, `(id-unique)`,
// with or without an error word. The file's path heads every finding under it, and a message
// ending with its rule's name under a file is a finding (93 of 336 lines were absent).
TEST(TextRules, FindingsUnderAFilesPathKeepItAndTheirRuleNames) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(107);
    const char* messages[] = {
        "^ Tag must be paired, missing: [ </b> ], start tag match failed [ <b> ] on line 11. "
        "(tag-pair)",
        "^ The id value [ main ] must be unique. (id-unique)",
        "^ <title> must be present in <head> tag. (title-require)",
        "^ The value of attribute [ class ] must be in double quotes. (attr-value-double-quotes)"};
    for (int round = 0; round < 4; ++round) {
        const int count = 100 + static_cast<int>(rng() % 80);
        std::string in;
        std::vector<std::string> wanted;
        for (int f = 0; f < count; ++f) {
            const std::string file = "   /srv/site/pages/page" + std::to_string(f) + ".html\n";
            in += "\n" + file;
            wanted.push_back(file);
            for (int k = 0, findings = 1 + static_cast<int>(rng() % 3); k < findings; ++k) {
                const std::string row = "      L" + std::to_string(5 + rng() % 30) +
                                        " |<p>Totals for <b>quarter " + std::to_string(f) +
                                        "</p></b>\n";
                const std::string message =
                    std::string(10 + rng() % 20, ' ') + messages[rng() % 4] + "\n";
                in += row + message;
                wanted.push_back(row);
                wanted.push_back(message);
            }
        }
        in += "\nScanned " + std::to_string(count) + " files, found errors in " +
              std::to_string(count) + " files (2 ms)\n";
        const Response r = run(in, c);
        // Every line here is a finding or its place: the view may be the whole output.

        const std::string_view view = view_of(r, in);
        for (const std::string& w : wanted)
            EXPECT_NE(view.find(w), std::string_view::npos) << round << ": " << w;
    }
}

// Past the ceiling the findings shown are spread over the output, and the first of each kind is
// among them wherever it is: standard's 40 `(eqeqeq)` findings sat in stretches the spread left
// out (0 of 40 shown) while 1,293 `(semi)` ones filled the view.
TEST(TextRules, PastTheCeilingEveryKindOfFindingIsShown) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(109);
    const std::vector<std::string> rare = {"Expected '===' and instead saw '=='. (eqeqeq)",
                                           "Unexpected 'debugger' statement. "
                                           "(no-debugger)",
                                           "Invalid typeof comparison value. (valid-typeof)",
                                           "Duplicate key 'a'. (no-dupe-keys)",
                                           "Unreachable code. (no-unreachable)"};
    for (int round = 0; round < 4; ++round) {
        std::string in = "standard: Use JavaScript Standard Style (https://standardjs.com)\n";
        const int count = 2500 + static_cast<int>(rng() % 1000);
        std::vector<int> where;
        for (std::size_t k = 0; k < rare.size(); ++k)
            where.push_back(100 + static_cast<int>(rng() % static_cast<unsigned>(count - 200)));
        for (int f = 0; f < count; ++f) {
            const std::string place = "  /srv/app/src/mod" + std::to_string(f % 9) + "/file" +
                                      std::to_string(f) + ".js:" + std::to_string(1 + rng() % 40) +
                                      ":" + std::to_string(1 + rng() % 30) + ": ";
            in += place + "Extra semicolon. (semi)\n";
            for (std::size_t k = 0; k < rare.size(); ++k)
                if (where[k] == f) in += place + rare[k] + "\n";
        }
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        ASSERT_LE(view.size(), c.max_view_bytes);
        for (const std::string& kind : rare)
            EXPECT_NE(view.find(kind), std::string_view::npos) << round << ": " << kind;
    }
}

// biome heads each finding with its place and its rule, `src/a.js:4:7 lint/correctness/
// noUnusedVariables  FIXABLE  ━━━`, and gives its message two lines below behind a mark,
// `  ! This variable unused120 is unused.`, over an excerpt and a suggested fix. A place then
// a rule named by its group and name is a finding, and the marked message is its own line: a
// 263 KB run showed 21 KB with 329 of them absent.
TEST(TextRules, AFindingsHeaderWithItsRulePathKeepsItsMarkedMessage) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(113);
    const std::pair<const char*, const char*> rules[] = {
        {"lint/correctness/noUnusedVariables  FIXABLE", "  ! This variable unused"},
        {"lint/suspicious/noDoubleEquals  FIXABLE", "  \xc3\x97 Using == may be unsafe, value "},
        {"lint/style/useConst  FIXABLE", "  ! This let declares a variable that is only "
                                         "assigned once: "}};
    for (int round = 0; round < 4; ++round) {
        const int count = 120 + static_cast<int>(rng() % 80);
        std::string in;
        std::vector<std::string> wanted;
        for (int f = 0; f < count; ++f) {
            const auto& [rule, message] = rules[rng() % 3];
            const std::string header = "src/mod" + std::to_string(f % 7) + "/file" +
                                       std::to_string(f) + ".js:" + std::to_string(3 + rng() % 9) +
                                       ":7 " + rule + "  " + std::string(30, '-') + "\n";
            const std::string said = message + std::to_string(f) + ".\n";
            in += header + "\n" + said + "  \n    2 \xe2\x94\x82 function compute(items) {\n" +
                  "  > 4 \xe2\x94\x82   var unused = items.length;\n      \xe2\x94\x82       " +
                  "^^^^^^^^^\n  \n  i Unused variables are often the result of typos.\n  \n" +
                  "  i Unsafe fix: If this is intentional, prepend it with an underscore.\n  \n\n";
            wanted.push_back(header);
            wanted.push_back(said);
        }
        in += "Checked " + std::to_string(count) + " files in 12ms. No fixes applied.\nFound " +
              std::to_string(count) + " warnings.\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const std::string& w : wanted)
            EXPECT_NE(view.find(w), std::string_view::npos) << round << ": " << w;
    }
}

// `make -k` over many directories: gcc prints the same `f1.c:5:12: error: …` in each, under a
// scope line naming a different function (`f1.c: In function ‘f7_1’:`). The scope is what the
// error sits under: shown with it, and two errors under different scopes are two errors (the
// later copies were hidden as "said before").
TEST(TextRules, ACompilersScopeLineTellsIdenticalErrorsApart) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(127);
    for (int round = 0; round < 4; ++round) {
        const int dirs = 15 + static_cast<int>(rng() % 15);
        std::string in;
        std::vector<std::string> scopes;
        for (int d = 1; d <= dirs; ++d) {
            in += "make -C lib" + std::to_string(d) + "\nmake[1]: Entering directory '/p/lib" +
                  std::to_string(d) + "'\n";
            for (int f = 1; f <= 6; ++f) {
                in += "gcc -Wall -Wextra -O0 -c f" + std::to_string(f) + ".c -o f" +
                      std::to_string(f) + ".o\n";
                if ((d + f) % 3 != 0) continue;
                const std::string scope = "f" + std::to_string(f) + ".c: In function \xe2\x80\x98" +
                                          "f" + std::to_string(d) + "_" + std::to_string(f) +
                                          "\xe2\x80\x99:\n";
                in += scope + "f" + std::to_string(f) +
                      ".c:5:12: error: \xe2\x80\x98undeclared_var\xe2\x80\x99 undeclared (first "
                      "use in this function)\n    5 |     return undeclared_var + x;\n      |     "
                      "       ^~~~~~~~~~~~~~\nmake[1]: *** [Makefile:6: f" +
                      std::to_string(f) + ".o] Error 1\n";
                scopes.push_back(scope);
            }
            in += "make[1]: Target 'all' not remade because of errors.\nmake[1]: Leaving "
                  "directory '/p/lib" +
                  std::to_string(d) + "'\n";
        }
        in += "make: Target 'all' not remade because of errors.\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const std::string& s : scopes) {
            const std::size_t at = view.find(s);
            ASSERT_NE(at, std::string_view::npos) << round << ": " << s;
            EXPECT_TRUE(view.substr(at + s.size()).starts_with(s.substr(0, s.find(':')) + ":5:12"))
                << s;
        }
    }
}

// phpcs reports per file: `FILE: /app/Cart06.php`, a ruler, `FOUND 30 ERRORS AFFECTING 13
// LINES`, a ruler, then rows `  4 | ERROR | [ ] Class name …`. Its rows are a table's, not a
// code excerpt's gutter, and the file's path heads every row of its paragraph whatever the
// rulers between: the same row in another file is another error (1,562 of 1,760 were hidden).
TEST(TextRules, ATablesRowsUnderAFilesHeaderAreFindingsOfThatFile) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(131);
    const std::string ruler(70, '-');
    for (int round = 0; round < 4; ++round) {
        const int files = 12 + static_cast<int>(rng() % 10);
        std::string in;
        std::vector<std::string> headers;
        std::size_t rows = 0;
        for (int f = 0; f < files; ++f) {
            const std::string header = "FILE: /srv/app/php/Cart" + std::to_string(f) + ".php\n";
            in += "\n" + header + ruler + "\nFOUND 6 ERRORS AFFECTING 4 LINES\n" + ruler + "\n";
            in += "  1 | ERROR | [x] Header blocks must be separated by a single blank\n"
                  "    |       |     line\n"
                  "  5 | ERROR | [ ] The var keyword must not be used to declare a\n"
                  "    |       |     property\n"
                  "  7 | ERROR | [x] Expected 1 space(s) after IF keyword; 0 found\n"
                  "  8 | ERROR | [x] Expected at least 1 space before \"=\"; 0 found\n"
                  " 12 | ERROR | [x] Line indented incorrectly; expected 8 spaces, found 6\n"
                  " 17 | ERROR | [x] A closing tag is not permitted at the end of a PHP\n"
                  "    |       |     file\n" +
                  ruler + "\nPHPCBF CAN FIX THE 5 MARKED SNIFF VIOLATIONS AUTOMATICALLY\n" + ruler +
                  "\n\n";
            headers.push_back(header);
            rows += 6;
        }
        in += "Time: 120ms; Memory: 8MB\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const std::string& h : headers)
            EXPECT_NE(view.find(h), std::string_view::npos) << round << ": " << h;
        EXPECT_EQ(count_of(view, " | ERROR | "), rows) << round;
        // A ruler is no line a row sits under: the listing gives the file and the count.
        const LineIndex lines = index_lines(in);
        for (const std::size_t i : critical_lines(in, lines, KeyMatcher()))
            EXPECT_NE(in[lines.begin(i)], '-') << i;
    }
}

// include-what-you-use's verdict per file, `src/buf01.c should remove these lines:`, over the
// lines to remove (`- #include <math.h>  // lines 4-4`), among clang's warnings and notes: a
// line opening with a file's name and ending with a colon is a verdict about that file, and
// its list up to a blank line is its own (286 of 405 lines were absent).
TEST(TextRules, AVerdictAboutAFileKeepsTheListItAnnounces) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(137);
    const char* headers[] = {"math.h", "ctype.h", "errno.h", "time.h", "limits.h"};
    for (int round = 0; round < 4; ++round) {
        const int files = 40 + static_cast<int>(rng() % 40);
        std::string in;
        std::vector<std::string> wanted;
        for (int f = 0; f < files; ++f) {
            const std::string file = "src/buf" + std::to_string(f) + ".c";
            in += file +
                  ":14:16: warning: using the result of an assignment as a condition "
                  "without parentheses [-Wparentheses]\n    if (r->len = 0) return -1;\n"
                  "        ~~~~~~~^~~\n" +
                  file +
                  ":14:16: note: place parentheses around the assignment to silence "
                  "this warning\n    if (r->len = 0) return -1;\n               ^\n\n";
            const std::string verdict = file + " should remove these lines:\n";
            in += file + " should add these lines:\n#include <stdio.h>   // for sprintf\n\n" +
                  verdict;
            wanted.push_back(verdict);
            for (int k = 0, count = 1 + static_cast<int>(rng() % 3); k < count; ++k) {
                const std::string line = std::string("- #include <") + headers[(f + k) % 5] +
                                         ">  // lines " + std::to_string(3 + k) + "-" +
                                         std::to_string(3 + k) + "\n";
                in += line;
                wanted.push_back(line);
            }
            in += "\nThe full include-list for " + file +
                  ":\n#include <stdio.h>   // for sprintf\n#include <stdlib.h>  // for malloc, "
                  "NULL\n#include <string.h>  // for memcpy, strcat\n---\n";
        }
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (std::size_t k = 0; k < wanted.size(); ++k) {
            // Each verdict with its own list right under it.
            if (!wanted[k].starts_with("src/")) continue;
            std::string block = wanted[k];
            for (std::size_t m = k + 1; m < wanted.size() && wanted[m].starts_with("- "); ++m)
                block += wanted[m];
            EXPECT_NE(view.find(block), std::string_view::npos) << round << ": " << block;
        }
    }
}

// Node's assert announces its message with a blank line between (`AssertionError
// [ERR_ASSERTION]: Expected values to be strictly equal:`, a blank, `30 !== 50`), as
// cucumber-js prints it under each failed step: the values are the error's own words (41 of
// 45 were absent).
TEST(TextRules, AnAnnouncedMessageAfterABlankLineStaysWithItsError) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(139);
    for (int round = 0; round < 4; ++round) {
        const int count = 40 + static_cast<int>(rng() % 40);
        std::string in;
        std::vector<std::string> values;
        for (int f = 1; f <= count; ++f) {
            values.push_back("       " + std::to_string(rng() % 90) +
                             " !== " + std::to_string(rng() % 90) + "\n");
            in += std::to_string(f) + ") Scenario: order " + std::to_string(100 + f) +
                  " # features/area01.feature:" + std::to_string(3 + 5 * f) +
                  "\n   \xe2\x9c\x94 Given an empty cart # features/step_definitions/steps.js:4\n"
                  "   \xe2\x9c\x96 Then the total is 50 # features/step_definitions/steps.js:6\n"
                  "       AssertionError [ERR_ASSERTION]: Expected values to be strictly "
                  "equal:\n\n" +
                  values.back() +
                  "\n           + expected - actual\n\n           -30\n           +50\n\n"
                  "           at World.<anonymous> (/p/features/step_definitions/steps.js:6:54)"
                  "\n\n";
        }
        in += std::to_string(count) + " scenarios (" + std::to_string(count) + " failed)\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        const std::string_view view = view_of(r, in);
        for (const std::string& v : values)
            EXPECT_NE(view.find(v), std::string_view::npos) << round << ": " << v;
    }
}

} // namespace
} // namespace sutra::core
