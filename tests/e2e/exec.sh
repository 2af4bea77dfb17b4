#!/usr/bin/env bash
# Black-box checks of `sutra exec`: exit codes, the status line, command not found, a background
# writer, signals reaching the whole command, restore of a streamed run, and peak memory on 1 GiB
# of output (GNU time, when installed).
set -u
sutra="${SUTRA_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SUTRA_HOME="$tmp/store" SUTRA_CONFIG="$tmp/none.toml" SUTRA_STATS=0
fails=0
check() { # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}

for code in 0 1 2; do
  "$sutra" exec --sh "echo out; echo err >&2; exit $code" >"$tmp/o" 2>"$tmp/e"; rc=$?
  check "exit $code passes through" test "$rc" -eq "$code"
done
check "stdout and stderr arrive as one stream" \
  test "$(head -2 "$tmp/o" | tr '\n' ' ')" = "out err "
check "a failing run ends with its status" \
  test "$(tail -1 "$tmp/o")" = "[sutra: command exited with status 2]"

"$sutra" exec -- sutra-no-such-command >"$tmp/o" 2>"$tmp/e"; rc=$?
check "command not found: 127" test "$rc" -eq 127
check "command not found: said on stderr" grep -q "sutra-no-such-command: command not found" "$tmp/e"

"$sutra" exec --sh 'kill -INT $$' >"$tmp/o" 2>"$tmp/e"; rc=$?
check "killed by SIGINT: 130" test "$rc" -eq 130
check "killed by SIGINT: said" grep -q "killed by signal 2 (SIGINT)" "$tmp/o"

# The command's exit ends the wait (plus a 1 s grace), whatever a background child still writes.
start=$(date +%s%N)
timeout 20 "$sutra" exec --sh '(for i in $(seq 50); do echo tick; sleep 0.5; done) & exit 0' >"$tmp/o" 2>"$tmp/e"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "     a background writer: the run took ${ms} ms"
check "a background writer does not hold the run" test "$rc" -eq 0 -a "$ms" -lt 4000

# SIGTERM to sutra stops the whole command, a SIGKILLed sutra too (its watchdog). A zombie
# (waiting for init to reap it) counts as stopped.
gone() { [ ! -e "/proc/$1" ] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
for sig in TERM KILL; do
  "$sutra" exec --sh "sleep 300 & echo \$! > '$tmp/pid'; wait" >/dev/null 2>&1 &
  spid=$!
  for _ in $(seq 200); do [ -s "$tmp/pid" ] && break; sleep 0.05; done
  kill -"$sig" "$spid"; wait "$spid" 2>/dev/null
  sleeper=$(cat "$tmp/pid"); rm -f "$tmp/pid"
  for _ in $(seq 100); do gone "$sleeper" && break; sleep 0.05; done
  check "SIG$sig to sutra stops the command's children" gone "$sleeper"
done

# A streamed run (past the 4 MiB window): the view is small, the store has every byte.
seq 1 2000000 | sed 's/^/line /' >"$tmp/big"
echo "error: something broke at the end" >>"$tmp/big"
"$sutra" exec --json -- cat "$tmp/big" >"$tmp/json"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$tmp/json")
"$sutra" restore "$id" --all >"$tmp/back"
check "restore --all of a streamed run is the output" cmp -s "$tmp/back" "$tmp/big"
check "the view keeps the error" python3 - "$tmp/json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert "error: something broke at the end" in o["view"], o["view"][-500:]
assert len(o["view"].encode()) < 65536
assert o["exit_code"] == 0 and o["signal"] is None
assert o["retained_bytes"] == o["original_bytes"]
assert all(e["retained"] for e in o["elisions"]) and o["elisions"]
PY

# Past the window, binary output passes through unchanged (the core's rule).
head -c 6000000 /dev/urandom >"$tmp/binary"
"$sutra" exec -- cat "$tmp/binary" >"$tmp/o" 2>/dev/null
check "large binary output passes through byte for byte" cmp -s "$tmp/o" "$tmp/binary"

# 1 GiB through exec in bounded memory (GNU time reports the peak RSS in KiB).
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f '%M %e' -o "$tmp/time" "$sutra" exec --sh \
    "yes 'INFO worker 17 processed a batch of records without any trouble' | head -c 1073741824" \
    >"$tmp/o" 2>/dev/null
  read -r rss secs <"$tmp/time"
  echo "     1 GiB through exec: peak RSS ${rss} KiB, ${secs} s"
  # 64 MiB; the sanitizer build passes a larger bound (ASan's shadow memory is a flat ~90 MB).
  bound=${SUTRA_RSS_BOUND_KB:-65536}
  check "1 GiB in under $((bound / 1024)) MiB of RSS" test "$rss" -lt "$bound"
  check "1 GiB gives a small view" test "$(wc -c <"$tmp/o")" -lt 65536
else
  echo "skip 1 GiB memory check: /usr/bin/time not installed"
fi

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all exec checks passed"
