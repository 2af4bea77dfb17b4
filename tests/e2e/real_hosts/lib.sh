# Shared steps of the real-host end-to-end tests (docs/adapters.md, "Real hosts"): install a pinned host from npm
# into a cache, a throwaway HOME, a loopback mock model, and JSON checks. Sourced by the
# per-host scripts; they need SUTRA_BIN and SUTRA_HOST_BIN (ctest passes them).
set -u
: "${SUTRA_BIN:?set SUTRA_BIN to the built sutra binary}" "${SUTRA_HOST_BIN:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache_root="${SUTRA_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sutra-e2e}"
name=${name:?}
fails=0

skip() {
    echo "SKIP real_host.$name: $*"
    exit 125
}
ok() { echo "ok   $1"; }
bad() {
    echo "FAIL $1"
    fails=$((fails + 1))
}
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
finish() {
    [ "$fails" = 0 ] && echo "all real_host.$name checks passed" || echo "$fails real_host.$name check(s) failed"
    [ "$fails" = 0 ]
}

# need_host PACKAGE VERSION BIN: the pinned host in $cache_root/BIN-VERSION (installed once;
# a second run reuses it). Two tests of one host (real_host.claude, .claude_permissions) start
# side by side: a lock on the cache makes the second wait for the first one's install.
# Sets host_bin.
need_host() {
    local pkg=$1 version=$2 bin=$3 lock
    command -v node >/dev/null 2>&1 || skip "node is not installed"
    command -v npm >/dev/null 2>&1 || skip "npm is not installed"
    command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
    local prefix="$cache_root/$bin-$version"
    host_bin="$prefix/node_modules/.bin/$bin"
    mkdir -p "$cache_root" || skip "cannot create $cache_root"
    exec {lock}>"$cache_root/.$bin-$version.lock" && flock "$lock"
    if [ ! -x "$host_bin" ] || [ "$(node -p "require('$prefix/node_modules/$pkg/package.json').version" 2>/dev/null)" != "$version" ]; then
        mkdir -p "$prefix" || skip "cannot create $prefix"
        echo "installing $pkg@$version into $prefix (once; later runs reuse it)"
        if ! timeout 600 npm install --prefix "$prefix" --no-audit --no-fund --fetch-retries=1 \
            --fetch-timeout=60000 "$pkg@$version" >"$prefix/install.log" 2>&1; then
            tail -5 "$prefix/install.log"
            skip "npm could not install $pkg@$version (registry unreachable?)"
        fi
    fi
    exec {lock}>&-
    "$host_bin" --version >/dev/null 2>&1 || skip "$host_bin does not run on this machine"
}

# A throwaway HOME and store: never the user's real ~/.claude, ~/.codex or ~/.config/opencode.
sandbox() {
    T=$(mktemp -d "/tmp/sutra-real-$name-XXXXXX")
    # SUTRA_E2E_KEEP=1 keeps the folder (requests the host sent, its debug log) for a look.
    if [ "${SUTRA_E2E_KEEP:-0}" = 1 ]; then
        trap 'stop_mock; echo "kept $T"' EXIT
    else
        trap 'stop_mock; chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
    fi
    export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share
    export XDG_CACHE_HOME=$T/home/.cache XDG_STATE_HOME=$T/home/.local/state
    export SUTRA_HOME=$T/store SUTRA_STATS=0
    unset SUTRA_CONFIG SUTRA_DEBUG SUTRA_MODE SUTRA_MIN_BYTES CLAUDE_CONFIG_DIR CODEX_HOME HERMES_HOME
    mkdir -p "$HOME" "$T/proj" "$T/mock"
    # 3000 build lines and one error line in the middle (about 210 kB): over every host's
    # inline limit, and the error line is where head/tail truncation loses it.
    python3 - "$T/big.log" <<'PY'
import sys
lines = [f"[INFO] {i:04d} compiling src/module_{i % 37}.cpp -> build/obj/module_{i % 37}.o ... ok\n" for i in range(3000)]
lines[1700] = "src/billing.cpp:412: error: use of undeclared identifier 'round_cents'\n"
open(sys.argv[1], "w").write("".join(lines))
PY
    error_line="src/billing.cpp:412: error: use of undeclared identifier 'round_cents'"
}

mock_pid=
# start_mock SCRIPT STEPS_JSON: sets port.
start_mock() {
    MOCK_DIR=$T/mock MOCK_STEPS=$2 node "$here/$1" >"$T/mock/log" 2>&1 &
    mock_pid=$!
    for _ in $(seq 100); do [ -s "$T/mock/port" ] && break; sleep 0.1; done
    port=$(cat "$T/mock/port" 2>/dev/null) || skip "the mock model did not start"
}
stop_mock() { [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null; mock_pid=; }

# json FILE EXPR: evaluates a Python expression over the parsed file `d` and prints the result.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# The model-visible tool result checks shared by every host: $1 = the text the model got.
check_view() {
    local view=$1 size
    size=$(stat -c %s "$T/big.log")
    printf '%s' "$view" >"$T/view.txt"
    echo "  model-visible result: $(wc -c <"$T/view.txt") bytes for a $size-byte output"
    check "the model sees sutra's marker" 'grep -q "\[sutra: " "$T/view.txt"'
    check "the model sees the error line" 'grep -qF "$error_line" "$T/view.txt"'
    check "the view is much smaller than the output (< 1/4)" '[ $(($(wc -c <"$T/view.txt") * 4)) -lt $size ]'
    marker_id=$(grep -o 'su_[A-Za-z0-9_-]*' "$T/view.txt" | head -1)
    check "the marker names a store id" '[ -n "$marker_id" ]'
}

# restore_matches FILE: `sutra restore ID --all` gives FILE's bytes back exactly.
restore_matches() {
    local want=$1
    "$SUTRA_BIN" restore "$marker_id" --all >"$T/restored" 2>"$T/restore.err"
    check "sutra restore $marker_id --all gives the original bytes" 'cmp -s "$want" "$T/restored"'
    if ! cmp -s "$want" "$T/restored"; then # say why, for a failure seen once under load
        echo "  wanted $(wc -c <"$want") bytes, restored $(wc -c <"$T/restored"): $(cmp "$want" "$T/restored" 2>&1 | head -1)"
        sed 's/^/  restore: /' "$T/restore.err" | head -5
    fi
}

# tool_output API N: the text of the Nth tool result the model got, from the mock request that
# carries exactly N of them. API: anthropic (Claude Code), responses (Codex) or chat (OpenCode).
# With JSON=1 it prints {"is_error", "text"} instead.
tool_output() {
    local f
    for f in "$T"/mock/req-*.json; do
        python3 - "$f" "$1" "$2" "${JSON:-0}" <<'PY' && return 0
import json, sys
d = json.load(open(sys.argv[1]))
api, n = sys.argv[2], int(sys.argv[3])
if api == "anthropic":
    items = [(b.get("content"), bool(b.get("is_error"))) for m in d.get("messages", []) if isinstance(m.get("content"), list) for b in m["content"] if b.get("type") == "tool_result"]
elif api == "responses":
    items = [(i["output"], False) for i in d.get("input", []) if i.get("type") == "function_call_output"]
else:
    items = [(m["content"], False) for m in d.get("messages", []) if m.get("role") == "tool"]
if len(items) != n:
    sys.exit(1)
c, err = items[-1]
if isinstance(c, str):
    text = c
elif api == "anthropic":  # a block list: its first text block (an MCP result's own text)
    text = [b["text"] for b in c if b.get("type") == "text"][0]
else:
    text = "".join(b.get("text", "") for b in c)
print(json.dumps({"is_error": err, "text": text}) if sys.argv[4] == "1" else text, end="")
PY
    done
    return 1
}

# The two checks every host shares after the view: $1 = the model-visible text of the shell
# restore of the view's first marker range, $2 = that of `printf 'small output\n'`. The restore's
# own stdout (run again here) must be in the first whole, with no sutra marker (never compressed
# again); the small output must arrive as the host shows it without sutra.
check_restore_and_small() {
    local range rid first last
    printf '%s' "$1" >"$T/restore-result.txt"
    printf '%s' "$2" >"$T/small-result.txt"
    range=$(grep -o '[a-z_]*(id="[^"]*", mode="lines", start=[0-9]*, end=[0-9]*)' "$T/view.txt" | head -1)
    rid=$(echo "$range" | sed 's/.*id="\([^"]*\)".*/\1/')
    first=$(echo "$range" | sed 's/.*start=\([0-9]*\).*/\1/')
    last=$(echo "$range" | sed 's/.*end=\([0-9]*\).*/\1/')
    "$SUTRA_BIN" restore "$rid" --lines "$first-$last" >"$T/want-restore" 2>/dev/null
    echo "  shell restore of lines $first-$last: the model got $(wc -c <"$T/restore-result.txt") bytes ($(wc -c <"$T/want-restore") bytes of stdout)"
    check "a sutra restore through the shell reaches the model untouched" \
        '[ -s "$T/want-restore" ] && python3 -c "import sys; got=open(sys.argv[1]).read(); want=open(sys.argv[2]).read().rstrip(chr(10)); sys.exit(not (want in got and \"[sutra: \" not in got))" "$T/restore-result.txt" "$T/want-restore"'
    check "a small output arrives unchanged" \
        'python3 -c "import sys; got=open(sys.argv[1]).read(); sys.exit(not (got.rstrip(chr(10)).endswith(\"small output\") and \"[sutra: \" not in got))" "$T/small-result.txt"'
}
