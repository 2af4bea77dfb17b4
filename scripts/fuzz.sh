#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang++-16, ASan+UBSan) in build-fuzz and runs each one,
# one at a time, single job, for SECONDS (default 60), starting from the committed seeds in
# fuzz/corpus/<target>. Prints executions and findings per target; exits 1 if any target found
# a crash, a leak, a timeout or an out-of-memory (the inputs are in build-fuzz/fuzz-artifacts).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 300 compress json
#   SUTRA_FUZZ_NO_BUILD=1 scripts/fuzz.sh ...   runs what is built, without building
#   a finding replays with: build-fuzz/fuzz/fuzz_TARGET build-fuzz/fuzz-artifacts/TARGET/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
all_targets=(compress json restore mcp config registry
             adapter_claude adapter_codex adapter_opencode adapter_hermes)
targets=("${@:-${all_targets[@]}}")
[ $# -gt 0 ] || targets=("${all_targets[@]}")

# Inputs longer than this are not generated: big enough for each format's interesting shapes,
# and for the targets that parse JSON, a value nested 100,000 levels deep (200 KB; their "deep"
# seeds) past core/util/json_nesting.hpp's limit.
max_len() {
  case "$1" in
    json | mcp | adapter_*) echo 262144 ;;
    compress) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

# The targets that parse JSON also get runs of brackets to splice in (fuzz/nesting.dict).
dict_option() {
  case "$1" in
    json | mcp | adapter_*) echo "-dict=fuzz/nesting.dict" ;;
  esac
}

bash "$(dirname "$0")/setup.sh" fuzz
command -v clang++-16 > /dev/null || { echo "fuzz: clang++-16 missing (scripts/setup.sh fuzz)" >&2; exit 2; }
build=build-fuzz
# SUTRA_FUZZ_NO_BUILD=1 runs the targets already built (e.g. while another build is running).
[ "${SUTRA_FUZZ_NO_BUILD:-0}" = 1 ] || {
  CC=clang-16 CXX=clang++-16 cmake -S . -B "$build" -G Ninja -DSUTRA_FUZZ=ON -DSUTRA_WERROR=OFF \
    -DBUILD_TESTING=OFF -DSUTRA_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
    > "$build.configure.log" 2>&1 || { cat "$build.configure.log" >&2; exit 2; }
  ninja -C "$build" -j2 $(printf 'fuzz_%s ' "${targets[@]}") > "$build.build.log" 2>&1 ||
    { tail -40 "$build.build.log" >&2; exit 2; }
}

status=0
printf '%-18s %8s %12s %9s  %s\n' target seconds executions findings log
for t in "${targets[@]}"; do
  work="$build/fuzz-work/$t"
  artifacts="$build/fuzz-artifacts/$t"
  logs="$build/fuzz-logs"
  mkdir -p "$work/corpus" "$artifacts" "$logs"
  tmp=$(mktemp -d)
  # Exit status is judged from the artifacts below; libFuzzer exits non-zero on any finding.
  TMPDIR="$tmp" "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
    $(dict_option "$t") -timeout=20 -rss_limit_mb=2560 -jobs=1 -workers=1 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$work/corpus" "fuzz/corpus/$t" > "$logs/$t.log" 2>&1 || true
  rm -rf "$tmp"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log" | tail -1)
  findings=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
             -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  [ "$findings" -eq 0 ] || status=1
  printf '%-18s %8s %12s %9s  %s\n' "$t" "$seconds" "${execs:-?}" "$findings" "$logs/$t.log"
done
exit $status
