// The stated limits (docs/security.md, "Limits"), each enforced: inputs over max_input_bytes pass
// through (core and CLI), long lines are clipped to the mode's width, JSON deeper than 256 or
// with more than 4M nodes is not rewritten as JSON (and costs no stack), and the view ceiling
// holds whatever the shape.

#include "core/compress.hpp"
#include "core/rewrite/json_rewrite.hpp"
#include "core/rewrite/text_rewrite.hpp"
#include "core/store/store.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

namespace sutra::core {
namespace {

Response run(const std::string& text, const Config& config) {
    Request req;
    req.output = text;
    return compress(req, config);
}

std::string log_of(std::size_t bytes) {
    std::mt19937 rng(5);
    std::string s;
    while (s.size() < bytes) s += test::random_log(rng, 200);
    s.resize(bytes - 1);
    return s + "\n";
}

// What a rewrite promises whenever it happens: within the ceiling, and every elision restores.
void expect_faithful(const std::string& input, const Response& r, const Config& config) {
    if (!r.rewritten) return;
    EXPECT_LE(r.view.size(), config.max_view_bytes);
    auto store = Store::open([&] {
        StoreOptions o;
        o.dir = resolve_store_dir(config);
        return o;
    }());
    ASSERT_TRUE(store);
    auto all = store->read_all(*r.id);
    ASSERT_TRUE(all);
    EXPECT_TRUE(*all == input);
}

TEST(Limits, InputsOverMaxInputBytesPassThrough) {
    test::TempDir dir;
    Config config = test::test_config(dir.path);
    for (std::uint64_t limit : {4096ull, 20000ull, 100000ull}) {
        config.max_input_bytes = limit;
        const std::string at = log_of(limit);
        const std::string over = log_of(limit + 1);
        const Response r_at = run(at, config);
        EXPECT_NE(r_at.passthrough, "too-large");
        expect_faithful(at, r_at, config);
        const Response r_over = run(over, config);
        EXPECT_FALSE(r_over.rewritten);
        EXPECT_EQ(r_over.passthrough, "too-large");
    }
}

TEST(Limits, CliPassesOverLimitInputThroughByteForByte) {
    test::TempDir dir;
    test::write_file(dir.path + "/config.toml", "[compress]\nmax_input_bytes = 5000\n");
    const std::string input = log_of(200000);
    test::write_file(dir.path + "/in.log", input);
    const std::string env = "env -u SUTRA_MODE SUTRA_CONFIG='" + dir.path +
                            "/config.toml' SUTRA_HOME='" + dir.path + "/store' SUTRA_STATS=0 ";
    int status = -1;
    std::string out =
        test::run_command(env + SUTRA_BINARY + " compress '" + dir.path + "/in.log'", &status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(out == input) << out.size() << " vs " << input.size();
    // From standard input too (the rest of the stream is copied, not dropped).
    out = test::run_command(env + SUTRA_BINARY + " compress < '" + dir.path + "/in.log'", &status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(out == input) << out.size() << " vs " << input.size();
    // And through a pipe, whose size is not known up front.
    out = test::run_command("cat '" + dir.path + "/in.log' | " + env + SUTRA_BINARY + " compress",
                            &status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(out == input) << out.size() << " vs " << input.size();
}

TEST(Limits, LongLinesAreClippedToTheModeWidth) {
    test::TempDir dir;
    Config config = test::test_config(dir.path);
    config.min_bytes = 2048; // the 3 kB case is about its line, not the small-output rule
    for (Mode mode : {Mode::concise, Mode::normal, Mode::verbose, Mode::full}) {
        const std::size_t width = text_options(mode, config.max_view_bytes).max_line_bytes;
        for (std::size_t length : {std::size_t{3000}, std::size_t{100000}, std::size_t{5} << 20}) {
            std::string input;
            for (int i = 0; i < 30; ++i) input += "line " + std::to_string(i) + "\n";
            std::string line = "HEAD ";
            while (line.size() < length) line += "x=" + std::to_string(line.size()) + " ";
            input += line + " TAIL\n";
            for (int i = 0; i < 30; ++i) input += "after " + std::to_string(i) + "\n";
            Request req;
            req.output = input;
            req.mode = mode;
            const Response r = compress(req, config);
            if (line.size() <= width) continue;
            ASSERT_TRUE(r.rewritten) << r.passthrough;
            expect_faithful(input, r, config);
            std::size_t longest = 0;
            for (std::size_t pos = 0; pos < r.view.size();) {
                std::size_t end = r.view.find('\n', pos);
                if (end == std::string::npos) end = r.view.size();
                longest = std::max(longest, end - pos);
                pos = end + 1;
            }
            // The kept head and tail, plus the inline marker.
            EXPECT_LE(longest, width + 256) << to_string(mode) << " " << length;
        }
    }
}

TEST(Limits, DeepJsonIsNotRewrittenAsJsonAndCostsNoStack) {
    test::TempDir dir;
    const Config config = test::test_config(dir.path);
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    EXPECT_FALSE(is_json_document(deep));
    EXPECT_FALSE(rewrite_json(deep, JsonOptions{}));
    const Response r = run(deep, config);
    EXPECT_NE(r.shape, Shape::json);
    expect_faithful(deep, r, config);
    // Deep objects too, and a deep document that is broken at the very end.
    std::string objects;
    for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
    objects += "1" + std::string(100000, '}');
    EXPECT_FALSE(is_json_document(objects));
    expect_faithful(objects, run(objects, config), config);
    EXPECT_FALSE(is_json_document(std::string(100000, '[') + std::string(99999, ']') + "}"));
}

TEST(Limits, HugeNodeCountsAreNotRewrittenAsJson) {
    test::TempDir dir;
    const Config config = test::test_config(dir.path);
    std::string many;
    many.reserve(20'000'002);
    many += '[';
    for (int i = 0; i < 10'000'000; ++i) many += i == 0 ? "0" : ",0";
    many += ']';
    EXPECT_FALSE(is_json_document(many));
    const Response r = run(many, config);
    EXPECT_NE(r.shape, Shape::json);
    expect_faithful(many, r, config);
    // Just under the node limit the same array is JSON and its view stays small.
    std::string under = "[0";
    for (int i = 1; i < 3'999'990; ++i) under += ",0";
    under += ']';
    EXPECT_TRUE(is_json_document(under));
}

} // namespace
} // namespace sutra::core
