#!/usr/bin/env bash
# The test suite's time, before and after, side by side on this machine: issue 24's row for
# `bash scripts/test.sh`, which is a build and a ctest run.
#
#   bench/suite_bench.sh BEFORE [AFTER] [--rounds N] [--scratch DIR]
#
# BEFORE and AFTER are revisions (AFTER defaults to HEAD). Each is checked out in a worktree of
# its own under DIR (a fresh temporary folder unless given; a tree already built there is
# reused and its build is not timed again) and built from empty as scripts/build.sh builds it,
# with the tests; the builds run one after the other, each timed as wall time. Then ctest runs
# as scripts/test.sh runs it (-j the core count), alternately (before, after, before, after …)
# N times each (2 by default), with the timing data of earlier runs removed first, since a
# fresh clone has none. Prints one table: each step's times, the medians and their ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
before="" after="HEAD" rounds=2 scratch=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --scratch) scratch="$2"; shift 2 ;;
    -*) echo "suite_bench: unknown option $1" >&2; exit 2 ;;
    *) if [ -z "$before" ]; then before="$1"; else after="$1"; fi; shift ;;
  esac
done
[ -n "$before" ] || { sed -n '5p' "$0" >&2; exit 2; }
[ -n "$scratch" ] || scratch="$(mktemp -d)"
mkdir -p "$scratch"

now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{printf "%.1f", $1 - $2}'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {
  if (NR % 2) printf "%.1f", v[(NR + 1) / 2]; else printf "%.1f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A build_s ctest_s tests_n
for side in before after; do
  rev="${!side}"
  tree="$scratch/$side"
  if [ ! -d "$tree" ]; then
    git -C "$root" worktree add --detach -q "$tree" "$rev"
  fi
  if [ -f "$tree/build/CTestTestfile.cmake" ] && [ -f "$tree/build/.suite_bench_built" ]; then
    build_s[$side]="(reused)"
  else
    t0="$(now)"
    SUTRA_BUILD_DIR="$tree/build" "$tree/scripts/build.sh" -DBUILD_TESTING=ON >"$scratch/$side.build.log" 2>&1
    build_s[$side]="$(since "$t0")"
    touch "$tree/build/.suite_bench_built"
  fi
  ctest_s[$side]=""
done

for ((r = 1; r <= rounds; r++)); do
  for side in before after; do
    build="$scratch/$side/build"
    rm -f "$build/Testing/Temporary/CTestCostData.txt"
    t0="$(now)"
    status=0
    (cd "$build" && ctest -j "$(nproc)" >"$scratch/$side.ctest.$r.log" 2>&1) || status=$?
    s="$(since "$t0")"
    ctest_s[$side]="${ctest_s[$side]} $s"
    tests_n[$side]="$(grep -Eo '[0-9]+ tests failed out of [0-9]+' "$scratch/$side.ctest.$r.log" | tail -1)"
    [ "$status" -eq 0 ] || tests_n[$side]="${tests_n[$side]} (failed: $scratch/$side.ctest.$r.log)"
  done
done

mb="$(echo "${ctest_s[before]}" | median)"
ma="$(echo "${ctest_s[after]}" | median)"
echo "## the test suite ($(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
label() { local short; short="$(git -C "$root" rev-parse --short "$1")"; [[ "$short" == "$1"* ]] && echo "$short" || echo "$1, $short"; }
echo "| step | before ($(label "$before")) | after ($(label "$after")) | ratio |"
echo "|---|---|---|---|"
ratio_build="—"
if [[ "${build_s[before]}" != "(reused)" && "${build_s[after]}" != "(reused)" ]]; then
  ratio_build="$(awk -v a="${build_s[after]}" -v b="${build_s[before]}" 'BEGIN {printf "%.2f", a / b}')"
fi
echo "| build from empty (scripts/build.sh -DBUILD_TESTING=ON) | ${build_s[before]} s | ${build_s[after]} s | $ratio_build |"
echo "| ctest -j$(nproc), each round (in turn) |${ctest_s[before]} s |${ctest_s[after]} s | |"
echo "| ctest, median | $mb s | $ma s | $(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.2f", a / b}') |"
echo "| tests | ${tests_n[before]} | ${tests_n[after]} | |"
echo
echo "(worktrees and logs in $scratch; remove with: git worktree remove --force $scratch/before $scratch/after)"
