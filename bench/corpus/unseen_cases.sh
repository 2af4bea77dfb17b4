# Cases from tools the corpus had not seen, sourced by make_corpus.sh (its capture, skip, have,
# $work, $out): small real programs with real bugs, generated here, and the real tool run on them.
#   gfortran                 -fsyntax-only -Wall -Wextra over 150 modules: each finding is a place
#                            line `m000.f90:42:23:` over a code excerpt, a caret and `Error: …`
#   clang -Weverything       60 C files: hundreds of warnings, a few errors, `N warnings and M
#                            errors generated.`
#   python -m doctest -v     220 examples, 16 wrong: `File "calc.py", line N, in calc` over
#                            `Failed example:`, the expected and the `Got:` value
#   perl -c                  250 scripts: messages ending `at mod018.pl line 8.`, no error word
#   valgrind --tool=helgrind a racy threaded program: `Possible data race during …`, `lock order
#                            "…" violated` and their stacks
#   git rebase               a branch conflicting in 150 of 900 files, then `git status`

unseen_apt=()
for pair in gfortran:gfortran perl:perl valgrind:valgrind git:git gcc:gcc; do
    have "${pair%%:*}" || unseen_apt+=("${pair#*:}")
done
have clang-14 || have clang-16 || unseen_apt+=(clang)
if ((${#unseen_apt[@]})); then
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || timeout 300 apt-get update -qq
    timeout 300 apt-get install -y -qq "${unseen_apt[@]}" >/dev/null
fi

# gfortran: 150 modules of four subroutines, each with an unused dummy argument and an unused
# local; every 7th uses an undeclared variable, every 11th adds a string to an integer, every
# 13th indexes an array out of bounds. Each finding: `FILE:L:C:`, the code, a caret, then
# `Error: …` or `Warning: …`.
if have gfortran; then
    mkdir -p "$work/fortranproj"
    for i in $(seq 0 149); do
        {
            echo "module m$i"
            echo '  implicit none'
            echo 'contains'
            for s in 0 1 2 3; do
                cat <<EOF
  subroutine s$s(a, n, unused$s)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    integer :: unused$s
    integer :: k, spare$s
    do k = 1, n
      a(k) = a(k) * $s.0 + real(k)
    end do
  end subroutine s$s
EOF
            done
            if ((i % 7 == 0)); then
                printf '  subroutine bad%d(x)\n    real :: x\n    x = undeclared_var%d + 1.0\n  end subroutine bad%d\n' \
                    "$i" "$i" "$i"
            fi
            if ((i % 11 == 1)); then
                printf "  function f%d(x) result(r)\n    integer :: x\n    real :: r\n    r = x + 'abc'\n  end function f%d\n" \
                    "$i" "$i"
            fi
            if ((i % 13 == 2)); then
                printf '  subroutine t%d()\n    integer :: q(3)\n    q(5) = 1\n  end subroutine t%d\n' "$i" "$i"
            fi
            echo "end module m$i"
        } >"$work/fortranproj/$(printf 'm%03d.f90' "$i")"
    done
    capture gfortran_errors -- bash -c 'cd fortranproj && gfortran -fsyntax-only -Wall -Wextra m*.f90'
else
    skip gfortran_errors "gfortran missing"
fi

# clang -Weverything over 60 small C files: implicit conversions, an assignment in a condition,
# an uninitialised variable, padding, unused values in every file; every 8th calls an undeclared
# function and every 11th reads a missing member (errors). About 170 KB.
clang_cc=""
if have clang-14; then clang_cc=clang-14; elif have clang-16; then clang_cc=clang-16; fi
if [[ -n $clang_cc ]]; then
    mkdir -p "$work/clangproj"
    for i in $(seq 0 59); do
        {
            cat <<EOF
#include <stdio.h>
#include <string.h>
struct rec$i { char c; int v; double d; };
static int helper$i(int a, unsigned b) {
    int r = a + b;
    float f = r;
    return r * 2;
}
int run$i(const char *s, int n) {
    char buf[16];
    int k;
    strcpy(buf, s);
    if (n = 3) printf("%s %d\n", buf, k);
    long big = 1L << 40; int small = big;
    return helper$i(n, small) + sizeof(struct rec$i);
}
EOF
            if ((i % 8 == 0)); then echo "int bad$i(void) { return not_declared_$i(3); }"; fi
            if ((i % 11 == 5)); then echo "int bad2_$i(void) { struct rec$i r; return r.missing; }"; fi
        } >"$work/clangproj/$(printf 'u%02d.c' "$i")"
    done
    capture clang_weverything_errors -- bash -c "cd clangproj && $clang_cc -fsyntax-only -Weverything u*.c"
else
    skip clang_weverything_errors "clang-14 or clang-16 missing"
fi

# python3 -m doctest -v (Debian's /usr/bin/python3): 220 examples of triple() in a module docstring, every 15th expecting
# one too many, and six parse('xN') calls that raise ValueError.
if [[ -x /usr/bin/python3 ]]; then
    mkdir -p "$work/doctestproj"
    {
        echo '"""Tests for arithmetic helpers.'
        for i in $(seq 0 219); do
            echo ">>> triple($i)"
            if ((i % 15 == 7)); then echo $((3 * i + 1)); else echo $((3 * i)); fi
            if ((i % 40 == 11)); then printf ">>> parse('x%d')\n%d\n" "$i" "$i"; fi
        done
        echo '"""'
        printf 'def triple(x):\n    return x * 3\n\ndef parse(t):\n    return int(t)\n'
    } >"$work/doctestproj/calc.py"
    capture doctest_v_failures -- bash -c 'cd doctestproj && /usr/bin/python3 -m doctest -v calc.py'
fi

# perl -c over 250 scripts under strict and warnings: undeclared globals, a missing parenthesis,
# a missing semicolon, a `my` variable declared twice. Perl names the file and line in words
# (`… at mod018.pl line 8.`), mostly with no error word.
if have perl; then
    mkdir -p "$work/perlproj"
    for i in $(seq 0 249); do
        {
            echo 'use strict;'
            echo 'use warnings;'
            for k in 0 1 2 3 4; do echo "sub f$k { my (\$x) = @_; return \$x * $k; }"; done
            if ((i % 9 == 0)); then echo 'my $y = $undeclared + 1;'; fi
            if ((i % 13 == 1)); then echo 'if ($x { print 1; }'; fi
            if ((i % 17 == 2)); then printf 'my @a = (1,2,3)\nmy $z = 4;\n'; fi
            if ((i % 5 == 3)); then echo 'my $v = 1; my $v = 2;'; fi
            echo 'print f1(2), "\n";'
            echo '1;'
        } >"$work/perlproj/$(printf 'mod%03d.pl' "$i")"
    done
    capture perl_c_modules -- bash -c 'cd perlproj && rc=0; for f in mod*.pl; do perl -c $f || rc=1; done; exit $rc'
fi

# valgrind --tool=helgrind over six threads that bump shared counters unlocked and take two
# mutexes in opposite orders (exit 0: the program runs fine). Thread scheduling makes each run's
# output differ a little; it is captured once.
if have valgrind && have gcc; then
    mkdir -p "$work/helgrindproj"
    cat >"$work/helgrindproj/race.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
static long counter; static long stats[16];
static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
static void *worker(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < 1000; i++) {
        counter++;                       /* race */
        stats[(id + i) % 16] += i;       /* race */
        if (id % 2) { pthread_mutex_lock(&m1); pthread_mutex_lock(&m2); pthread_mutex_unlock(&m2); pthread_mutex_unlock(&m1); }
        else { pthread_mutex_lock(&m2); pthread_mutex_lock(&m1); pthread_mutex_unlock(&m1); pthread_mutex_unlock(&m2); }
    }
    return NULL;
}
int main(void) {
    pthread_t t[6];
    for (long i = 0; i < 6; i++) pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 6; i++) pthread_join(t[i], NULL);
    printf("counter=%ld\n", counter);
    return 0;
}
EOF
    (cd "$work/helgrindproj" && gcc -g -pthread race.c -o race)
    capture helgrind_race -- bash -c 'cd helgrindproj && valgrind --tool=helgrind ./race'
else
    skip helgrind_race "valgrind or gcc missing"
fi

# git rebase of a two-commit branch onto a main that edited the same line in 150 of its 900
# files, then git status: `CONFLICT (content): Merge conflict in f000.txt` among `Auto-merging`
# lines, and `both modified:` in the status. Fixed names, emails and dates, no user config: the
# commit ids are the same from run to run.
if have git; then
    rb="$work/rebaseproj"
    mkdir -p "$rb"
    (
        export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
        export GIT_AUTHOR_NAME=corpus GIT_AUTHOR_EMAIL=corpus@example.com
        export GIT_COMMITTER_NAME=corpus GIT_COMMITTER_EMAIL=corpus@example.com
        commit() {
            export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"
            git add -A && git commit -q -m "$2"
        }
        cd "$rb" && git init -q -b main .
        for k in $(seq 0 29); do echo "line $k base"; done >"$rb/.base"
        for i in $(seq -w 0 899); do cp .base "f$i.txt"; done
        rm .base
        commit "2024-03-01T10:00:00 +0000" base
        git checkout -q -b feature
        # feature 1 edits line 5 of every third file (main's line) and line 22 of the others;
        # feature 2 the line 9 or 23 below.
        for i in $(seq -w 0 899); do
            if ((10#$i % 3 == 0)); then a=5 b=9; else a=22 b=23; fi
            sed -i "${a}s/.*/feature 1 edit $((10#$i))/" "f$i.txt"
        done
        commit "2024-03-01T11:00:00 +0000" "feature 1"
        for i in $(seq -w 0 899); do
            if ((10#$i % 3 == 0)); then b=9; else b=23; fi
            sed -i "${b}s/.*/feature 2 edit $((10#$i))/" "f$i.txt"
        done
        commit "2024-03-01T12:00:00 +0000" "feature 2"
        git checkout -q main
        for i in $(seq -w 0 2 899); do sed -i "5s/.*/main edit $((10#$i))/" "f$i.txt"; done
        commit "2024-03-01T13:00:00 +0000" main-change
        git checkout -q feature
    )
    capture git_rebase_conflicts -- env GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
        bash -c 'cd rebaseproj && git rebase main; git status'
fi
