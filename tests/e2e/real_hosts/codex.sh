#!/usr/bin/env bash
# Codex CLI 0.171.0, the real binary, offline against mock_codex.mjs (docs/adapters.md, "Real hosts"), with sutra
# installed into a throwaway CODEX_HOME by `sutra install --client codex --raise-output-cap`.
#
# What the host showed on 0.171.0 (recorded from this test and docs/adapters.md, "Codex: whole
# outputs"): Codex cuts shell output *before* the PostToolUse hook, to 10,000 bytes while
# `tool_output_token_limit` is unset, else to the smaller of that key and exec_command's
# `max_output_tokens` (10,000 tokens unless the model asks for more), at 4 bytes a token. With
# --raise-output-cap sutra raises the key to 65,536 tokens, only when Codex's own app-server
# (`hooks/list`, asked by install and doctor through the `codex` in PATH) reports sutra's hook
# trusted and enabled with the command sutra wrote: here the user's config.toml already trusts
# it (a `[hooks.state."KEY"] trusted_hash`, the hash read from `hooks/list`, as /hooks would
# write it), so codex exec runs without --dangerously-bypass-hook-trust and the hook runs because
# Codex trusts it. Then an upgrade from another prefix rewrites the hook, which Codex reports
# `modified`: the cap stays down and doctor flags a raised one; so do a wrong or empty
# trusted_hash and `enabled = false`. The model asks for a budget above the whole output, the hook gets it whole
# and the model gets only sutra's view, through {"decision":"block","reason":VIEW}. MCP tools
# reach the model as a namespace per server ("mcp__sutra" holding "sutra_restore"); hooks name
# them mcp__sutra__sutra_restore, and so do the markers. `codex mcp get sutra --json` shows the
# registered server (Codex does not connect for it); `codex exec` starts it and offers its tools.
name=codex
source "$(dirname "$0")/lib.sh"
need_host @openai/codex 0.171.0 codex
sandbox
# sutra install and doctor ask the `codex` in PATH whether it trusts sutra's hook.
PATH=$(dirname "$host_bin"):$PATH
unset SUTRA_CODEX_BIN
cd "$T/proj" || exit 1
export CODEX_HOME=$HOME/.codex MOCK_KEY=dummy
# Codex starts MCP servers with a few variables only (HOME, PATH, …), not SUTRA_HOME: the store
# is the default one under this HOME, as for a user who never set SUTRA_HOME.
unset SUTRA_HOME
mkdir -p "$CODEX_HOME"
# A failing test run of about 120 KB whose failure lines sit in the middle; it exits with 1.
cat >"$T/failing_tests.py" <<'PY'
import sys
out = ["============================= test session starts ==============================\n",
       "platform linux -- Python 3.11.2, pytest-8.3.4, pluggy-1.5.0\n", "collected 1500 items\n", "\n"]
for i in range(1500):
    out.append(f"tests/unit/test_module_{i % 40:02d}.py::test_case_{i:04d} PASSED{' ' * 24}[{i * 100 // 1500:3d}%]\n")
    if i == 700:
        out += ["tests/unit/test_billing.py::test_round_cents FAILED                        [ 46%]\n",
                "E       AssertionError: assert 101 == 100\n",
                "E        +  where 101 = round_cents(100.5)\n"]
    if i == 820:
        out += ["tests/unit/test_ledger.py::test_balance_after_refund FAILED               [ 54%]\n",
                "E       KeyError: 'refund_id'\n"]
out += ["=========================== short test summary info ============================\n",
        "FAILED tests/unit/test_billing.py::test_round_cents - AssertionError: assert 101 == 100\n",
        "FAILED tests/unit/test_ledger.py::test_balance_after_refund - KeyError: 'refund_id'\n",
        "======================= 2 failed, 1500 passed in 41.27s ========================\n"]
sys.stdout.write("".join(out))
sys.exit(1)
PY
python3 "$T/failing_tests.py" >"$T/tests.log"
must_keep=$(grep -E '^(E |FAILED|.* FAILED )' "$T/tests.log")

# The model asks for a budget above the whole output (exec_command's max_output_tokens).
start_mock mock_codex.mjs "$(python3 -c 'import json,sys; print(json.dumps([{"tool":"exec_command","input":{"cmd":"cat "+sys.argv[1],"max_output_tokens":100000}},{"bash_restore":sys.argv[2],"tool":"exec_command","field":"cmd","input":{"max_output_tokens":100000}},{"tool":"exec_command","input":{"cmd":"printf '"'"'small output\\n'"'"'"}},{"tool":"exec_command","input":{"cmd":"python3 "+sys.argv[3],"max_output_tokens":100000}},{"mcp_restore":True,"tool":"sutra_restore","namespace":"mcp__sutra"}]))' "$T/big.log" "$SUTRA_BIN" "$T/failing_tests.py")"

# hooks_list HOME: what Codex's own app-server says of the hooks there: "KEY HASH STATUS ENABLED"
# lines.
hooks_list() {
    CODEX_HOME=$1 timeout 60 python3 - "$host_bin" <<'PY'
import json, subprocess, sys
p = subprocess.Popen([sys.argv[1], "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
for m in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "t", "version": "1"}}},
          {"jsonrpc": "2.0", "method": "initialized"},
          {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": ["/tmp"]}}):
    p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
for line in p.stdout:
    d = json.loads(line)
    if d.get("id") == 2:
        for h in d["result"]["data"][0]["hooks"]:
            print(h["key"], h["currentHash"], h["trustStatus"], h["enabled"])
        break
p.kill()
PY
}

# In a scratch home first: a new hook is not trusted yet, so the cap stays (and the hash of
# sutra's hook definition, as Codex computes it, is read for the user's trust table below).
scratch=$T/scratch-codex
mkdir -p "$scratch"
CODEX_HOME=$scratch "$SUTRA_BIN" install --client codex --raise-output-cap >"$T/install-scratch.out" 2>&1
check "--raise-output-cap refuses while the hook is not trusted" 'grep -q "output cap not raised" "$T/install-scratch.out" && ! grep -q tool_output_token_limit "$scratch/config.toml"'
read -r _ hook_hash hook_status _ <<<"$(hooks_list "$scratch")"
echo "  Codex's hooks/list in the scratch home: $hook_hash $hook_status"
check "Codex itself reports the new hook untrusted" '[ "$hook_status" = untrusted ]'

# The user's own config.toml: the mock provider, another MCP server, and Codex's record that the
# user trusted sutra's hook (as /hooks writes it).
cat >"$CODEX_HOME/config.toml" <<TOML
model = "m1"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:$port/v1"
wire_api = "responses"
env_key = "MOCK_KEY"

[mcp_servers.mine]
command = "$SUTRA_BIN"
args = ["mcp"]

[hooks.state."$CODEX_HOME/hooks.json:post_tool_use:0:0"]
trusted_hash = "$hook_hash"
TOML
cp "$CODEX_HOME/config.toml" "$T/config.orig"

check "sutra install --client codex" '"$SUTRA_BIN" install --client codex >"$T/install.out"'
cat "$T/install.out"
check "the hook is in hooks.json" 'grep -qF "\"$SUTRA_HOST_BIN --adapter codex\"" "$CODEX_HOME/hooks.json"'
check "Codex itself reports sutra's hook trusted" '[ "$(hooks_list "$CODEX_HOME" | cut -d" " -f3)" = trusted ]'
check "install names the uncovered cut and --raise-output-cap" 'grep -qF "codex: sutra does not see shell output beyond Codex'"'"'s output cap (tool_output_token_limit unset: 10,000 bytes): Codex cuts it before the hook runs; to cover it: sutra install --client codex --raise-output-cap" "$T/install.out"'
check "sutra install --client codex --raise-output-cap" '"$SUTRA_BIN" install --client codex --raise-output-cap >"$T/install-cap.out"'
cat "$T/install-cap.out"
check "after the raise, install says sutra sees every shell output" 'grep -qF "codex: sutra sees every shell output the host shows the model" "$T/install-cap.out" && ! grep -q "does not see" "$T/install-cap.out"'

check "the cap is raised to 65536 tokens" 'grep -q "^tool_output_token_limit = 65536 # sutra --raise-output-cap$" "$CODEX_HOME/config.toml"'
check "install says Codex reported the hook trusted" 'grep -qF "raised to 65536 tokens (Codex reports sutra'"'"'s hook trusted and enabled)" "$T/install-cap.out"'
"$SUTRA_BIN" doctor --client codex >"$T/doctor.out" 2>&1
check "sutra doctor: the cap no longer cuts before sutra" 'grep -q "output cap: tool_output_token_limit = 65536" "$T/doctor.out" && ! grep -q "problem" "$T/doctor.out" && ! grep -q "does not see" "$T/doctor.out"' 
cp "$CODEX_HOME/config.toml" "$T/config.installed"
check "a second install changes nothing" '"$SUTRA_BIN" install --client codex --raise-output-cap >/dev/null && cmp -s "$T/config.installed" "$CODEX_HOME/config.toml"'
# Codex prints a warning before the JSON when CODEX_HOME is under /tmp: keep the JSON only.
mcp_get() { timeout 60 "$host_bin" mcp get "$1" --json 2>&1 | sed -n '/^{/,$p'; }
mcp_get sutra >"$T/mcp-get.json"
echo "  codex mcp get sutra --json: $(tr -d '\n' <"$T/mcp-get.json")"
check "codex mcp get shows sutra mcp, enabled, with the Codex tool spelling and --text-only" \
    '[ "$(json "$T/mcp-get.json" "(d[\"enabled\"], d[\"transport\"][\"command\"], d[\"transport\"][\"args\"])")" = "(True, '"'"'$SUTRA_BIN'"'"', ['"'"'mcp'"'"', '"'"'--restore-tool'"'"', '"'"'mcp__sutra__sutra_restore'"'"', '"'"'--text-only'"'"'])" ]'
mcp_get mine >"$T/mcp-mine.json"
check "the user's own MCP server is still there" '[ "$(json "$T/mcp-mine.json" "d[\"transport\"][\"args\"]")" = "['"'"'mcp'"'"']" ]'

started=$SECONDS
# No --dangerously-bypass-hook-trust: the hook runs because Codex trusts it.
timeout 300 "$host_bin" exec --skip-git-repo-check \
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

# The failing test run: sutra's view with every failure line, and the MCP restore the model asks.
tool_output responses 4 >"$T/tests-view.txt"
echo "  failing test run: the model got $(wc -c <"$T/tests-view.txt") bytes of $(wc -c <"$T/tests.log")"
check "the test run reaches the model as sutra's view (a marker)" 'grep -q "\[sutra: " "$T/tests-view.txt"'
check "every FAILED and E line is in the view" '(while IFS= read -r l; do grep -qxF -- "$l" "$T/tests-view.txt" || exit 1; done <<<"$must_keep")'
check "the view is at most 40% of the bytes" '[ $(($(wc -c <"$T/tests-view.txt") * 100)) -le $(($(wc -c <"$T/tests.log") * 40)) ]'
range=$(grep -o 'mcp__sutra__sutra_restore(id="[^"]*", mode="lines", start=[0-9]*, end=[0-9]*)' "$T/tests-view.txt" | head -1)
tid=$(echo "$range" | sed 's/.*id="\([^"]*\)".*/\1/')
first=$(echo "$range" | sed 's/.*start=\([0-9]*\).*/\1/')
last=$(echo "$range" | sed 's/.*end=\([0-9]*\).*/\1/')
sed -n "${first},${last}p" "$T/tests.log" >"$T/tests-elided"
tool_output responses 5 >"$T/mcp-restore.txt"
echo "  the model's MCP restore of lines $first-$last: $(wc -c <"$T/mcp-restore.txt") bytes ($(wc -c <"$T/tests-elided") elided)"
# One page (8 KiB) at a time: its bytes are the start of the elided lines, exactly.
check "the model-issued MCP restore returns the elided bytes (its first page)" '[ -s "$T/tests-elided" ] && python3 -c "import sys; got=open(sys.argv[1]).read(); want=open(sys.argv[2]).read(); sys.exit(not (want[:8000] in got and \"[sutra: \" not in got))" "$T/mcp-restore.txt" "$T/tests-elided"'
stop_mock

check "sutra uninstall --client codex" '"$SUTRA_BIN" uninstall --client codex >"$T/uninstall.out"'
cat "$T/uninstall.out"
check "config.toml is back to the original bytes" 'cmp -s "$T/config.orig" "$CODEX_HOME/config.toml"'
check "hooks.json is gone (install created it)" '[ ! -e "$CODEX_HOME/hooks.json" ]'

# An upgrade from another prefix: sutra trusted and its cap raised, then the same binaries run
# from another folder rewrite the hook's command, whose trust Codex then reports `modified`.
up=$T/upgrade-codex
mkdir -p "$up"
printf 'model = "m1"\n' >"$up/config.toml"
CODEX_HOME=$up "$SUTRA_BIN" install --client codex >/dev/null 2>&1
key="$up/hooks.json:post_tool_use:0:0"
# trust_as TOML_BODY: config.toml holds the user's lines and this trust table for sutra's hook.
trust_as() { printf 'model = "m1"\n\n[hooks.state."%s"]\n%s\n' "$key" "$1" >"$up/config.toml"; }
read -r _ old_hash _ _ <<<"$(hooks_list "$up")"
trust_as "trusted_hash = \"$old_hash\""
CODEX_HOME=$up "$SUTRA_BIN" install --client codex --raise-output-cap >"$T/up-raise.out" 2>&1
check "before the upgrade: trusted by Codex, the cap is raised" 'grep -q "^tool_output_token_limit = 65536 # sutra" "$up/config.toml"'
prefix=$T/prefix2
build=$(dirname "$(dirname "$SUTRA_HOST_BIN")")
mkdir -p "$prefix/bin" "$prefix/lib/sutra" "$prefix/share"
cp "$SUTRA_BIN" "$SUTRA_HOST_BIN" "$prefix/bin/"
cp -r "$build/lib/sutra/plugins" "$prefix/lib/sutra/"
cp -r "$build/share/sutra" "$prefix/share/"
CODEX_HOME=$up "$prefix/bin/sutra" install --client codex --raise-output-cap >"$T/up-install.out" 2>&1
cat "$T/up-install.out"
check "the upgrade rewrote the hook's command" 'grep -qF "\"$prefix/bin/sutra-host --adapter codex\"" "$up/hooks.json"'
read -r _ new_hash up_status _ <<<"$(hooks_list "$up")"
echo "  Codex's hooks/list after the upgrade: $up_status"
check "Codex itself reports the rewritten hook modified" '[ "$up_status" = modified ]'
check "the upgrade puts the cap back and says why" '! grep -q "^tool_output_token_limit" "$up/config.toml" && grep -q "put back as it was" "$T/up-install.out"'
CODEX_HOME=$up "$prefix/bin/sutra" install --client codex --raise-output-cap >"$T/up-install2.out" 2>&1
check "installing again, Codex says modified: the cap is not raised" '! grep -q "^tool_output_token_limit" "$up/config.toml" && grep -qF "output cap not raised: Codex reports sutra'"'"'s hook ($key) modified" "$T/up-install2.out"'
# A cap raised earlier (the line sutra writes) while Codex says modified: doctor flags it.
sed -i '1i tool_output_token_limit = 65536 # sutra --raise-output-cap' "$up/config.toml"
CODEX_HOME=$up "$prefix/bin/sutra" doctor --client codex >"$T/up-doctor.out" 2>&1
doctor_rc=$?
grep "problem" "$T/up-doctor.out"
check "sutra doctor flags the raised cap of a hook Codex reports modified (exit 1)" '[ "$doctor_rc" = 1 ] && grep -qF "problem: tool_output_token_limit = 65536 (raised by sutra) lets whole outputs through, but Codex reports sutra'"'"'s hook ($key) modified" "$T/up-doctor.out"'
CODEX_HOME=$up "$prefix/bin/sutra" install --client codex >"$T/up-install3.out" 2>&1
check "the next install puts that cap back" '! grep -q "^tool_output_token_limit" "$up/config.toml" && grep -q "put back as it was" "$T/up-install3.out"'

# A wrong or an empty trusted_hash, and a trusted but disabled hook: never raised.
for variant in 'trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"' \
    'trusted_hash = ""' "trusted_hash = \"$new_hash\""$'\n''enabled = false'; do
    trust_as "$variant"
    read -r _ _ status enabled <<<"$(hooks_list "$up")"
    CODEX_HOME=$up "$prefix/bin/sutra" install --client codex --raise-output-cap >"$T/up-variant.out" 2>&1
    echo "  ${variant//$'\n'/; }: Codex says $status, enabled $enabled"
    check "not raised ($status, enabled $enabled)" '{ [ "$status" != trusted ] || [ "$enabled" = False ]; } && ! grep -q "^tool_output_token_limit" "$up/config.toml" && grep -q "output cap not raised: Codex reports sutra" "$T/up-variant.out"'
    sed -i '1i tool_output_token_limit = 65536 # sutra --raise-output-cap' "$up/config.toml"
    CODEX_HOME=$up "$prefix/bin/sutra" doctor --client codex >"$T/up-doctor.out" 2>&1
    check "doctor flags a raised cap then" 'grep -q "problem: tool_output_token_limit = 65536 (raised by sutra) lets whole outputs through, but Codex reports sutra" "$T/up-doctor.out"'
done
# The same file with the new hook's hash and enabled: raised (the refusals above are Codex's).
trust_as "trusted_hash = \"$new_hash\""
CODEX_HOME=$up "$prefix/bin/sutra" install --client codex --raise-output-cap >"$T/up-trusted.out" 2>&1
check "trusted again in the new prefix: raised" 'grep -q "^tool_output_token_limit = 65536 # sutra" "$up/config.toml"'
finish
