#!/usr/bin/env bash
# Black-box test of sutra-host and `sutra install/uninstall/doctor` in a throwaway HOME, plus a
# third-party adapter built outside the tree against the staged SDK headers and registered in
# a user registry. Needs SUTRA_BIN, SUTRA_HOST_BIN, SUTRA_BUILD (ctest passes them).
set -u
: "${SUTRA_BIN:?}" "${SUTRA_HOST_BIN:?}" "${SUTRA_BUILD:?}" "${SUTRA_SRC:?}"
command -v python3 >/dev/null || { echo "python3 missing: skip"; exit 125; }

T=$(mktemp -d /tmp/sutra-e2e-host-XXXXXX)
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
export HOME=$T/home XDG_DATA_HOME=$T/data XDG_CONFIG_HOME=$T/config SUTRA_HOME=$T/store SUTRA_STATS=0
export CLAUDE_CONFIG_DIR=$HOME/.claude CODEX_HOME=$HOME/.codex
unset SUTRA_CONFIG SUTRA_DEBUG SUTRA_MODE SUTRA_MIN_BYTES
mkdir -p "$HOME"
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

big_log() { python3 -c 'import sys
sys.stdout.write("".join(f"[INFO] compiling module_{i%7}.cpp ... ok\n" for i in range(400)) + "error: boom\n")'; }
claude_payload() { # $1 = stdout text file
    python3 -c 'import json,sys
print(json.dumps({"session_id":"s1","cwd":"/tmp/p","hook_event_name":"PostToolUse","tool_name":"Bash",
 "tool_input":{"command":"make"},"tool_response":{"stdout":open(sys.argv[1]).read(),"stderr":"",
 "interrupted":False}}))' "$1"; }

big_log > "$T/big.txt"
printf '1\n2\n3' > "$T/small.txt"

# --- dispatcher: list, translate, fail open
check "list shows both adapters loading" \
    '"$SUTRA_HOST_BIN" --list | grep -q "^claude .* abi 1  ok" && "$SUTRA_HOST_BIN" --list | grep -q "^codex .* abi 1  ok"'
out=$(claude_payload "$T/big.txt" | "$SUTRA_HOST_BIN" --adapter claude); rc=$?
check "claude large Bash -> updatedToolOutput with marker" \
    '[ $rc = 0 ] && echo "$out" | python3 -c "import json,sys; r=json.load(sys.stdin)[\"hookSpecificOutput\"][\"updatedToolOutput\"]; assert set(r)=={\"stdout\",\"stderr\",\"interrupted\"} and \"sutra restore su_\" in r[\"stdout\"]"'
out=$(claude_payload "$T/small.txt" | "$SUTRA_HOST_BIN" --adapter claude); rc=$?
check "claude small Bash -> nothing, exit 0" '[ $rc = 0 ] && [ -z "$out" ]'
out=$(printf '{"broken' | "$SUTRA_HOST_BIN" --adapter claude); rc=$?
check "malformed JSON -> nothing, exit 0" '[ $rc = 0 ] && [ -z "$out" ]'
out=$(claude_payload "$T/big.txt" | "$SUTRA_HOST_BIN" --adapter nosuch 2>&1); rc=$?
check "unknown adapter -> nothing, exit 0" '[ $rc = 0 ] && [ -z "$out" ]'
out=$(claude_payload "$T/big.txt" | SUTRA_DEBUG=1 "$SUTRA_HOST_BIN" --adapter nosuch 2>&1 >/dev/null)
check "SUTRA_DEBUG says why" 'echo "$out" | grep -q "not registered"'
mkdir -p "$XDG_CONFIG_HOME/sutra" && echo 'compress = [' > "$XDG_CONFIG_HOME/sutra/config.toml"
out=$(claude_payload "$T/big.txt" | "$SUTRA_HOST_BIN" --adapter claude); rc=$?
check "config error -> pass through" '[ $rc = 0 ] && [ -z "$out" ]'
rm -rf "$XDG_CONFIG_HOME/sutra"
out=$(python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cargo test"},"tool_response":open(sys.argv[1]).read()}))' "$T/big.txt" | "$SUTRA_HOST_BIN" --adapter codex)
check "codex large Bash -> decision:block" \
    'echo "$out" | python3 -c "import json,sys; r=json.load(sys.stdin); assert r[\"decision\"]==\"block\" and \"sutra restore su_\" in r[\"reason\"]"'

# --- third-party adapter, built outside the tree against the staged headers only
if command -v cmake >/dev/null; then
    cp -r "$SUTRA_SRC/tests/third_party_adapter" "$T/tp"
    if cmake -S "$T/tp" -B "$T/tp/build" -DSUTRA_INCLUDE_DIR="$SUTRA_BUILD/include" >"$T/tp.log" 2>&1 &&
        cmake --build "$T/tp/build" >>"$T/tp.log" 2>&1; then
        ok "third-party adapter builds outside the tree"
        mkdir -p "$XDG_DATA_HOME/sutra/plugins"
        cp "$T/tp/build/libexample_adapter.so" "$XDG_DATA_HOME/sutra/plugins/"
        printf '[adapters.example]\nmodule = "libexample_adapter.so"\n' > "$XDG_DATA_HOME/sutra/adapters.toml"
        check "third-party adapter listed" '"$SUTRA_HOST_BIN" --list | grep -q "^example .* abi 1  ok"'
        out=$(python3 -c 'import json,sys; print(json.dumps({"event":"after_tool","tool":"x","text":open(sys.argv[1]).read()}))' "$T/big.txt" | "$SUTRA_HOST_BIN" --adapter example)
        check "third-party adapter called through sutra-host" \
            'echo "$out" | python3 -c "import json,sys; r=json.load(sys.stdin); assert \"sutra restore --namespace example su_\" in r[\"replace\"]"'
        check "its namespace got the stored original" '[ -d "$SUTRA_HOME" ] && find "$SUTRA_HOME" -path "*example*" | grep -q .'
        chmod 0775 "$XDG_DATA_HOME/sutra/plugins"
        check "group-writable plugins folder refused, with the reason" \
            '"$SUTRA_HOST_BIN" --list | grep -q "^example .*FAILS: .*writable by group"'
        chmod 0755 "$XDG_DATA_HOME/sutra/plugins"
        rm -rf "$XDG_DATA_HOME/sutra"
    else
        bad "third-party adapter build (see below)"; cat "$T/tp.log"
    fi
fi

# --- sutra install / uninstall / doctor through the CLI
mkdir -p "$CLAUDE_CONFIG_DIR"
printf '{\n\t"model": "opus",\n\t"env": {"A": "1"}\n}' > "$CLAUDE_CONFIG_DIR/settings.json"
cp "$CLAUDE_CONFIG_DIR/settings.json" "$T/orig.json"
# The user's MCP servers (with CLAUDE_CONFIG_DIR set, Claude Code reads .claude.json there).
printf '{"mcpServers": {"mine": {"type": "stdio", "command": "m"}}}' > "$CLAUDE_CONFIG_DIR/.claude.json"
cp "$CLAUDE_CONFIG_DIR/.claude.json" "$T/orig-mcp.json"
out=$("$SUTRA_BIN" install --client claude --dry-run); rc=$?
check "dry run prints the change" '[ $rc = 0 ] && echo "$out" | grep -q "^+.*--adapter claude"'
check "dry run shows the MCP registration too" 'echo "$out" | grep -q "^+.*mcp__sutra__sutra_restore"'
check "dry run writes nothing" 'cmp -s "$T/orig.json" "$CLAUDE_CONFIG_DIR/settings.json" && cmp -s "$T/orig-mcp.json" "$CLAUDE_CONFIG_DIR/.claude.json" && [ "$(ls "$CLAUDE_CONFIG_DIR")" = settings.json ]'
check "install" '"$SUTRA_BIN" install --client claude >/dev/null'
check "hook command is the absolute sutra-host" \
    'grep -q "\"$SUTRA_HOST_BIN --adapter claude\"" "$CLAUDE_CONFIG_DIR/settings.json"'
check "the MCP server is this sutra, with the user's server kept" \
    'python3 -c "import json,sys; d=json.load(open(sys.argv[1]))[\"mcpServers\"]; assert d[\"sutra\"][\"command\"]==sys.argv[2] and d[\"sutra\"][\"args\"][:3]==[\"mcp\",\"--restore-tool\",\"mcp__sutra__sutra_restore\"] and d[\"mine\"]==dict(type=\"stdio\",command=\"m\")" "$CLAUDE_CONFIG_DIR/.claude.json" "$SUTRA_BIN"'
cp "$CLAUDE_CONFIG_DIR/settings.json" "$T/installed.json"
check "install is idempotent" '"$SUTRA_BIN" install --client claude | grep -q "already installed" && cmp -s "$T/installed.json" "$CLAUDE_CONFIG_DIR/settings.json"'
check "detect reports it" '"$SUTRA_BIN" detect | grep -q "^claude .*installed"'
check "detect reports the MCP registration" '"$SUTRA_BIN" detect | grep -q "^ *mcp *registered .*/\.claude\.json"'
out=$(claude_payload "$T/big.txt" | "$SUTRA_HOST_BIN" --adapter claude)
check "with the server registered, markers name mcp__sutra__sutra_restore" 'echo "$out" | grep -q "mcp__sutra__sutra_restore(id="'
out=$("$SUTRA_BIN" doctor --client claude); rc=$?
check "doctor runs the installed command and shows the replacement" \
    '[ $rc = 0 ] && echo "$out" | grep -q "updatedToolOutput" && echo "$out" | grep -q "mcp server registered"'
check "uninstall" '"$SUTRA_BIN" uninstall --client claude >/dev/null'
check "install then uninstall is byte-identical" \
    'cmp -s "$T/orig.json" "$CLAUDE_CONFIG_DIR/settings.json" && cmp -s "$T/orig-mcp.json" "$CLAUDE_CONFIG_DIR/.claude.json" && [ "$(ls -A "$CLAUDE_CONFIG_DIR" | tr "\n" " ")" = ".claude.json settings.json " ]'
check "codex install tells the user to trust the hook" '"$SUTRA_BIN" install --client codex | grep -q "/hooks"'
check "codex uninstall removes the file it created" '"$SUTRA_BIN" uninstall --client codex >/dev/null && [ ! -e "$CODEX_HOME/hooks.json" ]'

[ $fails = 0 ] && echo "all host e2e checks passed" || echo "$fails host e2e check(s) failed"
[ $fails = 0 ]
