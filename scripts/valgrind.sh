#!/usr/bin/env bash
# Runs the CLI under valgrind (memcheck, --leak-check=full, --error-exitcode=99) over the
# benchmark inputs: every real-output case of bench/corpus (NAME.out) and every generated
# reference fixture (bench/fixtures.cpp). For each input: `sutra compress --json`, then, when
# the original was retained, `sutra restore ID --all` (checked byte for byte against the input)
# and `sutra restore ID --bytes A-B` for its first elision. Prints one line per input; exits 1
# on any valgrind error, leak or mismatch.
#
#   scripts/valgrind.sh [CORPUS_DIR]   (default: build-bench/corpus if present, else generated
#                                       into build-valgrind/corpus by bench/corpus/make_corpus.sh)
# Environment: SUTRA_BUILD_DIR (default build-json) is where the normal `sutra` binary is built.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="${SUTRA_BUILD_DIR:-$root/build-json}"
work="$root/build-valgrind"
bash "$(dirname "$0")/setup.sh" valgrind
command -v valgrind > /dev/null || { echo "valgrind: not installed (scripts/setup.sh valgrind)" >&2; exit 2; }

cmake -S . -B "$build" -G Ninja -DSUTRA_BENCH=OFF > "$work.configure.log" 2>&1 ||
  { cat "$work.configure.log" >&2; exit 2; }
ninja -C "$build" sutra > "$work.build.log" 2>&1 || { tail -40 "$work.build.log" >&2; exit 2; }
sutra="$build/sutra"
[ -x "$sutra" ] || sutra="$build/host/sutra"

rm -rf "$work/inputs" "$work/store" "$work/logs"
mkdir -p "$work/inputs" "$work/logs"

# The real-output corpus.
corpus="${1:-}"
if [ -z "$corpus" ]; then
  if ls "$root/build-bench/corpus/"*.out > /dev/null 2>&1; then
    corpus="$root/build-bench/corpus"
  else
    corpus="$work/corpus"
    bash bench/corpus/make_corpus.sh "$corpus" > "$work/logs/make_corpus.log" 2>&1
  fi
fi
for f in "$corpus"/*.out; do cp "$f" "$work/inputs/corpus_$(basename "$f")"; done

# The reference fixtures are generated in memory by the benchmark; a few lines write them out.
cat > "$work/export_fixtures.cpp" << 'CPP'
#include "bench/fixtures.hpp"
#include <fstream>
int main(int argc, char** argv) {
    for (const auto& f : sutra::bench::make_fixtures()) {
        std::string name;
        for (char c : f.name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
        std::ofstream(std::string(argv[argc - 1]) + "/fixture_" + name + ".out", std::ios::binary)
            << f.text;
    }
}
CPP
g++ -std=c++23 -O1 -I"$root" "$work/export_fixtures.cpp" bench/fixtures.cpp -lfmt \
  -o "$work/export_fixtures"
"$work/export_fixtures" "$work/inputs"

mkdir -p "$work/config"
export SUTRA_HOME="$work/store" SUTRA_STATS=0 XDG_CONFIG_HOME="$work/config"
unset SUTRA_CONFIG
vg=(valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes -q)
failed=0
runs=0
start=$(date +%s)
printf '%-46s %10s %6s %s\n' input bytes elided result
for input in "$work/inputs"/*.out; do
  name=$(basename "$input" .out)
  log="$work/logs/$name"
  result=ok
  runs=$((runs + 1))
  if ! "${vg[@]}" --log-file="$log.compress.vg" "$sutra" compress --json --tool Bash \
       "$input" > "$log.json" 2> "$log.err"; then
    result="compress failed (valgrind: $log.compress.vg)"
  fi
  read -r id range < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
e = r["elisions"][0]["bytes"] if r["elisions"] else [0, 0]
e[1] = min(e[1], e[0] + 65536)  # one page
print(r["id"] or "-", "%d-%d" % (e[0], e[1]))' "$log.json" 2> /dev/null || echo "- 0-0")
  elided="no"
  if [ "$result" = ok ] && [ "$id" != "-" ]; then
    elided="yes"
    runs=$((runs + 2))
    if ! "${vg[@]}" --log-file="$log.all.vg" "$sutra" restore "$id" --all > "$log.all" 2>> "$log.err"; then
      result="restore --all failed (valgrind: $log.all.vg)"
    elif ! cmp -s "$log.all" "$input"; then
      result="restore --all differs from the input"
    elif ! "${vg[@]}" --log-file="$log.bytes.vg" "$sutra" restore "$id" --bytes "$range" \
         --max-bytes 65536 > "$log.bytes" 2>> "$log.err"; then
      result="restore --bytes failed (valgrind: $log.bytes.vg)"
    elif ! cmp -s "$log.bytes" <(tail -c +"$((${range%-*} + 1))" "$input" | head -c "$((${range#*-} - ${range%-*}))"); then
      result="restore --bytes $range differs from the input"
    fi
  fi
  [ "$result" = ok ] || failed=$((failed + 1))
  printf '%-46s %10s %6s %s\n' "$name" "$(wc -c < "$input")" "$elided" "$result"
done
echo "valgrind: $runs runs over $(ls "$work/inputs" | wc -l) inputs in $(( $(date +%s) - start )) s, $failed failed"
[ "$failed" -eq 0 ]
