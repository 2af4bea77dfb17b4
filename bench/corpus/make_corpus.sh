#!/usr/bin/env bash
# Builds the real-output corpus for sutra_savings: runs real tools available on this machine and
# stores, per case, NAME.out (stdout+stderr as an agent's shell tool returns it), NAME.meta
# (exit=, command=, diff=1) and NAME.keep (the must-keep lines, chosen mechanically by
# pick_keep.py from the output itself). Tools that are missing are skipped and said so.
#
# The tools it needs (Debian packages, and typescript/eslint/express/… from npm into
# build-bench/corpus-tools) are installed on first use and reused after. Every step is bounded
# by `timeout`; a server it starts listens on 127.0.0.1 only and is stopped before the next case.
#
#   bash bench/corpus/make_corpus.sh [--check-in] [--only REGEX] [OUT_DIR]
#                                                          (default OUT_DIR: build-bench/corpus)
#
# --check-in also refreshes tests/data/real/ (the cases ctest runs, see its README.md): every
# case whose output is at most 1 MiB, copied with its .meta and .keep. --only runs just the cases
# whose names match REGEX (bash =~), leaving every other case in OUT_DIR and tests/data/real/ as
# it is: a new case is added without re-running the tools of the old ones.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
check_in=0
only=""
while [[ "${1:-}" == --* ]]; do
    case "$1" in
    --check-in) check_in=1; shift ;;
    --only) only="$2"; shift 2 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
done
out="${1:-$root/build-bench/corpus}"
here="$(cd "$(dirname "$0")" && pwd)"
tools="$root/build-bench/corpus-tools"
mkdir -p "$out" "$tools"
[[ -z $only ]] && rm -f "$out"/*.out "$out"/*.meta "$out"/*.keep
captured=()
# A fixed working directory, so paths in the outputs are the same from run to run.
work=/tmp/sutra-corpus-work
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# capture NAME [diff] -- COMMAND...: runs COMMAND in $work, records output, exit status and keep lines.
# It stops COMMAND after $capture_timeout seconds (300 unless set).
capture() {
    local name="$1"; shift
    [[ -n $only && ! $name =~ $only ]] && return 0
    captured+=("$name")
    local diff=0
    if [[ "$1" == diff ]]; then diff=1; shift; fi
    shift # --
    local status
    (cd "$work" && timeout "${capture_timeout:-300}" "$@") >"$out/$name.out" 2>&1
    status=$?
    # The command as run, with the checkout's own path as "." (no machine path in checked-in data).
    local command="$*"
    { echo "exit=$status"; echo "command=${command//$root/.}"; [[ $diff == 1 ]] && echo "diff=1"; } \
        >"$out/$name.meta"
    python3 "$here/pick_keep.py" <"$out/$name.out" >"$out/$name.keep"
    printf '  %-22s exit %-3s %9s B  %s must-keep\n' "$name" "$status" "$(wc -c <"$out/$name.out")" \
        "$(wc -l <"$out/$name.keep")"
}
skip() { echo "  skipped $1: $2"; }

have() { command -v "$1" >/dev/null 2>&1; }

# ---- Tools: installed once, idempotently ------------------------------------------------------
apt_missing=()
for pair in strace:strace valgrind:valgrind cmake:cmake make:make g++:g++ gcc:gcc git:git node:nodejs \
    npm:npm; do
    have "${pair%%:*}" || apt_missing+=("${pair#*:}")
done
[[ -x /usr/bin/python3 ]] && /usr/bin/python3 -c 'import pytest' 2>/dev/null || apt_missing+=(python3-pytest)
if ((${#apt_missing[@]})); then
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || timeout 300 apt-get update -qq
    timeout 300 apt-get install -y -qq "${apt_missing[@]}" >/dev/null
fi
if have npm && [[ ! -x "$tools/node_modules/.bin/tsc" || ! -x "$tools/node_modules/.bin/eslint" ]]; then
    cat >"$tools/package.json" <<'EOF'
{"name":"sutra-corpus-tools","version":"1.0.0","private":true,
 "dependencies":{"typescript":"5.6.3","eslint":"9.14.0","@eslint/js":"9.14.0","express":"4.21.1",
                 "@types/node":"22.9.0","@types/express":"4.17.21","axios":"1.7.7"}}
EOF
    (cd "$tools" && timeout 300 npm install --no-audit --no-fund >/dev/null 2>&1)
fi
nm="$tools/node_modules"

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
# cargo build of a crate with 700 type errors: rustc names each error's place on the line below
# its header (`error[E0308]: mismatched types` / `  --> src/main.rs:2:20`), so headers repeat.
if have cargo; then
    mkdir -p "$work/crate/src"
    printf '[package]\nname = "bad"\nversion = "0.1.0"\nedition = "2021"\n' >"$work/crate/Cargo.toml"
    { echo 'fn main() {'
      for i in $(seq 0 699); do echo "    let x$i: u32 = \"s$i\";"; done
      echo '}'; } >"$work/crate/src/main.rs"
    capture cargo_build_errors -- bash -c 'cd crate && cargo build --offline --color never'
else
    skip cargo_build_errors "cargo missing"
fi
# cargo test of a crate whose tests fail: each panic prints `thread 'NAME' (TID) panicked at
# PLACE:` over its message (`index out of bounds: …`, an assertion with its left and right), then
# a backtrace; the message names no error word of its own.
if have cargo; then
    mkdir -p "$work/crate_tests/src"
    printf '[package]\nname = "ct"\nversion = "0.1.0"\nedition = "2021"\n' >"$work/crate_tests/Cargo.toml"
    { echo 'pub fn add(a: u64, b: u64) -> u64 { a + b }'
      echo '#[cfg(test)]'; echo 'mod tests {'; echo '    use super::*;'
      for i in $(seq 0 119); do
          if ((i % 17 == 5)); then
              echo "    #[test] fn case_$i() { assert_eq!(add($i, 1), $i + 2, \"sum of $i\"); }"
          elif ((i % 29 == 7)); then
              echo "    #[test] fn panics_$i() { let v: Vec<u32> = vec![]; let _ = v[$i]; }"
          else
              echo "    #[test] fn case_$i() { assert_eq!(add($i, 1), $i + 1); }"
          fi
      done
      echo '}'; } >"$work/crate_tests/src/lib.rs"
    capture cargo_test_panics -- bash -c 'cd crate_tests && RUST_BACKTRACE=1 cargo test --offline --color never'
else
    skip cargo_test_panics "cargo missing"
fi
# javac of a class with 150 errors of three kinds (a `cannot find symbol` names the symbol on a
# `symbol:` line under its place), and a JVM exception 180 frames deep with its cause.
if have javac && have java; then
    mkdir -p "$work/javaproj"
    { echo 'public class Bad {'
      for i in $(seq 0 149); do
          case $((i % 3)) in
              0) echo "    int f$i() { return \"s$i\"; }" ;;
              1) echo "    void g$i() { undefinedCall$i(); }" ;;
              2) echo "    String h$i() { int x = $i; return x.length(); }" ;;
          esac
      done
      echo '}'; } >"$work/javaproj/Bad.java"
    capture javac_errors -- bash -c 'cd javaproj && javac -Xmaxerrs 500 Bad.java'
    cat >"$work/javaproj/Deep.java" <<'EOF'
public class Deep {
    static void recurse(int n) {
        if (n == 0) {
            try { Integer.parseInt("notanumber"); }
            catch (NumberFormatException e) { throw new IllegalStateException("wrapped failure at depth", e); }
        }
        recurse(n - 1);
    }
    public static void main(String[] args) {
        for (int i = 0; i < 300; i++) System.out.println("INFO processing record " + i + " ok");
        System.err.println("WARNING: slow record 17");
        recurse(180);
    }
}
EOF
    capture java_nested_exception -- bash -c 'cd javaproj && javac Deep.java && java Deep'
else
    skip javac_errors "javac missing"
    skip java_nested_exception "java missing"
fi
# valgrind on a real interpreter: hundreds of loss records with stacks, 23 of them real leaks.
if have valgrind && [[ -x /usr/bin/perl ]]; then
    capture valgrind_perl_leaks -- valgrind --leak-check=full --num-callers=6 /usr/bin/perl -MPOSIX -e 1
else
    skip valgrind_perl_leaks "valgrind or perl missing"
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
# ---- Cases added for issue 15: the kinds of output users were hurt by -------------------------

# g++: printing a type with no operator<<: one error and a long run of `note: candidate` lines.
cat >"$work/ostream_error.cpp" <<'EOF'
#include <iostream>
#include <string>
#include <vector>
struct Order { int id; std::string zone; std::vector<double> lines; };
int main() {
    Order o{7781, "apac", {1.5, 2.5}};
    std::cout << "order: " << o << '\n';
}
EOF
capture gxx_ostream_candidates -- g++ -std=c++20 -c ostream_error.cpp -o /dev/null

# cmake + make VERBOSE=1: the full compile lines, whose flags name -Werror, -Wno-error=… and an
# include directory src/error/ (none of which is an error). One passing build, one failing.
make_verbose_project() { # DIR BROKEN (1: a missing function; clean: 40 files, no warning)
    local dir="$1" parts=16
    [[ $2 == clean ]] && parts=40
    mkdir -p "$dir/src/error"
    printf '#pragma once\ninline int error_base() { return 3; }\n' >"$dir/src/error/errors.h"
    {
        echo 'cmake_minimum_required(VERSION 3.20)'
        echo 'project(verbose CXX)'
        printf 'add_library(verbose'
        for i in $(seq -w 1 "$parts"); do printf ' src/part_%s.cpp' "$i"; done
        echo ')'
        echo 'target_include_directories(verbose PRIVATE src/error)'
        echo 'target_compile_options(verbose PRIVATE -Wall -Wextra -Werror -Wno-error=unused-variable)'
    } >"$dir/CMakeLists.txt"
    for i in $(seq -w 1 "$parts"); do
        if [[ $2 == clean ]]; then
            printf '#include "errors.h"\n#include <string>\nint part_%s(int on_error) { std::string s(on_error, 0); return error_base() + (int)s.size(); }\n' \
                "$i" >"$dir/src/part_$i.cpp"
        else
            printf '#include "errors.h"\n#include <string>\nint part_%s(int on_error) { int unused_%s = 0; std::string s(on_error, 0); return error_base() + (int)s.size(); }\n' \
                "$i" "$i" >"$dir/src/part_$i.cpp"
        fi
    done
    if [[ $2 == 1 ]]; then
        printf '#include "errors.h"\nint part_09(int on_error) { return error_base() + on_error + missing_total(on_error); }\n' \
            >"$dir/src/part_09.cpp"
    fi
}
make_verbose_project "$work/vpass" 0
make_verbose_project "$work/vfail" 1
make_verbose_project "$work/vclean" clean
capture cmake_make_verbose_pass -- bash -c 'cmake -S vpass -B vpass/build -G "Unix Makefiles" && make -C vpass/build VERBOSE=1'
capture cmake_make_verbose_fail -- bash -c 'cmake -S vfail -B vfail/build -G "Unix Makefiles" && make -C vfail/build VERBOSE=1'
capture cmake_make_verbose_clean -- bash -c 'cmake -S vclean -B vclean/build -G "Unix Makefiles" && make -C vclean/build VERBOSE=1'

# tsc --pretty: express's real sources type-checked as JavaScript under a strict configuration.
if [[ -x "$nm/.bin/tsc" ]]; then
    mkdir -p "$work/tsproj"
    cp -r "$nm/express/lib" "$work/tsproj/lib"
    ln -s "$nm" "$work/tsproj/node_modules"
    capture tsc_pretty_strict -- bash -c 'cd tsproj && node_modules/.bin/tsc --pretty --noEmit --allowJs --checkJs --strict --noImplicitAny --noUnusedLocals --noUnusedParameters --noImplicitReturns --target es2022 --module nodenext --moduleResolution nodenext --types node $(find lib -name "*.js" | sort)'
    mkdir -p "$work/tsaxios"
    cp -r "$nm/axios/lib" "$work/tsaxios/lib"
    ln -s "$nm" "$work/tsaxios/node_modules"
    capture tsc_plain_axios -- bash -c 'cd tsaxios && node_modules/.bin/tsc --pretty false --noEmit --allowJs --checkJs --strict --noUnusedLocals --target es2022 --module nodenext --moduleResolution nodenext --types node $(find lib -name "*.js" | sort)'
else
    skip tsc_pretty_strict "typescript not installed"
fi

# eslint on express's sources: JSON (with Node's warning about .eslintignore on stderr first, as
# an agent's merged capture shows it) and the default stylish format.
if [[ -x "$nm/.bin/eslint" ]]; then
    mkdir -p "$work/esproj"
    cp -r "$nm/express/lib" "$work/esproj/src"
    ln -s "$nm" "$work/esproj/node_modules"
    echo "src/vendor/" >"$work/esproj/.eslintignore"
    cat >"$work/esproj/eslint.config.mjs" <<'EOF'
import js from "@eslint/js";
export default [
  js.configs.recommended,
  { files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable",
      process: "readonly", Buffer: "readonly", __dirname: "readonly", setImmediate: "readonly",
      console: "readonly", exports: "writable" } },
    rules: { "no-var": "error", "prefer-const": "error", eqeqeq: "error", "no-unused-vars": "error",
      "prefer-arrow-callback": "warn", "no-param-reassign": "warn", curly: "error", "no-shadow": "warn" } },
];
EOF
    capture eslint_json_stderr -- bash -c 'cd esproj && node_modules/.bin/eslint -f json src'
    capture eslint_stylish -- bash -c 'cd esproj && node_modules/.bin/eslint src'
else
    skip eslint_json_stderr "eslint not installed"
fi

# apt-get install of a small real package, its .deb removed from the cache first so that it is
# downloaded (the `Fetched … in …s` line).
if have apt-get && [[ $(id -u) == 0 ]]; then
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || timeout 300 apt-get update -qq
    rm -f /var/cache/apt/archives/hello_*.deb
    capture apt_get_install_hello -- env DEBIAN_FRONTEND=noninteractive apt-get install -y --reinstall hello
fi

# strace -f of a shell whose children fail.
if have strace && strace -o /dev/null true 2>/dev/null; then
    capture strace_f_failing -- strace -f bash -c 'cat /nonexistent/config.toml; ls /nonexistent/dir; exit 3'
fi

if have npm; then
    # The registry's view of typescript: a `time` map of thousands of versions.
    capture npm_view_typescript_json -- npm view typescript --json
    # The whole dependency tree of the tools project.
    capture npm_ls_all_json -- npm ls --all --json --prefix "$tools"
    # A peer-dependency conflict: npm install fails with ERESOLVE.
    mkdir -p "$work/npmconflict"
    printf '{"name":"conflict","version":"1.0.0","dependencies":{"react":"17.0.2","react-dom":"18.2.0"}}\n' \
        >"$work/npmconflict/package.json"
    capture npm_install_eresolve -- bash -c 'cd npmconflict && npm install --no-audit --no-fund'
    # ~2 MB of real npm metadata on one line: several packages' registry views and the global
    # tree (npm_ls_json above), re-dumped compact.
    mkdir -p "$tools/registry"
    cp "$out/npm_view_typescript_json.out" "$tools/registry/typescript.json"
    for p in react eslint webpack @types/node next vite electron @angular/core aws-sdk @babel/core vue jest \
        prettier esbuild; do
        f="$tools/registry/${p//\//_}.json"
        [[ -s $f ]] || timeout 120 npm view "$p" --json >"$f" 2>/dev/null &
    done
    wait
    capture minified_json_2mb -- python3 -c '
import glob, json, os, sys
docs = {}
for f in sorted(glob.glob(sys.argv[1] + "/*.json")) + sys.argv[2:]:
    try:
        docs[os.path.splitext(os.path.basename(f))[0]] = json.load(open(f))
    except ValueError:
        pass
out = {}
docs = dict(sorted(docs.items(), key=lambda kv: kv[0].startswith("npm_ls")))
for name, doc in docs.items():
    out[name] = doc
    if len(json.dumps(out, separators=(",", ":"))) > 2_100_000:
        del out[name]
print(json.dumps(out, separators=(",", ":")))' "$tools/registry" "$out/npm_ls_json.out"
fi

# pytest -v with failures, an error in a fixture and a parametrized run.
mkdir -p "$work/pyt"
cat >"$work/pyt/inventory.py" <<'EOF'
def restock(stock, n):
    if n < 0:
        raise ValueError(f"negative restock: {n}")
    return stock + n

def price(qty, unit):
    return round(qty * unit, 1)  # rounds to 1 place: the cents are lost
EOF
cat >"$work/pyt/test_inventory.py" <<'EOF'
import pytest
from inventory import restock, price

@pytest.mark.parametrize("stock", range(60))
def test_restock(stock):
    assert restock(stock, 3) == stock + 3

@pytest.mark.parametrize("qty", range(1, 41))
def test_price(qty):
    assert price(qty, 0.25) == qty * 0.25

def test_negative():
    restock(1, -2)

@pytest.fixture
def warehouse():
    return {"eu": 10}["apac"]

def test_warehouse(warehouse):
    assert warehouse
EOF
if [[ -x /usr/bin/python3 ]] && /usr/bin/python3 -c 'import pytest' 2>/dev/null; then
    capture pytest_v_failures -- bash -c 'cd pyt && /usr/bin/python3 -m pytest -v -p no:cacheprovider'
fi

# python -m unittest -v with failures and an error.
mkdir -p "$work/ut"
cat >"$work/ut/test_orders.py" <<'EOF'
import unittest

def total(lines):
    return sum(q * p for q, p in lines)

class TestOrders(unittest.TestCase):
EOF
for t in $(seq 1 80); do
    printf '    def test_total_%02d(self):\n        self.assertEqual(total([(%d, 2)]), %d)\n' "$t" "$t" "$((t * 2))" >>"$work/ut/test_orders.py"
done
cat >>"$work/ut/test_orders.py" <<'EOF'
    def test_total_float(self):
        self.assertEqual(total([(3, 0.1)]), 0.3)
    def test_total_dict(self):
        self.assertEqual(total({"a": 1}), 1)
    def test_currency(self):
        self.assertIn("EUR", ["USD", "GBP"])
EOF
capture python_unittest_v_failures -- bash -c 'cd ut && python3 -m unittest -v test_orders'

# A Python recursion traceback: [Previous line repeated … more times].
printf 'def walk(node):\n    return walk({"child": node})\n\nprint("walking")\nwalk({})\n' >"$work/recurse.py"
capture python_recursion_traceback -- python3 recurse.py

# Node: an uncaught error thrown a few calls deep (stack frames `at fn (file:line:col)`).
cat >"$work/crash.js" <<'EOF'
const fs = require("fs");
function loadConfig(path) { return JSON.parse(fs.readFileSync(path, "utf8")); }
function start() { for (let i = 0; i < 50; i++) console.log(`worker ${i} ready`); return loadConfig("/nonexistent/app.json"); }
start();
EOF
have node && capture node_uncaught_error -- node crash.js

# git diff of this repository's last 25 commits (a diff: must come back byte-identical).
capture git_diff diff -- git -C "$root" diff --no-color HEAD~25 HEAD -- core host

# A long service log: python's http.server on 127.0.0.1, a bounded loop of 4000 requests with
# random ids (some found, some not, some HEAD/POST, a few malformed), the server's log captured.
mkdir -p "$work/site/items"
for i in $(seq 1 200); do printf '{"id":%d}\n' "$i" >"$work/site/items/$i.json"; done
cat >"$work/serve.py" <<'EOF'
import random, re, socket, subprocess, sys, time, urllib.error, urllib.request
log = open("server.log", "wb")
srv = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "0",
                        "--directory", "site"], stdout=log, stderr=subprocess.STDOUT)
try:
    port = None
    for _ in range(100):
        m = re.search(rb"port (\d+)", open("server.log", "rb").read())
        if m:
            port = int(m.group(1))
            break
        time.sleep(0.05)
    rng = random.Random(15)
    for n in range(4000):
        item = rng.randint(1, 260)
        kind = rng.random()
        try:
            if kind < 0.01:
                s = socket.create_connection(("127.0.0.1", port), timeout=2)
                s.sendall(b"GARBAGE /items HTTP/9\r\n\r\n")
                s.recv(4096)
                s.close()
                continue
            method = "POST" if kind < 0.03 else "HEAD" if kind < 0.06 else "GET"
            req = urllib.request.Request(f"http://127.0.0.1:{port}/items/{item}.json?req={rng.getrandbits(32):08x}", method=method)
            urllib.request.urlopen(req, timeout=2).read()
        except (urllib.error.URLError, OSError):
            pass
finally:
    srv.terminate()
    srv.wait(timeout=10)
    log.close()
sys.stdout.write(open("server.log").read())
EOF
capture http_server_log -- python3 serve.py

# ---- Linters and a test runner on real code: shellcheck, pylint, cppcheck, stylelint, mocha ----
# The Debian linters are installed when missing; stylelint and mocha from npm into $tools/lint.
lint_apt=()
for pair in shellcheck:shellcheck pylint:pylint cppcheck:cppcheck; do
    have "${pair%%:*}" || lint_apt+=("${pair#*:}")
done
dist=/usr/lib/python3/dist-packages
[[ -d $dist/distro ]] || lint_apt+=(python3-distro)
[[ -d $dist/httplib2 ]] || lint_apt+=(python3-httplib2)
if ((${#lint_apt[@]})); then
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || timeout 300 apt-get update -qq
    timeout 300 apt-get install -y -qq "${lint_apt[@]}" >/dev/null
fi
lint="$tools/lint"
if have npm && [[ ! -x "$lint/node_modules/.bin/stylelint" || ! -x "$lint/node_modules/.bin/mocha" ]]; then
    mkdir -p "$lint"
    cat >"$lint/package.json" <<'EOF'
{"name":"sutra-corpus-lint","version":"1.0.0","private":true,
 "dependencies":{"stylelint":"17.16.0","stylelint-config-standard":"40.0.0","mocha":"11.7.5"}}
EOF
    (cd "$lint" && timeout 300 npm install --no-audit --no-fund >/dev/null 2>&1)
fi

# ShellCheck (tty format) over Debian's own shell scripts: `In FILE line N:`, the source line, a
# caret row with the SC code and severity, sometimes a `Did you mean:` fix.
if have shellcheck; then
    scripts=()
    for f in /usr/bin/apt-key /usr/bin/bashbug /usr/bin/dpkg-maintscript-helper /usr/bin/gettextize \
        /usr/bin/lsb_release /usr/bin/ucf /usr/bin/ssh-copy-id /usr/bin/tzselect /usr/bin/savelog \
        /etc/init.d/postgresql; do
        [[ -f $f ]] && scripts+=("$f")
    done
    capture shellcheck_scripts -- shellcheck "${scripts[@]}"
else
    skip shellcheck_scripts "shellcheck missing"
fi

# pylint over two installed packages (a fresh PYLINTHOME, so no `previous run` score).
if have pylint && [[ -d $dist/distro && -d $dist/httplib2 ]]; then
    capture pylint_dist_packages -- bash -c "cd $dist && PYLINTHOME=$work/pylint.d pylint distro httplib2"
else
    skip pylint_dist_packages "pylint, python3-distro or python3-httplib2 missing"
fi

# cppcheck over tree-sitter's C runtime as npm ships it: `Checking …` progress lines between
# GNU-style findings (`src/query.c:3581:12: style: …`) with their source and caret lines. It takes
# about 4 minutes (lib.c includes every other source, in 12 configurations).
if have cppcheck && have npm && (cd "$work" && timeout 120 npm pack tree-sitter@0.25.0 >/dev/null 2>&1 &&
    tar xzf tree-sitter-0.25.0.tgz) && [[ -d $work/package/vendor/tree-sitter/lib/src ]]; then
    capture_timeout=900 capture cppcheck_tree_sitter -- bash -c 'cd package/vendor/tree-sitter/lib && cppcheck --enable=all --inconclusive --std=c99 -Iinclude -Isrc src/'
else
    skip cppcheck_tree_sitter "cppcheck missing or tree-sitter@0.25.0 not fetched"
fi

# stylelint (default format) with stylelint-config-standard over three of bootstrap 5.3.3's
# compiled CSS files: a file name, then its findings indented under it, per file.
if [[ -x "$lint/node_modules/.bin/stylelint" ]] && mkdir -p "$work/bootstrap" &&
    (cd "$work/bootstrap" && timeout 120 npm pack bootstrap@5.3.3 >/dev/null 2>&1 &&
        tar xzf bootstrap-5.3.3.tgz) && [[ -d $work/bootstrap/package/dist/css ]]; then
    mkdir -p "$work/styleproj/css"
    for f in bootstrap-reboot bootstrap-grid bootstrap-utilities; do
        cp "$work/bootstrap/package/dist/css/$f.css" "$work/styleproj/css/"
    done
    ln -s "$lint/node_modules" "$work/styleproj/node_modules"
    echo '{"extends": "stylelint-config-standard"}' >"$work/styleproj/.stylelintrc.json"
    capture stylelint_css -- bash -c 'cd styleproj && node_modules/.bin/stylelint "css/*.css"'
else
    skip stylelint_css "stylelint not installed or bootstrap@5.3.3 not fetched"
fi

# mocha (spec reporter) on a small project whose lib.js has off-by-one bugs: 48 table-driven
# cases in 4 describe blocks, 34 failing with strictEqual / deepStrictEqual diffs.
if [[ -x "$lint/node_modules/.bin/mocha" ]]; then
    mkdir -p "$work/mochaproj/test"
    ln -s "$lint/node_modules" "$work/mochaproj/node_modules"
    printf '{"name":"mochaproj","version":"1.0.0","private":true,"scripts":{"test":"mocha"}}\n' \
        >"$work/mochaproj/package.json"
    cat >"$work/mochaproj/lib.js" <<'EOF'
// Days in a month (month 1-12): day 0 of the next month is the last day of this one.
function daysInMonth(year, month) {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

// One page (1-based) of a list.
function paginate(items, page, perPage) {
  const start = (page - 1) * perPage;
  return {
    page,
    totalPages: Math.ceil(items.length / perPage),
    items: items.slice(start, start + perPage + 1),
  };
}

// "3-7" -> {start: 3, end: 7, count: 5}; "5" -> {start: 5, end: 5, count: 1}.
function parseRange(text) {
  const [a, b] = text.split("-").map(Number);
  if (b === undefined) return { start: a, end: a, count: 1 };
  return { start: a, end: b, count: b - a };
}

function countLines(text) {
  return text.split("\n").length;
}

module.exports = { daysInMonth, paginate, parseRange, countLines };
EOF
    {
        echo 'const assert = require("assert");'
        echo 'const { daysInMonth, paginate, parseRange, countLines } = require("../lib");'
        echo
        echo 'describe("daysInMonth", function () {'
        days=(31 29 31 30 31 30 31 31 30 31 30 31)
        for m in $(seq 1 12); do
            printf '  it("has %d days in 2024-%02d", function () {\n    assert.strictEqual(daysInMonth(2024, %d), %d);\n  });\n' \
                "${days[m - 1]}" "$m" "$m" "${days[m - 1]}"
        done
        echo '});'
        echo
        echo 'describe("paginate", function () {'
        echo '  const orders = Array.from({ length: 23 }, (_, i) => ({ id: 1000 + i }));'
        for pair in 5:1 5:2 5:3 5:5 10:1 10:2 10:3 4:1 4:6 7:2 7:4 3:4; do
            pp=${pair%:*}
            page=${pair#*:}
            pages=$(((23 + pp - 1) / pp))
            start=$(((page - 1) * pp))
            end=$((start + pp < 23 ? start + pp : 23))
            ids=""
            for ((i = start; i < end; i++)); do ids+="${ids:+, }{ id: $((1000 + i)) }"; done
            printf '  it("returns page %d of %d with %d per page", function () {\n    assert.deepStrictEqual(paginate(orders, %d, %d), {\n      page: %d,\n      totalPages: %d,\n      items: [%s],\n    });\n  });\n' \
                "$page" "$pages" "$pp" "$page" "$pp" "$page" "$pages" "$ids"
        done
        echo '});'
        echo
        echo 'describe("parseRange", function () {'
        for r in 3-7 1-1 10-20 0-9 5 42 100-199 7-8 1 64-127 250 12-13; do
            a=${r%-*}
            b=${r#*-}
            printf '  it("parses \\"%s\\"", function () {\n    assert.deepStrictEqual(parseRange("%s"), { start: %d, end: %d, count: %d });\n  });\n' \
                "$r" "$r" "$a" "$b" "$((b - a + 1))"
        done
        echo '});'
        echo
        echo 'describe("countLines", function () {'
        for t in 'a' 'a\n' 'a\nb' 'a\nb\n' '' '\n' 'one\ntwo\nthree\n' 'x\ny\nz' 'header\n\nbody\n' 'l1\nl2\nl3\nl4\n' \
            'no newline' 'end\n'; do
            n=$(printf "$t" | awk 'END { print NR }')
            printf '  it("counts %d lines in %s", function () {\n    assert.strictEqual(countLines("%s"), %d);\n  });\n' \
                "$n" "'${t//\\/\\\\}'" "$t" "$n"
        done
        echo '});'
    } >"$work/mochaproj/test/lib.spec.js"
    capture mocha_failures -- bash -c 'cd mochaproj && npx mocha'
else
    skip mocha_failures "mocha not installed"
fi

# Issue 25's cases: TAP, memory errors in passing runs, checker lists, located findings, a big log.
source "$here/signal_cases.sh"
# Tools the corpus had not seen: gfortran, clang -Weverything, doctest -v, perl -c, helgrind, git rebase.
source "$here/unseen_cases.sh"
# Test runners, linters and checkers probed for hidden signal: node --test, unittest -v, luacheck,
# shellcheck -f gcc, mypy --pretty, ThreadSanitizer.
source "$here/probe_cases.sh"
# Runners and compilers of other languages: raco test, rake test, nim check, ocamlc -w +A, coverage report.
source "$here/runner_cases.sh"

echo "done: $(ls "$out"/*.out | wc -l) cases"

if [[ $check_in == 1 ]]; then
    dest="$root/tests/data/real"
    mkdir -p "$dest"
    [[ -z $only ]] && rm -f "$dest"/*.out "$dest"/*.meta "$dest"/*.keep
    for n in "${captured[@]}"; do
        (($(wc -c <"$out/$n.out") <= 1048576)) || continue
        cp "$out/$n.out" "$out/$n.meta" "$out/$n.keep" "$dest/"
    done
    echo "checked in: $(ls "$dest"/*.out | wc -l) cases, $(du -cb "$dest"/* | tail -1 | cut -f1) bytes -> $dest"
fi
