// Later errors of one kind (core/rewrite/text_rewrite.cpp, mark_later_errors): past the first
// few, an error's repeated context (quoted source, frames, notes) stays behind a marker, but its
// own message still shows, out of the critical room: the paragraph its closing colon announces,
// its labelled values (`left:  7`) and the line a label announces.

#include "core/compress.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <random>
#include <regex>
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

// The build a test run follows (`[ 12%] Building CXX object …`): lines a view may fold, so an
// output whose failures are all signal is still rewritten and the rules under test still run.
std::string build_log(int lines) {
    std::string out;
    for (int i = 0; i < lines; ++i)
        out += "[" + std::to_string(i * 100 / lines) +
               "%] Building CXX object ring/CMakeFiles/ring.dir/ring_" + std::to_string(i) +
               ".cpp.o\n";
    return out;
}

bool shows_line(const std::string& view, const std::string& line) {
    return view.starts_with(line + "\n") || view.find("\n" + line + "\n") != std::string::npos;
}

// How many of `lines` are no line of `view`.
std::size_t hidden_in(const std::string& view, const std::vector<std::string>& lines) {
    std::size_t hidden = 0;
    for (const std::string& l : lines) hidden += !shows_line(view, l);
    return hidden;
}

// catch2's shape: a ruled test-case header, then `t.cpp:N: FAILED:`, the expression, `with
// expansion:` and the values, for many failures of one kind: every expression and value shows.
TEST(LaterErrors, AnAnnouncedMessageShowsUnderEveryErrorOfAKind) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(8);
    for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE(round);
        const std::string rule(79, '-'), dots(79, '.');
        std::string in = build_log(400) + "\n" + std::string(79, '~') +
                         "\nringtests is a Catch host application.\n\n";
        std::vector<std::string> own;
        const int failures = 60 + static_cast<int>(rng() % 60);
        for (int f = 0; f < failures; ++f) {
            const std::string file = "t" + std::to_string(f / 6) + ".cpp";
            const int line = 7 + f % 6;
            const int want = static_cast<int>(rng() % 100), got = want + 1 + f % 3;
            const std::string expr =
                "  CHECK( r.sum(" + std::to_string(f) + ") == " + std::to_string(want) + " )";
            const std::string values = "  " + std::to_string(got) + " == " + std::to_string(want);
            in += rule + "\nring " + std::to_string(f) + " sums\n" + rule + "\n" + file + ":" +
                  std::to_string(line) + "\n" + dots + "\n\n" + file + ":" + std::to_string(line) +
                  ": FAILED:\n" + expr + "\nwith expansion:\n" + values + "\n\n";
            own.push_back(expr);
            own.push_back(values);
        }
        in += std::string(79, '=') + "\ntest cases: " + std::to_string(failures) +
              " | 0 passed | " + std::to_string(failures) + " failed\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, own), 0u) << r.view.substr(0, 4000);
        EXPECT_LT(r.view.size(), in.size());
    }
}

// ExUnit's shape: a numbered title, then the assertion's labelled values (`left:`, `right:`),
// then its stack: the values show under every failure, the stack's frames need not.
TEST(LaterErrors, LabelledValuesShowUnderEveryErrorOfAKind) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(13);
    for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE(round);
        std::string in;
        for (int k = 0; k < 300; ++k)
            in += "Compiling lib/cart/part" + std::to_string(k) + ".ex (" +
                  std::to_string(rng() % 900) + " ms)\n";
        in += "Running ExUnit with seed: 1, max_cases: 4\n\n";
        std::vector<std::string> own;
        const int failures = 40 + static_cast<int>(rng() % 40);
        for (int f = 0; f < failures; ++f) {
            const int want = static_cast<int>(rng() % 100);
            const std::string left = "     left:  " + std::to_string(want + 1);
            const std::string right = "     right: " + std::to_string(want);
            in += "  " + std::to_string(f + 1) + ") test add computes total " + std::to_string(f) +
                  " (CartTest)\n     cart_test.exs:" + std::to_string(100 + f * 4) +
                  "\n     Assertion with == failed\n     code:  assert Cart.add(" +
                  std::to_string(f) + ") == " + std::to_string(want) + "\n" + left + "\n" + right +
                  "\n     stacktrace:\n       cart_test.exs:" + std::to_string(103 + f * 4) +
                  ": (test)\n\n";
            own.push_back(left);
            own.push_back(right);
        }
        in += "\nFinished in 0.1 seconds\n" + std::to_string(failures) + " tests, " +
              std::to_string(failures) + " failures\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, own), 0u) << r.view.substr(0, 4000);
    }
}

// Python's doctest -v: passing examples, then failures whose traceback is indented under
// `Exception raised:`. Each traceback's last frame in the program shows with its end, though
// the message is the same every time.
TEST(LaterErrors, AnIndentedTracebacksEndKeepsItsPlace) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(19);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in;
        std::vector<std::string> wanted;
        const int functions = 20 + static_cast<int>(rng() % 20);
        for (int f = 0; f < functions; ++f) {
            const std::string fn = "conv" + std::to_string(f);
            for (int k = 0; k < 4; ++k)
                in += "Trying:\n    " + fn + "(" + std::to_string(k) + ")\nExpecting:\n    " +
                      std::to_string(k * f) + "\nok\n";
            const std::string example = "    " + fn + "(None)";
            const std::string frame = "      File \"/p/units/convert.py\", line " +
                                      std::to_string(100 + f * 18) + ", in " + fn;
            in += std::string(70, '*') + "\nFile \"/p/units/convert.py\", line " +
                  std::to_string(97 + f * 18) + ", in convert." + fn + "\nFailed example:\n" +
                  example +
                  "\nException raised:\n    Traceback (most recent call last):\n      File "
                  "\"/usr/lib/python3.11/doctest.py\", line 1353, in __run\n        exec(compile("
                  "example.source, filename, \"single\",\n" +
                  frame +
                  "\n        return x * factor\n    TypeError: unsupported operand type(s) for *: "
                  "'NoneType' and 'int'\n";
            wanted.push_back(example);
            wanted.push_back(frame);
        }
        in += std::to_string(functions) + " items had failures:\n***Test Failed*** " +
              std::to_string(functions) + " failures.\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 4000);
    }
}

// A bare label (`Failed example:`) under a later error announces the line below it, which is
// that error's own: every failed example shows.
TEST(LaterErrors, ABareLabelAnnouncesTheLineBelowIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int failures : {60, 90}) {
        SCOPED_TRACE(failures);
        std::string in = build_log(400);
        std::vector<std::string> wanted;
        for (int f = 0; f < failures; ++f) {
            const std::string example =
                "    conv" + std::to_string(f) + "(None, " + std::to_string(f * 7 % 13) + ")";
            in += std::string(70, '*') + "\nFile \"/p/units/convert.py\", line " +
                  std::to_string(97 + f * 18) + ", in convert.conv" + std::to_string(f) +
                  "\nFailed example:\n" + example + "\nExpected:\n    0\nGot nothing\n";
            wanted.push_back(example);
        }
        in += "***Test Failed*** " + std::to_string(failures) + " failures.\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 4000);
    }
}

// minitest's failures: `  6) Failure:` announces the test's name, which names its place in
// brackets, then `Expected:` and `Actual:`. The name is the failure's own line, not a frame.
TEST(LaterErrors, ATitleNamingItsPlaceIsTheErrorsOwnLine) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int failures : {80, 120}) {
        SCOPED_TRACE(failures);
        std::string in = "# Running:\n\n" + std::string(200, '.') + "\n\nFinished in 0.004s\n\n";
        std::vector<std::string> wanted;
        for (int f = 0; f < failures; ++f) {
            const std::string title = "TestSlug" + std::to_string(f) +
                                      "#test_make_trailing [/p/rb/test/test_slug" +
                                      std::to_string(f) + ".rb:" + std::to_string(5 + f % 9) + "]:";
            in += "  " + std::to_string(f + 1) + ") Failure:\n" + title + "\nExpected: \"t-" +
                  std::to_string(f) + "\"\n  Actual: \"t-" + std::to_string(f) + "-\"\n\n";
            wanted.push_back(title);
        }
        in += "200 runs, 200 assertions, " + std::to_string(failures) + " failures, 0 errors\n";
        const Response r = run(in, c);
        // All of it may stay: then nothing is hidden either.
        const std::string& view = r.rewritten ? r.view : in;
        EXPECT_EQ(hidden_in(view, wanted), 0u) << r.view.substr(0, 4000);
    }
}

// tcltest's failures: the test's code in a paragraph of its own, then `---- Result was:` and
// `---- Result should have been (exact matching):`, each over its value, closed by the test's
// `FAILED` line. Past the code, the labels and the values they announce are the failure's own.
// doctest -v's passing examples right under a failure (`Trying:` with no blank line between)
// are not.
TEST(LaterErrors, ALabelPastTheCodeAnnouncesTheFailuresValue) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int failures : {40, 70}) {
        SCOPED_TRACE(failures);
        std::string in = "Tests running in interp:  /usr/bin/tclsh\n";
        std::vector<std::string> wanted, unwanted;
        for (int f = 0; f < failures; ++f) {
            const std::string name = "queue" + std::to_string(f) + "-1.1";
            const std::string was = "b" + std::to_string(f * 7 % 31) + "x" + std::to_string(f);
            const std::string should = "a" + std::to_string(f);
            in += "\n\n==== " + name + " push then pop returns first pushed FAILED\n" +
                  "==== Contents of test case:\n\n    set q [queue::push [queue::new] a" +
                  std::to_string(f) + "]\n    queue::pop $q\n\n---- Result was:\n" + was +
                  "\n---- Result should have been (exact matching):\n" + should + "\n==== " + name +
                  " FAILED\n\n";
            wanted.push_back(was);
            wanted.push_back(should);
        }
        in += "all.tcl:\tTotal\t" + std::to_string(failures * 2) + "\tPassed\t" +
              std::to_string(failures) + "\tSkipped\t0\tFailed\t" + std::to_string(failures) + "\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 4000);
    }
    std::string in;
    std::vector<std::string> passing;
    for (int f = 0; f < 60; ++f) {
        in += std::string(70, '*') + "\nFile \"/p/units/convert.py\", line " +
              std::to_string(97 + f * 18) + ", in convert.conv" + std::to_string(f) +
              "\nFailed example:\n    conv" + std::to_string(f) +
              "(None)\nExpected:\n    0\nGot:\n" + "    None\n";
        for (int t = 0; t < 3; ++t) {
            const std::string example =
                "    conv" + std::to_string(f) + "(" + std::to_string(t) + ")";
            in += "Trying:\n" + example + "\nExpecting:\n    " + std::to_string(t * f) + "\nok\n";
            if (t == 2) passing.push_back(example);
        }
    }
    in += "***Test Failed*** 60 failures.\n";
    const Response r = run(in, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    std::size_t shown = 0;
    for (const std::string& l : passing) shown += shows_line(r.view, l);
    EXPECT_LT(shown, 10u) << r.view.substr(0, 4000);
}

// Go's race detector: `WARNING: DATA RACE`, then each access (`Read at 0x… by goroutine 8:`,
// `Previous write at …:`) over its stack, a blank line between. Under every report, each
// access shows with its stack's first frame in the program, the first few reports and the
// later ones alike.
TEST(LaterErrors, AStacksLabelShowsWithItsFirstFrameInTheProgram) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int races : {3, 12, 40}) {
        SCOPED_TRACE(races);
        const std::string bar(18, '=');
        std::string in;
        std::vector<std::string> wanted;
        std::string callers; // the test framework's frames under each
        for (int f = 0; f < 12; ++f)
            callers +=
                "  testing.tRunner" + std::to_string(f) +
                "()\n      /usr/lib/go/src/testing/testing.go:" + std::to_string(1446 + f * 7) +
                " +0x216\n";
        const auto stack = [&](int r, int line, const char* fn) {
            const std::string frame = "      /src/app/stats/stats.go:" + std::to_string(line) +
                                      " +0x" + std::to_string(100 + r);
            wanted.push_back(frame);
            return "  runtime.mapassign_faststr()\n      /usr/lib/go/src/runtime/map.go:13 "
                   "+0x0\n  example.com/app/stats." +
                   std::string(fn) + "()\n" + frame + "\n" + callers;
        };
        for (int r = 0; r < races; ++r) {
            const std::string read = "Read at 0x00c0000" + std::to_string(94300 + r * 8) +
                                     " by goroutine " + std::to_string(17 + r) + ":";
            const std::string write = "Previous write at 0x00c0000" +
                                      std::to_string(94300 + r * 8) + " by goroutine " +
                                      std::to_string(40 + r) + ":";
            wanted.push_back(read);
            wanted.push_back(write);
            in += bar + "\nWARNING: DATA RACE\n" + read + "\n" + stack(r, 20 + r, "Peek") + "\n" +
                  write + "\n" + stack(r, 60 + r, "Add") + "\nGoroutine " + std::to_string(17 + r) +
                  " (running) created at:\n" +
                  "  testing.(*T).Run()\n      /usr/lib/go/src/testing/testing.go:1493 +0x75d\n" +
                  bar + "\n--- FAIL: TestPeaks" + std::to_string(r) +
                  " (0.00s)\n    testing.go:1319: race detected during execution of test\n";
        }
        in += "FAIL\nFAIL\texample.com/app/stats\t0.081s\nFAIL\n";
        const Response r = run(in, c);
        const std::string& view = r.rewritten ? r.view : in;
        EXPECT_EQ(hidden_in(view, wanted), 0u) << view.substr(0, 6000);
    }
}

// pytest's failures: `E       assert …`, then the explanation on more lines with the same
// `E` mark (`E         At index 2 diff: [4, 5] != [4]`). Under every failure of the kind,
// the lines that say something new show.
TEST(LaterErrors, LinesWithTheErrorsMarkGoOnSayingIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int failures : {40, 80}) {
        SCOPED_TRACE(failures);
        std::string in = "============================= test session starts "
                         "==============================\ncollected 200 items\n\n";
        std::vector<std::string> wanted;
        for (int f = 0; f < failures; ++f) {
            const std::string name = "test_chunk_" + std::to_string(f);
            const std::string diff =
                "E         At index 2 diff: [4, " + std::to_string(f + 5) + "] != [4]";
            const std::string extra = "E         Left contains " + std::to_string(f + 2) +
                                      " more items, first extra item: [6, " +
                                      std::to_string(f + 7) + "]";
            in += "_________________________________ " + name +
                  " _________________________________\n\n    def " + name +
                  "():\n>       assert chunk(list(range(" + std::to_string(f) +
                  ")), 2) == [[0, 1], [2, 3]]\nE       assert [[0, 1], [2, ..." +
                  std::to_string(f) +
                  "]] == [[0, 1], [2, "
                  "3], [4]]\n" +
                  diff + "\n" + extra + "\nE         Use -v to get more diff\n\ntests/test_x.py:" +
                  std::to_string(5 + f * 4) + ": AssertionError\n";
            wanted.push_back(diff);
            wanted.push_back(extra);
        }
        in += "=========================== short test summary info "
              "============================\n" +
              std::to_string(failures) + " failed, 120 passed in 0.91s\n";
        const Response r = run(in, c);
        const std::string& view = r.rewritten ? r.view : in; // all of it may stay
        EXPECT_EQ(hidden_in(view, wanted), 0u) << view.substr(0, 4000);
    }
}

// Catch2's banner over each test case's failures: a rule, the test case's name, a rule, its
// place, a dotted rule. The name and the place show with every failure under them.
TEST(LaterErrors, ATestsBannerShowsWithItsFailures) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int cases : {30, 60}) {
        SCOPED_TRACE(cases);
        const std::string rule(79, '-'), dots(79, '.');
        std::string in = build_log(400) + "\nringtests is a Catch v2.13.10 host application.\n\n";
        std::vector<std::string> wanted;
        for (int t = 0; t < cases; ++t) {
            const std::string file = "t" + std::to_string(t) + ".cpp";
            const std::string name = "ring " + std::to_string(t) + " pop empty";
            const std::string place = file + ":" + std::to_string(11 + t % 5);
            in += rule + "\n" + name + "\n" + rule + "\n" + place + "\n" + dots + "\n\n";
            for (int f = 0; f < 2; ++f)
                in += file + ":14: FAILED:\n  CHECK( r.pop() == " + std::to_string(f) +
                      " )\nwith expansion:\n  " + std::to_string(t) + " == " + std::to_string(f) +
                      "\n\n";
            wanted.push_back(name);
            wanted.push_back(place);
        }
        in += std::string(79, '=') + "\ntest cases: " + std::to_string(cases) + " | 0 passed\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 4000);
    }
}

// JUnit's failures: the assertion's message, the framework's frames, then the test's own frame
// in the project. That frame is the failure's place, shown under every failure.
TEST(LaterErrors, AJavaFailuresFrameInTheProjectIsItsPlace) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int failures : {40, 80}) {
        SCOPED_TRACE(failures);
        std::string in = "JUnit version 4.13.2\n" + std::string(300, '.') +
                         "\nTime: 0.3\nThere were " + std::to_string(failures) + " failures:\n";
        std::vector<std::string> wanted;
        for (int f = 0; f < failures; ++f) {
            const std::string test = "InvoiceTest";
            const std::string frame = "\tat com.acme.billing." + test + ".total(" + test +
                                      ".java:" + std::to_string(7 + f % 20) + ")";
            in += std::to_string(f + 1) + ") total[" + std::to_string(f) + "](com.acme.billing." +
                  test + ")\njava.lang.AssertionError: expected:<" + std::to_string(f) +
                  "> but was:<" + std::to_string(f + 1) +
                  ">\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat "
                  "org.junit.Assert.failNotEquals(Assert.java:835)\n\tat "
                  "org.junit.Assert.assertEquals(Assert.java:647)\n\tat "
                  "org.junit.Assert.assertEquals(Assert.java:633)\n\tat "
                  "org.junit.internal.Checks.check(Checks.java:12)\n" +
                  frame +
                  "\n\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native "
                  "Method)\n";
            wanted.push_back(frame);
        }
        in += "\nFAILURES!!!\nTests run: 300,  Failures: " + std::to_string(failures) + "\n\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 4000);
    }
}

// pytest's long tracebacks: each failed test's section shows its code, then where it stands
// (`tests/test_mod2.py:27: `), the frames below, the error and its place. Later failures of one
// kind fold their code and frames as said above, but the test's own place shows under every
// one, a chained exception's (`The above exception was the direct cause …`) included.
TEST(LaterErrors, EachFailedTestsOwnPlaceShows) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(29);
    const std::string sep = "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _";
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in = "============================= test session starts "
                         "==============================\ncollected 240 items\n\n";
        in += "=================================== FAILURES "
              "===================================\n";
        std::vector<std::string> places;
        const int failures = 60 + static_cast<int>(rng() % 60);
        for (int f = 0; f < failures; ++f) {
            const std::string name = "test_case_" + std::to_string(f);
            const std::string place =
                "tests/test_mod" + std::to_string(f % 7) + ".py:" + std::to_string(4 + 3 * f) + ":";
            const int value = static_cast<int>(rng() % 90);
            in += "________________________________ " + name +
                  " _________________________________\n\n";
            if (f % 3 == 2) { // chained: a KeyError raised in a helper, then a RuntimeError
                in += "cfg = {'a': " + std::to_string(value) +
                      "}, key = 'b'\n\n    def "
                      "resolve(cfg, key):\n        try:\n>           return cfg[key]\nE           "
                      "KeyError: 'b'\n\ntests/helpers.py:12: KeyError\n\nThe above exception was "
                      "the direct cause of the following exception:\n\n";
            }
            in += "    def " + name + "():\n>       assert compute([1, " + std::to_string(value) +
                  "]) > 0\n\n" + place + " \n" + sep +
                  "\ntests/helpers.py:19: in compute\n    "
                  "total += normalise(v)\n" +
                  sep + "\n\nv = -" + std::to_string(value) +
                  "\n\n    def normalise(v):\n        if v < 0:\n>           raise "
                  "ValueError(f\"negative value {v}\")\nE           ValueError: negative value -" +
                  std::to_string(value) + "\n\ntests/helpers.py:24: ValueError\n";
            places.push_back(place + " ");
        }
        in += "=========================== short test summary info "
              "============================\n";
        for (int f = 0; f < failures; ++f)
            in += "FAILED tests/test_mod" + std::to_string(f % 7) + ".py::test_case_" +
                  std::to_string(f) + " - ValueError: negative value\n";
        in += "======================== " + std::to_string(failures) + " failed, " +
              std::to_string(240 - failures) + " passed in 0.41s ========================\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, places), 0u) << r.view.substr(0, 6000);
        // The helpers' frames, said under the first failures, still fold under later ones.
        std::size_t frames = 0;
        for (std::size_t at = 0;
             (at = r.view.find("\ntests/helpers.py:19: in compute\n", at)) != std::string::npos;
             ++at)
            ++frames;
        EXPECT_LT(frames * 4, static_cast<std::size_t>(failures));
        EXPECT_LT(r.view.size(), in.size());
    }
}

// rustc's and clippy's notes with places of their own (`note: first possible panic found here`
// over `  --> src/m2.rs:17:13`): the note's words repeat under every warning of its kind, its
// place does not, and it shows under each.
TEST(LaterErrors, ANotesOwnPlaceShowsUnderEveryErrorOfAKind) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(31);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in = "    Checking clip v0.1.0 (/work/clip)\n";
        std::vector<std::string> places;
        const int warnings = 40 + static_cast<int>(rng() % 40);
        for (int w = 0; w < warnings; ++w) {
            const std::string file = "src/m" + std::to_string(w % 5) + ".rs";
            const int line = 3 + 5 * w, at = line + 2;
            const std::string num = std::to_string(line), at_num = std::to_string(at);
            const std::string gutter(num.size() + 1, ' ');
            const std::string place = "  --> " + file + ":" + at_num + ":" +
                                      std::to_string(5 + static_cast<int>(rng() % 9));
            in += "warning: docs for function which may panic missing `# Panics` section\n  --> " +
                  file + ":" + num + ":1\n" + gutter + "|\n" + num + " | pub fn parse_" +
                  std::to_string(w) + "(s: &str) -> u32 {\n" + gutter + "| " +
                  std::string(30, '^') + "\n" + gutter + "|\nnote: first possible panic found " +
                  "here\n" + place + "\n" + gutter + "|\n" + at_num + " |     v[" +
                  std::to_string(w % 3) + "].parse().unwrap()\n" + gutter + "|     " +
                  std::string(21, '^') + "\n" + gutter +
                  "= help: for further information visit https://rust-lang.github.io/"
                  "rust-clippy/index.html#missing_panics_doc\n\n";
            places.push_back(place);
        }
        in += "warning: `clip` (lib) generated " + std::to_string(warnings) +
              " warnings\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in "
              "0.31s\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, places), 0u) << r.view.substr(0, 6000);
        EXPECT_LT(r.view.size(), in.size());
    }
}

// pytest's failures of one kind, each in its test's section: the title naming the test
// (`____ test_param[17] ____`) shows with every failure, with its assertion and the values
// pytest explains it by (`E   +  where 4 = op_6(1, 2)`).
TEST(LaterErrors, EachFailedTestsTitleAndValuesShow) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(37);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in = "collected 400 items\n\n=================================== FAILURES "
                         "===================================\n";
        std::vector<std::string> wanted;
        const int failures = 60 + static_cast<int>(rng() % 40);
        for (int f = 0; f < failures; ++f) {
            // Each assertion in numbers of its own; the `where` line in the same words.
            const int a = f, b = 100 + 13 * f + static_cast<int>(rng() % 13);
            const std::string title = "_______________________________ test_param[" +
                                      std::to_string(f) + "] _______________________________";
            const std::string where = "E        +  where " + std::to_string(a + b + 1) +
                                      " = op_6(" + std::to_string(a) + ", " + std::to_string(b) +
                                      ")";
            in += title + "\n[gw" + std::to_string(f % 2) +
                  "] linux -- Python 3.11.2 /usr/bin/python3\n\nx = " + std::to_string(a) +
                  ", y = " + std::to_string(b) + "\n\n    def test_param(x, y):\n>       assert " +
                  "op_6(x, y) == x + y\nE       assert " + std::to_string(a + b + 1) +
                  " == " + std::to_string(a + b) + "\n" + where +
                  "\n\ntests/test_mod0.py:78: " + "AssertionError\n";
            wanted.push_back(title);
            wanted.push_back(where);
        }
        in += "======================== " + std::to_string(failures) + " failed, 340 passed in " +
              "1.20s ========================\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 6000);
    }
}

// test-unit's failures (Ruby's `rake test`): the title names the test (`Failure:
// test_count_3(TestCart1)`), and the frame that names it (`…/test_cart1.rb:12:in
// `test_count_3'`, under the library's frames for an error) is where it stands: shown under
// every failure, the code excerpt after it folding as said above.
TEST(LaterErrors, TheFrameNamingTheFailedTestShows) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(41);
    const std::string rule(79, '=');
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in = "Loaded suite rake_test_loader\nStarted\n";
        std::vector<std::string> wanted;
        const int failures = 50 + static_cast<int>(rng() % 40);
        for (int f = 0; f < failures; ++f) {
            const std::string test = (f % 2 ? "test_find_" : "test_count_") + std::to_string(f);
            const std::string klass = "TestCart" + std::to_string(f % 4);
            const int line = 3 + 3 * f;
            const std::string frame = "/work/rb/test/test_cart" + std::to_string(f % 4) +
                                      ".rb:" + std::to_string(line) + ":in `" + test + "'";
            in += (f % 2 ? "E\n" : "F\n") + rule + "\n";
            if (f % 2)
                in += "Error: " + test + "(" + klass + "):\n  NoMethodError: undefined method " +
                      "`fetch' for nil:NilClass\n/work/rb/lib/cart.rb:6:in `find'\n";
            else
                in += "Failure: " + test + "(" + klass + ")\n";
            in += frame + "\n";
            for (int k = line - 3; k <= line + 3; ++k)
                in += (k == line ? "  => " : "     ") + std::to_string(k) +
                      ":     assert_equal(1, Cart.new.add('a', 1).count, 'count is off')\n";
            in += f % 2 ? "" : "count is off\n<1> expected but was\n<2>\n";
            in += rule + "\n";
            wanted.push_back(frame);
        }
        in += "Finished in 0.01 seconds.\n" + std::to_string(failures * 2) + " tests, " +
              std::to_string(failures * 2) + " assertions, " + std::to_string(failures / 2) +
              " failures, " + std::to_string(failures - failures / 2) +
              " errors, 0 pendings, 0 omissions, 0 notifications\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 6000);
    }
}

// rackunit's failures: a bare verdict (`FAILURE`, `ERROR`) over labelled values, one of them
// its place (`location:   t1-test.rkt:7:19`). The place is the failure's: every one shows,
// though the verdicts' words repeat.
TEST(LaterErrors, ALabelledPlaceUnderABareVerdictIsItsPlace) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(43);
    const std::string rule(20, '-');
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in = build_log(400) + "raco test: \"./t0-test.rkt\"\n";
        std::vector<std::string> wanted;
        const int failures = 150 + static_cast<int>(rng() % 60);
        for (int f = 0; f < failures; ++f) {
            const std::string place = "location:   t" + std::to_string(f / 12) +
                                      "-test.rkt:" + std::to_string(5 + f % 12) + ":" +
                                      std::to_string(19 + static_cast<int>(rng() % 4));
            in += rule + "\n" + rule + "\nsquare " + std::to_string(f) + "\n" +
                  (f % 3 ? "FAILURE\n" : "ERROR\n") + "name:       check-equal?\n" + place + "\n";
            in += f % 3 ? "actual:     " + std::to_string(f * f * f) +
                              "\nexpected:   " + std::to_string(f * f) + "\n"
                        : "\n/: division by zero\n";
            wanted.push_back(place);
        }
        in += rule + "\n" + std::to_string(failures) + " failure(s)\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 6000);
    }
}

// A verdict alone on its line names nothing: the line above it is the check that failed
// (rackunit's `square 12` over `FAILURE`; a runner's `balance_check_7` over `FAILED:`, after a
// blank). Every name shows, though the verdicts' words and the values below them repeat; the
// line above a run's summary `FAIL` (go's last `--- PASS`) is no name.
TEST(LaterErrors, TheNameAboveALoneVerdictShows) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(47);
    const std::string rule(20, '-');
    const char* kinds[] = {"square", "str", "div"};
    for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE(round);
        const bool rackunit = round % 2 == 0;
        std::string in =
            build_log(400) + (rackunit ? "raco test: \"./t0-test.rkt\"\n" : "running checks\n");
        std::vector<std::string> wanted;
        const int failures = (rackunit ? 150 : 500) + static_cast<int>(rng() % 60);
        for (int f = 0; f < failures; ++f) {
            const std::string name = std::string(kinds[rng() % 3]) + (rackunit ? " " : "_check_") +
                                     std::to_string(f * 7 + static_cast<int>(rng() % 5));
            if (rackunit) {
                in += rule + "\n" + rule + "\n" + name + "\n" + (f % 3 ? "FAILURE\n" : "ERROR\n") +
                      "name:       check-equal?\nlocation:   t" + std::to_string(f / 12) +
                      "-test.rkt:" + std::to_string(5 + f % 12) + ":19\n" +
                      "actual:     " + std::to_string(f % 4) + "\nexpected:   7\n";
            } else {
                in += "\n" + name + "\nFAILED:\n  expected 7, got " + std::to_string(f % 4) +
                      "\n  in the balance of the ledger after the run\n  checked by the "
                      "harness with its default options\n";
            }
            wanted.push_back(name);
        }
        in += rule + "\n" + std::to_string(failures) + " failure(s)\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_in(r.view, wanted), 0u) << r.view.substr(0, 6000);
    }
}

// A ruler of one mark repeated (`--------------------`) is a token or two to show, less than a
// marker's ten: a gap of rulers between later failures is shown, never marked. Every marker
// in the view stands for at least one line that is not a ruler.
TEST(LaterErrors, AGapOfRulersIsShownNotMarked) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(53);
    for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE(round);
        const std::string rule(10 + static_cast<int>(rng() % 70), round % 2 ? '=' : '-');
        std::string in = build_log(300);
        const int failures = 120 + static_cast<int>(rng() % 60);
        for (int f = 0; f < failures; ++f)
            in += rule + "\n" + rule + "\ncheck " + std::to_string(f) + "\nFAILURE\nlocation:   t" +
                  std::to_string(f / 12) + "-test.rkt:" + std::to_string(5 + f % 12) +
                  ":19\nactual:     " + std::to_string(f % 5) + "\nexpected:   7\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        std::vector<std::string> lines;
        for (std::size_t at = 0; at < in.size();) {
            const std::size_t end = in.find('\n', at);
            lines.push_back(in.substr(at, end - at));
            at = end + 1;
        }
        const std::regex range(R"(\[sutra: [^\]]*?lines (\d+)-(\d+))");
        std::size_t markers = 0, rulers_only = 0;
        for (auto it = std::sregex_iterator(r.view.begin(), r.view.end(), range);
             it != std::sregex_iterator(); ++it) {
            ++markers;
            const std::size_t first = std::stoul((*it)[1]), last = std::stoul((*it)[2]);
            bool all_rulers = true;
            for (std::size_t l = first; l <= last && l <= lines.size(); ++l)
                all_rulers = all_rulers && lines[l - 1] == rule;
            rulers_only += all_rulers;
        }
        EXPECT_GT(markers, 0u); // the build log folds
        EXPECT_EQ(rulers_only, 0u) << r.view.substr(0, 6000);
    }
}

} // namespace
} // namespace sutra::core
