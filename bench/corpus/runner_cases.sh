# Cases from test runners, compilers and a coverage gate of languages the corpus had not seen,
# sourced by make_corpus.sh (its capture, skip, have, $work, $out): small generated projects with
# real bugs, and the real tool run on them.
#   raco test                8 rackunit files of 15 test cases: each failure a block between
#                            dashed rules, the case's name over `FAILURE` or `ERROR` alone on a
#                            line, then `name:`, `location:   t1-test.rkt:7:19`, `actual:`,
#                            `expected:` (or the exception's message); `86/120 test failures`
#   rake test                ruby test-unit run by rake: 4 classes of 15 tests, each failure or
#                            error a block between `====` rules (`Failure: test_count_1(TestCart0)`,
#                            the file:line, the source around an `=>` arrow, `<1> expected but
#                            was` / `<2>`), a summary line, then `rake aborted!`
#   nim check --hints:on     one module of 30 procs: `bad.nim(5, 16) Error: undeclared
#                            identifier` over long lists of spelling candidates, type mismatches,
#                            then `Hint:` / `Warning:` lines for unused names and imports
#   ocamlc -w +A             5 modules: `File "m0.ml", lines 3-4, characters 2-19:` over the
#                            source quoted behind `3 | `, then `Warning 8 [partial-match]: …` with
#                            its example (`None`), `Warning 26 [unused-var]` or `Warning 70
#                            [missing-mli]`, and one type error whose message wraps onto the next
#                            line (`int` alone), exit 2
#   coverage report -m       150 modules at 30-70% coverage: a table of `Stmts Miss Cover
#                            Missing` rows with line ranges, `TOTAL`, then `Coverage failure:
#                            total of 45 is less than fail-under=90` (exit 2)

runner_apt=()
for pair in raco:racket ruby:ruby rake:rake nim:nim ocamlc:ocaml-nox; do
    have "${pair%%:*}" || runner_apt+=("${pair#*:}")
done
have ruby && ruby -e 'require "test/unit/assertions"' 2>/dev/null || runner_apt+=(ruby-test-unit)
[[ -x /usr/bin/python3 ]] && /usr/bin/python3 -c 'import coverage' 2>/dev/null || runner_apt+=(python3-coverage)
if ((${#runner_apt[@]})); then
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || timeout 300 apt-get update -qq
    timeout 300 apt-get install -y -qq "${runner_apt[@]}" >/dev/null
fi

# raco test: 8 rackunit files over a sq that cubes and a safe-div that divides by zero. Each file
# has 15 test cases of four kinds (square, a true check, division, a string compare with its own
# message), 86 of 120 failing.
if have raco; then
    mkdir -p "$work/rktproj"
    for f in $(seq 0 7); do
        {
            printf '#lang racket\n(require rackunit)\n(define (sq x) (* x x x))\n(define (safe-div a b) (/ a b))\n'
            for i in $(seq 0 14); do
                case $(((i + f) % 4)) in
                0) printf '(test-case "square %d" (check-equal? (sq %d) %d))\n' "$i" "$i" "$((i * i))" ;;
                1) printf '(test-case "ok %d" (check-true (> %d 0)))\n' "$i" "$((i + 1))" ;;
                2) printf '(test-case "div %d" (check-equal? (safe-div %d 0) 0))\n' "$i" "$i" ;;
                3) printf '(test-case "str %d" (check-equal? (string-append "a" "%d") "a%dx" "string mismatch"))\n' \
                    "$i" "$i" "$i" ;;
                esac
            done
        } >"$work/rktproj/t$f-test.rkt"
    done
    capture raco_test -- bash -c 'cd rktproj && raco test .'
else
    skip raco_test "racket missing"
fi

# rake test: a Cart whose total adds 10%, whose count is one too many and whose find calls fetch
# on nil; 4 test-unit files of 15 tests (failures, NoMethodError errors, passes).
if have rake && have ruby && ruby -e 'require "test/unit/assertions"' 2>/dev/null; then
    mkdir -p "$work/rakeproj/lib" "$work/rakeproj/test"
    cat >"$work/rakeproj/Rakefile" <<'EOF'
require 'rake/testtask'
Rake::TestTask.new(:test) do |t|
  t.libs << 'lib' << 'test'
  t.test_files = FileList['test/test_*.rb']
  t.warning = false
end
task default: :test
EOF
    cat >"$work/rakeproj/lib/cart.rb" <<'EOF'
class Cart
  def initialize; @items = []; end
  def add(name, price) @items << [name, price]; self end
  def total; @items.sum { |_, p| p } * 1.1; end
  def count; @items.size + 1; end
  def find(n) @items.find { |i| i[0] == n }.fetch(1) end
end
EOF
    for f in 0 1 2 3; do
        {
            printf "require 'test/unit'\nrequire 'cart'\n\nclass TestCart%d < Test::Unit::TestCase\n" "$f"
            for i in $(seq 0 14); do
                case $(((i + f) % 5)) in
                0) printf "  def test_total_%d\n    assert_equal(%d, Cart.new.add('a', %d).add('b', %d).total)\n  end\n" \
                    "$i" "$((i * 2))" "$i" "$i" ;;
                1) printf "  def test_count_%d\n    assert_equal(1, Cart.new.add('a', 1).count, 'count is off')\n  end\n" "$i" ;;
                2) printf "  def test_find_%d\n    assert_equal(3, Cart.new.find('zz%d'))\n  end\n" "$i" "$i" ;;
                *) printf "  def test_ok_%d\n    assert_true(%d >= 0)\n  end\n" "$i" "$i" ;;
                esac
            done
            echo 'end'
        } >"$work/rakeproj/test/test_cart$f.rb"
    done
    capture rake_test -- bash -c 'cd rakeproj && rake test'
else
    skip rake_test "ruby, rake or ruby-test-unit missing"
fi

# nim check: 30 procs, each with an unused variable, a string bound to an int and an undeclared
# name (whose error lists every near spelling in the standard library), and three unused imports.
if have nim; then
    mkdir -p "$work/nimproj"
    {
        echo 'import strutils, sequtils, os'
        for i in $(seq 0 29); do
            printf 'proc p%d(a: int): int =\n  var unused%d = 3\n  let s: string = a\n  result = a + missing%d\n\n' \
                "$i" "$i" "$i"
        done
    } >"$work/nimproj/bad.nim"
    capture nim_check -- bash -c 'cd nimproj && nim check --hints:on bad.nim'
else
    skip nim_check "nim missing"
fi

# ocamlc -w +A: 5 modules of 12 functions, each with an unused variable and a match with no
# `None` case; the last module adds a string to an int, which stops the compile (exit 2).
if have ocamlc; then
    mkdir -p "$work/mlproj"
    for f in $(seq 0 4); do
        {
            for i in $(seq 0 11); do
                printf 'let f%d x y =\n  let unused = x + 1 in\n  match y with\n  | Some z -> z + x\n\n' "$i"
            done
            ((f == 4)) && printf 'let bad () = "str" + %d\n' "$f"
        } >"$work/mlproj/m$f.ml"
    done
    capture ocamlc_warnings -- bash -c 'cd mlproj && ocamlc -w +A -c m0.ml m1.ml m2.ml m3.ml m4.ml'
else
    skip ocamlc_warnings "ocamlc missing"
fi

# coverage report -m: a package of 6 subpackages of 25 modules of 12 two-branch functions, driven
# by a script that calls every 1st to 4th function with one argument each, then the report with a
# 90% gate (Debian's python3-coverage, so /usr/bin/python3).
if [[ -x /usr/bin/python3 ]] && /usr/bin/python3 -c 'import coverage' 2>/dev/null; then
    mkdir -p "$work/covproj/app"
    : >"$work/covproj/app/__init__.py"
    echo 'import importlib' >"$work/covproj/drive.py"
    for d in $(seq 0 5); do
        mkdir -p "$work/covproj/app/sub$d"
        : >"$work/covproj/app/sub$d/__init__.py"
        for m in $(seq 0 24); do
            for i in $(seq 0 11); do
                printf 'def f%d(x):\n    if x > %d:\n        y = x * %d\n        return y\n    else:\n        return -x\n\n' \
                    "$i" "$i" "$i"
            done >"$work/covproj/app/sub$d/m$m.py"
            {
                echo "m=importlib.import_module('app.sub$d.m$m')"
                for ((i = 0; i < 12; i += (d + m) % 4 + 1)); do echo "m.f$i($(((i * m) % 15)))"; done
            } >>"$work/covproj/drive.py"
        done
    done
    capture coverage_report -- bash -c 'cd covproj && /usr/bin/python3 -m coverage run --source=app drive.py && /usr/bin/python3 -m coverage report -m --fail-under=90'
else
    skip coverage_report "python3-coverage missing"
fi
