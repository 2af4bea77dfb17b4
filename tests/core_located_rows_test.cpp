// Findings named by their place with no error word (core/rewrite/diagnostic_lines.cpp): a file
// and line then a message in words (vulture, codespell), a place then ` - ` (cspell), a column
// range (hlint), and rows that open with their line and column under their file's name
// (remark, eslint's stylish) or with them labelled (sqlfluff). Each is a finding: none folds into a
// "large output" marker while the view has room, and a row under a file's name shows with it, so
// the same row in two files is two findings.

#include "core/compress.hpp"
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

// What the reader gets: the view, or the output itself when it passed through.
std::string_view shown(const Response& r, const std::string& in) {
    return r.rewritten ? std::string_view(r.view) : std::string_view(in);
}

// sqlfluff's place: `L:   2 | P:  55 | `.
std::string fmt_row(int line, int pos) {
    const auto pad = [](int v) {
        std::string s = std::to_string(v);
        return std::string(s.size() < 4 ? 4 - s.size() : 0, ' ') + s;
    };
    return "L:" + pad(line) + " | P:" + pad(pos) + " | ";
}

std::size_t hidden_of(std::string_view view, const std::vector<std::string>& lines) {
    std::size_t hidden = 0;
    for (const std::string& l : lines)
        hidden += !(view.starts_with(l + "\n") || view.find("\n" + l + "\n") != std::string::npos);
    return hidden;
}

TEST(LocatedRows, FindingsNamedByTheirPlaceAllShow) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(61);
    const char* words[] = {"recieve", "seperate", "occured", "untill", "adress", "wich"};
    for (int round = 0; round < 8; ++round) {
        SCOPED_TRACE(round);
        std::string in;
        std::vector<std::string> rows;
        const int count = 200 + static_cast<int>(rng() % 200);
        for (int k = 0; k < count; ++k) {
            const std::string file = "pkg/mod" + std::to_string(k / 5) + ".py";
            const std::string line = std::to_string(1 + rng() % 300);
            const std::string w = words[rng() % 6];
            std::string row;
            switch (round % 4) {
            case 0:
                row = file + ":" + line + ": unused variable 'v" + std::to_string(k) +
                      "' (60% confidence)";
                break;
            case 1:
                row = "docs/g" + std::to_string(k / 5) + ".md:" + line + ": " + w + " ==> fixed";
                break;
            case 2:
                row = "docs/g" + std::to_string(k / 5) + ".md:" + line + ":" +
                      std::to_string(1 + rng() % 70) + " - Unknown word (" + w + ")";
                break;
            default:
                row = "src/M" + std::to_string(k / 5) + ".hs:" + line + ":3-" +
                      std::to_string(9 + rng() % 30) + ": Suggestion: Use null";
                break;
            }
            rows.push_back(row);
            in += row + "\n";
        }
        const Response r = run(in, c);
        EXPECT_EQ(hidden_of(shown(r, in), rows), 0u) << r.view.substr(0, 3000);
    }
}

TEST(LocatedRows, RowsUnderAFilesNameShowWithItInEveryFile) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(67);
    for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE(round);
        std::string in;
        for (int k = 0; k < 400; ++k)
            in += "   info: read docs/part" + std::to_string(k) + ".md (" +
                  std::to_string(rng() % 900) + " ms)\n";
        in += "\n";
        std::vector<std::string> wanted;
        const int files = 20 + static_cast<int>(rng() % 20);
        for (int f = 0; f < files; ++f) {
            const std::string name = "docs/guide" + std::to_string(f) + ".md";
            in += name + "\n";
            wanted.push_back(name);
            // The same rows in every file: each file's are its own findings.
            for (const char* row : {"5:1          warning Unexpected unordered list marker `*`   "
                                    "unordered-list-marker-style   remark-lint",
                                    "11:1-11:26   warning Unexpected heading rank `3`   "
                                    "heading-increment   remark-lint"})
                in += std::string(row) + "\n";
            in += "  [cause]:\n    1:1-1:33 info    Parent heading defined here\n";
            const std::string own = std::to_string(20 + f) + ":1-" + std::to_string(20 + f) +
                                    ":9   warning Unexpected reference `ref" + std::to_string(f) +
                                    "`   no-undefined-references   remark-lint";
            in += own + "\n\n";
            wanted.push_back(own);
        }
        in += "\xe2\x9a\xa0 " + std::to_string(files * 3) + " warnings\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_of(r.view, wanted), 0u) << r.view.substr(0, 3000);
        // Each file's copy of a common row shows, under its file's name.
        std::size_t copies = 0;
        for (std::size_t at = r.view.find("\n5:1          warning"); at != std::string::npos;
             at = r.view.find("\n5:1          warning", at + 1))
            ++copies;
        EXPECT_EQ(copies, static_cast<std::size_t>(files));
    }
}

// sqlfluff's rows: `L:   2 | P:  55 | L014 | message`, the place labelled and a rule's code,
// each file's rows under its `== [path] FAIL` line with no blank line between files, the same
// rows in many files. Every row is a finding of its own file: all show, with their file's line.
TEST(LocatedRows, LabelledPlaceRowsShowUnderEachFilesLine) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(71);
    const char* rules[] = {"L010 | Keywords must be consistently lower case.",
                           "L016 | Line is too long.",
                           "L014 | Unquoted identifiers must be consistently lower case."};
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in;
        std::vector<std::string> headings, rows; // every file has the same rows
        for (int r = 0; r < 20; ++r)
            rows.push_back(fmt_row(2 + r / 3, 1 + (r * 17) % 90) + rules[(r + round) % 3]);
        const int files = 25 + static_cast<int>(rng() % 10);
        for (int f = 0; f < files; ++f) {
            headings.push_back("== [models/sales" + std::to_string(f) + ".sql] FAIL");
            in += headings.back() + "\n";
            for (const std::string& row : rows) in += row + "\n";
        }
        in += "All Finished!\n";
        const Response r = run(in, c);
        const std::string_view view = shown(r, in);
        // Under each file's line, before the next one: all of its rows.
        for (std::size_t f = 0; f < headings.size(); ++f) {
            const std::size_t at = view.find(headings[f] + "\n");
            ASSERT_NE(at, std::string_view::npos) << headings[f];
            const std::size_t end = view.find("\n== [", at + 1);
            EXPECT_EQ(hidden_of(view.substr(at, end == std::string_view::npos ? end : end - at + 1),
                                rows),
                      0u)
                << headings[f] << "\n"
                << view.substr(0, 3000);
        }
    }
}

// ansible-lint's findings: a paragraph of two lines, `rule[tag]: message` over its place
// (`db.yml:21`, or `db.yml:8 Task/Handler: install postgres`), the same messages in many files
// and at many lines, with coloured words and links. Each message shows with its place.
TEST(LocatedRows, AMessageOverItsPlaceIsAFinding) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(73);
    const char* messages[] = {"name[casing]: All names should start with an uppercase letter.",
                              "fqcn[action-core]: Use FQCN for builtin module actions (apt).",
                              "yaml[truthy]: Truthy value should be one of [false, true]",
                              "no-changed-when: Commands should not change things if nothing "
                              "needs doing."};
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in = "WARNING  Listing 160 violation(s) that are fatal\n";
        std::vector<std::string> places;
        for (int f = 0; f < 160; ++f) {
            const std::string& message = messages[rng() % 4];
            std::string place = "roles/db" + std::to_string(f % 7) +
                                "/tasks/main.yml:" + std::to_string(2 + rng() % 90);
            if (rng() % 2) place += " Task/Handler: init db";
            // Its rule name is a link, its words coloured, as printed to a pipe.
            in += "\x1b]8;id=1;https://ansible-lint.readthedocs.io/rules/x/\x1b\\\x1b[1;91m" +
                  message.substr(0, message.find(':')) + "\x1b[0m\x1b]8;;\x1b\\" +
                  message.substr(message.find(':')) + "\n\x1b[34m" + place + "\x1b[0m\n\n";
            places.push_back(place);
        }
        in += "Failed: 160 failure(s), 0 warning(s) on 9 files.\n";
        const Response r = run(in, c);
        EXPECT_EQ(hidden_of(shown(r, in), places), 0u) << shown(r, in).substr(0, 3000);
    }
}

// A paragraph of a message over a line of blanks is no message over its place: nothing is
// read past the blanks (the ASan build runs this).
TEST(LocatedRows, AMessageOverBlanksIsNoFinding) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const char* blanks : {" ", "\t", " \r", "   \t  "}) {
        std::string in;
        for (int k = 0; k < 600; ++k)
            in += "step " + std::to_string(k) + " done\n" + blanks + "\n\n";
        const Response r = run(in, c);
        EXPECT_FALSE(r.rewritten && r.view.find("step 599 done") == std::string::npos)
            << r.view.substr(0, 400);
    }
}

// svelte-check's diagnostics: a place alone and flush left, then `Warn: …` or `Error: …`, a
// link, the quoted code, a blank line; the same words in every file. Each shows with its own
// place, never the next report's.
TEST(LocatedRows, ADiagnosticUnderItsPlaceAloneShowsWithIt) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const int files : {30, 60}) {
        SCOPED_TRACE(files);
        std::string in =
            "Loading svelte-check in workspace: /app\nGetting Svelte diagnostics...\n\n";
        std::vector<std::string> places;
        for (int f = 0; f < files; ++f) {
            const std::string file = "/app/src/lib/Panel" + std::to_string(f) + ".svelte";
            const auto report = [&](const std::string& place, const std::string& words) {
                places.push_back(place);
                in += place + "\n" + words + "\n  export let panel: Panel;\n  export let limit: " +
                      "number = \"10\";\n  let selected: Metric | undefined;\n\n";
            };
            report(file + ":23:3", "Warn: `<img>` element should have an alt attribute\n"
                                   "https://svelte.dev/e/a11y_missing_attribute (svelte)");
            report(file + ":5:14", "Error: Type 'string' is not assignable to type 'number'. (ts)");
            report(file + ":11:17", "Error: 'selected' is possibly 'undefined'. (ts)");
        }
        in += "====================================\nsvelte-check found " +
              std::to_string(files * 2) + " errors and " + std::to_string(files) + " warnings in " +
              std::to_string(files) + " files\n";
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_of(r.view, places), 0u) << r.view.substr(0, 4000);
    }
}

// `go test -json`: one JSON object a line, the test's printed lines in its "Output" values
// (`"Output":"FAIL\texample.com/p\t0.02s\n"`, `"Output":"    x_test.go:87: got 3, want 4\n"`),
// among thousands of passing ones. Each value is read as the line it stands for.
TEST(LocatedRows, JsonLinesAreReadByTheirValues) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(79);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in;
        std::vector<std::string> wanted;
        int t = 0;
        const auto record = [&](const std::string& pkg, const std::string& test,
                                const std::string& output) {
            const std::string line = "{\"Time\":\"2026-12-04T10:22:43." +
                                     std::to_string(100000 + t++) +
                                     "Z\",\"Action\":\"output\",\"Package\":\"example.com/" + pkg +
                                     "\"" + (test.empty() ? "" : ",\"Test\":\"" + test + "\"") +
                                     ",\"Output\":\"" + output + "\\n\"}";
            in += line + "\n";
            return line;
        };
        for (int p = 0; p < 8; ++p) {
            const std::string pkg = "bill/p" + std::to_string(p);
            const int failing = static_cast<int>(rng() % 60);
            for (int k = 0; k < 60; ++k) {
                const std::string test = "TestRound" + std::to_string(k);
                record(pkg, test, "=== RUN   " + test);
                if (k == failing) {
                    wanted.push_back(record(
                        pkg, test,
                        "    p" + std::to_string(p) + "_test.go:" + std::to_string(40 + k) +
                            ": got " + std::to_string(k) + ", want " + std::to_string(k + 1)));
                    record(pkg, test, "--- FAIL: " + test + " (0.00s)");
                } else {
                    record(pkg, test, "--- PASS: " + test + " (0.00s)");
                }
            }
            wanted.push_back(record(
                pkg, "", "FAIL\\texample.com/" + pkg + "\\t0.0" + std::to_string(10 + p) + "s"));
        }
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_EQ(hidden_of(r.view, wanted), 0u) << r.view.substr(0, 4000);
    }
}

// elixirc's warnings: the message, then its place indented on the next line, in a run that
// exits 0. Each warning is located by that line: it and its place show, in every file.
TEST(LocatedRows, AWarningWithItsPlaceBelowIsLocated) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(71);
    for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE(round);
        std::string in;
        for (int k = 0; k < 300; ++k) in += "Compiling lib/part" + std::to_string(k) + ".ex\n";
        std::vector<std::string> wanted;
        const int files = 40 + static_cast<int>(rng() % 40);
        for (int f = 0; f < files; ++f) {
            const std::string file = "lib/report" + std::to_string(f) + ".ex";
            for (const char* what : {"variable \"header\" is unused", "unused import Enum"}) {
                const std::string place =
                    "  " + file + ":" + std::to_string(3 + rng() % 20) + ": Reports.build/2";
                in += std::string("warning: ") + what + "\n" + place + "\n\n";
                wanted.push_back(place);
            }
        }
        in += "Generated reports app\n";
        Request req;
        req.output = in;
        req.exit_code = 0;
        const Response r = compress(req, c);
        EXPECT_EQ(hidden_of(shown(r, in), wanted), 0u) << r.view.substr(0, 3000);
    }
}

// pdflatex's errors: `! Undefined control sequence.`, then `l.24 …` with the input line up to
// where TeX stopped. Every error shows with its `l.` line, among pages of box warnings.
TEST(LocatedRows, TexErrorsKeepTheirInputLine) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(73);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in = "This is pdfTeX, Version 3.141592653-2.6-1.40.24 (TeX Live 2022/Debian)\n";
        std::vector<std::string> wanted;
        const int errors = 30 + static_cast<int>(rng() % 30);
        for (int e = 0; e < errors; ++e) {
            for (int k = 0; k < 6; ++k)
                in += "Underfull \\hbox (badness " + std::to_string(1000 + rng() % 9000) +
                      ") in paragraph at lines " + std::to_string(e * 10) + "--" +
                      std::to_string(e * 10 + 3) + "\n[]\\OT1/cmr/m/n/10 text\n\n";
            const std::string at = "l." + std::to_string(20 + e * 4) + " ...value is $x^" +
                                   std::to_string(e) + "$ and \\undefinedmacro";
            in += "! Undefined control sequence.\n" + at + "\n" + std::string(40, ' ') + "{" +
                  std::to_string(e) + "} here.\n\n";
            wanted.push_back(at);
        }
        in += "Output written on report.pdf (3 pages, 61234 bytes).\n";
        const Response r = run(in, c);
        EXPECT_EQ(hidden_of(shown(r, in), wanted), 0u) << r.view.substr(0, 3000);
    }
}

// OCaml's warnings under their place and the quoted code (`File "m1.ml", lines 3-4, characters
// 2-19:`, `3 | ..match y with`, `4 |   | Some z -> z + x`, then `Warning 8 [partial-match]: …`):
// each warning is located there, so every place shows though the warnings' words repeat. A
// run's `13 warnings generated.` under a note is not located by the note.
TEST(LocatedRows, AWarningUnderItsPlaceAndCodeIsLocatedThere) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(79);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in;
        std::vector<std::string> wanted;
        const int warnings = 60 + static_cast<int>(rng() % 60);
        for (int w = 0; w < warnings; ++w) {
            const std::string file = "m" + std::to_string(w % 5) + ".ml";
            const int line = 3 + 5 * (w / 5);
            const std::string a = std::to_string(line), b = std::to_string(line + 1);
            std::string place;
            if (w % 2 == 0) {
                place = "File \"" + file + "\", lines " + a + "-" + b + ", characters 2-19:";
                in += place + "\n" + a + " | ..match y with\n" + b +
                      " |   | Some z -> z + x\nWarning 8 [partial-match]: this pattern-matching "
                      "is not exhaustive.\nHere is an example of a case that is not "
                      "matched:\nNone\n";
            } else {
                place = "File \"" + file + "\", line " + a + ", characters 6-12:";
                in += place + "\n" + a + " |   let unused = x + 1 in\n" +
                      std::string(a.size() + 8, ' ') +
                      "^^^^^^\nWarning 26 [unused-var]: unused variable unused.\n";
            }
            wanted.push_back(place);
        }
        const Response r = run(in, c);
        EXPECT_EQ(hidden_of(shown(r, in), wanted), 0u) << r.view.substr(0, 3000);
    }
}

// Nim's rows: `bad.nim(8, 7) Hint: 'x' is declared but not used [XDeclaredButNotUsed]` names
// its place (a pair with a blank) and its rule in brackets: a finding, every one shown, as its
// errors are; a hint with no place (`Hint: used config file … [Conf]`) is none.
TEST(LocatedRows, RowsNamingAPlaceAndARuleInBracketsAreFindings) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(83);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in = "Hint: used config file '/etc/nim/nim.cfg' [Conf]\n";
        for (int k = 0; k < 200; ++k) in += std::string(40 + k % 30, '.') + "\n";
        std::vector<std::string> wanted;
        const int rows = 80 + static_cast<int>(rng() % 80);
        for (int w = 0; w < rows; ++w) {
            const std::string at = "/src/nim/bad.nim(" + std::to_string(4 + 5 * w) + ", " +
                                   std::to_string(6 + w % 3) + ")";
            const std::string row =
                w % 4 == 3 ? at + " Error: type mismatch: got 'int' for 'a' but expected 'string'"
                           : at + " Hint: 'unused" + std::to_string(w) +
                                 "' is declared but not used [XDeclaredButNotUsed]";
            in += row + "\n";
            wanted.push_back(row);
        }
        in += "Hint: mm: orc; threads: on; opt: none [BuildMode]\n";
        const Response r = run(in, c);
        EXPECT_EQ(hidden_of(shown(r, in), wanted), 0u) << r.view.substr(0, 3000);
    }
}

// A coverage report's rows name a file and, last, its lines left uncovered (coverage.py's
// `app/m5.py  60  33  45%   3-4, 9-13`): places, every one shown; a row with none (`100%`)
// folds with its kind.
TEST(LocatedRows, ARowListingAFilesLinesIsAFinding) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(89);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE(round);
        std::string in =
            "Name                   Stmts   Miss  Cover   Missing\n" + std::string(52, '-') + "\n";
        std::vector<std::string> wanted;
        for (int f = 0; f < 400; ++f) {
            const std::string file =
                "app/sub" + std::to_string(f / 25) + "/m" + std::to_string(f % 25) + ".py";
            std::string row = file + std::string(23 - file.size(), ' ') + "    60";
            if (f % 5 != 0) {
                row += "     0   100%";
                in += row + "\n";
                continue;
            }
            std::string missing;
            for (int k = 0, at = 3; k < 4 + static_cast<int>(rng() % 8); ++k) {
                const int length = static_cast<int>(rng() % 5);
                missing += (k ? ", " : "") + std::to_string(at) +
                           (length ? "-" + std::to_string(at + length) : "");
                at += length + 2 + static_cast<int>(rng() % 6);
            }
            row += "    " + std::to_string(10 + rng() % 40) + "    " +
                   std::to_string(20 + rng() % 60) + "%   " + missing;
            in += row + "\n";
            wanted.push_back(row);
        }
        in += std::string(52, '-') + "\nTOTAL                  24000   2971    88%\nCoverage " +
              "failure: total of 88 is less than fail-under=90\n";
        const Response r = run(in, c);
        EXPECT_EQ(hidden_of(shown(r, in), wanted), 0u) << r.view.substr(0, 3000);
        EXPECT_TRUE(r.rewritten) << r.passthrough; // the full rows fold
    }
}

} // namespace
} // namespace sutra::core
