#!/usr/bin/env bash
# Whole-process throughput of `sutra compress` (docs/benchmark.md, "Session 6: throughput"):
# CPU time (perf stat task-clock, median of N runs) of each given binary beside `wc -l` on the
# same file, in one run, so the ratio holds on a busy machine.
#   bash bench/throughput/run.sh [-n RUNS] [-f LOG] SUTRA [SUTRA...]
# Each binary runs with SUTRA_STATS=0, with the store on and then off. Each run with the store on
# gets a fresh copy of a store that has its key and one small entry: the log is a new entry, as
# a new output would be (the same entry again replaces its file, which ext4 then writes back
# at once, and a first put also makes the key).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
runs=5
log=/tmp/sutra-access30.log
while getopts "n:f:" o; do
  case "$o" in
    n) runs="$OPTARG" ;;
    f) log="$OPTARG" ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: run.sh [-n RUNS] [-f LOG] SUTRA [SUTRA...]" >&2; exit 2; }
[ -s "$log" ] || python3 "$here/gen_access_log.py" "$log"
bytes=$(stat -c %s "$log")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Prints "| what | median ms | MB/s |" from perf stat's per-run task-clock figures. With
# FRESH_STORE set, each run starts from a copy of it at $work/home.
measure() {
  local what="$1"; shift
  local out="$work/perf.$RANDOM"
  for _ in $(seq "$runs"); do
    if [ -n "${FRESH_STORE:-}" ]; then rm -rf "$work/home"; cp -a "$FRESH_STORE" "$work/home"; fi
    perf stat -x, -e task-clock -o "$out" --append "$@" >/dev/null
  done
  grep task-clock "$out" | cut -d, -f1 | sort -n |
    awk -v what="$what" -v bytes="$bytes" '{ a[NR] = $1 }
      END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2;
            printf "| %s | %.0f ms | %.0f MB/s |\n", what, m, bytes / 1e6 / (m / 1e3) }'
}

echo "$(basename "$log"): $bytes bytes; median CPU time (task-clock) of $runs runs;" \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| process | CPU time | MB/s |"
echo "|---|---|---|"
measure "wc -l" wc -l "$log"
for bin in "$@"; do
  template="$work/template.$RANDOM"
  seq 1 20000 | SUTRA_STATS=0 SUTRA_HOME="$template" "$bin" compress >/dev/null
  FRESH_STORE="$template" measure "$bin compress" \
    env SUTRA_STATS=0 SUTRA_HOME="$work/home" "$bin" compress "$log"
  measure "$bin compress, store off" \
    env SUTRA_STATS=0 SUTRA_STORE=0 SUTRA_HOME="$work/home" "$bin" compress "$log"
done
