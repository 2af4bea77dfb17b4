#!/usr/bin/env bash
# `sutra install --client hermes` into a Hermes profile of a throwaway HOME, the installed plugin
# under a Python harness playing Hermes' plugin context (hermes_harness.py) against the real
# sutra-host, then uninstall: every file byte-identical. Needs SUTRA_BIN, SUTRA_HOST_BIN, SUTRA_SRC.
set -u
: "${SUTRA_BIN:?}" "${SUTRA_HOST_BIN:?}" "${SUTRA_SRC:?}"
command -v python3 >/dev/null || { echo "python3 missing: skip"; exit 125; }

T=$(mktemp -d /tmp/sutra-e2e-hermes-XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home XDG_DATA_HOME=$T/data XDG_CONFIG_HOME=$T/config SUTRA_HOME=$T/store SUTRA_STATS=0
unset SUTRA_CONFIG SUTRA_DEBUG SUTRA_MODE SUTRA_MIN_BYTES
export HERMES_HOME=$HOME/.hermes/profiles/work
mkdir -p "$HERMES_HOME"
printf '# work profile\nmodel:\n  default: m1\nplugins:\n  enabled: [other]\n' > "$HERMES_HOME/config.yaml"
(cd "$HOME" && find . -type f -exec sha256sum {} + | sort) > "$T/before.sums"
PLUGIN=$HERMES_HOME/plugins/sutra
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

out=$("$SUTRA_BIN" install --client hermes --dry-run); rc=$?
check "dry run shows the config change and writes nothing" \
    '[ $rc = 0 ] && echo "$out" | grep -q "^+  enabled: \[other, sutra\]" && [ ! -e "$PLUGIN" ]'
check "install" '"$SUTRA_BIN" install --client hermes >/dev/null'
check "enabled in that profile's config.yaml" 'grep -q "enabled: \[other, sutra\]" "$HERMES_HOME/config.yaml"'
check "plugin names the absolute sutra-host" 'grep -qF "SUTRA_HOST = \"$SUTRA_HOST_BIN\"" "$PLUGIN/__init__.py"'
check "install is idempotent" '"$SUTRA_BIN" install --client hermes | grep -q "already installed"'
out=$("$SUTRA_BIN" doctor --client hermes); rc=$?
check "doctor runs the installed command" '[ $rc = 0 ] && echo "$out" | grep -q "mcp_sutra_sutra_restore(id="'
check "the MCP server is registered with the profile's namespace" 'grep -q "\"--namespace\", \"hermes-work\"" "$HERMES_HOME/config.yaml"'
if EXPECT_NAMESPACE=hermes-work python3 "$SUTRA_SRC/tests/e2e/hermes_harness.py" "$PLUGIN"; then
    ok "the installed plugin under the harness"
else
    bad "the installed plugin under the harness"
fi
check "uninstall" '"$SUTRA_BIN" uninstall --client hermes >/dev/null'
(cd "$HOME" && find . -type f -exec sha256sum {} + | sort) > "$T/after.sums"
check "install then uninstall leaves every file byte-identical" 'cmp -s "$T/before.sums" "$T/after.sums"'
check "the plugin folder is gone, bytecode cache included" '[ ! -e "$PLUGIN" ]'

[ $fails = 0 ] && echo "all hermes e2e checks passed" || echo "$fails hermes e2e check(s) failed"
[ $fails = 0 ]
