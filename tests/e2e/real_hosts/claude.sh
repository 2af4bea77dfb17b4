#!/usr/bin/env bash
# Claude Code 2.1.332, the real binary, offline against mock_claude.mjs (docs/adapters.md, "Real hosts"), with
# sutra installed into a throwaway HOME by `sutra install --client claude`.
#
# What the host showed on 2.1.332 (recorded from this test): a Bash output over 30,000 chars
# reaches PostToolUse as a 30,000-char preview plus persistedOutputPath (the full text under
# ~/.claude/projects/<cwd>/<session>/tool-results/); the adapter compresses that file, and the
# model sees only sutra's view. `claude mcp list` spawns `sutra mcp` and reports it connected;
# the MCP tool reaches the model as mcp__sutra__sutra_restore, and the marker's own call,
# issued by the model, returns the elided lines. Claude Code rewrites ~/.claude.json on every
# run (startup counters, project state), so after a run uninstall can only strip our entry
# from it; the byte-identical round trip of that file is checked around a run instead.
name=claude
source "$(dirname "$0")/lib.sh"
need_host @anthropic-ai/claude-code 2.1.332 claude
sandbox
cd "$T/proj" || exit 1

# The user's own files: settings with another hook, and another MCP server of theirs.
mkdir -p "$HOME/.claude"
printf '{\n    "model": "sonnet",\n    "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "true"}]}]}\n}\n' >"$HOME/.claude/settings.json"
printf '{\n  "mcpServers": {\n    "mine": {\n      "type": "stdio",\n      "command": "%s",\n      "args": ["mcp"]\n    }\n  }\n}\n' "$SUTRA_BIN" >"$HOME/.claude.json"
cp "$HOME/.claude/settings.json" "$T/settings.orig"
cp "$HOME/.claude.json" "$T/claude.json.orig"

check "sutra install --client claude" '"$SUTRA_BIN" install --client claude >"$T/install.out"'
cat "$T/install.out"
check "the hook is in settings.json" 'grep -qF "\"$SUTRA_HOST_BIN --adapter claude\"" "$HOME/.claude/settings.json"'
check "the default install has the Bash route, auto (PreToolUse, no SUTRA_BASH_ROUTE)" \
    '[ "$(json "$HOME/.claude/settings.json" "d[\"hooks\"][\"PreToolUse\"][-1][\"hooks\"][0][\"command\"]")" = "SUTRA_PROGRAM=$SUTRA_BIN $SUTRA_HOST_BIN --adapter claude" ]'
check "sutra detect says the route is auto" '"$SUTRA_BIN" detect | grep -q "^ *bash *auto "'
check "mcpServers.sutra runs this sutra with the Claude tool spelling" \
    '[ "$(json "$HOME/.claude.json" "d[\"mcpServers\"][\"sutra\"]")" = "{'"'"'type'"'"': '"'"'stdio'"'"', '"'"'command'"'"': '"'"'$SUTRA_BIN'"'"', '"'"'args'"'"': ['"'"'mcp'"'"', '"'"'--restore-tool'"'"', '"'"'mcp__sutra__sutra_restore'"'"', '"'"'--text-only'"'"']}" ]'
check "the user's own MCP server is untouched" '[ "$(json "$HOME/.claude.json" "d[\"mcpServers\"][\"mine\"][\"args\"]")" = "['"'"'mcp'"'"']" ]'
cp "$HOME/.claude/settings.json" "$T/settings.installed"
cp "$HOME/.claude.json" "$T/claude.json.installed"
check "a second install changes nothing" '"$SUTRA_BIN" install --client claude >/dev/null && cmp -s "$T/settings.installed" "$HOME/.claude/settings.json" && cmp -s "$T/claude.json.installed" "$HOME/.claude.json"'
check "sutra detect reports the MCP registration" '"$SUTRA_BIN" detect | grep -q "mcp .*registered .*\.claude\.json"'
check "uninstall before any run restores both files byte for byte" \
    '"$SUTRA_BIN" uninstall --client claude >/dev/null && cmp -s "$T/settings.orig" "$HOME/.claude/settings.json" && cmp -s "$T/claude.json.orig" "$HOME/.claude.json"'
# The PostToolUse route on its own first: without the Bash route, as --no-wrap-bash installs it.
check "sutra install --client claude --no-wrap-bash: no PreToolUse route" \
    '"$SUTRA_BIN" install --client claude --no-wrap-bash >/dev/null && ! grep -q PreToolUse "$HOME/.claude/settings.json"'

export ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1
started=$SECONDS
timeout 120 "$host_bin" mcp list >"$T/mcp-list.out" 2>&1
echo "  claude mcp list: $(grep sutra "$T/mcp-list.out") ($((SECONDS - started)) s)"
check "claude mcp list connects to sutra" 'grep -q "^sutra: .*Connected" "$T/mcp-list.out"'

# The model runs the log through Bash, then issues the marker's own restore call.
start_mock mock_claude.mjs "$(python3 -c 'import json,sys; print(json.dumps([{"tool":"Bash","input":{"command":"cat "+sys.argv[1],"description":"show the build log"}},{"restore":"mcp__sutra__sutra_restore"}]))' "$T/big.log")"
started=$SECONDS
ANTHROPIC_BASE_URL=http://127.0.0.1:$port timeout 300 "$host_bin" -p "go" \
    --allowedTools "Bash mcp__sutra__sutra_restore" --debug-file "$T/debug.log" >"$T/run.out" 2>&1
echo "  claude -p exited $? after $(ls "$T/mock" | grep -c '^req-') model requests ($((SECONDS - started)) s)"
view=$(tool_output anthropic 1) || bad "no request carried the Bash result (see $T/run.out)"
check_view "$view"
check "the marker names the MCP tool as Claude Code shows it" 'grep -q "mcp__sutra__sutra_restore(id=\"$marker_id\"" "$T/view.txt"'
# 2.1.332 defers MCP tools: their names are listed for ToolSearch, not in `tools`.
check "the model is told about mcp__sutra__sutra_restore" 'grep -q "mcp__sutra__sutra_restore" "$T/mock/req-0.json"'
check "the model is not offered sutra_exec or the file tools (the user did not opt in)" \
    '! grep -Eq "mcp__sutra__sutra_(exec|read|outline|symbol)" "$T/mock/req-0.json"'
restore_matches "$T/big.log"

# The model-issued MCP restore: the next request carries the elided lines exactly.
restored=$(tool_output anthropic 2) || bad "no request carried the MCP restore result"
printf '%s' "$restored" >"$T/mcp-restored"
range=$(grep -o 'mcp__sutra__sutra_restore(id="[^"]*", mode="lines", start=[0-9]*, end=[0-9]*)' "$T/view.txt" | head -1)
first=$(echo "$range" | sed 's/.*start=\([0-9]*\).*/\1/')
last=$(echo "$range" | sed 's/.*end=\([0-9]*\).*/\1/')
sed -n "${first},${last}p" "$T/big.log" >"$T/want-range"
echo "  model-issued $range -> $(wc -c <"$T/mcp-restored") bytes"
check "the model-issued MCP restore returns the elided lines byte for byte (its first page)" \
    '[ -s "$T/mcp-restored" ] && python3 -c "import sys; got=open(sys.argv[1],\"rb\").read(); sys.exit(not open(sys.argv[2],\"rb\").read().startswith(got))" "$T/mcp-restored" "$T/want-range"'
stop_mock


# ---- Failing commands, with the default install ------------------------------------------
# Claude Code sends a non-zero exit to PostToolUseFailure, which cannot replace output; the
# PreToolUse route runs Bash commands under `sutra exec` instead. The default install's route
# (auto) wraps only where wrapping changes no permission outcome: here every Bash command is
# allowed (--allowedTools Bash), so it wraps. The model runs a failing build, restores one
# elided range through the shell, runs a small command, then `cd sub && <failing tests>` and
# `pwd`.
check "sutra install --client claude (the default: the auto route)" '"$SUTRA_BIN" install --client claude >"$T/install-wrap.out"'
check "the PreToolUse route for Bash is in settings.json" \
    '[ "$(json "$HOME/.claude/settings.json" "d[\"hooks\"][\"PreToolUse\"][-1][\"matcher\"]")" = Bash ]'
rm -f "$T"/mock/req-*.json "$T/mock/port"
# Then `cd sub && <a failing test run of about 70 KB>` (exit 3, 13 failure lines spread through
# it): the route keeps the cd in the host's shell and wraps only the test run. Claude Code
# 2.1.332 keeps a command's directory change only when the command succeeds (with or without
# the route, as run by hand: after `cd sub && sh -c "exit 3"` the next `pwd` shows the project
# folder both ways), so the `pwd` after the failing run shows the project folder, and after
# `cd sub && <the same tests, passing>` it shows sub.
mkdir -p "$T/proj/sub"
cp "$here/run_tests.py" "$T/proj/sub/run_tests.py"
python3 "$T/proj/sub/run_tests.py" >"$T/sub-tests.log"
start_mock mock_claude.mjs "$(python3 -c 'import json,sys; print(json.dumps([{"tool":"Bash","input":{"command":"cat "+sys.argv[1]+"; exit 3","description":"build"}},{"bash_restore":sys.argv[2]},{"tool":"Bash","input":{"command":"printf '"'"'small output\\n'"'"'","description":"small"}},{"tool":"Bash","input":{"command":"cd sub && python3 run_tests.py","description":"tests in sub"}},{"tool":"Bash","input":{"command":"pwd","description":"where"}},{"tool":"Bash","input":{"command":"cd sub && python3 run_tests.py ok","description":"passing tests in sub"}},{"tool":"Bash","input":{"command":"pwd","description":"where now"}}]))' "$T/big.log" "$SUTRA_BIN")"
started=$SECONDS
ANTHROPIC_BASE_URL=http://127.0.0.1:$port timeout 300 "$host_bin" -p "go" \
    --allowedTools "Bash mcp__sutra__sutra_restore" --debug-file "$T/debug-wrap.log" >"$T/run-wrap.out" 2>&1
echo "  claude -p (default install) exited $? after $(ls "$T/mock" | grep -c '^req-') model requests ($((SECONDS - started)) s)"
result() { JSON=1 tool_output anthropic "$1" >"$T/result-$1.json"; }
result 1 || bad "no request carried the failing command's result (see $T/run-wrap.out)"
python3 -c 'import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))["text"])' "$T/result-1.json" >"$T/fail-view.txt"
echo "  failing command: the model got $(wc -c <"$T/fail-view.txt") bytes for a $(stat -c %s "$T/big.log")-byte output"
check "the failure still reaches the model as a failure (is_error, Exit code 3)" \
    '[ "$(json "$T/result-1.json" "d[\"is_error\"]")" = True ] && head -1 "$T/fail-view.txt" | grep -qx "Exit code 3"'
check "the failing command's output is sutra's view, with its marker" 'grep -q "\[sutra: " "$T/fail-view.txt"'
check "the failing command's error line is visible" 'grep -qF "$error_line" "$T/fail-view.txt"'
check "the failing command's view is much smaller (< 1/4) and under Claude Code's 10,000-char cut" \
    '[ $(($(wc -c <"$T/fail-view.txt") * 4)) -lt $(stat -c %s "$T/big.log") ] && [ $(wc -c <"$T/fail-view.txt") -lt 10000 ] && ! grep -q "characters truncated" "$T/fail-view.txt"'
range=$(grep -o 'mcp__sutra__sutra_restore(id="[^"]*", mode="lines", start=[0-9]*, end=[0-9]*)' "$T/fail-view.txt" | head -1)
rid=$(echo "$range" | sed 's/.*id="\([^"]*\)".*/\1/')
first=$(echo "$range" | sed 's/.*start=\([0-9]*\).*/\1/')
last=$(echo "$range" | sed 's/.*end=\([0-9]*\).*/\1/')
"$SUTRA_BIN" restore "$rid" --lines "$first-$last" >"$T/want-restore" 2>/dev/null
result 2 || bad "no request carried the shell restore's result"
check "a sutra restore through Bash reaches the model untouched" \
    '[ -s "$T/want-restore" ] && python3 -c "import json,sys; got=json.load(open(sys.argv[1]))[\"text\"]; want=open(sys.argv[2]).read().rstrip(\"\\n\"); sys.exit(not (got.startswith(want) and \"[sutra: \" not in got))" "$T/result-2.json" "$T/want-restore"'
result 3 || bad "no request carried the small command's result"
check "a small output arrives unchanged" '[ "$(json "$T/result-3.json" "d[\"text\"]")" = "small output" ]'
check "the debug log shows the Bash commands ran as rewritten by the hook" 'grep -q "exec --shell" "$T/debug-wrap.log"'
result 4 || bad "no request carried the cd command's result"
python3 -c 'import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))["text"])' "$T/result-4.json" >"$T/cd-view.txt"
echo "  cd sub && failing tests: the model got $(wc -c <"$T/cd-view.txt") bytes of $(wc -c <"$T/sub-tests.log")"
check "cd sub && failing tests: still a failure with its status (is_error, Exit code 3)" \
    '[ "$(json "$T/result-4.json" "d[\"is_error\"]")" = True ] && head -1 "$T/cd-view.txt" | grep -qx "Exit code 3"'
check "cd sub && failing tests: sutra's view (a marker)" 'grep -q "\[sutra: " "$T/cd-view.txt"'
check "cd sub && failing tests: all 26 failure lines are visible" \
    '[ "$(grep -c FAILED "$T/sub-tests.log")" = 26 ] && (grep FAILED "$T/sub-tests.log" | while IFS= read -r l; do grep -qxF -- "$l" "$T/cd-view.txt" || exit 1; done)'
check "the hook kept the cd in the host's shell and wrapped the rest" 'grep -q "cd sub && .*exec --shell" "$T/debug-wrap.log"'
result 5 || bad "no request carried the pwd result"
check "after the failing run, pwd shows the project folder (the host drops a failed command's cd)" '[ "$(json "$T/result-5.json" "d[\"text\"]")" = "$T/proj" ]'
result 6 || bad "no request carried the passing run's result"
check "cd sub && passing tests: no failure" '[ "$(json "$T/result-6.json" "d[\"is_error\"]")" = False ]'
result 7 || bad "no request carried the second pwd result"
check "a later pwd in the same session shows sub" '[ "$(json "$T/result-7.json" "d[\"text\"]")" = "$T/proj/sub" ]'
stop_mock

check "sutra uninstall --client claude" '"$SUTRA_BIN" uninstall --client claude >"$T/uninstall.out"'
cat "$T/uninstall.out"
check "settings.json is back to the original bytes" 'cmp -s "$T/settings.orig" "$HOME/.claude/settings.json"'

finish
