// `sutra outline`, `symbol` and `read` (core/outline/, host/cli/cli_outline.cpp) on real source
// files: the project's own sources, the tree-sitter runtime's and the grammars' files from the
// pinned npm tarballs, and the samples in tests/data/outline/ (Rust, Go, Java, TSX, for which
// neither the project nor the tarballs carry sources). Every property runs over every symbol
// of every file. Without tree-sitter in the build the outline tests skip; `read` always runs.

#include "core/outline/c_family.hpp"
#include "core/outline/file_commands.hpp"
#include "core/outline/language.hpp"
#include "core/outline/lookup.hpp"
#include "core/outline/outline.hpp"
#include "core/outline/render.hpp"
#include "core/outline/source_text.hpp"
#include "core/rewrite/ranges.hpp"
#include "tests/test_util.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <unistd.h>

namespace ol = sutra::core::outline;
namespace fs = std::filesystem;
using sutra::test::read_file;
using sutra::test::run_command;

namespace {

const std::string k_src = SUTRA_SOURCE_DIR;
const std::string k_npm = SUTRA_NPM_DIR;
const std::string k_sutra = SUTRA_BINARY;

std::vector<std::string> glob(const std::string& dir, std::initializer_list<std::string> exts) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        for (const std::string& ext : exts)
            if (e.is_regular_file() && name.ends_with(ext)) out.push_back(e.path().string());
    }
    std::ranges::sort(out);
    return out;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& more) {
    to.insert(to.end(), more.begin(), more.end());
}

// The real files each language is tested on.
std::vector<std::string> real_files() {
    const std::string rt = k_npm + "/tree-sitter-0.25.0/package";
    std::vector<std::string> files;
    append(files, glob(k_src + "/core", {".cpp", ".hpp"}));
    append(files, glob(k_src + "/core/outline", {".cpp", ".hpp"}));
    append(files, glob(k_src + "/host", {".cpp", ".hpp"}));
    append(files, glob(k_src + "/tests/e2e", {".py", ".mjs", ".sh"}));
    append(files, glob(k_src + "/plugins/opencode", {".js"}));
    append(files, glob(k_src + "/plugins/hermes", {".py"}));
    append(files, glob(k_src + "/scripts", {".sh"}));
    append(files, glob(k_src + "/tests/data", {".json"}));
    append(files, glob(k_src + "/tests/data/outline", {".rs", ".go", ".java", ".tsx"}));
    append(files, glob(k_src + "/tests/data/outline_real", {".cc", ".h", ".go", ".js", ".ts"}));
    append(files, glob(rt + "/vendor/tree-sitter/lib/src", {".c", ".h"}));
    files.push_back(rt + "/index.js");
    files.push_back(rt + "/tree-sitter.d.ts");
    files.push_back(k_npm + "/tree-sitter-typescript-0.23.2/package/bindings/node/index.d.ts");
    files.push_back(k_npm + "/tree-sitter-javascript-0.25.0/package/grammar.js");
    for (const char* g :
         {"python-0.25.0", "javascript-0.25.0", "rust-0.24.0", "bash-0.25.1", "cpp-0.23.4"})
        files.push_back(k_npm + "/tree-sitter-" + g + "/package/src/scanner.c");
    files.push_back(k_npm + "/tree-sitter-json-0.24.8/package/src/grammar.json");
    return files;
}

struct Loaded {
    std::string path;
    std::string text;
    ol::Language language;
    ol::Outline outline;
};

// Every real file, parsed once for all the tests.
const std::vector<Loaded>& corpus() {
    static const std::vector<Loaded> loaded = [] {
        std::vector<Loaded> out;
        for (const std::string& path : real_files()) {
            auto text = ol::read_source_file(path);
            if (!text) continue;
            auto language = ol::detect_language(path, *text);
            if (!language) continue;
            auto outline = ol::outline_source(*text, *language);
            if (!outline) continue;
            out.push_back({path, std::move(*text), *language, std::move(*outline)});
        }
        return out;
    }();
    return loaded;
}

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs sutra with stderr captured into *err.
std::string run_sutra(const std::string& args, int* status, std::string* err = nullptr) {
    // One file per process: ctest runs these tests in parallel processes.
    const std::string err_file =
        fs::temp_directory_path() / ("sutra_outline_test." + std::to_string(::getpid()) + ".err");
    std::string out = run_command(k_sutra + " " + args + " 2>" + err_file, status);
    if (err) *err = read_file(err_file);
    fs::remove(err_file);
    return out;
}

#define REQUIRE_OUTLINE()                                                                          \
    if (!ol::outline_available()) GTEST_SKIP() << "built without tree-sitter (npm unreachable)"

} // namespace

TEST(Outline, EveryLanguageHasRealFilesThatParseCleanly) {
    REQUIRE_OUTLINE();
    std::map<ol::Language, int> clean_with_symbols;
    for (const Loaded& f : corpus())
        if (!f.outline.partial() && !f.outline.symbols.empty()) ++clean_with_symbols[f.language];
    for (ol::Language language : ol::all_languages())
        EXPECT_GE(clean_with_symbols[language], 1) << ol::language_name(language);
    EXPECT_GE(corpus().size(), 60u);
}

TEST(Outline, RangesLieInsideTheFileAndNest) {
    REQUIRE_OUTLINE();
    for (const Loaded& f : corpus()) {
        SCOPED_TRACE(f.path);
        const auto lines = sutra::core::index_lines(f.text);
        EXPECT_EQ(f.outline.line_count, lines.count());
        std::size_t previous_begin = 0;
        for (std::size_t i = 0; i < f.outline.symbols.size(); ++i) {
            const ol::Symbol& s = f.outline.symbols[i];
            SCOPED_TRACE(s.qualified);
            ASSERT_LT(s.begin, s.end);
            ASSERT_LE(s.end, f.text.size());
            EXPECT_GE(s.begin, previous_begin); // file order
            previous_begin = s.begin;
            EXPECT_EQ(s.first_line, ol::line_of(lines, s.begin));
            EXPECT_EQ(s.last_line, ol::line_of(lines, s.end - 1));
            EXPECT_GE(s.first_line, 1u);
            EXPECT_LE(s.last_line, f.outline.line_count);
            // The name is inside the symbol, so the range points at the right code.
            EXPECT_NE(ol::symbol_text(f.text, s).find(s.name), std::string_view::npos);
            if (s.body_begin) {
                EXPECT_LE(s.begin, *s.body_begin);
                EXPECT_LE(s.body_end, s.end);
            }
            if (s.parent) {
                const ol::Symbol& p = f.outline.symbols[*s.parent];
                EXPECT_LT(*s.parent, i);
                EXPECT_LE(p.begin, s.begin);
                EXPECT_LE(s.end, p.end);
                EXPECT_EQ(s.depth, p.depth + 1);
                EXPECT_EQ(s.qualified.substr(0, p.qualified.size() + 1), p.qualified + ".");
            } else {
                EXPECT_EQ(s.depth, 0u);
            }
            // Siblings are disjoint: the next symbol not inside this one starts after it.
            for (std::size_t j = i + 1; j < f.outline.symbols.size(); ++j) {
                const ol::Symbol& n = f.outline.symbols[j];
                if (n.begin >= s.end) break;
                EXPECT_LE(n.end, s.end) << n.qualified << " overlaps " << s.qualified;
            }
        }
    }
}

TEST(Outline, EveryNameLooksUpItsOwnSymbol) {
    REQUIRE_OUTLINE();
    std::size_t checked = 0;
    for (const Loaded& f : corpus()) {
        SCOPED_TRACE(f.path);
        for (std::size_t i = 0; i < f.outline.symbols.size(); ++i) {
            const ol::Symbol& s = f.outline.symbols[i];
            ol::SymbolQuery q{s.qualified, "", std::nullopt};
            auto found = ol::find_symbols(f.outline, q);
            if (found.size() > 1) {
                q.kind = s.kind;
                found = ol::find_symbols(f.outline, q);
            }
            if (found.size() > 1) {
                q.line = s.first_line;
                found = ol::find_symbols(f.outline, q);
            }
            ASSERT_EQ(found.size(), 1u) << s.qualified << " at line " << s.first_line;
            EXPECT_EQ(found[0], i) << s.qualified;
            // The plain name finds it too, alone or among the candidates.
            const auto by_name = ol::find_symbols(f.outline, {s.name, s.kind, std::nullopt});
            // (Unless a symbol is named exactly that at the top: exact names win.)
            const bool shadowed = std::ranges::any_of(
                f.outline.symbols, [&](const ol::Symbol& o) { return o.qualified == s.name; });
            if (s.name.find_first_of(":\"'") == std::string::npos && !shadowed) {
                EXPECT_NE(std::ranges::find(by_name, i), by_name.end()) << s.name;
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 1000u);
}

TEST(Outline, UnknownNamesGiveTheClosestNames) {
    REQUIRE_OUTLINE();
    for (const Loaded& f : corpus()) {
        SCOPED_TRACE(f.path);
        for (const ol::Symbol& s : f.outline.symbols) {
            const std::string typo = s.qualified + "_zz";
            if (!ol::find_symbols(f.outline, {typo, "", std::nullopt}).empty()) continue;
            const auto closest = ol::closest_names(f.outline, typo);
            ASSERT_FALSE(closest.empty());
            EXPECT_LE(closest.size(), 5u);
            // The symbol the typo came from is 3 edits away (whole or last part); nothing
            // listed first is further.
            auto last = [](std::string_view q) { return q.substr(q.rfind('.') + 1); };
            EXPECT_LE(std::min(ol::edit_distance(typo, closest[0]),
                               ol::edit_distance(last(typo), last(closest[0]))),
                      3u)
                << closest[0];
        }
    }
}

TEST(Outline, CompactSlicesStillParseInPlace) {
    REQUIRE_OUTLINE();
    std::size_t folded = 0;
    for (const Loaded& f : corpus()) {
        if (f.outline.partial()) continue;
        SCOPED_TRACE(f.path);
        for (std::size_t i = 0; i < f.outline.symbols.size(); ++i) {
            const ol::Symbol& s = f.outline.symbols[i];
            const std::string compact = ol::compact_text(f.text, f.outline, i);
            const std::string signature = ol::signature_text(f.text, s);
            // The signature is the start of the symbol, verbatim.
            EXPECT_TRUE(ol::symbol_text(f.text, s).starts_with(signature)) << s.qualified;
            if (compact == ol::symbol_text(f.text, s)) continue;
            EXPECT_NE(compact.find("[sutra: body elided, lines "), std::string::npos);
            EXPECT_TRUE(compact.starts_with(signature)) << s.qualified;
            // Put back in place of the symbol, the file still parses without an error.
            std::string edited = f.text;
            edited.replace(s.begin, s.end - s.begin, compact);
            const auto errors = ol::parse_error_lines(edited, f.language);
            ASSERT_TRUE(errors.has_value());
            EXPECT_TRUE(errors->empty()) << s.kind << " " << s.qualified << " compact:\n"
                                         << compact << "\nerror at line " << errors->front();
            ++folded;
        }
    }
    EXPECT_GT(folded, 500u);
}

TEST(Outline, TopLevelCompactSlicesParseOnTheirOwn) {
    REQUIRE_OUTLINE();
    // Languages whose top level takes any definition alone (Go needs a package clause, JSON a
    // document, C++ members a class around them).
    for (const Loaded& f : corpus()) {
        if (f.outline.partial()) continue;
        if (f.language != ol::Language::python && f.language != ol::Language::rust &&
            f.language != ol::Language::c && f.language != ol::Language::bash &&
            f.language != ol::Language::javascript)
            continue;
        SCOPED_TRACE(f.path);
        for (std::size_t i = 0; i < f.outline.symbols.size(); ++i) {
            const ol::Symbol& s = f.outline.symbols[i];
            // Kinds whose node is a whole statement (a C struct's node has no closing ';').
            if (s.depth != 0 || (s.kind != "function" && s.kind != "class" && s.kind != "impl" &&
                                 s.kind != "trait" && s.kind != "module"))
                continue;
            const std::string compact = ol::compact_text(f.text, f.outline, i);
            const auto errors = ol::parse_error_lines(compact, f.language);
            ASSERT_TRUE(errors.has_value());
            EXPECT_TRUE(errors->empty()) << s.qualified << ":\n" << compact;
        }
    }
}

TEST(Outline, KnownSymbolsPerLanguage) {
    REQUIRE_OUTLINE();
    struct Expect {
        std::string file, kind, qualified, signature;
    };
    const std::string data = k_src + "/tests/data/outline/";
    const std::vector<Expect> expected = {
        {data + "line_ranges.rs", "method", "LineIndex.new", "pub fn new(text: &'a str) -> Self"},
        {data + "line_ranges.rs", "trait", "Slicer", "pub trait Slicer"},
        {data + "line_ranges.rs", "function", "render.concat",
         "pub fn concat<S: Slicer>(slicer: &S, ranges: &[LineRange]) -> String"},
        {data + "line_ranges.go", "method", "Index.Slice",
         "func (ix *Index) Slice(r LineRange) (string, error)"},
        {data + "line_ranges.go", "struct", "LineRange", "type LineRange struct"},
        {data + "line_ranges.go", "method", "Slicer.LineCount", "LineCount() int"},
        {data + "LineRanges.java", "constructor", "LineRanges.Index.Index",
         "public Index(String text)"},
        {data + "LineRanges.java", "class", "LineRanges.LineRange",
         "public record LineRange(int first, int last)"},
        {data + "range_view.tsx", "method", "LineIndex.slice", "slice(range: LineRange): string"},
        {data + "range_view.tsx", "interface", "ViewProps", "interface ViewProps"},
        {k_src + "/tests/e2e/hermes_harness.py", "method", "FakeContext.register_hook",
         "def register_hook(self, hook_name, callback)"},
        {k_src + "/core/outline/lookup.hpp", "struct", "sutra.core.outline.SymbolQuery",
         "struct SymbolQuery"},
        {k_src + "/core/outline/source_text.cpp", "function", "sutra.core.outline.read_source_file",
         "std::expected<std::string, std::string> read_source_file(const std::string& path, const "
         "std::vector<std::string>& within)"},
        {k_npm + "/tree-sitter-0.25.0/package/tree-sitter.d.ts", "method",
         "tree-sitter.Parser.reset", "reset(): void"},
        {k_npm + "/tree-sitter-0.25.0/package/vendor/tree-sitter/lib/src/tree.c", "function",
         "ts_tree_delete", "void ts_tree_delete(TSTree *self)"},
        {k_src + "/tests/data/token_vectors.json", "key", "vectors", "\"vectors\": […]"},
    };
    for (const Expect& e : expected) {
        SCOPED_TRACE(e.file + " " + e.qualified);
        const auto it = std::ranges::find(corpus(), e.file, &Loaded::path);
        ASSERT_NE(it, corpus().end());
        const auto found = ol::find_symbols(it->outline, {e.qualified, e.kind, std::nullopt});
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(it->outline.symbols[found[0]].signature, e.signature);
    }
}

TEST(Outline, BrokenFilesGiveAPartialOutline) {
    REQUIRE_OUTLINE();
    std::size_t broken = 0;
    for (const Loaded& f : corpus()) {
        if (f.outline.partial() || f.outline.symbols.size() < 3) continue;
        SCOPED_TRACE(f.path);
        // Cut the file inside the body of a symbol in its middle: an unclosed definition.
        const ol::Symbol& s = f.outline.symbols[f.outline.symbols.size() / 2];
        const std::size_t cut = s.begin + (s.end - s.begin) / 2;
        const std::string text = f.text.substr(0, cut) + "\n)]} ((( @@\n";
        auto outline = ol::outline_source(text, f.language);
        ASSERT_TRUE(outline.has_value());
        EXPECT_TRUE(outline->partial());
        for (const ol::Symbol& sym : outline->symbols) {
            EXPECT_LT(sym.begin, sym.end);
            EXPECT_LE(sym.end, text.size());
        }
        ++broken;
    }
    EXPECT_GT(broken, 20u);
}

TEST(OutlineCli, SliceBytesEqualTheFileAtTheReportedRange) {
    REQUIRE_OUTLINE();
    // One file per language through the core's entries the CLI and MCP call
    // (core/outline/file_commands.hpp): `outline --json`, then `symbol` for every symbol (the
    // first 8 of each file) in each form. The first language also goes through the binary, which
    // must print the same bytes: the command line's own wiring.
    std::map<ol::Language, const Loaded*> one;
    for (const Loaded& f : corpus())
        if (!f.outline.partial() && f.outline.symbols.size() >= 3 && !one.contains(f.language))
            one[f.language] = &f;
    ASSERT_EQ(one.size(), ol::all_languages().size());
    bool through_binary = true;
    for (const auto& [language, f] : one) {
        SCOPED_TRACE(f->path);
        int status = -1;
        ol::OutlineRequest outline_request;
        outline_request.path = f->path;
        outline_request.json = true;
        const ol::CommandResult outlined = ol::run_outline(outline_request);
        ASSERT_EQ(outlined.status, 0) << outlined.err;
        if (through_binary) {
            EXPECT_EQ(run_sutra("outline --json " + shell_quote(f->path), &status), outlined.out);
            EXPECT_EQ(status, 0);
        }
        const auto json = nlohmann::json::parse(outlined.out);
        EXPECT_EQ(json["language"], std::string(ol::language_name(language)));
        EXPECT_EQ(json["bytes"], f->text.size());
        EXPECT_FALSE(json["partial"].get<bool>());
        ASSERT_EQ(json["symbols"].size(), f->outline.symbols.size());
        std::size_t n = 0;
        for (std::size_t i = 0; i < f->outline.symbols.size() && n < 8; ++i) {
            const ol::Symbol& s = f->outline.symbols[i];
            const auto& js = json["symbols"][i];
            EXPECT_EQ(js["qualified_name"], s.qualified);
            ol::SymbolQuery q{s.qualified, s.kind, std::nullopt};
            ol::SymbolRequest symbol;
            symbol.path = f->path;
            symbol.name = s.qualified;
            symbol.kind = s.kind;
            std::string args =
                shell_quote(f->path) + " " + shell_quote(s.qualified) + " --kind " + s.kind;
            if (ol::find_symbols(f->outline, q).size() > 1) {
                symbol.line = s.first_line;
                args += " --line " + std::to_string(s.first_line);
            }
            const std::size_t begin = js["begin"], end = js["end"];
            std::string want = f->text.substr(begin, end - begin);
            if (!want.ends_with('\n')) want += '\n';
            const ol::CommandResult verbatim = ol::run_symbol(symbol);
            EXPECT_EQ(verbatim.out, want) << s.qualified;
            EXPECT_EQ(verbatim.status, 0) << verbatim.err;
            std::string compact = ol::compact_text(f->text, f->outline, i);
            if (!compact.ends_with('\n')) compact += '\n';
            symbol.form = ol::SymbolRequest::Form::compact;
            EXPECT_EQ(ol::run_symbol(symbol).out, compact);
            if (through_binary) {
                EXPECT_EQ(run_sutra("symbol " + args, &status), want) << s.qualified;
                EXPECT_EQ(status, 0);
                EXPECT_EQ(run_sutra("symbol " + args + " --compact", &status), compact);
            }
            ++n;
        }
        through_binary = false;
    }
}

TEST(OutlineCli, HeaderErrorsAndExitCodes) {
    REQUIRE_OUTLINE();
    sutra::test::TempDir dir;
    int status = -1;
    std::string err;
    const std::string rs = k_src + "/tests/data/outline/line_ranges.rs";
    const std::string out = run_sutra("outline " + rs, &status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(out.starts_with("# " + rs + ": rust, 26 symbols, 137 lines; outline ")) << out;
    EXPECT_NE(out.find("\nimpl LineIndex 79-93  impl<'a> LineIndex<'a>\n  method LineIndex.new "
                       "80-88  pub fn new(text: &'a str) -> Self\n"),
              std::string::npos);

    // A missing name: closest names and a short outline, exit 1.
    run_sutra("symbol " + rs + " LineIndx.nwe", &status, &err);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("no symbol 'LineIndx.nwe'"), std::string::npos) << err;
    EXPECT_NE(err.find("closest names: LineIndex.new"), std::string::npos) << err;
    EXPECT_NE(err.find("outline ("), std::string::npos);

    // Ambiguous: the candidates, exit 1; --kind or --line settles it.
    run_sutra("symbol " + rs + " LineIndex", &status, &err);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("ambiguous, 3 symbols match"), std::string::npos) << err;
    EXPECT_EQ(run_sutra("symbol " + rs + " LineIndex --kind struct --signature", &status),
              "pub struct LineIndex<'a>\n");
    EXPECT_EQ(run_sutra("symbol " + rs + " LineIndex --kind impl --line 96 --signature", &status),
              "impl<'a> Slicer for LineIndex<'a>\n");

    // A broken file: partial outline on stdout, warning on stderr, exit 3.
    const std::string broken = dir.path + "/broken.py";
    sutra::test::write_file(broken,
                            "def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass C:\n"
                            "    def m(self):\n        return 2\n");
    const std::string partial = run_sutra("outline " + broken, &status, &err);
    EXPECT_EQ(status, 3);
    EXPECT_NE(partial.find("PARTIAL: syntax errors at line"), std::string::npos) << partial;
    EXPECT_NE(partial.find("function ok 1-2"), std::string::npos) << partial;
    EXPECT_NE(err.find("sutra: warning: " + broken + ": syntax errors"), std::string::npos) << err;

    // Unknown language, binary file, too large a file.
    sutra::test::write_file(dir.path + "/notes.xyz", "hello\n");
    run_sutra("outline " + dir.path + "/notes.xyz", &status, &err);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("unknown language"), std::string::npos);
    EXPECT_NE(err.find("python (.py .pyi .pyw), javascript"), std::string::npos) << err;
    sutra::test::write_file(dir.path + "/bin.py", std::string("x = 1\n\0\x01", 8));
    run_sutra("outline " + dir.path + "/bin.py", &status, &err);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("binary file (NUL byte at offset 6)"), std::string::npos) << err;
    fs::resize_file(dir.path + "/notes.xyz", ol::k_max_source_bytes + 1);
    fs::rename(dir.path + "/notes.xyz", dir.path + "/big.py");
    run_sutra("outline " + dir.path + "/big.py", &status, &err);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("larger than the 16 MiB limit"), std::string::npos) << err;

    // A shebang names the language of a file without an extension.
    sutra::test::write_file(dir.path + "/tool", "#!/usr/bin/env bash\nmain() {\n  echo hi\n}\n");
    const std::string tool = run_sutra("outline " + dir.path + "/tool", &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(tool.find(": bash, 1 symbol, 4 lines; outline 26 of 41 bytes"), std::string::npos)
        << tool;
    EXPECT_NE(tool.find("\nfunction main 2-4  main()\n"), std::string::npos) << tool;
}

// Pages of a real file's lines (core/rewrite/ranges.hpp, as `sutra read` pages them), followed to
// the end, are exactly the lines asked for, each once.
std::string read_by_pages(const std::string& text,
                          const sutra::core::LineIndex& lines,
                          std::vector<sutra::core::LineSpan> spans,
                          std::uint64_t bound) {
    std::string out;
    spans = sutra::core::merge_line_spans(std::move(spans));
    while (!spans.empty()) {
        const auto page = sutra::core::page_line_spans(text, lines, spans, bound);
        EXPECT_LE(page.text.size(), bound);
        EXPECT_FALSE(page.text.empty());
        out += page.text;
        if (page.rest) out += text.substr(page.rest->first, page.rest->second - page.rest->first);
        spans = page.next;
    }
    return out;
}

TEST(Read, LineRangesAreExactBytes) {
    // Needs no tree-sitter: always runs.
    std::mt19937 rng(7);
    std::size_t checked = 0;
    for (const std::string& path : real_files()) {
        auto text = ol::read_source_file(path);
        if (!text) continue;
        const auto lines = sutra::core::index_lines(*text);
        if (lines.count() == 0) continue;
        EXPECT_EQ(read_by_pages(*text, lines, {{1, lines.count()}}, 8192), *text) << path;
        for (int k = 0; k < 20; ++k) {
            std::uniform_int_distribution<std::size_t> pick(1, lines.count());
            std::size_t a = pick(rng), b = pick(rng);
            if (a > b) std::swap(a, b);
            const std::size_t begin = lines.begin(a - 1), end = lines.end(b - 1);
            // Line b asked for twice comes once.
            EXPECT_EQ(read_by_pages(*text, lines, {{a, b}, {b, b}}, 64 + rng() % 4000),
                      text->substr(begin, end - begin));
            ++checked;
        }
    }
    EXPECT_GT(checked, 1000u);
}

TEST(Read, RangeRulesAndPagesOfTheCommand) {
    sutra::test::TempDir dir;
    const std::string file = dir.path + "/f.txt";
    sutra::test::write_file(file, "one\ntwo\nthree\nfour"); // no final newline
    int status = -1;
    std::string err;
    EXPECT_EQ(run_sutra("read " + file + " --lines 2-3,4", &status), "two\nthree\nfour");
    EXPECT_EQ(status, 0);
    // Lines come in file order, each once, however often they are named.
    EXPECT_EQ(run_sutra("read " + file + " --lines 4,1", &status), "one\nfour");
    EXPECT_EQ(run_sutra("read " + file + " --lines 1-2,2-3,1-3,2", &status), "one\ntwo\nthree\n");
    // The rules of every line range (restore's too): a last line past the end is clamped ...
    EXPECT_EQ(run_sutra("read " + file + " --lines 3-5", &status, &err), "three\nfour");
    EXPECT_EQ(status, 0);
    EXPECT_EQ(err, "");
    // ... and 0, a range that runs backwards or starts past the end is an error.
    for (const auto& [lines, says] : std::vector<std::pair<std::string, std::string>>{
             {"0", "lines are numbered from 1; lines 1-4 exist"},
             {"2-1", "lines 2-1 run backwards; lines 1-4 exist"},
             {"5-6", "line 5 is past the end; lines 1-4 exist"}}) {
        EXPECT_EQ(run_sutra("read " + file + " --lines " + lines, &status, &err), "");
        EXPECT_EQ(status, 1) << lines;
        EXPECT_EQ(err, "sutra: error: " + file + ": " + says + "\n");
    }
    run_sutra("read " + file + " --lines x-1", &status, &err);
    EXPECT_EQ(status, 2);
    EXPECT_EQ(err, "sutra: error: 'x-1' is not a line range: give A-B (one-based, inclusive), "
                   "e.g. 10-20\n");
    run_sutra("read " + file, &status, &err);
    EXPECT_EQ(status, 2);
    run_sutra("read " + dir.path + "/missing --lines 1", &status, &err);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("No such file"), std::string::npos);

    // Pages: at most --max-bytes, ending at a line end, with the next range on stderr.
    const std::string many = dir.path + "/many.txt";
    std::string text;
    for (int i = 1; i <= 100; ++i) text += fmt::format("line {:03}\n", i); // 9 bytes each
    sutra::test::write_file(many, text);
    EXPECT_EQ(run_sutra("read " + many + " --lines 1-100,1-100 --max-bytes 100", &status, &err),
              text.substr(0, 99));
    EXPECT_EQ(status, 0);
    EXPECT_EQ(err, "lines 1-11 of 100 (99 bytes; a page holds at most 100)\n"
                   "next: sutra read " +
                       many + " --lines 12-100 --max-bytes 100\n");
    // A line longer than the page comes cut, its rest named by bytes.
    const std::string wide = dir.path + "/wide.txt";
    sutra::test::write_file(wide, std::string(30, 'w') + "\nend\n");
    EXPECT_EQ(run_sutra("read " + wide + " --lines 1-2 --max-bytes 10", &status, &err),
              std::string(10, 'w'));
    EXPECT_EQ(err, "line 1 is longer than the page: its first 10 bytes, of 31\n"
                   "rest of line 1: sutra read " +
                       wide +
                       " --bytes 10-31 --max-bytes 10\n"
                       "next: sutra read " +
                       wide + " --lines 2 --max-bytes 10\n");
    EXPECT_EQ(run_sutra("read " + wide + " --bytes 10-31 --max-bytes 16", &status, &err),
              std::string(16, 'w'));
    EXPECT_EQ(err,
              "bytes 10-26 of 35\nnext: sutra read " + wide + " --bytes 26-31 --max-bytes 16\n");
    EXPECT_EQ(run_sutra("read " + wide + " --bytes 26-31", &status, &err), "wwww\n");
    EXPECT_EQ(err, "");
}

TEST(Language, DetectionByExtensionAndShebang) {
    using L = ol::Language;
    EXPECT_EQ(ol::detect_language("a/b.py", ""), L::python);
    EXPECT_EQ(ol::detect_language("x.d.ts", ""), L::typescript);
    EXPECT_EQ(ol::detect_language("X.TSX", ""), L::tsx);
    EXPECT_EQ(ol::detect_language("core/a.hpp", ""), L::cpp);
    EXPECT_EQ(ol::detect_language("lib.h", ""), L::c);
    // `.h` is C++ when its code says so, wherever in the file.
    const std::string licence(4000, ' ');
    for (const char* cpp : {"namespace a {\n}\n", "template <typename T> T f(T);\n",
                            "class Foo : public Bar {\n};\n", "struct S {\n public:\n int x;\n};\n",
                            "int A::f() { return 1; }\n", "constexpr int k = 1;\n"})
        EXPECT_EQ(ol::detect_language("x.h", "/*" + licence + "*/\n" + cpp), L::cpp) << cpp;
    // C headers that only guard for C++, or use C23 attributes, stay C.
    for (const char* c :
         {"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n"
          "#ifdef __cplusplus\n}\n#endif\n",
          "#if defined(__cplusplus)\nnamespace x {}\n#endif\nstruct s { int a; };\n",
          "[[gnu::always_inline]] static inline int g(int class_) { return "
          "class_; }\n",
          "/* namespace template<T> :: */ const char *s = \"class A {\";\n"})
        EXPECT_EQ(ol::detect_language("x.h", c), L::c) << c;
    EXPECT_EQ(ol::detect_language("run", "#!/bin/sh\necho\n"), L::bash);
    EXPECT_EQ(ol::detect_language("run", "#!/usr/bin/env python3 -u\n"), L::python);
    EXPECT_EQ(ol::detect_language("run", "#!/usr/bin/env node\n"), L::javascript);
    EXPECT_FALSE(ol::detect_language("run", "plain text\n").has_value());
    EXPECT_FALSE(ol::detect_language("notes.txt", "#!/bin/sh\n").has_value());
    EXPECT_FALSE(ol::detect_language(".bashrc", "").has_value());
    EXPECT_EQ(ol::parse_language("C++"), L::cpp);
    EXPECT_FALSE(ol::parse_language("cobol").has_value());
    for (L language : ol::all_languages())
        EXPECT_EQ(ol::parse_language(ol::language_name(language)), language);
}

// tests/data/outline_real/: real files with macros and the shapes the grammars stumble on
// (README.md there says where each comes from). FILE.outline is the expected listing,
// `kind qualified first-last` per symbol; FILE.ctags is what Universal Ctags lists as the
// definitions (measure_vs_ctags.py --write), the reference for recall and end lines.
namespace {

const std::string k_real = k_src + "/tests/data/outline_real/";

std::vector<std::string> real_set() {
    return glob(k_real, {".cc", ".h", ".go", ".js", ".ts"});
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = std::min(text.find('\n', pos), text.size());
        out.push_back(text.substr(pos, nl - pos));
        pos = nl + 1;
    }
    return out;
}

ol::Outline outline_of(const std::string& path, std::string* text = nullptr) {
    auto loaded = ol::read_source_file(path);
    EXPECT_TRUE(loaded.has_value()) << path;
    const auto language = ol::detect_language(path, *loaded);
    EXPECT_TRUE(language.has_value()) << path;
    auto outline = ol::outline_source(*loaded, *language);
    EXPECT_TRUE(outline.has_value()) << path;
    if (text) *text = *loaded;
    return *outline;
}

std::string last_part(std::string name) {
    const std::size_t cut =
        std::max(name.rfind("::") == std::string::npos ? 0 : name.rfind("::") + 2,
                 name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
    name = name.substr(cut);
    std::erase(name, ' ');
    if (name.starts_with('#')) name.erase(0, 1);
    return name;
}

// GTEST_LOCK_EXCLUDED_, _GLIBCXX20_CONSTEXPR (not a template parameter such as _P2).
bool is_macro_like(std::string_view name) {
    const auto letters = std::ranges::count_if(name, [](char c) { return c >= 'A' && c <= 'Z'; });
    return name.find('_') != std::string_view::npos && letters >= 3 &&
           std::ranges::all_of(name, [](char c) {
               return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
           });
}

// Names are whole: no whitespace (but `operator ()`), no class or function named after an
// unexpanded macro.
void expect_whole_names(const ol::Outline& outline, const std::string& path) {
    for (const ol::Symbol& s : outline.symbols) {
        SCOPED_TRACE(path + " " + s.qualified);
        const std::string last =
            s.name.substr(s.name.rfind(':') == std::string::npos ? 0 : s.name.rfind(':') + 1);
        if (!last.starts_with("operator")) {
            EXPECT_EQ(s.name.find_first_of(" \t\n\r"), std::string::npos);
        }
        EXPECT_EQ(s.name.find('\n'), std::string::npos);
        if (s.kind != "macro" &&
            (outline.language == ol::Language::c || outline.language == ol::Language::cpp)) {
            EXPECT_FALSE(is_macro_like(last)) << s.kind;
        }
    }
}

} // namespace

TEST(OutlineReal, EachFileGivesItsExpectedListing) {
    REQUIRE_OUTLINE();
    const auto files = real_set();
    ASSERT_GE(files.size(), 6u);
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        const ol::Outline outline = outline_of(path);
        EXPECT_FALSE(outline.partial());
        std::string listing;
        for (const ol::Symbol& s : outline.symbols)
            listing += s.kind + " " + s.qualified + " " + std::to_string(s.first_line) + "-" +
                       std::to_string(s.last_line) + "\n";
        EXPECT_EQ(listing, read_file(path + ".outline"));
        expect_whole_names(outline, path);
    }
}

TEST(OutlineReal, RecallAndEndLinesAgainstCtags) {
    REQUIRE_OUTLINE();
    struct Score {
        std::size_t wanted = 0, found = 0, ends = 0, agree = 0;
    };
    std::map<ol::Language, Score> scores;
    for (const std::string& path : real_set()) {
        SCOPED_TRACE(path);
        std::string text;
        const ol::Outline outline = outline_of(path, &text);
        Score& score = scores[outline.language];
        for (const std::string& line : split_lines(read_file(path + ".ctags"))) {
            // kind, name, line, end line (0: ctags gave none)
            std::vector<std::string> f;
            std::size_t pos = 0;
            while (pos <= line.size()) {
                const std::size_t tab = std::min(line.find('\t', pos), line.size());
                f.push_back(line.substr(pos, tab - pos));
                pos = tab + 1;
            }
            ASSERT_EQ(f.size(), 4u) << line;
            const std::string name = last_part(f[1]);
            const std::size_t at = std::stoul(f[2]), end = std::stoul(f[3]);
            ++score.wanted;
            // The symbol with that name whose lines hold ctags' line, the nearest start first.
            const ol::Symbol* best = nullptr;
            for (const ol::Symbol& s : outline.symbols) {
                if (s.first_line > at || at > s.last_line) continue;
                std::string parts = s.name;
                std::erase(parts, ' ');
                bool named = last_part(s.name) == name;
                for (std::size_t p = 0; !named && (p = parts.find("::", p)) != std::string::npos;
                     p += 2)
                    named = parts.substr(0, p) == name || parts.substr(0, p).ends_with("::" + name);
                if (named && (!best || s.first_line > best->first_line)) best = &s;
            }
            if (!best) {
                ADD_FAILURE() << "missing " << f[0] << " " << f[1] << " at line " << at;
                continue;
            }
            ++score.found;
            if (end == 0) continue;
            ++score.ends;
            if (best->last_line == end)
                ++score.agree;
            else
                ADD_FAILURE() << f[1] << ": ends at " << best->last_line << ", ctags " << end;
        }
    }
    ASSERT_EQ(scores.size(), 4u); // C++, Go, JavaScript, TypeScript
    for (const auto& [language, score] : scores) {
        SCOPED_TRACE(ol::language_name(language));
        EXPECT_GT(score.wanted, 0u);
        EXPECT_GE(score.found * 100, score.wanted * 98);
        EXPECT_GE(score.agree * 100, score.ends * 99);
    }
}

// The cases, by name: what an agent asked for and did not get.
TEST(OutlineReal, MacroHeavyCppNamesAndRanges) {
    REQUIRE_OUTLINE();
    const ol::Outline gmock = outline_of(k_real + "gmock-spec-builders.cc");
    auto one = [](const ol::Outline& o, const std::string& name, const std::string& kind) {
        const auto found = ol::find_symbols(o, {name, kind, std::nullopt});
        EXPECT_EQ(found.size(), 1u) << name;
        return found.empty() ? ol::Symbol{} : o.symbols[found[0]];
    };
    const ol::Symbol owner = one(gmock, "UntypedFunctionMockerBase.RegisterOwner", "function");
    EXPECT_EQ(owner.first_line, 317u);
    EXPECT_EQ(owner.last_line, 324u);
    EXPECT_TRUE(ol::find_symbols(gmock, {"GTEST_LOCK_EXCLUDED_", "", std::nullopt}).empty());
    const ol::Outline internal = outline_of(k_real + "gtest-internal-inl.h");
    EXPECT_EQ(internal.language, ol::Language::cpp);
    EXPECT_EQ(one(internal, "GetTimeInMillis", "declaration").first_line, 89u);
    EXPECT_EQ(one(internal, "testing.internal.GTestFlagSaver", "class").last_line, 215u);
}

TEST(OutlineReal, LibstdcxxHeadersWhenInstalled) {
    REQUIRE_OUTLINE();
    // The compiler's own headers (GPL with the runtime exception, so not copied here).
    std::vector<std::string> headers;
    std::error_code ec;
    for (const auto& dir : fs::directory_iterator("/usr/include/c++", ec))
        for (const char* h : {"stl_vector.h", "stl_list.h", "stl_map.h"})
            if (fs::exists(dir.path() / "bits" / h)) headers.push_back(dir.path() / "bits" / h);
    if (headers.empty()) GTEST_SKIP() << "no libstdc++ headers in /usr/include/c++";
    for (const std::string& path : headers) {
        SCOPED_TRACE(path);
        std::string text;
        const ol::Outline outline = outline_of(path, &text);
        EXPECT_EQ(outline.language, ol::Language::cpp);
        expect_whole_names(outline, path);
        // `namespace std _GLIBCXX_VISIBILITY(default) {` runs to the file's last `}` line.
        const auto lines = split_lines(text);
        std::size_t last_brace = 0;
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (lines[i].starts_with('}')) last_brace = i + 1;
        const auto std_ns = ol::find_symbols(outline, {"std", "namespace", std::nullopt});
        ASSERT_FALSE(std_ns.empty());
        EXPECT_EQ(outline.symbols[std_ns.back()].last_line, last_brace);
        std::size_t types = 0;
        for (const ol::Symbol& s : outline.symbols)
            types += s.kind == "class" || s.kind == "struct";
        EXPECT_GE(types, 2u);
    }
}

TEST(OutlineReal, GoJavaScriptTypeScriptShapes) {
    REQUIRE_OUTLINE();
    for (const char* file : {"io.go", "zlib_reader.go"}) {
        std::string text;
        const ol::Outline go = outline_of(k_real + file, &text);
        std::size_t types = 0;
        for (const ol::Symbol& s : go.symbols) {
            if (s.depth > 0 || (s.kind != "struct" && s.kind != "interface" && s.kind != "type"))
                continue;
            EXPECT_TRUE(ol::symbol_text(text, s).starts_with("type " + s.name)) << s.name;
            ++types;
        }
        EXPECT_GE(types, 2u) << file;
    }
    // var ( ... ) and const ( ... ): every name listed, each its own line of the group.
    std::string text;
    const ol::Outline zlib = outline_of(k_real + "zlib_reader.go", &text);
    for (const char* name : {"ErrChecksum", "ErrDictionary", "ErrHeader"}) {
        const auto found = ol::find_symbols(zlib, {name, "variable", std::nullopt});
        ASSERT_EQ(found.size(), 1u) << name;
        EXPECT_TRUE(ol::symbol_text(text, zlib.symbols[found[0]]).starts_with(name));
    }
    EXPECT_EQ(ol::find_symbols(zlib, {"zlibMaxWindow", "constant", std::nullopt}).size(), 1u);

    const ol::Outline hono = outline_of(k_real + "hono-base.js", &text);
    const auto cls = ol::find_symbols(hono, {"Hono", "class", std::nullopt});
    ASSERT_EQ(cls.size(), 1u);
    EXPECT_TRUE(ol::symbol_text(text, hono.symbols[cls[0]]).starts_with("var Hono = class Hono {"));
    for (const char* member : {"Hono.route", "Hono.fetch", "Hono.#dispatch", "Hono.onError"}) {
        const auto found = ol::find_symbols(hono, {member, "method", std::nullopt});
        ASSERT_EQ(found.size(), 1u) << member;
        EXPECT_EQ(hono.symbols[found[0]].parent, cls[0]) << member;
    }

    const ol::Outline timing = outline_of(k_real + "timing.d.ts", &text);
    const auto wrap = ol::find_symbols(timing, {"wrapTime", "function", std::nullopt});
    ASSERT_EQ(wrap.size(), 1u);
    EXPECT_TRUE(ol::symbol_text(text, timing.symbols[wrap[0]]).starts_with("declare function"));
}

TEST(Outline, SmallerShapesPerLanguage) {
    REQUIRE_OUTLINE();
    struct Case {
        ol::Language language;
        std::string source, kind, name, starts_with;
    };
    const std::vector<Case> cases = {
        {ol::Language::c, "void (*signal(int sig, void (*f)(int)))(int) { return f; }\n",
         "function", "signal", "void (*signal("},
        {ol::Language::c, "int x;\nvoid (*handler_for(int sig))(int);\n", "declaration",
         "handler_for", "void (*handler_for("},
        {ol::Language::cpp, "void (*pick(int n))(int) { return nullptr; }\n", "function", "pick",
         "void (*pick("},
        {ol::Language::rust, "mod parse;\npub mod render;\n", "module", "render",
         "pub mod render;"},
        {ol::Language::typescript, "export declare function f(a: number): void;\n", "function", "f",
         "declare function f"},
        {ol::Language::javascript, "const X = class {\n  run = () => { return 1; };\n};\n",
         "method", "X.run", "run = () =>"},
        {ol::Language::go, "package p\n\nvar (\n\ta = 1\n\tb, c = 2, 3\n)\n", "variable", "b",
         "b, c = 2, 3"},
        {ol::Language::go, "package p\n\ntype T struct{ a int }\n", "struct", "T", "type T struct"},
        {ol::Language::cpp, "struct S {\n  explicit operator bool() const { return true; }\n};\n",
         "method", "S.operator bool", "explicit operator bool()"},
        // Unexpanded macros: after an operator's parameters, before a class name, alone on a
        // line; a condition splitting a declaration, or a statement.
        {ol::Language::cpp,
         "class MY_API It {\n  It& operator++() MY_NOEXCEPT { return *this; }\n};\n", "method",
         "It.operator++", "It& operator++() MY_NOEXCEPT {"},
        {ol::Language::cpp,
         "MY_BEGIN_NAMESPACE\ntemplate <class T>\n  inline\n#if A\n  int\n#else\n  long\n"
         "#endif\n  h(T t) { return 0; }\nMY_END_NAMESPACE\n",
         "function", "h", "template <class T>"},
        {ol::Language::cpp,
         "int f(int x) {\n#if A\n  if (x) { return 1; }\n#else\n  if (x > 1) { return 2; }\n"
         "#endif\n  else { return 3; }\n}\nint g() { return 0; }\n",
         "function", "g", "int g()"},
        // A name across lines is listed on one.
        {ol::Language::cpp, "struct S {\n  bool operator\n  ()(int) const;\n};\n", "declaration",
         "S.operator()", "bool operator\n  ()(int) const;"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.source);
        auto outline = ol::outline_source(c.source, c.language);
        ASSERT_TRUE(outline.has_value());
        EXPECT_FALSE(outline->partial());
        const auto found = ol::find_symbols(*outline, {c.name, c.kind, std::nullopt});
        ASSERT_EQ(found.size(), 1u) << ol::outline_lines(*outline);
        EXPECT_TRUE(
            ol::symbol_text(c.source, outline->symbols[found[0]]).starts_with(c.starts_with))
            << ol::symbol_text(c.source, outline->symbols[found[0]]);
    }
}

TEST(OutlineCli, JsonNamesAreOneLine) {
    REQUIRE_OUTLINE();
    sutra::test::TempDir dir;
    const std::string file = dir.path + "/ops.hpp";
    sutra::test::write_file(file, "struct S {\n  bool operator\n  ()(int) const;\n};\n");
    int status = -1;
    const std::string out = run_sutra("outline --json " + file, &status);
    const auto json = nlohmann::json::parse(out);
    bool seen = false;
    for (const auto& s : json["symbols"]) {
        const std::string name = s["name"];
        EXPECT_EQ(name.find('\n'), std::string::npos) << name;
        seen = seen || name == "operator ()";
    }
    EXPECT_TRUE(seen) << out;

    // A Latin-1 byte in a signature: still one valid JSON document, the byte as U+FFFD.
    const std::string latin1 = dir.path + "/latin1.c";
    sutra::test::write_file(latin1, "int f(/* caf\xe9 */ int x) { return x; }\n");
    const std::string json_out = run_sutra("outline --json " + latin1, &status);
    EXPECT_EQ(status, 0);
    const auto parsed = nlohmann::json::parse(json_out, nullptr, false);
    ASSERT_FALSE(parsed.is_discarded()) << json_out;
    EXPECT_EQ(parsed["symbols"][0]["signature"], "int f(/* caf\xEF\xBF\xBD */ int x)");
}

TEST(CFamily, MaskingKeepsEveryOffsetAndLine) {
    // Needs no tree-sitter. The blanked copy is what the tree's ranges are taken from, so it
    // must have the original's bytes everywhere but the blanked ones, which become spaces.
    std::size_t blanked = 0, files = 0;
    std::vector<std::string> paths = real_files();
    for (const std::string& p : real_set()) paths.push_back(p);
    for (const std::string& path : paths) {
        if (!path.ends_with(".c") && !path.ends_with(".h") && !path.ends_with(".cc") &&
            !path.ends_with(".cpp") && !path.ends_with(".hpp"))
            continue;
        auto text = ol::read_source_file(path);
        if (!text) continue;
        ++files;
        for (const bool first_branches : {false, true}) {
            const std::string masked = ol::mask_annotation_macros(*text, first_branches);
            ASSERT_EQ(masked.size(), text->size()) << path;
            for (std::size_t i = 0; i < masked.size(); ++i) {
                if (masked[i] == (*text)[i]) continue;
                ASSERT_EQ(masked[i], ' ') << path << " at " << i;
                ASSERT_NE((*text)[i], '\n') << path << " at " << i;
                ++blanked;
            }
        }
    }
    EXPECT_GE(files, 20u);
    EXPECT_GT(blanked, 1000u); // googletest's macros at least
    // What is blanked, and what is not.
    EXPECT_EQ(ol::mask_annotation_macros("GTEST_API_ void f() const GTEST_LOCK_EXCLUDED_(mu) {}\n",
                                         false),
              "           void f() const                          {}\n");
    for (const char* kept : {"int x = MAX_SIZE;\n", "case FOO_BAR: break;\n",
                             "static const int K_MAX = 3;\n", "DWORD n;\n", "return FOO_X;\n",
                             "#define GTEST_API_ __attribute__((visibility(\"default\")))\n",
                             "const char* s = \"GTEST_API_ void\"; // GTEST_API_ int\n",
                             "struct FOO_T bar;\n", "enum { A_B, C_D };\n"})
        EXPECT_EQ(ol::mask_annotation_macros(kept, true), kept);
}
