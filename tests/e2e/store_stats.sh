#!/usr/bin/env bash
# Black-box checks of the store and the stats log through the installed commands (issues 14 and
# 13): every id `sutra compress` hands out restores under tiny quotas, extreme limits are config
# errors, no stats record lands beside a refused store, a restore makes no namespace, and hook
# payloads of three commands fill `sutra stats`'s by-command rows with program names only.
# Needs SUTRA_BIN and SUTRA_HOST_BIN (ctest passes them).
set -u
: "${SUTRA_BIN:?}" "${SUTRA_HOST_BIN:?}"
command -v python3 >/dev/null || { echo "python3 missing: skip"; exit 125; }

T=$(mktemp -d /tmp/sutra-e2e-store-XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home XDG_DATA_HOME=$T/data XDG_CONFIG_HOME=$T/config SUTRA_HOME=$T/store
unset SUTRA_CONFIG SUTRA_DEBUG SUTRA_MODE SUTRA_MIN_BYTES SUTRA_STATS SUTRA_TTL_SECONDS SUTRA_STORE
mkdir -p "$HOME" "$XDG_CONFIG_HOME/sutra"
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# Foldable logs, one per seed, written once: $T/logs/SEED.txt.
python3 -c 'import sys
for s in list(range(1, 41)) + [f"OUTPUT_SECRET_{k}" for k in (1, 2, 3)]:
    with open(f"{sys.argv[1]}/{s}.txt", "w") as f:
        f.write("".join(f"[build {s}] compiling unit {i % 50} of target_{s} ... ok\n" for i in range(400)) + f"error: run {s} failed\n")' "$(mkdir -p "$T/logs" && echo "$T/logs")"
log_of() { cat "$T/logs/$1.txt"; }

# --- item 1: every printed id restores under max_entries = 1..3 and a small byte quota. Sixteen
# runs evict at least thirteen entries under each quota; stats are off here (item 7 and the
# by-command rows below test them), so no token count runs behind each call.
runs=16
for quota in "max_entries = 1" "max_entries = 2" "max_entries = 3" \
             "max_entry_bytes = 30000
max_total_bytes = 40000"; do
    printf '[store]\n%s\n' "$quota" > "$XDG_CONFIG_HOME/sutra/config.toml"
    rm -rf "$SUTRA_HOME"
    lost=0
    for run in $(seq 1 $runs); do
        log_of "$run" > "$T/in.txt"
        SUTRA_STATS=0 "$SUTRA_BIN" compress --json < "$T/in.txt" > "$T/out.json" || { lost=$((lost + 1)); continue; }
        id=$(grep -q '"retained":true' "$T/out.json" && grep -o '"id":"su_[0-9a-f]*"' "$T/out.json" | cut -d'"' -f4)
        if [ -z "$id" ] || ! "$SUTRA_BIN" restore "$id" --all 2>/dev/null | cmp -s - "$T/in.txt"; then
            lost=$((lost + 1))
        fi
    done
    check "$runs compresses under '${quota//$'\n'/, }': every retained id restores" '[ $lost = 0 ]'
done
printf '[store]\nmax_total_bytes = 100000\n' > "$XDG_CONFIG_HOME/sutra/config.toml"
err=$("$SUTRA_BIN" compress < "$T/in.txt" 2>&1 >/dev/null); rc=$?
check "max_total_bytes below max_entry_bytes is a config error" \
    '[ $rc = 2 ] && echo "$err" | grep -q "must be at least store.max_entry_bytes"'
rm -f "$XDG_CONFIG_HOME/sutra/config.toml"

# --- item 2: extreme durations and sizes are refused with the range
err=$(SUTRA_TTL_SECONDS=9223372036854775807 "$SUTRA_BIN" compress < "$T/in.txt" 2>&1 >/dev/null); rc=$?
check "SUTRA_TTL_SECONDS=INT64_MAX is refused" \
    '[ $rc = 2 ] && echo "$err" | grep -q "SUTRA_TTL_SECONDS: store.ttl_seconds must be between 1 and 315360000"'
err=$(SUTRA_TTL_SECONDS=99999999999999999999 "$SUTRA_BIN" compress < "$T/in.txt" 2>&1 >/dev/null); rc=$?
check "SUTRA_TTL_SECONDS past int64 is refused" '[ $rc = 2 ] && echo "$err" | grep -q "too large"'
out=$(SUTRA_TTL_SECONDS=315360000 "$SUTRA_BIN" compress --json < "$T/in.txt")
id=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
check "the longest TTL keeps the entry" '"$SUTRA_BIN" restore "$id" --all 2>/dev/null | cmp -s - "$T/in.txt"'
printf '[stats]\nmax_bytes = 9223372036854775807\n' > "$XDG_CONFIG_HOME/sutra/config.toml"
err=$("$SUTRA_BIN" stats 2>&1); rc=$?
check "stats.max_bytes = INT64_MAX is refused" '[ $rc = 2 ] && echo "$err" | grep -q "stats.max_bytes must be between"'
rm -f "$XDG_CONFIG_HOME/sutra/config.toml"

# --- item 7: no stats record beside a refused store
mkdir -p "$T/elsewhere" && : > "$T/elsewhere/stats.jsonl"
ln -s "$T/elsewhere" "$T/linked"
out=$(SUTRA_HOME=$T/linked "$SUTRA_BIN" compress --command make < "$T/in.txt")
check "a symlinked SUTRA_HOME passes the output through" '[ "$out" = "$(cat "$T/in.txt")" ]'
check "... and appends nothing to the stats log behind it" '[ ! -s "$T/elsewhere/stats.jsonl" ]'

# --- item 11b: a restore makes no namespace, store or key
"$SUTRA_BIN" restore --namespace ghost su_00000000000000000000000000000000 >/dev/null 2>&1; rc=$?
check "restore in a missing namespace fails" '[ $rc = 1 ]'
check "... and does not create ns/ghost" '[ ! -e "$SUTRA_HOME/ns" ]'
SUTRA_HOME=$T/fresh "$SUTRA_BIN" restore su_00000000000000000000000000000000 >/dev/null 2>&1
check "restore with no store creates no store" '[ ! -e "$T/fresh" ]'

# --- issue 13 item 3: hook payloads of three commands fill the by-command rows
rm -rf "$SUTRA_HOME"
claude_payload() { # $1 = command, $2 = output file
    python3 -c 'import json,sys
print(json.dumps({"session_id":"s1","cwd":"/tmp/p","hook_event_name":"PostToolUse","tool_name":"Bash",
 "tool_input":{"command":sys.argv[1]},"tool_response":{"stdout":open(sys.argv[2]).read(),"stderr":"",
 "interrupted":False}}))' "$1" "$2"; }
codex_payload() {
    python3 -c 'import json,sys
print(json.dumps({"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]},
 "tool_response":open(sys.argv[2]).read()}))' "$1" "$2"; }
log_of "OUTPUT_SECRET_1" > "$T/o1.txt"
log_of "OUTPUT_SECRET_2" > "$T/o2.txt"
log_of "OUTPUT_SECRET_3" > "$T/o3.txt"
claude_payload "API_KEY=ARG_SECRET_A pytest -k ARG_SECRET_B /home/ARG_SECRET_C" "$T/o1.txt" \
    | "$SUTRA_HOST_BIN" --adapter claude > "$T/h1.json"
claude_payload "cd /srv/ARG_SECRET_D && sudo -u ci /usr/bin/cargo test ARG_SECRET_E" "$T/o2.txt" \
    | "$SUTRA_HOST_BIN" --adapter claude > "$T/h2.json"
codex_payload "timeout 60 npm run ARG_SECRET_F" "$T/o3.txt" | "$SUTRA_HOST_BIN" --adapter codex > "$T/h3.json"
codex_payload "timeout 60 npm test -- --token=ARG_SECRET_G" "$T/o1.txt" | "$SUTRA_HOST_BIN" --adapter codex > "$T/h4.json"
check "the hooks compressed all four" '[ -s "$T/h1.json" ] && [ -s "$T/h2.json" ] && [ -s "$T/h3.json" ] && [ -s "$T/h4.json" ]'
"$SUTRA_BIN" stats --json > "$T/stats.json"
check "stats --json has one row per program: pytest 1, cargo 1, npm 2" \
    'python3 -c "import json,sys
r = {c[\"command\"]: c for c in json.load(open(sys.argv[1]))[\"commands\"]}
assert sorted(r) == [\"cargo\", \"npm\", \"pytest\"], r
assert (r[\"pytest\"][\"calls\"], r[\"cargo\"][\"calls\"], r[\"npm\"][\"calls\"]) == (1, 1, 2), r
for c in r.values():
    assert set(c) == {\"command\", \"calls\", \"bytes_in\", \"bytes_out\", \"tokens_in\", \"tokens_out\"}, c
    assert c[\"bytes_out\"] < c[\"bytes_in\"] and c[\"tokens_out\"] < c[\"tokens_in\"], c
" "$T/stats.json"'
check "sutra stats prints the by-command table" \
    '"$SUTRA_BIN" stats | grep -A4 "^by command" | grep -q "^npm "'
check "no argument or output text reaches the stats log" \
    '[ -s "$SUTRA_HOME/stats.jsonl" ] && ! grep -q "SECRET\|/srv\|/home\|compiling" "$SUTRA_HOME/stats.jsonl"'
"$SUTRA_BIN" compress --command "make -C /srv/ARG_SECRET_H" < "$T/in.txt" > /dev/null
check "the CLI's --command feeds the table too" \
    '"$SUTRA_BIN" stats --json | python3 -c "import json,sys; assert any(c[\"command\"]==\"make\" for c in json.load(sys.stdin)[\"commands\"])" && ! grep -q SECRET "$SUTRA_HOME/stats.jsonl"'

# --- per session (issue 23): two hook calls of session A, one of B, through the real hooks
rm -rf "$SUTRA_HOME"
session_payload() { # $1 = session, $2 = output file
    python3 -c 'import json,sys
print(json.dumps({"session_id":sys.argv[1],"cwd":"/tmp/p","hook_event_name":"PostToolUse","tool_name":"Bash",
 "tool_input":{"command":"make"},"tool_response":{"stdout":open(sys.argv[2]).read(),"stderr":"",
 "interrupted":False}}))' "$1" "$2"; }
session_payload sess-A "$T/o1.txt" | "$SUTRA_HOST_BIN" --adapter claude > /dev/null
session_payload sess-A "$T/o2.txt" | "$SUTRA_HOST_BIN" --adapter claude > /dev/null
session_payload sess-B "$T/o3.txt" | "$SUTRA_HOST_BIN" --adapter claude > /dev/null
"$SUTRA_BIN" stats --json > "$T/all.json"
"$SUTRA_BIN" stats --session sess-A --json > "$T/a.json"
check "stats --session A totals A's two calls alone, with the same total object" \
    'python3 -c "import json,sys
a, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a[\"session\"] == \"sess-A\" and a[\"total\"][\"calls\"] == 2, a[\"total\"]
assert t[\"total\"][\"calls\"] == 3 and set(a[\"total\"]) == set(t[\"total\"]), (a, t)
assert 0 < a[\"total\"][\"bytes_in\"] < t[\"total\"][\"bytes_in\"]
" "$T/a.json" "$T/all.json"'
check "the Claude hook names the host's own cut: each record counts against what Claude Code would show" \
    'python3 -c "import json,sys
a = json.load(open(sys.argv[1]))[\"total\"]
assert a[\"host_cut_records\"] == 2, a
# each output is whole to the host (under 30,000 characters) or its 2 KB preview
assert 0 < a[\"host_bytes\"] <= a[\"bytes_in\"], a
assert a[\"saved_bytes_vs_host\"] <= a[\"saved_bytes\"], a
" "$T/a.json"'
line_a=$(printf '{"session_id":"sess-A","model":{"id":"x"}}' | "$SUTRA_BIN" statusline)
line_c=$(printf '{"session_id":"sess-C"}' | "$SUTRA_BIN" statusline)
saved_a=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; print(t["saved_tokens"] if t["token_counted"] else "")' "$T/a.json")
echo "  statusline A: $line_a; statusline C: $line_c"
check "statusline with A's JSON prints one line with A's figure" \
    '[ "$(printf "%s\n" "$line_a" | wc -l)" = 1 ] && echo "$line_a" | grep -q "in 2 calls" && { [ -z "$saved_a" ] || echo "$line_a" | grep -q "sutra: $saved_a tokens saved"; }'
check "statusline for a session with no record says 0" '[ "$line_c" = "sutra: 0 tokens saved" ]'
check "statusline on bad input still prints one line" '[ "$(printf "not json" | "$SUTRA_BIN" statusline)" = "sutra: no session" ]'
"$SUTRA_BIN" stats --daily --csv > "$T/daily.csv"
check "stats --daily --csv: a header, today's row with all three calls, the total" \
    'head -1 "$T/daily.csv" | grep -q "^day,calls," && grep -q "^\"$(date -u +%F)\",3," "$T/daily.csv" && grep -q "^\"total\",3," "$T/daily.csv"'
check "stats --weekly --json has one week" \
    '"$SUTRA_BIN" stats --weekly --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert len(d[\"periods\"]) == 1 and d[\"periods\"][0][\"calls\"] == 3 and \"-W\" in d[\"periods\"][0][\"week\"], d[\"periods\"]"'
check "a session id that is not plain is refused" '! "$SUTRA_BIN" stats --session "a b" 2>/dev/null'

echo "$fails failure(s)"
[ "$fails" = 0 ]
