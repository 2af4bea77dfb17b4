// `sutra_outline_bench`: what an outline saves an agent against reading the whole file, and what
// it costs, per language (docs/benchmark.md, "Outline").
//
// Input per language: real files (the project's sources, the pinned tree-sitter tarballs'
// files, tests/data/outline/), concatenated, then repeated, until the input holds >= 100 KB.
// A repeat can make the text invalid where a language allows one header per file (Go's
// `package`), so the table reports whether the input parsed cleanly. Sizes in bytes and in
// o200k tokens; time is the median of 15 runs of parse + query + outline lines, wall clock,
// on the shared build machine.

#include "core/outline/language.hpp"
#include "core/outline/outline.hpp"
#include "core/outline/render.hpp"
#include "core/outline/source_text.hpp"
#include "core/tokenizer/tokenizer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

namespace ol = sutra::core::outline;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t k_min_input = 100 * 1000;
constexpr int k_runs = 15;

std::vector<std::string> files_under(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(dir, ec))
        if (e.is_regular_file()) out.push_back(e.path().string());
    std::ranges::sort(out);
    return out;
}

} // namespace

int main() {
    if (!ol::outline_available()) {
        fmt::print(stderr, "sutra_outline_bench: built without tree-sitter\n");
        return 1;
    }
    const std::string src = SUTRA_SOURCE_DIR, npm = SUTRA_NPM_DIR;
    std::vector<std::string> paths;
    for (const char* d : {"/core", "/host", "/tests/e2e", "/tests/data", "/plugins", "/scripts"})
        for (auto& p : files_under(src + d)) paths.push_back(p);
    for (auto& p : files_under(npm))
        if (p.find("/src/parser.c") == std::string::npos) paths.push_back(p); // generated tables

    std::map<ol::Language, std::string> inputs;
    for (const std::string& path : paths) {
        auto text = ol::read_source_file(path);
        if (!text) continue;
        const auto language = ol::detect_language(path, *text);
        if (!language) continue;
        auto outline = ol::outline_source(*text, *language);
        if (!outline || outline->partial()) continue; // only files the grammar reads cleanly
        std::string& input = inputs[*language];
        if (input.size() < k_min_input) input += *text + "\n";
    }

    namespace tok = sutra::core::tokenizer;
    const bool tokens = tok::load(tok::Encoding::o200k).has_value();
    fmt::print("| language | input bytes | outline bytes | bytes saved | input tokens | outline "
               "tokens | tokens saved | symbols | clean parse | ms per outline | MB/s |\n");
    fmt::print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
    for (ol::Language language : ol::all_languages()) {
        std::string input = inputs[language];
        if (input.empty()) continue;
        const std::string one = input;
        while (input.size() < k_min_input) input += one;
        std::vector<double> ms;
        std::string lines;
        ol::Outline outline;
        for (int run = 0; run < k_runs; ++run) {
            const auto t0 = std::chrono::steady_clock::now();
            outline = *ol::outline_source(input, language);
            lines = ol::outline_lines(outline);
            const auto t1 = std::chrono::steady_clock::now();
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        std::ranges::sort(ms);
        const double median = ms[ms.size() / 2];
        const std::size_t in_tokens = tokens ? *tok::count_tokens(input) : 0;
        const std::size_t out_tokens = tokens ? *tok::count_tokens(lines) : 0;
        fmt::print("| {} | {} | {} | {:.1f} % | {} | {} | {:.1f} % | {} | {} | {:.1f} | {:.1f} |\n",
                   ol::language_name(language), input.size(), lines.size(),
                   100.0 * (1.0 - double(lines.size()) / double(input.size())),
                   tokens ? std::to_string(in_tokens) : "n/a",
                   tokens ? std::to_string(out_tokens) : "n/a",
                   tokens ? 100.0 * (1.0 - double(out_tokens) / double(in_tokens)) : 0.0,
                   outline.symbols.size(), outline.partial() ? "no" : "yes", median,
                   double(input.size()) / 1e6 / (median / 1000.0));
    }

    // The real files of tests/data/outline_real/: the C++ ones parse cleanly only after the
    // second parse with their annotation macros blanked (core/outline/c_family.hpp), so their
    // time includes both parses.
    fmt::print("\n| real file | bytes | symbols | clean parse | ms per outline | MB/s |\n");
    fmt::print("|---|---:|---:|---|---:|---:|\n");
    for (const std::string& path : files_under(src + "/tests/data/outline_real")) {
        auto text = ol::read_source_file(path);
        if (!text) continue;
        const auto language = ol::detect_language(path, *text);
        if (!language) continue;
        std::vector<double> ms;
        ol::Outline outline;
        for (int run = 0; run < k_runs; ++run) {
            const auto t0 = std::chrono::steady_clock::now();
            outline = *ol::outline_source(*text, *language);
            const auto t1 = std::chrono::steady_clock::now();
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        std::ranges::sort(ms);
        const double median = ms[ms.size() / 2];
        fmt::print("| {} ({}) | {} | {} | {} | {:.1f} | {:.1f} |\n",
                   fs::path(path).filename().string(), ol::language_name(*language), text->size(),
                   outline.symbols.size(), outline.partial() ? "no" : "yes", median,
                   double(text->size()) / 1e6 / (median / 1000.0));
    }
    return 0;
}
