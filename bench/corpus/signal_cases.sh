# Cases of issue 25, sourced by make_corpus.sh (its capture, skip, have, $work, $tools, $out):
# outputs whose signal hid in earlier views. Each class has several producers, each a real tool
# on real code:
#   TAP failures          tape, node --test (TAP reporter), prove, bats
#   memory errors, exit 0 valgrind over a passing googletest binary, AddressSanitizer in recover mode
#   checker file lists    prettier --check, black --check
#   located findings      markdownlint (`path:12:5 MD013/line-length …`), cpplint
#                         (`path:12:  … [whitespace/comma] [4]`), bandit (`>> Issue: [B101:…]`
#                         over its `Location: path:12`)
#   repeated context      gcc -fanalyzer (an event path under every finding)
#   a big log             tar -cv over /usr/share with missing paths among its arguments (only in
#                         the full corpus: larger than tests/data/real takes)

sig="$tools/signal"
if have npm && [[ ! -x "$sig/node_modules/.bin/prettier" || ! -x "$sig/node_modules/.bin/markdownlint" ]]; then
    mkdir -p "$sig"
    cat >"$sig/package.json" <<'EOF'
{"name":"sutra-corpus-signal","version":"1.0.0","private":true,
 "dependencies":{"tape":"5.9.0","prettier":"3.3.3","markdownlint-cli":"0.42.0"}}
EOF
    (cd "$sig" && timeout 300 npm install --no-audit --no-fund >/dev/null 2>&1)
fi
sig_apt=()
for pair in bats:bats prove:perl black:black bandit:bandit cpplint:cpplint valgrind:valgrind; do
    have "${pair%%:*}" || sig_apt+=("${pair#*:}")
done
[[ -f /usr/include/gtest/gtest.h ]] || sig_apt+=(libgtest-dev)
[[ -f /usr/include/zlib.h ]] || sig_apt+=(zlib1g-dev)
[[ -f /usr/include/expat.h ]] || sig_apt+=(libexpat1-dev)
[[ -f /usr/include/pcre2.h ]] || sig_apt+=(libpcre2-dev)
if ((${#sig_apt[@]})); then
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || timeout 300 apt-get update -qq
    timeout 300 apt-get install -y -qq "${sig_apt[@]}" >/dev/null
fi
snm="$sig/node_modules"

# ---- TAP: `not ok N` among `ok N` lines, from four producers ----------------------------------

# tape: a money library whose rounding and splitting are wrong for some inputs (16 of 100 fail);
# each failure has a YAML block (operator, expected, actual, at, stack).
if [[ -d $snm/tape ]]; then
    mkdir -p "$work/tapeproj"
    ln -s "$snm" "$work/tapeproj/node_modules"
    cat >"$work/tapeproj/money.test.js" <<'EOF'
const test = require("tape");
// Cents of an amount, and a total split into equal parts: floor() loses half cents and remainders.
function toCents(amount) { return Math.floor(amount * 100); }
function split(total, parts) { const each = Math.floor(total / parts); return Array(parts).fill(each); }
test("toCents", (t) => {
  for (let i = 0; i < 60; i++) {
    const amount = i + (i % 8 === 3 ? 0.295 : 0.25);
    t.equal(toCents(amount), Math.round(amount * 100), `toCents(${amount})`);
  }
  t.end();
});
test("split", (t) => {
  for (let parts = 1; parts <= 40; parts++) {
    const total = parts * 25 + (parts % 5 === 0 ? 1 : 0);
    t.equal(split(total, parts).reduce((a, b) => a + b, 0), total, `split(${total}, ${parts}) sums to the total`);
  }
  t.end();
});
EOF
    capture tap_tape_failures -- bash -c 'cd tapeproj && node money.test.js'
else
    skip tap_tape_failures "tape not installed"
fi

# node's own test runner with the TAP reporter: ISO week numbers counted from January 1st.
if have node; then
    mkdir -p "$work/nodetest"
    cat >"$work/nodetest/weeks.test.js" <<'EOF'
const test = require("node:test");
const assert = require("node:assert");
// ISO week numbers, with the classic bug: weeks counted from January 1st, not the first Thursday.
function isoWeek(d) {
  const start = new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  return Math.floor((d - start) / 86400000 / 7) + 1;
}
function realWeek(d) {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  t.setUTCDate(t.getUTCDate() + 4 - (t.getUTCDay() || 7));
  const y = new Date(Date.UTC(t.getUTCFullYear(), 0, 1));
  return Math.ceil(((t - y) / 86400000 + 1) / 7);
}
for (let year = 2020; year <= 2025; year++) {
  test(`isoWeek ${year}`, async (t) => {
    for (let m = 0; m < 12; m++) {
      for (const day of [1, 15]) {
        const d = new Date(Date.UTC(year, m, day));
        await t.test(`${d.toISOString().slice(0, 10)}`, () => {
          assert.strictEqual(isoWeek(d), realWeek(d));
        });
      }
    }
  });
}
EOF
    capture tap_node_test -- bash -c 'cd nodetest && node --test --test-reporter=tap'
fi

# prove -v over six Test::More files: a title-case helper that capitalises after an apostrophe.
if have prove; then
    mkdir -p "$work/proveproj/t"
    for n in 1 2 3 4 5 6; do
        {
            echo 'use strict;'
            echo 'use warnings;'
            echo 'use Test::More;'
            echo '# Title case with a bug: a word after an apostrophe is capitalised too.'
            echo 'sub title { my $s = shift; $s =~ s/(\w+)/\u\L$1/g; return $s; }'
            echo 'my @cases = ('
            for i in $(seq 1 30); do
                if (((i * n) % 11 == 3)); then
                    echo "  [\"it's case $n-$i\", \"It's Case $n-$i\"],"
                else
                    echo "  [\"plain case $n-$i\", \"Plain Case $n-$i\"],"
                fi
            done
            echo ');'
            echo 'is(title($_->[0]), $_->[1], "title($_->[0])") for @cases;'
            echo 'done_testing();'
        } >"$work/proveproj/t/0$n-title.t"
    done
    capture tap_prove_failures -- bash -c 'cd proveproj && prove -v t/'
fi

# bats: a basename helper that returns nothing for paths with a trailing slash.
if have bats; then
    mkdir -p "$work/batsproj"
    {
        echo '#!/usr/bin/env bats'
        echo '# basename of real paths, against a splitter that is wrong for a trailing slash'
        echo 'split_base() { local p="$1"; echo "${p##*/}"; }'
        for p in /usr/bin/env /etc/hosts /usr/share/doc/ /var/log/ /usr/lib/os-release /tmp/ \
            /usr/include/stdio.h /usr/share/ /etc/ssl/certs/ /opt /usr/local/bin/ /etc/passwd \
            /usr/share/man/man1/ /var/cache/apt/ /usr/bin/perl /etc/apt/sources.list.d/ \
            /usr/lib/python3/ /root /var/lib/dpkg/status /usr/sbin/; do
            for k in 1 2 3 4 5 6; do
                echo "@test \"basename of $p (case $k)\" {"
                echo "  run split_base \"$p\""
                echo "  [ \"\$output\" = \"\$(basename \"$p\")\" ]"
                echo '}'
            done
        done
    } >"$work/batsproj/paths.bats"
    capture tap_bats_failures -- bash -c 'cd batsproj && bats paths.bats'
fi

# ---- Memory errors in runs that exit 0 --------------------------------------------------------

# valgrind over a googletest binary whose 29 tests pass: a string class in the style of
# googletest's sample2 writes its NUL one byte past each buffer and strlen() reads past it.
if have valgrind && have g++ && [[ -f /usr/include/gtest/gtest.h ]]; then
    mkdir -p "$work/vgtest"
    cat >"$work/vgtest/mystring.h" <<'EOF'
// A string class in the style of googletest's sample2, with a memory bug the tests do not see.
#include <cstring>
class MyString {
 public:
  MyString() : c_string_(nullptr) {}
  explicit MyString(const char* s) : c_string_(nullptr) { Set(s); }
  ~MyString() { delete[] c_string_; }
  const char* c_string() const { return c_string_; }
  size_t Length() const { return c_string_ == nullptr ? 0 : strlen(c_string_); }
  void Set(const char* s) {
    // Bug: one byte short, so the terminating NUL is written past the end.
    char* copy = new char[strlen(s)];
    memcpy(copy, s, strlen(s) + 1);
    delete[] c_string_;
    c_string_ = copy;
  }
  void Append(const char* s) {
    const size_t n = Length();
    char* joined = new char[n + strlen(s) + 1];
    memcpy(joined, c_string_, n);
    memcpy(joined + n, s, strlen(s) + 1);
    delete[] c_string_;
    c_string_ = joined;
  }
 private:
  char* c_string_;
};
EOF
    cat >"$work/vgtest/mystring_test.cc" <<'EOF'
#include "mystring.h"
#include <gtest/gtest.h>
#include <string>
TEST(MyStringTest, DefaultIsEmpty) { MyString s; EXPECT_EQ(0u, s.Length()); }
TEST(MyStringTest, ConstructFromCString) { MyString s("hello"); EXPECT_EQ(5u, s.Length()); EXPECT_STREQ("hello", s.c_string()); }
TEST(MyStringTest, SetReplaces) { MyString s("a"); s.Set("bcd"); EXPECT_EQ(3u, s.Length()); }
TEST(MyStringTest, AppendJoins) { MyString s("ab"); s.Append("cd"); EXPECT_STREQ("abcd", s.c_string()); }
TEST(MyStringTest, AppendToEmpty) { MyString s; s.Append("x"); EXPECT_EQ(1u, s.Length()); }
class MyStringSizes : public ::testing::TestWithParam<int> {};
TEST_P(MyStringSizes, LengthMatches) {
  std::string text(GetParam(), 'z');
  MyString s(text.c_str());
  EXPECT_EQ(text.size(), s.Length());
}
INSTANTIATE_TEST_SUITE_P(Sizes, MyStringSizes, ::testing::Range(1, 25));
EOF
    (cd "$work/vgtest" && g++ -g -O0 -std=c++17 mystring_test.cc -o mystring_test -lgtest -lgtest_main -pthread)
    capture valgrind_gtest_pass -- bash -c 'cd vgtest && valgrind ./mystring_test'
else
    skip valgrind_gtest_pass "valgrind, g++ or libgtest-dev missing"
fi

# AddressSanitizer in recover mode (it reports and goes on; the program exits 0): a ring buffer
# written and read one slot past its end, and a record used after it was freed.
if have gcc; then
    mkdir -p "$work/asanproj"
    cat >"$work/asanproj/ring.c" <<'EOF'
// A ring buffer of log records whose wrap-around is off by one: reads and writes one slot past
// the buffer at each wrap, and a record is used after it was dropped. The output looks fine.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { int id; char text[24]; } Record;
typedef struct { Record* slots; int size, head; } Ring;
static void ring_put(Ring* r, int id) {
    Record* s = &r->slots[r->head];              /* head reaches size: one past the end */
    s->id = id;
    snprintf(s->text, sizeof s->text, "record %d", id);
    r->head = r->head == r->size ? 0 : r->head + 1;
}
static int ring_sum(const Ring* r) {
    int sum = 0;
    for (int i = 0; i <= r->size; ++i) sum += r->slots[i].id; /* <= reads one past */
    return sum;
}
static const char* last_text(void) {
    Record* tmp = malloc(sizeof *tmp);
    snprintf(tmp->text, sizeof tmp->text, "temporary");
    free(tmp);
    return tmp->text;                             /* used after free below */
}
int main(void) {
    Ring r = {calloc(8, sizeof(Record)), 8, 0};
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 9; ++i) ring_put(&r, round * 100 + i);
        printf("round %d: sum %d, last byte %d\n", round, ring_sum(&r), last_text()[0]);
    }
    free(r.slots);
    return 0;
}
EOF
    (cd "$work/asanproj" && gcc -g -O0 -fsanitize=address -fsanitize-recover=address ring.c -o ring)
    capture asan_recover_pass -- bash -c 'cd asanproj && ASAN_OPTIONS=halt_on_error=0 ./ring'
fi

# ---- Context repeated under every diagnostic ---------------------------------------------------

# gcc -fanalyzer (exit 0: warnings): each finding with its code excerpt, an event path of a dozen
# `|` lines and a note; three kinds of bug in 30 small functions.
if have gcc; then
    mkdir -p "$work/analyzer"
    {
        echo '#include <stdlib.h>'
        echo '#include <string.h>'
        for i in $(seq 1 10); do
            cat <<EOF
char *copy_name_$i(const char *s, int keep) {
    char *p = malloc(strlen(s) + 1);
    if (!keep)
        free(p);
    strcpy(p, s);
    return p;
}
int sum_items_$i(const int *v, int n) {
    int *tmp = malloc(sizeof(int) * (size_t)n);
    int total = 0;
    for (int k = 0; k < n; ++k)
        total += tmp[k] = v[k];
    if (total < 0)
        return -1;
    free(tmp);
    return total;
}
void release_$i(char *buf, int twice) {
    free(buf);
    if (twice > $i)
        free(buf);
}
EOF
        done
    } >"$work/analyzer/buffers.c"
    capture gcc_fanalyzer_paths -- bash -c 'cd analyzer && gcc -fanalyzer -c buffers.c -o /dev/null'
fi

# ---- Checker file lists: each line names one file to fix --------------------------------------

# prettier --check over three npm packages' sources as published (`[warn] path` per file).
if [[ -x $snm/.bin/prettier ]]; then
    mkdir -p "$work/prettierproj"
    cp -r "$snm/tape" "$snm/object-inspect" "$work/prettierproj/"
    cp -r "$snm/es-abstract/2024" "$work/prettierproj/es-abstract-2024"
    capture prettier_check -- bash -c "cd prettierproj && $snm/.bin/prettier --check --no-editorconfig ."
else
    skip prettier_check "prettier not installed"
fi

# black --check over two installed Python packages (`would reformat path` per file).
if have black && [[ -d /usr/lib/python3/dist-packages/_pytest ]]; then
    capture black_check -- bash -c 'cd /usr/lib/python3/dist-packages && black --check --workers 1 _pytest bandit blib2to3 pygments/formatters pygments/filters pygments/styles'
else
    skip black_check "black or python3-pytest missing"
fi

# ---- Located findings whose rows name a rule, not a severity word -----------------------------

# markdownlint over npm packages' README and CHANGELOG files: `path:12:5 MD013/line-length …`.
if [[ -x $snm/.bin/markdownlint ]]; then
    mkdir -p "$work/mdproj"
    for p in object-inspect minimist deep-equal has-symbols is-regex side-channel \
        call-bind get-intrinsic; do
        for f in README.md CHANGELOG.md; do
            [[ -f $snm/$p/$f ]] && cp "$snm/$p/$f" "$work/mdproj/$p-$f"
        done
    done
    capture markdownlint_docs -- bash -c "cd mdproj && $snm/.bin/markdownlint ."
else
    skip markdownlint_docs "markdownlint not installed"
fi

# cpplint over three C libraries' public headers as Debian ships them (zlib, expat, PCRE2):
# `path:12:  … [category/rule] [4]`.
if have cpplint && [[ -f /usr/include/zlib.h && -f /usr/include/expat.h && -f /usr/include/pcre2.h ]]; then
    capture cpplint_headers -- bash -c 'cd /usr/include && cpplint zlib.h expat.h pcre2.h'
else
    skip cpplint_headers "cpplint or the zlib, expat and PCRE2 headers missing"
fi

# bandit over an installed package: `>> Issue: [B101:assert_used] …` with its place below it
# (`   Location: path:12`) and a numbered code excerpt.
if have bandit && [[ -d /usr/lib/python3/dist-packages/_pytest ]]; then
    capture bandit_pytest -- bash -c 'cd /usr/lib/python3/dist-packages && bandit -r _pytest/assertion _pytest/_code _pytest/config _pytest/mark'
else
    skip bandit_pytest "bandit or python3-pytest missing"
fi

# ---- A big log with errors buried in it -------------------------------------------------------

# tar -cv of /usr/share with missing paths among its arguments: each `Cannot stat` lands where
# tar met it, among ~100k listed names (about 6 MB; only in the full corpus).
missing=()
for d in doc man locale perl5 zoneinfo mime i18n X11 fonts info; do
    [[ -d /usr/share/$d ]] && missing+=("/usr/share/$d" "/usr/share/$d-gone")
done
capture tar_verbose_missing -- tar -cvf /dev/null "${missing[@]}"
