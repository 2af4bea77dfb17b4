// A printed file comes back whole up to the ceiling, and past it as its outline with exact
// restore calls (core/rewrite/printed_file.hpp).

#include "core/compress.hpp"
#include "core/rewrite/printed_file.hpp"
#include "core/store/store.hpp"
#include "core/store/store_options.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <random>

namespace sutra::core {
namespace {

using test::TempDir;

// A C++-like source file of about `bytes` bytes: functions with bodies, comments, blank lines.
std::string source_file(std::size_t bytes, unsigned seed) {
    std::mt19937 rng(seed);
    std::string s = "// generated for the test\n#include <string>\n\nnamespace demo {\n\n";
    for (int f = 0; s.size() < bytes; ++f) {
        s += "int function_" + std::to_string(f) + "(int a, int b) {\n";
        const int body = 3 + static_cast<int>(rng() % 12);
        for (int k = 0; k < body; ++k)
            s += "    a = a * " + std::to_string(rng() % 97) + " + b; // step " +
                 std::to_string(k) + "\n";
        s += "    return a;\n}\n\n";
    }
    return s + "} // namespace demo\n";
}

// An outliner for the test: every line that starts a function, at depth 1 inside the namespace.
std::vector<OutlineLine> function_lines(std::string_view text, std::string_view) {
    std::vector<OutlineLine> out;
    std::uint64_t line = 1;
    std::size_t start = 0;
    while (start < text.size()) {
        if (text.substr(start).starts_with("int function_")) out.push_back({line, 1});
        if (text.substr(start).starts_with("namespace ")) out.push_back({line, 0});
        const auto nl = text.find('\n', start);
        if (nl == std::string_view::npos) break;
        start = nl + 1;
        ++line;
    }
    return out;
}

TEST(PrintedFile, CommandsThatPrintAFileAreKnown) {
    EXPECT_EQ(printed_file_name("cat src/a.cpp"), "src/a.cpp");
    EXPECT_EQ(printed_file_name("head -n 80 include/x.hpp"), "include/x.hpp");
    EXPECT_EQ(printed_file_name("sed -n 1,40p config.toml"), "config.toml");
    EXPECT_EQ(printed_file_name("git show HEAD~1:core/compress.cpp"), "core/compress.cpp");
    EXPECT_EQ(printed_file_name("git show 3fcbf90:'src/b.py'"), "src/b.py");
    for (const char* c : {"cat build.log", "make", "cat a.cpp | grep x", "git show HEAD",
                          "pytest -q", "cat $F", ""})
        EXPECT_EQ(printed_file_name(c), "") << c;
}

TEST(PrintedFile, SourceTextReadsAsSourceAndToolReportsDoNot) {
    for (unsigned seed = 0; seed < 20; ++seed)
        EXPECT_TRUE(reads_as_source(source_file(4000 + seed * 900, seed))) << seed;
    const std::string py = "import os\n\n\nclass Greeter:\n    def __init__(self, name):\n"
                           "        self.name = name\n\n    def greet(self):\n"
                           "        return f\"hi {self.name}\"\n\n\ndef main():\n"
                           "    print(Greeter('x').greet())\n";
    EXPECT_TRUE(reads_as_source(py));
    const std::string go = "package main\n\nimport \"fmt\"\n\nfunc lookup(m map[string]int) int {\n"
                           "\tif v, ok := m[\"k\"]; ok {\n\t\treturn v\n\t}\n\treturn 0\n}\n\n"
                           "func main() {\n\tfmt.Println(lookup(nil))\n}\n";
    EXPECT_TRUE(reads_as_source(go));
    std::string pytest, build, plain;
    for (int i = 0; i < 200; ++i) {
        pytest += "tests/test_a.py::test_case_" + std::to_string(i) + " PASSED   [ 10%]\n";
        build += "[INFO] compiling module_" + std::to_string(i) + ".cpp ... ok\n";
        plain += "Setting up package-" + std::to_string(i) + " (1.2.3) ...\n";
    }
    EXPECT_FALSE(reads_as_source(pytest));
    EXPECT_FALSE(reads_as_source(build));
    EXPECT_FALSE(reads_as_source(plain));
    // A compiler's report quoting code is a report: its located lines say so.
    std::string report = source_file(3000, 1);
    report.insert(0, "src/a.cpp:12:5: error: expected ';' after expression\n");
    EXPECT_FALSE(reads_as_source(report));
}

// The sample is bounded in lines visited, blank ones included: code that starts only after
// 10,000 blank lines lies past it, and code after a few blank lines is still read.
TEST(PrintedFile, TheSourceSampleReadsABoundedNumberOfLines) {
    for (unsigned seed = 0; seed < 10; ++seed) {
        const std::string code = source_file(4000 + seed * 900, seed);
        EXPECT_TRUE(reads_as_source(std::string(20 + seed * 100, '\n') + code)) << seed;
        EXPECT_FALSE(reads_as_source(std::string(10000 + seed, '\n') + code)) << seed;
        EXPECT_FALSE(reads_as_source(std::string(10000, '\n'))) << seed;
    }
}

TEST(PrintedFile, APrintedFileUpToTheCeilingPassesWhole) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const std::size_t size : {9000u, 20000u, 60000u}) {
        const std::string file = source_file(size, static_cast<unsigned>(size));
        ASSERT_LE(file.size(), c.max_view_bytes);
        for (const std::string command : {"cat src/big.cpp", ""}) {
            Request req;
            req.output = file;
            req.command = command;
            req.exit_code = 0;
            const Response r = compress(req, c);
            EXPECT_FALSE(r.rewritten) << size << " " << command;
            EXPECT_EQ(r.passthrough, "printed-file") << size << " " << command;
        }
    }
}

TEST(PrintedFile, PastTheCeilingTheOutlineShowsAndEveryRangeRestores) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    StoreOptions so;
    so.dir = resolve_store_dir(c);
    const Store store = *Store::open(so);
    for (unsigned seed = 0; seed < 6; ++seed) {
        const std::string file = source_file(c.max_view_bytes * (2 + seed), seed);
        Request req;
        req.output = file;
        req.command = "cat src/big.cpp";
        req.exit_code = 0;
        req.outliner = function_lines;
        const Response r = compress(req, c);
        ASSERT_TRUE(r.rewritten) << seed;
        EXPECT_LE(r.view.size(), c.max_view_bytes);
        ASSERT_TRUE(r.id.has_value());
        // Every kept line is a function's first line, exactly as the file has it.
        std::size_t kept = 0, start = 0;
        while (start < r.view.size()) {
            auto nl = r.view.find('\n', start);
            if (nl == std::string::npos) nl = r.view.size();
            const std::string line = r.view.substr(start, nl - start);
            start = nl + 1;
            if (line.starts_with("[sutra: ")) continue;
            EXPECT_NE(file.find("\n" + line + "\n"), std::string::npos) << line;
            // A symbol's first line, or one short line kept rather than marked.
            EXPECT_TRUE(line.starts_with("int function_") || line.starts_with("namespace ") ||
                        line.size() < 16)
                << line;
            kept += line.starts_with("int function_");
        }
        EXPECT_GT(kept, 10u) << seed;
        // The ranges the markers name, with the kept lines, give back the whole file in order.
        std::uint64_t covered = 0;
        for (const Elision& e : r.elisions) {
            EXPECT_EQ(e.reason, Reason::outside_outline);
            const auto got = store.read(*r.id, e.begin, e.end);
            ASSERT_TRUE(got.has_value());
            EXPECT_EQ(*got, file.substr(e.begin, e.end - e.begin));
            covered += e.end - e.begin;
        }
        // Markers and kept lines tile the file: what no marker covers is what the view keeps.
        EXPECT_LT(covered, file.size());
        EXPECT_EQ(*store.read_all(*r.id), file);
        EXPECT_NE(r.view.find("(printed file: outside its outline)"), std::string::npos);
    }
}

TEST(PrintedFile, WithoutAnOutlinerPastTheCeilingTheOrdinaryRewriteRuns) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    const std::string file = source_file(c.max_view_bytes * 3, 9);
    Request req;
    req.output = file;
    req.command = "cat src/big.cpp";
    req.exit_code = 0;
    const Response r = compress(req, c);
    EXPECT_TRUE(r.rewritten);
    EXPECT_LE(r.view.size(), c.max_view_bytes);
    for (const Elision& e : r.elisions) EXPECT_NE(e.reason, Reason::outside_outline);
}

} // namespace
} // namespace sutra::core
