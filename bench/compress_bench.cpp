// Hot loops of the text pipeline under Google Benchmark.

#include "bench/inputs.hpp"
#include "core/compress.hpp"
#include "core/rewrite/classify.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/shape.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace sutra;

const std::string& input() {
    static const std::string s = bench::plain_log(8u << 20);
    return s;
}

void BM_IndexLines(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(core::index_lines(input()));
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * input().size()));
}
BENCHMARK(BM_IndexLines);

void BM_KeyLevel(benchmark::State& st) {
    const core::KeyMatcher keys;
    const auto idx = core::index_lines(input());
    for (auto _ : st)
        for (std::size_t i = 0; i < idx.count(); ++i)
            benchmark::DoNotOptimize(keys.level(
                std::string_view(input()).substr(idx.begin(i), idx.end(i) - idx.begin(i))));
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * input().size()));
}
BENCHMARK(BM_KeyLevel);

void BM_ShapeSignature(benchmark::State& st) {
    const auto idx = core::index_lines(input());
    for (auto _ : st)
        for (std::size_t i = 0; i < idx.count(); ++i)
            benchmark::DoNotOptimize(core::shape_signature(
                std::string_view(input()).substr(idx.begin(i), idx.end(i) - idx.begin(i))));
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * input().size()));
}
BENCHMARK(BM_ShapeSignature);

void BM_DetectShape(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(core::detect_shape(input()));
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * input().size()));
}
BENCHMARK(BM_DetectShape);

// The whole rewrite of `text`, with no store and no stats.
void compress_no_store(benchmark::State& st, const std::string& text) {
    core::Config c;
    c.store_enabled = false;
    c.stats_enabled = false;
    core::Request r;
    r.output = text;
    r.exit_code = 1;
    for (auto _ : st) benchmark::DoNotOptimize(core::compress(r, c));
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * text.size()));
}

void BM_CompressNoStore(benchmark::State& st) {
    compress_no_store(st, input());
}
BENCHMARK(BM_CompressNoStore);

// A log whose neighbouring lines share their shape, in runs of 50 (build steps, requests, test
// results): unlike plain_log, where the kind changes every line, nearly every line here needs
// its full shape signature.
const std::string& runs_input() {
    static const std::string s = bench::runs_log(8u << 20);
    return s;
}

void BM_CompressRunsNoStore(benchmark::State& st) {
    compress_no_store(st, runs_input());
}
BENCHMARK(BM_CompressRunsNoStore);

// Every line an error under its file's name (docs/benchmark.md, session 7): the worst case of
// the rules that keep an error's file with it and tell errors apart by it.
const std::string& stylish_input() {
    static const std::string s = bench::stylish_report(8u << 20);
    return s;
}

void BM_CompressStylishNoStore(benchmark::State& st) {
    compress_no_store(st, stylish_input());
}
BENCHMARK(BM_CompressStylishNoStore);

} // namespace

BENCHMARK_MAIN();
