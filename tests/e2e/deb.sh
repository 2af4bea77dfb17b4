#!/usr/bin/env bash
# The .deb: built by CPack from this build tree, unpacked into a temporary root (never installed
# system-wide by a test), then used as a user would: the package's sutra-host loads every
# adapter from the package's own folders, `sutra install` writes the package's paths into a
# throwaway HOME, and a hook call through the package returns a view whose restore is exact.
# Needs SUTRA_BUILD (ctest passes it).
set -u
: "${SUTRA_BUILD:?}"
for tool in cpack dpkg-deb python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool missing"; exit 125; }
done

T=$(mktemp -d /tmp/sutra-e2e-deb-XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home XDG_DATA_HOME=$T/data XDG_CONFIG_HOME=$T/config SUTRA_HOME=$T/store SUTRA_STATS=0
export CLAUDE_CONFIG_DIR=$HOME/.claude
unset SUTRA_CONFIG SUTRA_DEBUG SUTRA_MODE SUTRA_MIN_BYTES
mkdir -p "$HOME"
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }

if ! cpack -G DEB --config "$SUTRA_BUILD/CPackConfig.cmake" -B "$T/out" >"$T/cpack.log" 2>&1; then
    cat "$T/cpack.log"
    echo "FAIL cpack -G DEB"
    exit 1
fi
deb=$(ls "$T"/out/sutra_*.deb)
echo "built $(basename "$deb")"
dpkg-deb --field "$deb" Package Version Architecture Depends
dpkg-deb -c "$deb" | awk '{print $6}' > "$T/contents"
for f in usr/bin/sutra usr/bin/sutra-host usr/share/sutra/adapters.toml \
         usr/lib/sutra/plugins/libsutra_claude.so usr/lib/sutra/plugins/libsutra_codex.so \
         usr/lib/sutra/plugins/libsutra_opencode.so usr/lib/sutra/plugins/libsutra_hermes.so \
         usr/include/sutra/plugin_abi.h usr/include/sutra/plugin_sdk.hpp \
         usr/lib/sutra/sutra-watchdog; do
    check "package holds /$f" "grep -qx './$f' '$T/contents'"
done
if [ -f "$SUTRA_BUILD/share/sutra/o200k_base.sutratok" ]; then
    check "package holds the token tables" "grep -qx './usr/share/sutra/o200k_base.sutratok' '$T/contents'"
fi
# Every shared library the binaries load is a dependency (dpkg-shlibdeps); with the static
# runtime (cmake/Libraries.cmake) that is libc alone.
check "package depends on the shared libraries it links" \
    "dpkg-deb --field '$deb' Depends | grep -q libc6"

dpkg-deb -x "$deb" "$T/root"
bin=$T/root/usr/bin
check "sutra --version" '"$bin/sutra" --version | grep -q "^sutra "'
check "every shared library the binaries load is on the system" \
    "! ldd '$bin/sutra' '$bin/sutra-host' '$T'/root/usr/lib/sutra/plugins/*.so | grep -q 'not found'"
# While the command runs, the watchdog (core/exec/exec_watchdog.hpp) is the package's own program.
check "sutra exec runs its watchdog from the package" \
    "'$bin/sutra' exec --sh 'sleep 0.3; for p in /proc/[0-9]*; do readlink \$p/exe; done' | grep -qx '$T/root/usr/lib/sutra/sutra-watchdog'"
if [ -f "$SUTRA_BUILD/share/sutra/o200k_base.sutratok" ]; then
    check "the package's sutra counts tokens with its own tables" \
        '[ "$(printf "hello world" | "$bin/sutra" tokens)" = 2 ]'
fi
list=$("$bin/sutra-host" --list 2>&1)
for a in claude codex opencode hermes; do
    check "the package's $a module loads from the package" \
        "echo \"\$list\" | grep -q \"^$a .*$T/root/usr/lib/sutra/plugins/libsutra_$a.so  abi 1  ok\""
done

check "install --client claude from the package" '"$bin/sutra" install --client claude >/dev/null'
check "the hook command names the package's sutra-host" \
    "grep -q '\"$bin/sutra-host --adapter claude\"' '$CLAUDE_CONFIG_DIR/settings.json'"

python3 -c 'import sys
sys.stdout.write("".join(f"[INFO] compiling module_{i%7}.cpp ... ok\n" for i in range(600)) + "error: boom\n")' > "$T/big.txt"
python3 -c 'import json,sys
print(json.dumps({"session_id":"s1","cwd":"/tmp/p","hook_event_name":"PostToolUse","tool_name":"Bash",
 "tool_input":{"command":"make"},"tool_response":{"stdout":open(sys.argv[1]).read(),"stderr":"",
 "interrupted":False}}))' "$T/big.txt" > "$T/payload.json"
out=$("$bin/sutra-host" --adapter claude < "$T/payload.json")
echo "$out" > "$T/response.json"
check "the hook's view keeps the error and carries a marker" \
    "python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[\"hookSpecificOutput\"][\"updatedToolOutput\"][\"stdout\"]; assert \"error: boom\" in v and \"[sutra:\" in v and len(v) < 8000' '$T/response.json'"
id=$(grep -o 'su_[0-9a-f]\{32\}' "$T/response.json" | head -n 1)
check "restore --all through the package gives back the exact output" \
    '[ -n "$id" ] && "$bin/sutra" restore "$id" --all 2>/dev/null | cmp -s - "$T/big.txt"'
check "uninstall from the package" '"$bin/sutra" uninstall --client claude >/dev/null'

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
