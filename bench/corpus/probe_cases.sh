# Cases from test runners, linters and checkers probed for hidden signal, sourced by
# make_corpus.sh (its capture, skip, have, $work, $out): small generated projects with real bugs,
# and the real tool run on them.
#   node --test              4 test files, 112 tests: `not ok N - price qty 14` among `ok` lines,
#                            each failure a YAML block (`error: |-`, expected, actual, location,
#                            stack), a SyntaxError thrown by JSON.parse, then `# fail N`
#   python3 -m unittest -v   96 tests in 8 classes: 72 failures, 24 errors; the same
#                            `AssertionError: 3 not found in [0, 2]` from the same test at a
#                            different line in every class (subTest failures), and a chained
#                            StoreError (`missing key 'k0'`)
#   luacheck --no-color      150 Lua modules: `Checking src/m000.lua  3 warnings` over indented
#                            `src/m000.lua:4:9: …` findings, 22 syntax errors, `Total: …`
#   shellcheck -f gcc        150 scripts: `scripts/s000.sh:10:3: note: … [SC2162]` lines, notes
#                            mostly, and 22 unclosed `if`s as runs of errors
#   mypy --pretty            40 modules, 239 errors: `shop/m01.py: note: In function "use_2":`
#                            over each error, messages wrapped at 80 columns, the code and a caret row
#   erlc -Wall               60 modules: `src/m.erl:3:19: Warning: variable 'U1' is unused` over
#                            the source quoted behind `%    3| ` (its `?assertEqual` no error word)
#   eunit                    the same modules' 600 tests: each failure's frames, then the failed
#                            assertion as an Erlang term over five lines (`{line,6}`, `{value,25}`)
#   gcc -fsanitize=thread    four threads bumping 50 unlocked counters and taking two mutexes in
#                            opposite orders: 50 data races and a lock-order inversion, exit 66

probe_apt=()
for pair in node:nodejs luacheck:lua-check shellcheck:shellcheck mypy:mypy gcc:gcc erlc:erlang-dev; do
    have "${pair%%:*}" || probe_apt+=("${pair#*:}")
done
if ((${#probe_apt[@]})); then
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || timeout 300 apt-get update -qq
    timeout 300 apt-get install -y -qq "${probe_apt[@]}" >/dev/null
fi

# node --test (TAP reporter when not on a terminal): price() adds 1 past 10 items, slug() joins
# words with `_` where the tests want `-`, a deepStrictEqual that differs in one element, and a
# test that parses bad JSON. 4 files of 28 tests, 60 failing.
if have node; then
    mkdir -p "$work/nodetestproj/test"
    cat >"$work/nodetestproj/lib.js" <<'EOF'
exports.price = (q, unit) => (q > 10 ? q * unit - Math.floor((q * unit) / 10) + 1 : q * unit);
exports.slug = (s) => s.toLowerCase().replace(/ /g, '_');
exports.parse = (cfg) => JSON.parse(cfg);
EOF
    for m in 0 1 2 3; do
        cat >"$work/nodetestproj/test/mod$m.test.js" <<EOF
const test = require('node:test');
const assert = require('node:assert');
const { price, slug, parse } = require('../lib.js');

test.describe('price suite $m', () => {
  for (let q = 1; q <= 20; q++) {
    test.it(\`price qty \${q}\`, () => {
      const want = q <= 10 ? q * 5 : q * 5 - Math.floor((q * 5) / 10);
      assert.strictEqual(price(q, 5), want);
    });
  }
});

test.describe('slug suite $m', () => {
  for (let n = 0; n < 6; n++) {
    test.it(\`slug \${n}\`, () => {
      const words = n % 2 ? \`Hello World \${n}\` : \`Hello\${n}\`;
      assert.strictEqual(slug(words), n % 2 ? \`hello-world-\${n}\` : \`hello\${n}\`);
    });
  }
});

test.it('parse $m', () => {
  assert.deepStrictEqual(parse('{"a": $m, "b": [1, 2, 3]}'), { a: $m, b: [1, 2, 4] });
});

test.it('throws $m', () => {
  parse('{bad json $m');
});
EOF
    done
    capture node_test_failures -- bash -c 'cd nodetestproj && node --test test/'
else
    skip node_test_failures "node missing"
fi

# python3 -m unittest -v: 8 classes of 12 tests over a store module whose total() ignores the
# quantity's last unit and whose load() raises StoreError for missing keys. Each class repeats
# the same assertions, so the same message comes from the same test at different lines.
mkdir -p "$work/unittestproj"
cat >"$work/unittestproj/store.py" <<'EOF'
class StoreError(Exception):
    pass

def load(key, db):
    try:
        return db[key]
    except KeyError as e:
        raise StoreError(f"missing key {key!r}") from e

def total(items):
    return sum(i["price"] * i["qty"] for i in items)
EOF
{
    echo 'import unittest'
    echo 'from store import load, total, StoreError'
    for c in $(seq 0 7); do
        echo
        echo "class TestStore$c(unittest.TestCase):"
        for t in $(seq 0 11); do
            case $((t % 4)) in
            0) printf '    def test_load_%d(self):\n        self.assertEqual(load("k%d", {"a": 1}), 1)\n\n' "$t" "$t" ;;
            1) printf '    def test_total_%d(self):\n        self.assertEqual(total([{"price": 2, "qty": %d}]), %d)\n\n' \
                "$t" "$t" "$((2 * t + 1))" ;;
            2) printf '    def test_ok_%d(self):\n        self.assertEqual(total([]), 0)\n\n' "$t" ;;
            3) printf '    def test_sub_%d(self):\n        for n in range(4):\n            with self.subTest(n=n):\n                self.assertIn(n, [0, 2])\n\n' "$t" ;;
            esac
        done
    done
    printf '\nif __name__ == "__main__":\n    unittest.main()\n'
} >"$work/unittestproj/test_store.py"
capture unittest_v_failures -- bash -c 'cd unittestproj && python3 -m unittest -v test_store'

# luacheck over 150 Lua modules of six functions each: an argument shadowed by a local, an
# unused argument, a line longer than 120 columns, an unused local, a global set and read; every
# 7th module has a syntax error (`return x +` before `end`), which stops its other checks.
if have luacheck; then
    mkdir -p "$work/luaproj/src"
    long=$(printf 'z%.0s' $(seq 1 134))
    for i in $(seq 0 149); do
        {
            echo 'local M = {}'
            echo
            for s in 0 1 2 3 4 5; do
                kind=$(((i * 5 + s * 3 + i / 7) % 9))
                if ((i % 7 == 2 && s == 4)); then kind=9; fi
                case $kind in
                1) printf 'function M.f%d(x)\n  local x = x or 1\n  return x\nend\n' "$s" ;;
                2) printf 'function M.f%d(x)\n  return "%s"\nend\n' "$s" "$long" ;;
                3) printf 'function M.f%d(x)\n  local tmp = 5\n  return x\nend\n' "$s" ;;
                4) printf 'function M.f%d(x)\n  total_%d = x + 1\n  return total_%d\nend\n' "$s" "$s" "$s" ;;
                5) printf 'function M.f%d(x, y)\n  return x\nend\n' "$s" ;;
                9) printf 'function M.f%d(x)\n  return x +\nend\n' "$s" ;;
                *) printf 'function M.f%d(x)\n  return x * 2\nend\n' "$s" ;;
                esac
            done
            echo 'return M'
        } >"$work/luaproj/src/$(printf 'm%03d.lua' "$i")"
    done
    capture luacheck_findings -- bash -c 'cd luaproj && luacheck --no-color src'
else
    skip luacheck_findings "luacheck missing"
fi

# shellcheck -f gcc over 150 bash scripts of six functions each: `read` without -r, an unquoted
# `$1`, legacy backticks; every 7th has an `if` with no `fi`, reported as a run of errors.
if have shellcheck; then
    mkdir -p "$work/shellproj/scripts"
    for i in $(seq 0 149); do
        {
            echo '#!/bin/bash'
            echo 'set -e'
            for s in 0 1 2 3 4 5; do
                kind=$(((i * 3 + s * 5 + i / 5) % 7))
                if ((i % 7 == 1 && s == 5)); then kind=9; fi
                echo "f$s() {"
                case $kind in
                1) echo '  if [ "$1" == "a" ]; then echo a; fi' ;;
                2) printf '  read line\n  echo "$line"\n' ;;
                3) printf '  cd /opt/app\n  make\n' ;;
                4) echo '  rm -rf $1/tmp' ;;
                5) printf '  x=`date`\n  echo "$x"\n' ;;
                9) printf '  if [ -f x ]; then\n    echo y\n' ;;
                *) echo '  echo "ok"' ;;
                esac
                echo '}'
            done
        } >"$work/shellproj/scripts/$(printf 's%03d.sh' "$i")"
    done
    capture shellcheck_gcc_notes -- bash -c 'cd shellproj && shellcheck -f gcc scripts/*.sh'
else
    skip shellcheck_gcc_notes "shellcheck missing"
fi

# mypy --pretty --show-error-context over a 40-module package: a missing attribute, sum() of
# floats returned as int, an Optional used unchecked, str + float, a dict comprehension of the
# wrong value type, and a bad module-level assignment and constructor call in every module.
if have mypy; then
    mkdir -p "$work/mypyproj/shop"
    : >"$work/mypyproj/shop/__init__.py"
    for i in $(seq 0 39); do
        {
            echo 'from typing import Optional, List, Dict'
            echo 'from dataclasses import dataclass'
            echo
            printf '@dataclass\nclass Item%d:\n    name: str\n    price: float\n    tags: List[str]\n\n' "$i"
            for s in 0 1 2 3 4 5; do
                case $(((i * 7 + s * 4 + i / 3) % 8)) in
                0) printf 'def disc_%d(it: Item%d) -> float:\n    return it.discount * it.price\n\n' "$s" "$i" ;;
                1) printf 'def total_%d(items: List[Item%d]) -> int:\n    return sum(x.price for x in items)\n\n' "$s" "$i" ;;
                2) printf 'def find_%d(xs: List[Item%d], n: str) -> Optional[Item%d]:\n    for x in xs:\n        if x.name == n: return x\n    return None\n\ndef use_%d(xs: List[Item%d]) -> str:\n    return find_%d(xs, "a").name\n\n' \
                    "$s" "$i" "$i" "$s" "$i" "$s" ;;
                3) printf 'def label_%d(it: Item%d) -> str:\n    return it.name + it.price\n\n' "$s" "$i" ;;
                4) printf 'def idx_%d(xs: List[Item%d]) -> Dict[str, int]:\n    return {x.name: x for x in xs}\n\n' "$s" "$i" ;;
                *) printf 'def fine_%d(it: Item%d) -> float:\n    return it.price * 2\n\n' "$s" "$i" ;;
                esac
            done
            printf 'BAD%d: int = "x"\nItem%d("a", "b", [])\n' "$i" "$i"
        } >"$work/mypyproj/shop/$(printf 'm%02d.py' "$i")"
    done
    capture mypy_pretty_errors -- bash -c 'cd mypyproj && mypy --no-color-output --pretty --show-error-context shop'
else
    skip mypy_pretty_errors "mypy missing"
fi

# ThreadSanitizer: four threads bump 50 global counters with no lock (one `data race` report
# each, with both stacks, the global and the threads' creation) and threads 0 and 3 take two
# mutexes in opposite orders (`lock-order-inversion (potential deadlock)`). Exit 66. Thread
# scheduling makes each run's output differ a little; it is captured once.
if have gcc; then
    mkdir -p "$work/tsanproj"
    {
        printf '#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n\n'
        for k in $(seq 0 49); do echo "long counter_$k;"; done
        echo 'static pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER, mb = PTHREAD_MUTEX_INITIALIZER;'
        for k in $(seq 0 49); do
            printf '__attribute__((noinline)) void bump_%d(int n) {\n  for (int k = 0; k < n; k++) counter_%d++;\n}\n' "$k" "$k"
        done
        echo 'struct job { int id; };'
        echo 'static void *worker(void *arg) {'
        echo '  struct job *j = arg;'
        for k in $(seq 0 49); do echo "  bump_$k(100 + j->id);"; done
        echo '  if (j->id == 0) { pthread_mutex_lock(&ma); pthread_mutex_lock(&mb); pthread_mutex_unlock(&mb); pthread_mutex_unlock(&ma); }'
        echo '  if (j->id == 3) { pthread_mutex_lock(&mb); pthread_mutex_lock(&ma); pthread_mutex_unlock(&ma); pthread_mutex_unlock(&mb); }'
        echo '  return NULL;'
        echo '}'
        echo
        echo 'int main(void) {'
        echo '  pthread_t th[4]; struct job jobs[4];'
        echo '  for (int i = 0; i < 4; i++) { jobs[i].id = i; pthread_create(&th[i], NULL, worker, &jobs[i]); }'
        echo '  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);'
        echo '  long s = 0;'
        for k in $(seq 0 49); do echo "  s += counter_$k;"; done
        echo '  printf("total=%ld\n", s);'
        echo '  return 0;'
        echo '}'
    } >"$work/tsanproj/race.c"
    capture tsan_race -- bash -c 'cd tsanproj && gcc -g -O0 -fsanitize=thread -o race race.c -lpthread && ./race'
else
    skip tsan_race "gcc missing"
fi

# Erlang: a money module whose split drops the remainder and whose rate divides by zero at one
# input, and 60 test modules of ten EUnit tests each (an unused variable in four of them).
if have erlc && have erl; then
    mkdir -p "$work/erlproj/src" "$work/erlproj/ebin"
    cat >"$work/erlproj/src/money.erl" <<'EOF'
-module(money).
-export([split/2, fee/1, rate/2]).
split(Total, N) -> Total div N.
fee(Amount) when Amount > 1000 -> Amount * 2 div 100;
fee(Amount) -> Amount * 3 div 100.
rate(X, Y) -> X / (Y - 13).
EOF
    for f in $(seq 1 60); do
        {
            echo "-module(ledger${f}_tests)."
            echo '-include_lib("eunit/include/eunit.hrl").'
            for t in 1 2 3 4; do
                n=$((t + 1)) tot=$(((t + 1) * (f * 3 + t) + ((f + t) % 11 == 0 ? 1 : 0)))
                echo "split_${t}_test() -> Unused$t = $f, ?assertEqual($(((tot + n - 1) / n)), money:split($tot, $n))."
            done
            for t in 1 2 3 4; do
                a=$((f * 97 + t * 13))
                if ((a > 1000)); then e=$((a * 2 / 100)); else e=$((a * 3 / 100)); fi
                echo "fee_${t}_test() -> ?assertEqual($e, money:fee($a))."
            done
            echo "rate_test() -> ?assertMatch(R when is_float(R), money:rate($f, $((f % 20 + 1))))."
            echo "list_test() -> ?assertEqual([$f, $((f + 1))], lists:seq($f, $((f + 1))))."
        } >"$work/erlproj/src/ledger${f}_tests.erl"
    done
    mods=$(printf 'ledger%d_tests,' $(seq 1 60))
    capture erlc_unused_vars -- bash -c 'cd erlproj && erlc -Wall -o ebin src/*.erl'
    capture eunit_failures -- bash -c "cd erlproj && erl -noshell -pa ebin -eval 'R = eunit:test([${mods%,}]), halt(case R of ok -> 0; _ -> 1 end).'"
else
    skip erlc_unused_vars "erlang-dev not installed"
    skip eunit_failures "erlang-dev not installed"
fi
