#!/usr/bin/env bash
# `sutra install --client opencode` into a throwaway HOME, then the installed plugin file under
# node against the real sutra-host (opencode_plugin.mjs), then uninstall: byte-identical.
# Needs SUTRA_BIN, SUTRA_HOST_BIN, SUTRA_SRC (ctest passes them).
set -u
: "${SUTRA_BIN:?}" "${SUTRA_HOST_BIN:?}" "${SUTRA_SRC:?}"
command -v node >/dev/null || { echo "node missing: skip"; exit 125; }

T=$(mktemp -d /tmp/sutra-e2e-opencode-XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home XDG_DATA_HOME=$T/data XDG_CONFIG_HOME=$T/config SUTRA_HOME=$T/store SUTRA_STATS=0
unset SUTRA_CONFIG SUTRA_DEBUG SUTRA_MODE SUTRA_MIN_BYTES
mkdir -p "$HOME" "$XDG_CONFIG_HOME/opencode" "$T/scratch"
printf '{\n  "$schema": "https://opencode.ai/config.json"\n}\n' > "$XDG_CONFIG_HOME/opencode/opencode.json"
(cd "$XDG_CONFIG_HOME" && find . -type f -exec sha256sum {} + | sort) > "$T/before.sums"
PLUGIN=$XDG_CONFIG_HOME/opencode/plugins/sutra.js
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

out=$("$SUTRA_BIN" install --client opencode --dry-run); rc=$?
check "dry run prints the new file and writes nothing" \
    '[ $rc = 0 ] && echo "$out" | grep -q "would create $PLUGIN" && [ ! -e "$PLUGIN" ]'
check "install" '"$SUTRA_BIN" install --client opencode >/dev/null'
check "plugin names the absolute sutra-host" 'grep -qF "const SUTRA_HOST = \"$SUTRA_HOST_BIN\"" "$PLUGIN"'
check "install is idempotent" '"$SUTRA_BIN" install --client opencode | grep -q "already installed"'
check "detect reports it" '"$SUTRA_BIN" detect | grep -q "^opencode .*installed"'
out=$("$SUTRA_BIN" doctor --client opencode); rc=$?
check "doctor runs the installed command" '[ $rc = 0 ] && echo "$out" | grep -q "sutra_sutra_restore(id="'
if node "$SUTRA_SRC/tests/e2e/opencode_plugin.mjs" "$PLUGIN" "$T/scratch"; then
    ok "the installed plugin under node"
else
    bad "the installed plugin under node"
fi
check "uninstall" '"$SUTRA_BIN" uninstall --client opencode >/dev/null'
(cd "$XDG_CONFIG_HOME" && find . -type f -exec sha256sum {} + | sort) > "$T/after.sums"
check "install then uninstall leaves the config files byte-identical" 'cmp -s "$T/before.sums" "$T/after.sums"'

[ $fails = 0 ] && echo "all opencode e2e checks passed" || echo "$fails opencode e2e check(s) failed"
[ $fails = 0 ]
