#!/usr/bin/env bash
# Builds in Release and prints every benchmark figure (the tables in docs/benchmark.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SUTRA_BENCH_BUILD:-$root/build-bench}"
"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DSUTRA_BENCH=ON >/dev/null
cmake --build "$build" -j "$(nproc)" --target sutra sutra-host sutra_plugin_claude sutra_bench core_bench sutra_savings \
  sutra_degenerate_bench sutra_calls_bench
# The outline benchmark exists only when tree-sitter could be fetched at configure time.
cmake --build "$build" -j "$(nproc)" --target sutra_outline_bench 2>/dev/null || true
echo "## figures ($(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
"$build/bench/sutra_bench" --sutra "$build/host/sutra" --sutra-host "$build/bin/sutra-host" --sample "$root/samples/pytest-failure.log" "$@"
echo
echo "## one call as a whole process, beside its floor"
"$build/bench/sutra_calls_bench" --sutra "$build/host/sutra" --sutra-host "$build/bin/sutra-host"
echo
echo "## exec: 1 GiB of log lines through \`sutra exec\`, against the same pipeline into cat (GNU time)"
gen="yes 'step 12345 compiling module_7.cpp ok, cache hit ratio 0.93' | head -c 1073741824"
/usr/bin/time -f "| pipeline | cat | %e s wall | %U s user | %M KiB peak RSS |" sh -c "$gen | cat > /dev/null"
/usr/bin/time -f "| pipeline | sutra exec --sh | %e s wall | %U s user | %M KiB peak RSS |" \
  env SUTRA_HOME="$build/exec-store" "$build/host/sutra" exec --sh "$gen" > /dev/null
echo
echo "## outputs of one line over and over: time per MB beside \`wc -l\` and \`cat\`"
"$build/bench/sutra_degenerate_bench" --sutra "$build/host/sutra"
echo
echo "## hot loops (Google Benchmark)"
"$build/bench/core_bench" --benchmark_min_time=0.2 2>/dev/null | grep -E '^BM_|^Benchmark'
if [ -x "$build/bench/sutra_outline_bench" ]; then
  echo
  echo "## outline: size against the whole file, and time per outline"
  "$build/bench/sutra_outline_bench"
fi
echo
echo "## savings (fixtures + real-output corpus, sutra beside the baselines)"
bash "$root/bench/corpus/make_corpus.sh" "$build/corpus" >&2
"$build/bench/sutra_savings" --corpus "$build/corpus" --store "$build/savings-store"
