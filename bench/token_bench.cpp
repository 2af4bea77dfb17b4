// Exact token counting of one long pre-token piece (issue 15, item 10: "exact token counting
// stays linear"). Bytes per second that stay flat from 256 KiB to 4 MiB mean linear time;
// the old binary-heap merge lost ~25% per doubling.

#include "core/tokenizer/tokenizer.hpp"

#include <benchmark/benchmark.h>

#include <random>
#include <string>

namespace {

namespace tok = sutra::core::tokenizer;

void count(benchmark::State& st, const std::string& text) {
    if (!tok::has_rank_data()) {
        st.SkipWithError("this build has no rank files");
        return;
    }
    for (auto _ : st) benchmark::DoNotOptimize(tok::count_tokens(text));
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * text.size()));
}

// One letter repeated: a single piece whose merges all have a handful of ranks.
void BM_CountOneLetterRun(benchmark::State& st) {
    count(st, std::string(static_cast<std::size_t>(st.range(0)), 'a'));
}
BENCHMARK(BM_CountOneLetterRun)->RangeMultiplier(4)->Range(256 << 10, 4 << 20);

// Random lowercase letters: a single piece whose pairs have thousands of ranks.
void BM_CountRandomLetters(benchmark::State& st) {
    std::mt19937 rng(5);
    std::string text(static_cast<std::size_t>(st.range(0)), ' ');
    for (char& c : text) c = static_cast<char>('a' + rng() % 26);
    count(st, text);
}
BENCHMARK(BM_CountRandomLetters)->RangeMultiplier(4)->Range(256 << 10, 4 << 20);

} // namespace
