// What makes a line signal in any tool's output (issue 25), each rule over generated outputs in
// the shape real tools print: a failure verdict with no failure word (TAP's `not ok`), a memory
// checker's findings in a run that exits 0 with their first frame in the program, a checker's
// list of files to fix, findings named by a place and a rule, a log's error tags, errors hidden
// in a stream counted by its markers, and the context repeated under every diagnostic folded
// after the first few.

#include "core/compress.hpp"
#include "core/exec/exec_stream.hpp"
#include "core/rewrite/classify.hpp"
#include "core/rewrite/diagnostic_lines.hpp"
#include "core/rewrite/text_rewrite.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <regex>
#include <string>
#include <vector>

namespace sutra::core {
namespace {

using test::TempDir;

Response run(const std::string& input, const Config& c, int exit_code) {
    Request req;
    req.output = input;
    req.exit_code = exit_code;
    return compress(req, c);
}

std::size_t count_of(std::string_view hay, std::string_view needle) {
    std::size_t n = 0;
    for (auto at = hay.find(needle); at != std::string_view::npos; at = hay.find(needle, at + 1))
        ++n;
    return n;
}

// Every line of `wanted` is in the view whole.
void expect_all_shown(const std::string& view, const std::vector<std::string>& wanted) {
    std::size_t missing = 0;
    for (const std::string& w : wanted)
        if (view.find(w + "\n") == std::string::npos && ++missing <= 3)
            ADD_FAILURE() << "not shown: " << w;
    EXPECT_EQ(missing, 0u) << "of " << wanted.size();
}

TEST(SignalLines, LevelsOfLinesTakenAlone) {
    const KeyMatcher keys;
    // TAP's verdicts: `not ok` is a failure, `ok` is not.
    EXPECT_EQ(line_level(keys, "not ok 12 split(1000, 8) sums to the total\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "    not ok 3 - 2020-06-01\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "ok 12 split(1000, 8) sums to the total\n"), Level::none);
    EXPECT_EQ(line_level(keys, "it is not okay to skip\n"), Level::none);
    // A log's error tags, in capitals and as words of their own.
    EXPECT_EQ(line_level(keys, "npm ERR! code ELIFECYCLE\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "CRITICAL:root:disk full\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "Dec 02 12:00:01 host app[77]: CRIT queue stalled\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "SEVERE: connection pool exhausted\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "read from stderr and errno\n"), Level::none);
    EXPECT_EQ(line_level(keys, "ERR_TEST_FAILURE raised by Err(e) in crit_path\n"), Level::none);
    // A checker's verdict about a file.
    EXPECT_EQ(line_level(keys, "[warn] src/routes/index.js\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "[warn] index.js\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "would reformat /srv/app/models.py\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "npm warn deprecated glob@7.2.3: no longer supported\n"),
              Level::notable);
    // Findings named by a place and a rule.
    EXPECT_EQ(line_level(keys, "docs/a.md:14:81 MD013/line-length Line length [Expected: 80]\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "docs/a.md:23 MD024/no-duplicate-heading Multiple headings\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "src/port.cc:120:  Missing space after ,  [whitespace/comma] [3]\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "src/port.cc:120:  std::vector<int> v = {1, 2};\n"), Level::none);
    EXPECT_EQ(line_level(keys, "src/hash.c:12: SHA256(input)\n"), Level::none);
    // A file and line then a message in words (vulture, codespell); a column range (hlint); a
    // place then ` - ` (cspell); a row opening with its line, column and severity (remark).
    EXPECT_EQ(line_level(keys, "pkg/inv/mod10.py:11: unused variable 'stale' (60% confidence)\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "docs/runbook14.md:3: writting ==> writing\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "report_test.go:75: report: Split(100,3) sums to 99, want 100\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "conf/app.yml:3: name: svc\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "conf/app.yml:3:  name: svc\n"), Level::none);
    // A line that is one JSON object, by its values; its keys are names, not words.
    EXPECT_EQ(line_level(
                  keys, "{\"Action\":\"output\",\"Output\":\"FAIL\\texample.com/p\\t0.02s\\n\"}\n"),
              Level::critical);
    EXPECT_EQ(
        line_level(keys, "{\"Action\":\"output\",\"Output\":\"--- PASS: TestX (0.00s)\\n\"}\n"),
        Level::none);
    EXPECT_EQ(line_level(keys, "{\"error_count\":0,\"msg\":\"indexed 12 files\"}\n"), Level::none);
    EXPECT_EQ(line_level(keys, "src/Inv/Stock1.hs:16:1-28: Suggestion: Use null\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "docs/guide1.md:1:26 - Unknown word (Servise) fix: (Service)\n"),
              Level::critical);
    EXPECT_EQ(
        line_level(keys, "11:1-11:26   warning Unexpected heading rank `3`  heading-increment\n"),
        Level::critical);
    EXPECT_EQ(line_level(keys, "    1:1-1:33 info    Parent heading defined here\n"), Level::none);
    EXPECT_EQ(line_level(keys, "docs/a.md:3: Run the build\n"), Level::none);
    EXPECT_EQ(line_level(keys, "src/a.c:12: foo(x); bar(y);\n"), Level::none);
    EXPECT_EQ(line_level(keys, "12:30 the meeting starts\n"), Level::none);
    // TeX's errors open with `! `.
    EXPECT_EQ(line_level(keys, "! Missing $ inserted.\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "!important rules\n"), Level::none);
    // Quoted source is the program's words, not the tool's.
    EXPECT_EQ(line_level(keys, "640\t            assert obj is not None\n"), Level::none);
    EXPECT_EQ(line_level(keys, "   12 |     throw new Error(\"bad\");\n"), Level::none);
    EXPECT_EQ(line_level(keys, "  > 7 |   expect(fail()).toBe(6);\n"), Level::none);
    EXPECT_EQ(line_level(keys, "2024 | ERROR | database unreachable\n"), Level::critical);
    // A row in the GNU form is a finding whatever its words (`expected` alone is notable).
    EXPECT_EQ(line_level(keys, "  /p/src/a.js:5:23: Expected '===' and instead saw '=='. "
                               "(eqeqeq)\n"),
              Level::critical);
    // A file first and its line in words later (perlcritic); a risk level in brackets after a
    // place (flawfinder).
    EXPECT_EQ(line_level(keys, "lib/Shop/Cart03.pm: Code before warnings are enabled at line 5, "
                               "column 1.  See page 431 of PBP.  (Severity: 4)\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "src/buf08.c:15:  [4] (buffer) sprintf:\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "notes:3: todo\n"), Level::none);
    EXPECT_EQ(line_level(keys, "src/a.c:12:    return x;\n"), Level::none);
    // A severity letter opening the line (apt, lintian): an error; a warning naming its file.
    EXPECT_EQ(line_level(keys, "E: ledger-tool: no-copyright-file\n"), Level::critical);
    EXPECT_EQ(line_level(keys, "W: ledger-tool: executable-not-elf-or-script "
                               "[usr/lib/ledger/mod1.py]\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "W: ledger-tool: no-manual-page\n"), Level::notable);
    EXPECT_EQ(line_level(keys, "I: ledger-tool: no-md5sums-control-file\n"), Level::none);
    EXPECT_EQ(line_level(keys, "%    3| t() -> U = 1, ?assertEqual(3, m:f(6)).\n"), Level::none);
    EXPECT_EQ(line_level(keys, "   12|     raise Error(\"bad\")\n"), Level::none);
    EXPECT_EQ(line_level(keys, "  4 | ERROR   | [ ] Class name \"cart_6\" is not in PascalCase\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "%3| assert false\n"), Level::critical);
    // A located note naming its check by code is a finding (shellcheck -f gcc's lowest
    // severity); a compiler's note explaining an error is not.
    EXPECT_EQ(line_level(keys, "scripts/s025.sh:11:10: note: Double quote to prevent globbing "
                               "and word splitting. [SC2086]\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "src/a.c:3:4: note: expanded from macro 'CHECK'\n"), Level::notable);
    EXPECT_EQ(line_level(keys, "src/a.c:3:4: note: in instantiation of [T = int]\n"),
              Level::notable);
    // A row in the GNU form with no severity at all (luacheck, go vet) is a finding; cppcheck's
    // `information:` and a listing of matches with their columns are not.
    EXPECT_EQ(line_level(keys, "    src/m005.lua:11:10: accessing undefined variable 'total_2'\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "./main.go:12:2: x declared and not used\n"), Level::critical);
    EXPECT_NE(line_level(keys, "src/lexer.c:0:0: information: Too many #ifdef configurations\n"),
              Level::critical);
    EXPECT_EQ(line_level(keys, "src/a.c:12:5:    int value = compute();\n"), Level::none);
    EXPECT_EQ(line_level(keys, "http://host:80:1: reachable\n"), Level::none);
}

TEST(SignalLines, TheCheckersPrefixIsNotIndentation) {
    EXPECT_EQ(content_start("==1059== Invalid read of size 1\n"), 9u);
    EXPECT_EQ(content_start("==1994==ERROR: AddressSanitizer: x\n"), 8u);
    EXPECT_EQ(indent_of("==1059==    by 0x117D36: MyString::Length() const (mystring.h:9)\n"), 3u);
    EXPECT_EQ(indent_of("== heading ==\n"), 0u);
    EXPECT_EQ(content_start("== heading ==\n"), 0u);
}

// A TAP run (tape's form): 400 assertions, 15 failing at random places, each with its YAML
// block. Every `not ok` line is shown, whatever the `ok` lines around it fold into.
TEST(SignalLines, TapFailuresAreShownAmongPassingLines) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(25);
    for (int round = 0; round < 5; ++round) {
        std::string in = "TAP version 13\n# totals\n";
        std::vector<std::string> failures;
        std::vector<int> failing(400, 0);
        for (int k = 0; k < 15; ++k) failing[rng() % 400] = 1;
        int failed = 0;
        for (int n = 1; n <= 400; ++n) {
            const std::string name = "total(" + std::to_string(n * 7 % 1000) + ".295)";
            if (!failing[n - 1]) {
                in += "ok " + std::to_string(n) + " " + name + "\n";
                continue;
            }
            ++failed;
            failures.push_back("not ok " + std::to_string(n) + " " + name);
            in += failures.back() + "\n";
            in += "  ---\n    operator: equal\n    expected: " + std::to_string(n * 7) +
                  "\n    actual:   " + std::to_string(n * 7 - 1) +
                  "\n    at: Test.<anonymous> (/work/money.test.js:8:7)\n  ...\n";
        }
        in += "\n1..400\n# tests 400\n# pass  " + std::to_string(400 - failed) + "\n# fail  " +
              std::to_string(failed) + "\n";
        const Response r = run(in, c, 1);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        expect_all_shown(r.view, failures);
        EXPECT_LT(r.view.size() * 2, in.size());
    }
}

// valgrind over a test binary whose tests pass (exit 0): a dozen findings, each header the
// same words (one PID), each with its stack under the checker's `==PID==` prefix. Every header
// is shown with the first frame of its stack in a source file, and the frames between are not
// all kept.
TEST(SignalLines, MemoryCheckerFindingsOfAPassingRunKeepTheirPlaces) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string in;
    std::vector<std::string> wanted;
    const char* kinds[] = {"Invalid read of size 1", "Invalid write of size 2"};
    for (int e = 0; e < 12; ++e) {
        for (int t = e * 25; t < (e + 1) * 25; ++t)
            in += "[ RUN      ] Sizes/MyStringSizes.LengthMatches/" + std::to_string(t) +
                  "\n[       OK ] Sizes/MyStringSizes.LengthMatches/" + std::to_string(t) +
                  " (3 ms)\n";
        const std::string header = std::string("==4242== ") + kinds[e % 2];
        const std::string place = "==4242==    by 0x1" + std::to_string(17000 + e) +
                                  ": MyString::Step" + std::to_string(e) +
                                  "() const (mystring.h:" + std::to_string(10 + e) + ")";
        in += header +
              "\n==4242==    at 0x4847794: strlen (in "
              "/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)\n" +
              place + "\n";
        for (int f = 0; f < 9; ++f)
            in += "==4242==    by 0x1426" + std::to_string(10 + f) +
                  ": testing::Test::Run() (in /work/vgtest/mystring_test)\n";
        in += "==4242==  Address 0x4dd8c85 is 0 bytes after a block of size 5 alloc'd\n";
        in += "==4242== \n";
        wanted.push_back(header);
        wanted.push_back(place);
    }
    in += "[  PASSED  ] 300 tests.\n==4242== ERROR SUMMARY: 40 errors from 12 contexts\n";
    const Response r = run(in, c, 0);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    expect_all_shown(r.view, wanted);
    EXPECT_LT(count_of(r.view, "testing::Test::Run()"), 12u * 9 / 2);
}

// prettier's `[warn] path` and black's `would reformat path`, hundreds of them: every file is
// named in the view.
TEST(SignalLines, ACheckersFileListNamesEveryFile) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string prettier = "Checking formatting...\n", black;
    std::vector<std::string> files, reformat;
    for (int k = 0; k < 400; ++k) {
        files.push_back("[warn] src/module_" + std::to_string(k / 20) + "/part_" +
                        std::to_string(k) + ".js");
        prettier += files.back() + "\n";
        reformat.push_back("would reformat /srv/app/pkg" + std::to_string(k % 7) + "/mod_" +
                           std::to_string(k) + ".py");
        black += reformat.back() + "\n";
    }
    prettier += "[warn] Code style issues found in 400 files. Run Prettier with --write to fix.\n";
    black += "\nOh no! 💥 💔 💥\n400 files would be reformatted, 40 files would be left unchanged.\n";
    const Response p = run(prettier, c, 1);
    ASSERT_NE(p.passthrough, "small"); // large enough to be rewritten: the lines decide
    expect_all_shown(std::string(view_of(p, prettier)), files);
    const Response b = run(black, c, 1);
    expect_all_shown(std::string(view_of(b, black)), reformat);
}

// Findings with a place and a rule and no severity word: markdownlint's rows, cpplint's rows,
// bandit's headers over their `Location:` lines, lintian's `W:` tags naming a file each. None
// folds as "similar" into another.
TEST(SignalLines, FindingsAtDifferentPlacesNeverFold) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string md, cpp, bandit = "Test results:\n";
    std::vector<std::string> rows, cpp_rows, issues;
    for (int k = 0; k < 230; ++k) {
        rows.push_back("docs/guide-" + std::to_string(k / 40) + ".md:" + std::to_string(14 + k) +
                       ":81 MD013/line-length Line length [Expected: 80; Actual: " +
                       std::to_string(90 + k % 50) + "]");
        md += rows.back() + "\n";
        cpp_rows.push_back(
            "src/gtest-port.cc:" + std::to_string(100 + k * 3) +
            ":  Lines should be <= 80 characters long  [whitespace/line_length] [2]");
        cpp += cpp_rows.back() + "\n";
    }
    for (int k = 0; k < 30; ++k) {
        issues.push_back(">> Issue: [B101:assert_used] Use of assert detected.");
        const std::string where =
            "   Location: _pytest/python_api.py:" + std::to_string(40 + k * 9);
        issues.push_back(where);
        bandit += issues[issues.size() - 2] + "\n   Severity: Low   Confidence: High\n" + where +
                  "\n   More Info: https://bandit.readthedocs.io/en/latest/plugins/b101.html\n";
        for (int l = 0; l < 3; ++l)
            bandit += std::to_string(39 + k * 9 + l) + "\t        assert isinstance(x, int)\n";
        bandit += "\n--------------------------------------------------\n";
    }
    bandit += "Code scanned:\n\tTotal lines of code: 2676\n";
    // lintian's tags by severity letter, one per file it names.
    std::string lintian = "running with root privileges is not recommended!\n";
    std::vector<std::string> tags;
    for (int k = 0; k < 120; ++k) {
        tags.push_back("W: ledger-tool: executable-not-elf-or-script [usr/lib/ledger/mod" +
                       std::to_string(k) + ".py]");
        lintian += tags.back() + "\n";
    }
    for (int k = 0; k < 40; ++k)
        lintian += "I: ledger-tool: hardening-no-bindnow [usr/lib/ledger/mod" + std::to_string(k) +
                   ".so]\n";
    for (const auto& [in, wanted] : {std::pair{md, rows}, std::pair{cpp, cpp_rows},
                                     std::pair{bandit, issues}, std::pair{lintian, tags}}) {
        const Response r = run(in, c, 1);
        expect_all_shown(std::string(view_of(r, in)), wanted);
    }
}

// Context repeated under every diagnostic (a code excerpt and its caret) is shown for the first
// few of a kind; after that it folds into markers, while every diagnostic line stays.
TEST(SignalLines, RepeatedContextFoldsAfterTheFirstFew) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string in;
    std::vector<std::string> errors;
    for (int k = 0; k < 200; ++k) {
        errors.push_back("lib/router/layer_" + std::to_string(k % 9) +
                         ".js:" + std::to_string(20 + k) + ":5 - error TS7006: Parameter 'req" +
                         std::to_string(k) + "' implicitly has an 'any' type.");
        in += errors.back() + "\n\n" + std::to_string(20 + k) + "     function handle_" +
              std::to_string(k) + "(req" + std::to_string(k) + ", res, next) {\n" +
              "                        ~~~~\n\n";
    }
    in += "\nFound 200 errors in 9 files.\n";
    const Response r = run(in, c, 2);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    expect_all_shown(r.view, errors);
    // The first few excerpts are shown; in the middle, away from the head and the tail the
    // budget shows, none is.
    EXPECT_NE(r.view.find("     function handle_1(req1"), std::string::npos);
    std::size_t middle = 0;
    for (int k = 60; k < 140; ++k)
        middle += count_of(r.view, "     function handle_" + std::to_string(k) + "(");
    EXPECT_EQ(middle, 0u);
}

// Stream (exec past its window): a 20 MB log with 9 errors at random places, one of them only
// tagged (`npm ERR!`): all 9 are shown; with far more errors than fit, each marker counts the
// errors it holds, and the counts add up to the closing line's.
StreamView stream(const std::string& input, std::uint64_t ceiling) {
    const KeyMatcher keys;
    StreamPlanner planner(keys, text_options(Mode::normal, ceiling));
    for (std::size_t at = 0; at < input.size(); at += 65536)
        planner.feed(std::string_view(input).substr(at, 65536));
    planner.finish();
    MarkerContext ctx;
    ctx.id = k_placeholder_id;
    StreamRetention all;
    all.retained = UINT64_MAX;
    return planner.render(ctx, all);
}

TEST(SignalLines, StreamedErrorsAreShownOrCountedByTheirMarkers) {
    std::mt19937 rng(9);
    std::string log;
    std::vector<std::size_t> at;
    for (int k = 0; k < 9; ++k) at.push_back(rng() % 300000);
    std::sort(at.begin(), at.end());
    std::vector<std::string> errors;
    for (std::size_t i = 0, next = 0; i < 300000; ++i) {
        if (next < at.size() && at[next] == i) {
            errors.push_back(next == 4 ? "npm ERR! code ELIFECYCLE"
                                       : "ERROR job " + std::to_string(i) + " failed");
            log += errors.back() + "\n";
            ++next;
        }
        log += "INFO worker " + std::to_string(i % 97) + " processed batch " + std::to_string(i) +
               " in " + std::to_string(i * 7 % 1000) + " ms\n";
    }
    ASSERT_GT(log.size(), 12u << 20);
    const StreamView v = stream(log, 8192);
    expect_all_shown(v.view, errors);

    std::string dense;
    for (int k = 0; k < 4000; ++k)
        dense += "INFO step " + std::to_string(k) + " fine\n" + "npm ERR! step " +
                 std::to_string(k) + " failed with code " + std::to_string(k % 7 + 1) + "\n";
    const StreamView d = stream(dense, 8192);
    ASSERT_GT(d.key_lines_elided, 0u);
    std::uint64_t counted = 0;
    const std::regex with_errors(R"(, (\d+) with errors\])");
    for (std::sregex_iterator it(d.view.begin(), d.view.end(), with_errors), end; it != end; ++it)
        counted += std::stoull((*it)[1]);
    EXPECT_EQ(counted, d.key_lines_elided) << d.view.substr(0, 2000);
}

} // namespace
} // namespace sutra::core
