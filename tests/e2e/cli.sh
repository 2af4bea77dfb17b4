#!/usr/bin/env bash
# Black-box checks of the `sutra` command-line contract.
set -u
sutra="${SUTRA_BIN:?}"
src="${SUTRA_SRC:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SUTRA_HOME="$tmp/store" SUTRA_CONFIG="$tmp/none.toml"
fails=0
check() { # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
sample="$src/samples/pytest-failure.log"

"$sutra" --version | grep -qE '^sutra [0-9]+\.[0-9]+\.[0-9]+$'; check "--version" test $? -eq 0

"$sutra" compress "$sample" --exit-code 1 >"$tmp/view"
check "compress shrinks the sample" test "$(wc -c <"$tmp/view")" -lt "$(($(wc -c <"$sample") / 10))"
check "the failure is visible" grep -q "AssertionError: assert Decimal('43.19')" "$tmp/view"
check "the verdict is visible" grep -q "1 failed, 1535 passed" "$tmp/view"
cat "$sample" | "$sutra" compress --exit-code 1 >"$tmp/view2"
check "stdin and FILE give the same view" cmp -s "$tmp/view" "$tmp/view2"

"$sutra" compress "$sample" --exit-code 1 --json >"$tmp/json"
check "--json is one object with the contract's keys" python3 - "$tmp/json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
for k in ["view", "id", "retained", "original_bytes", "view_bytes", "shape", "elisions"]:
    assert k in o, k
assert o["retained"] is True and o["id"].startswith("su_")
assert o["view_bytes"] == len(o["view"].encode())
for e in o["elisions"]:
    assert set(["reason", "bytes", "lines"]) <= set(e)
    a, b = e["bytes"]; assert 0 <= a < b <= o["original_bytes"]
PY

id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$tmp/json")
read -r a b < <(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["elisions"][0]; a,b=e["bytes"]; print(a, min(b, a+60000))' "$tmp/json")
"$sutra" restore "$id" --bytes "$a-$b" --max-bytes 65536 >"$tmp/range" 2>"$tmp/note"
check "--bytes A-B prints exactly those bytes" cmp -s "$tmp/range" <(tail -c +$((a + 1)) "$sample" | head -c $((b - a)))
check "the note is on stderr and says untrusted" grep -q "untrusted data" "$tmp/note"
"$sutra" restore "$id" --all >"$tmp/all"
check "--all gives the original" cmp -s "$tmp/all" "$sample"

# Paging: follow `next:` until done; the pages concatenated are the range.
: >"$tmp/pages"; range="0-$(wc -c <"$sample")"
for _ in $(seq 1 100); do
  "$sutra" restore "$id" --bytes "$range" --max-bytes 20000 >>"$tmp/pages" 2>"$tmp/note" || break
  range=$(grep -o 'next: sutra restore su_[0-9a-f]* --bytes [0-9]*-[0-9]*' "$tmp/note" | awk '{print $6}')
  [ -n "$range" ] || break
done
check "pages concatenate to the original" cmp -s "$tmp/pages" "$sample"

"$sutra" restore su_0123456789abcdef0123456789abcdef >/dev/null 2>"$tmp/err"; rc=$?
check "unknown id: non-zero exit" test $rc -ne 0
check "unknown id: one-line error" test "$(wc -l <"$tmp/err")" -eq 1
"$sutra" restore '../../etc/passwd' >/dev/null 2>&1; check "hostile id refused" test $? -ne 0
"$sutra" restore "$id" --bytes 9-3 >/dev/null 2>&1; check "bad range refused" test $? -ne 0

# More error lines than a view holds: the view counts the hidden ones and names one call that
# lists them all (`--critical`, paged with `--critical --lines A-B`).
for i in $(seq 1 1500); do
  echo "src/mod$((i % 40)).ts($i,7): error TS7006: Parameter 'arg$i' implicitly has an 'any' type."
  echo "  context line $i"
done >"$tmp/tsc"
"$sutra" compress "$tmp/tsc" --exit-code 2 >"$tmp/tsc.view"
call=$(grep -o 'list all [0-9]*: sutra restore su_[0-9a-f]* --critical' "$tmp/tsc.view" | cut -d' ' -f6-)
check "the view names the --critical call" test -n "$call"
: >"$tmp/listed"; lines=""
for _ in $(seq 1 100); do
  "$sutra" restore $call $lines --max-bytes 30000 >>"$tmp/listed" 2>"$tmp/note" || break
  lines=$(grep -o -- '--lines [0-9]*-[0-9]*' "$tmp/note")
  [ -n "$lines" ] || break
done
check "--critical lists every error line, paged" cmp -s <(cut -d: -f2- "$tmp/listed") <(grep 'error TS' "$tmp/tsc")
check "--critical numbers the lines" test "$(head -1 "$tmp/listed" | cut -d: -f1)" = 1
"$sutra" restore "$id" --critical --bytes 1-2 >/dev/null 2>&1; check "--critical with --bytes refused" test $? -eq 2

# Diffs pass through byte for byte, at any size.
{ echo "diff --git a/x.c b/x.c"; echo "--- a/x.c"; echo "+++ b/x.c"; echo "@@ -1,3000 +1,3000 @@";
  for i in $(seq 1 3000); do echo "-old line $i"; echo "+new line $i"; done; } >"$tmp/diff"
"$sutra" compress "$tmp/diff" >"$tmp/diff.out"
check "a diff is byte-identical" cmp -s "$tmp/diff" "$tmp/diff.out"

: | "$sutra" compress >"$tmp/empty"; check "empty input gives empty output" test ! -s "$tmp/empty"
head -c 200000 /dev/urandom >"$tmp/bin"
"$sutra" compress "$tmp/bin" >"$tmp/bin.out"; check "binary passes through" cmp -s "$tmp/bin" "$tmp/bin.out"

printf '[compress]\nmin_bytes = "big"\n' >"$tmp/bad.toml"
SUTRA_CONFIG="$tmp/bad.toml" "$sutra" compress "$sample" >/dev/null 2>"$tmp/err"; rc=$?
check "broken config: error exit" test $rc -ne 0
check "broken config: names file and line" grep -q "bad.toml:2" "$tmp/err"
"$sutra" config | grep -q "compress.mode"; check "config prints settings" test $? -eq 0
"$sutra" stats --json | python3 -c 'import json,sys; json.load(sys.stdin)'; check "stats --json is JSON" test $? -eq 0

echo "$((fails == 0 ? 1 : 0)) passed, $fails failed" | sed "s/^1 passed, 0 failed/e2e.cli: all passed/"
[ "$fails" -eq 0 ]
