#!/usr/bin/env bash
# Codex CLI 0.171.0, the real binary, offline against mock_codex.mjs (docs/adapters.md, "Real hosts"), with sutra
# installed into a throwaway CODEX_HOME by `sutra install --client codex`.
#
# What the host showed on 0.171.0 (recorded from this test): Codex cuts shell output to
# `tool_output_token_limit` *before* the PostToolUse hook (about 10,000 chars by default, head
# and tail around "…N chars truncated…"), so with the default the hook never sees the middle of a
# long log. The budget is exec_command's `max_output_tokens` (default 10,000 tokens), capped by
# `tool_output_token_limit`: here the model asks for 100,000 and the user's config allows it, so
# the hook gets the whole output and the model gets only sutra's view, through
# {"decision":"block","reason":VIEW}. MCP tools reach the model as a namespace per server
# ("mcp__sutra" holding "sutra_restore"); hooks name them mcp__sutra__sutra_restore, and so do
# the markers. Hooks run only when trusted: --dangerously-bypass-hook-trust
# stands in for the user's /hooks approval. `codex mcp get sutra --json` shows the registered
# server (Codex does not connect for it); `codex exec` starts it and offers its tools to the model.
name=codex
source "$(dirname "$0")/lib.sh"
need_host @openai/codex 0.171.0 codex
sandbox
cd "$T/proj" || exit 1
export CODEX_HOME=$HOME/.codex MOCK_KEY=dummy
mkdir -p "$CODEX_HOME"
# The model asks for a budget above the whole output (exec_command's max_output_tokens).
start_mock mock_codex.mjs "$(python3 -c 'import json,sys; print(json.dumps([{"tool":"exec_command","input":{"cmd":"cat "+sys.argv[1],"max_output_tokens":100000}},{"bash_restore":sys.argv[2],"tool":"exec_command","field":"cmd","input":{"max_output_tokens":100000}},{"tool":"exec_command","input":{"cmd":"printf '"'"'small output\\n'"'"'"}}]))' "$T/big.log" "$SUTRA_BIN")"

# The user's own config.toml: the mock provider, the raised output limit, another MCP server.
cat >"$CODEX_HOME/config.toml" <<TOML
model = "m1"
model_provider = "mock"
tool_output_token_limit = 200000 # let hooks see whole outputs

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:$port/v1"
wire_api = "responses"
env_key = "MOCK_KEY"

[mcp_servers.mine]
command = "$SUTRA_BIN"
args = ["mcp"]
TOML
cp "$CODEX_HOME/config.toml" "$T/config.orig"

check "sutra install --client codex" '"$SUTRA_BIN" install --client codex >"$T/install.out"'
cat "$T/install.out"
check "the hook is in hooks.json" 'grep -qF "\"$SUTRA_HOST_BIN --adapter codex\"" "$CODEX_HOME/hooks.json"'
cp "$CODEX_HOME/config.toml" "$T/config.installed"
check "a second install changes nothing" '"$SUTRA_BIN" install --client codex >/dev/null && cmp -s "$T/config.installed" "$CODEX_HOME/config.toml"'
# Codex prints a warning before the JSON when CODEX_HOME is under /tmp: keep the JSON only.
mcp_get() { timeout 60 "$host_bin" mcp get "$1" --json 2>&1 | sed -n '/^{/,$p'; }
mcp_get sutra >"$T/mcp-get.json"
echo "  codex mcp get sutra --json: $(tr -d '\n' <"$T/mcp-get.json")"
check "codex mcp get shows sutra mcp, enabled, with the Codex tool spelling" \
    '[ "$(json "$T/mcp-get.json" "(d[\"enabled\"], d[\"transport\"][\"command\"], d[\"transport\"][\"args\"])")" = "(True, '"'"'$SUTRA_BIN'"'"', ['"'"'mcp'"'"', '"'"'--restore-tool'"'"', '"'"'mcp__sutra__sutra_restore'"'"'])" ]'
mcp_get mine >"$T/mcp-mine.json"
check "the user's own MCP server is still there" '[ "$(json "$T/mcp-mine.json" "d[\"transport\"][\"args\"]")" = "['"'"'mcp'"'"']" ]'

started=$SECONDS
timeout 300 "$host_bin" exec --skip-git-repo-check --dangerously-bypass-hook-trust \
    --sandbox danger-full-access "go" >"$T/run.out" 2>&1
echo "  codex exec exited $? after $(ls "$T/mock" | grep -c '^req-') model requests ($((SECONDS - started)) s)"
view=$(tool_output responses 1) || bad "no request carried the shell result (see $T/run.out)"
check_view "$view"
tools=$(json "$T/mock/req-0.json" '" ".join(sorted(t.get("name", "") + "".join("." + f["name"] for f in t.get("tools", [])) for t in d.get("tools", [])))')
echo "  tools offered to the model: $tools"
check "the markers name mcp__sutra__sutra_restore" 'grep -q "mcp__sutra__sutra_restore(id=\"$marker_id\"" "$T/view.txt"'
check "the model is offered it (namespace mcp__sutra, function sutra_restore)" 'echo " $tools " | grep -q " mcp__sutra[.a-z_]*\.sutra_restore[. ]"'
restore_matches "$T/big.log"
check_restore_and_small "$(tool_output responses 2)" "$(tool_output responses 3)"
stop_mock

check "sutra uninstall --client codex" '"$SUTRA_BIN" uninstall --client codex >"$T/uninstall.out"'
cat "$T/uninstall.out"
check "config.toml is back to the original bytes" 'cmp -s "$T/config.orig" "$CODEX_HOME/config.toml"'
check "hooks.json is gone (install created it)" '[ ! -e "$CODEX_HOME/hooks.json" ]'
finish
