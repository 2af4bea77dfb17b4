#!/usr/bin/env bash
# OpenCode 1.18.33, the real binary, offline against mock_opencode.mjs (docs/adapters.md, "Real hosts"), with
# sutra installed into a throwaway XDG_CONFIG_HOME by `sutra install --client opencode`.
#
# What the host showed on 1.18.33 (recorded from this test): bash output over 2000 lines or
# 51,200 bytes is cut before `tool.execute.after` to "...output truncated..." + the path + the
# last lines, with metadata.outputPath naming the whole output under
# $XDG_DATA_HOME/opencode/tool-output/; the plugin measures that file and the adapter compresses
# it, so the model sees sutra's view of the whole output, error line included. `opencode mcp
# list` spawns `sutra mcp` and reports it connected; its tools reach the model as
# <server>_<tool> (sutra_sutra_restore), the spelling the markers use. Once a plugin file
# exists OpenCode npm-installs @opencode-ai/plugin into the config folder (package.json,
# node_modules): the host's own files, left alone by uninstall.
name=opencode
source "$(dirname "$0")/lib.sh"
need_host opencode-ai 1.18.33 opencode
sandbox
cd "$T/proj" || exit 1
start_mock mock_opencode.mjs "$(python3 -c 'import json,sys; print(json.dumps([{"tool":"bash","input":{"command":"cat "+sys.argv[1],"description":"show the build log"}},{"bash_restore":sys.argv[2],"tool":"bash","field":"command","input":{"description":"restore the elided lines"}},{"tool":"bash","input":{"command":"printf '"'"'small output\\n'"'"'","description":"small"}}]))' "$T/big.log" "$SUTRA_BIN")"

# The user's own opencode.json: the mock provider, permissions (the log lives outside the
# project), another MCP server.
conf=$XDG_CONFIG_HOME/opencode
mkdir -p "$conf"
cat >"$conf/opencode.json" <<JSON
{
  "\$schema": "https://opencode.ai/config.json",
  "provider": {
    "mock": {
      "npm": "@ai-sdk/openai-compatible",
      "options": { "baseURL": "http://127.0.0.1:$port/v1", "apiKey": "dummy" },
      "models": { "m1": { "tool_call": true } }
    }
  },
  "permission": { "bash": "allow", "external_directory": "allow" },
  "mcp": {
    "mine": { "type": "local", "command": ["$SUTRA_BIN", "mcp"], "enabled": true }
  }
}
JSON
cp "$conf/opencode.json" "$T/opencode.orig"

check "sutra install --client opencode" '"$SUTRA_BIN" install --client opencode >"$T/install.out"'
cat "$T/install.out"
check "the plugin file is in place" 'grep -qF "$SUTRA_HOST_BIN" "$conf/plugins/sutra.js"'
check "mcp.sutra runs this sutra with the OpenCode tool spelling" \
    '[ "$(json "$conf/opencode.json" "d[\"mcp\"][\"sutra\"]")" = "{'"'"'type'"'"': '"'"'local'"'"', '"'"'command'"'"': ['"'"'$SUTRA_BIN'"'"', '"'"'mcp'"'"', '"'"'--restore-tool'"'"', '"'"'sutra_sutra_restore'"'"'], '"'"'enabled'"'"': True}" ]'
cp "$conf/opencode.json" "$T/opencode.installed"
check "a second install changes nothing" '"$SUTRA_BIN" install --client opencode >/dev/null && cmp -s "$T/opencode.installed" "$conf/opencode.json"'

started=$SECONDS
timeout 180 "$host_bin" mcp list >"$T/mcp-list.out" 2>&1
echo "  opencode mcp list: $(grep -a sutra "$T/mcp-list.out" | tr -d '\r' | head -2) ($((SECONDS - started)) s)"
check "opencode mcp list connects to sutra" 'grep -a "sutra" "$T/mcp-list.out" | grep -aq "connected"'

started=$SECONDS
timeout 300 "$host_bin" run "go" --model mock/m1 >"$T/run.out" 2>&1
echo "  opencode run exited $? after $(ls "$T/mock" | grep -c '^req-') model requests ($((SECONDS - started)) s)"
view=$(tool_output chat 1) || bad "no request carried the bash result (see $T/run.out)"
check_view "$view"
check "the markers name sutra_sutra_restore" 'grep -q "sutra_sutra_restore(id=\"$marker_id\"" "$T/view.txt"'
req=$(grep -l '"role":"tool"' "$T"/mock/req-*.json | head -1)
check "the model is offered sutra_sutra_restore" \
    '[ "$(json "$req" "any(t[\"function\"][\"name\"]==\"sutra_sutra_restore\" for t in d.get(\"tools\",[]))")" = True ]'
restore_matches "$T/big.log"
check_restore_and_small "$(tool_output chat 2)" "$(tool_output chat 3)"
stop_mock

check "sutra uninstall --client opencode" '"$SUTRA_BIN" uninstall --client opencode >"$T/uninstall.out"'
cat "$T/uninstall.out"
check "opencode.json is back to the original bytes" 'cmp -s "$T/opencode.orig" "$conf/opencode.json"'
check "the plugin file is gone" '[ ! -e "$conf/plugins/sutra.js" ]'
finish
