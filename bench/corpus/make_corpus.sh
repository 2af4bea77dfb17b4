#!/usr/bin/env bash
# Builds the real-output corpus for sutra_savings: runs real tools available on this machine and
# stores, per case, NAME.out (stdout+stderr as an agent's shell tool returns it), NAME.meta
# (exit=, command=, diff=1) and NAME.keep (the must-keep lines, chosen mechanically by
# pick_keep.py from the output itself). Tools that are missing are skipped and said so.
#
#   bash bench/corpus/make_corpus.sh [OUT_DIR]     (default: build-bench/corpus, outside git)
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/build-bench/corpus}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
rm -f "$out"/*.out "$out"/*.meta "$out"/*.keep
work="$(mktemp -d /tmp/sutra-corpus-XXXXXX)"
trap 'rm -rf "$work"' EXIT

# capture NAME [diff] -- COMMAND...: runs COMMAND in $work, records output, exit status and keep lines.
capture() {
    local name="$1"; shift
    local diff=0
    if [[ "$1" == diff ]]; then diff=1; shift; fi
    shift # --
    local status
    (cd "$work" && timeout 300 "$@") >"$out/$name.out" 2>&1
    status=$?
    { echo "exit=$status"; echo "command=$*"; [[ $diff == 1 ]] && echo "diff=1"; } >"$out/$name.meta"
    python3 "$here/pick_keep.py" <"$out/$name.out" >"$out/$name.keep"
    printf '  %-22s exit %-3s %9s B  %s must-keep\n' "$name" "$status" "$(wc -c <"$out/$name.out")" \
        "$(wc -l <"$out/$name.keep")"
}
skip() { echo "  skipped $1: $2"; }
have() { command -v "$1" >/dev/null 2>&1; }

echo "corpus -> $out"

# g++: a template error (a std::map keyed by a type with no operator<, then sorting a std::list).
cat >"$work/template_error.cpp" <<'EOF'
#include <algorithm>
#include <list>
#include <map>
#include <string>
struct Key { int id; std::string name; };
int main() {
    std::map<Key, int> counts;
    counts[Key{1, "a"}] = 2;
    std::list<int> values{3, 1, 2};
    std::sort(values.begin(), values.end());
    return counts.size() + values.size();
}
EOF
capture gxx_template_error -- g++ -std=c++20 -c template_error.cpp -o /dev/null

# cmake + make: 40 sources, one with an error; make -k keeps building the others.
mkdir -p "$work/proj/src"
{
    echo 'cmake_minimum_required(VERSION 3.20)'
    echo 'project(demo CXX)'
    printf 'add_library(demo'
    for i in $(seq -w 1 40); do printf ' src/unit_%s.cpp' "$i"; done
    echo ')'
} >"$work/proj/CMakeLists.txt"
for i in $(seq -w 1 40); do
    printf '#include <vector>\nint unit_%s(int x) { std::vector<int> v(x); return static_cast<int>(v.size()) + %s; }\n' \
        "$i" "$((10#$i))" >"$work/proj/src/unit_$i.cpp"
done
printf 'int unit_23(int x) { return x + undefined_helper(x); }\n' >"$work/proj/src/unit_23.cpp"
capture cmake_make_build -- bash -c 'cmake -S proj -B proj/build -G "Unix Makefiles" && make -k -C proj/build'

# A Python test run with one real failure (pytest is not installed here: unittest -v).
mkdir -p "$work/pyproj/tests"
touch "$work/pyproj/tests/__init__.py"
cat >"$work/pyproj/calc.py" <<'EOF'
def mean(xs):
    return sum(xs) / len(xs)

def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]  # wrong for even lengths
EOF
for m in $(seq 1 12); do
    {
        echo 'import unittest'
        echo 'from calc import mean, median'
        echo "class TestCalc$m(unittest.TestCase):"
        for t in $(seq 1 25); do
            echo "    def test_mean_$t(self):"
            echo "        self.assertEqual(mean([$t, $t, $t]), $t)"
        done
        if [[ $m == 7 ]]; then
            echo '    def test_median_even(self):'
            echo '        self.assertEqual(median([1, 2, 3, 4]), 2.5)'
        fi
    } >"$work/pyproj/tests/test_calc_$m.py"
done
if python3 -c 'import pytest' 2>/dev/null; then
    capture python_tests -- bash -c 'cd pyproj && python3 -m pytest -q'
else
    capture python_tests -- bash -c 'cd pyproj && python3 -m unittest discover -v -s tests -t .'
fi

# A deep Python traceback: 40 distinct frames, then the exception.
{
    for i in $(seq 0 39); do
        printf 'def step_%d(order):\n    return step_%d(order)\n\n' "$i" "$((i + 1))"
    done
    printf 'def step_40(order):\n    zones = {"eu": 1, "us": 2}\n    return zones[order["zone"]]\n\n'
    printf 'for n in range(300):\n    print(f"processed order {n}: ok")\nstep_0({"zone": "apac-7781"})\n'
} >"$work/deep.py"
capture python_deep_traceback -- python3 deep.py

# git log -p of this repository (the last 60 commits keep the file in the megabyte range).
capture git_log_p diff -- git -C "$root" log -p -n 60 --no-color

capture find_usr_include -- find /usr/include -name '*.h'
capture ls_r_usr_share_doc -- bash -c 'ls -R /usr/share/doc | head -c 2000000'

# valgrind on a small program that leaks.
if have valgrind && have gcc; then
    printf '#include <stdlib.h>\n#include <string.h>\nint main(void) {\n  for (int i = 0; i < 20; ++i) { char *p = malloc(64); strcpy(p, "leak"); }\n  int *q = malloc(4 * sizeof(int));\n  int s = q[2];\n  return s > 1000;\n}\n' \
        >"$work/leak.c"
    gcc -g -O0 "$work/leak.c" -o "$work/leak"
    capture valgrind_leak -- valgrind --leak-check=full ./leak
else
    skip valgrind_leak "valgrind or gcc missing"
fi

if have strace && strace -o /dev/null true 2>/dev/null; then
    capture strace_ls -- strace ls /usr/share/doc
else
    skip strace_ls "strace missing or ptrace not permitted"
fi

# A large JSON from a real command: npm's global tree (no network needed).
if have npm; then
    capture npm_ls_json -- npm ls -g --all --long --json
else
    capture python_json -- python3 -c 'import json,sys; print(json.dumps({"modules": sorted(sys.modules), "path": sys.path, "builtins": sorted(dir(__builtins__))}, indent=2))'
fi

# npm install in offline mode: a real failure from a real package manager.
if have npm; then
    mkdir -p "$work/npmproj"
    printf '{"name":"demo","version":"1.0.0","dependencies":{"left-pad":"1.3.0","lodash":"4.17.21"}}\n' \
        >"$work/npmproj/package.json"
    capture npm_install_offline -- bash -c 'cd npmproj && npm install --offline --no-audit --no-fund'
fi

if have apt-get; then
    capture apt_get_install_sim -- apt-get install -s libboost-all-dev
    capture apt_cache_search -- bash -c 'apt-cache search lib | head -c 300000'
fi
echo "done: $(ls "$out"/*.out | wc -l) cases"
