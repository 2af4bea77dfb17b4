#!/usr/bin/env bash
# The Bash route never weakens a permission, in the real Claude Code 2.1.332 (see
# docs/security.md, "The Bash route's guard"). Its own test, real_host.claude_permissions, so
# that it runs beside real_host.claude. Each scenario runs the same steps twice or three
# times: without the route (--no-wrap-bash: the host's own answers), with the default auto route,
# and with --wrap-bash. Every step the host alone stops must stay stopped, with the same answer
# to the model, and must leave no trace of having run.
#
# Rules sit in every scope the host reads: the user's settings in a relative CLAUDE_CONFIG_DIR
# (`conf`, read by the host as ./conf), the project's and the local settings, the managed
# settings in /etc/claude-code (an overlay in a private mount namespace, so the machine's /etc is
# never touched; skipped where unshare or overlayfs is not allowed), and rules passed through the
# environment (CLAUDE_BG_SESSION_PERMISSION_RULES). The steps put redirections, empty
# expansions, assignments and separators between each rule's words. Stub programs (git, npm,
# curl, kubectl) log their arguments instead of doing anything; `rm` is real, on canary files.
name=claude_permissions
source "$(dirname "$0")/lib.sh"
need_host @anthropic-ai/claude-code 2.1.332 claude
sandbox
cd "$T/proj" || exit 1
export ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1

perm=$T/perm
conf=$T/proj/conf
mkdir -p "$perm/stubs" "$conf" "$T/proj/.claude" "$perm/etc-up/claude-code" "$perm/etc-work"
for prog in git npm curl kubectl; do
    printf '#!/bin/sh\necho "%s $*" >>"%s/ran.log"\necho "stub %s ran"\n' "$prog" "$perm" "$prog" >"$perm/stubs/$prog"
    chmod +x "$perm/stubs/$prog"
done
printf 'SECRET-VALUE-4711\n' >"$T/proj/.env"
printf '%s\n' '{"permissions": {"deny": ["Bash(git push:*)"]}}' >"$conf/settings.json"
printf '%s\n' '{"permissions": {"deny": ["Bash(rm:*)"]}}' >"$T/proj/.claude/settings.json"
printf '%s\n' '{"permissions": {"ask": ["Bash(npm run deploy)"]}}' >"$T/proj/.claude/settings.local.json"
printf '%s\n' '{"permissions": {"deny": ["Bash(cat .env)"]}}' >"$perm/etc-up/claude-code/managed-settings.json"
managed=yes
if ! unshare -rm sh -c "mount -t overlay overlay -o lowerdir=/etc,upperdir=$perm/etc-up,workdir=$perm/etc-work /etc && cat /etc/claude-code/managed-settings.json" >/dev/null 2>&1; then
    managed=no
    echo "  managed scope: no private mount namespace here; its rule goes to the user's settings"
    printf '%s\n' '{"permissions": {"deny": ["Bash(git push:*)", "Bash(cat .env)"]}}' >"$conf/settings.json"
fi
cp "$here/run_tests.py" "$T/proj/run_tests.py"

# perm_run LABEL STEPS_JSON CLAUDE_ARGS...: runs the real host in $T/proj with the rules above.
perm_run() {
    local label=$1 steps=$2
    shift 2
    rm -f "$T"/mock/req-*.json "$T/mock/port" "$perm/ran.log"
    for n in 06 07 08; do : >"$T/proj/canary$n"; done
    start_mock mock_claude.mjs "$steps"
    local run=(env CLAUDE_CONFIG_DIR=conf PATH="$perm/stubs:$PATH" "$host_bin" -p "go" --debug-file "$T/debug-$label.log" "$@")
    if [ "$managed" = yes ]; then
        ANTHROPIC_BASE_URL=http://127.0.0.1:$port timeout 300 unshare -rm sh -c \
            'mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1,workdir=$2" /etc && shift 2 && exec "$@"' \
            sh "$perm/etc-up" "$perm/etc-work" "${run[@]}" >"$T/run-$label.out" 2>&1
    else
        ANTHROPIC_BASE_URL=http://127.0.0.1:$port timeout 300 "${run[@]}" >"$T/run-$label.out" 2>&1
    fi
    # Every step's result, from the request that carries the most of them (one Python run).
    python3 - "$T" "$label" "$steps" <<'PY'
import glob, json, sys
t, label, steps = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
best = []
for f in glob.glob(t + "/mock/req-*.json"):
    d = json.load(open(f))
    items = [b for m in d.get("messages", []) if isinstance(m.get("content"), list)
             for b in m["content"] if b.get("type") == "tool_result"]
    best = items if len(items) > len(best) else best
for n in range(1, len(steps) + 1):
    out = {}
    if n <= len(best):
        c = best[n - 1].get("content")
        text = c if isinstance(c, str) else "".join(b.get("text", "") for b in c or [])
        out = {"is_error": bool(best[n - 1].get("is_error")), "text": text}
    json.dump(out, open(f"{t}/{label}-{n}.json", "w"))
PY
    for n in 06 07 08; do [ -e "$T/proj/canary$n" ] || echo "canary$n" >>"$perm/ran.log"; done
    cp "$perm/ran.log" "$T/$label-ran.log" 2>/dev/null || : >"$T/$label-ran.log"
    stop_mock
}
perm_text() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("text", "<none>"), end="")' "$1"; }
# stopped LABEL N: the host answered step N with a refusal (deny, or an ask that -p cannot put).
stopped() { perm_text "$T/$1-$2.json" | grep -Eqi "denied|haven't granted|requires approval|needs approval|permission"; }
# left_trace LABEL WORD: the step's stub (or canary, or secret) shows it ran.
left_trace() { grep -qF -- "$2" "$T/$1-ran.log" || perm_text "$T/$1-$3.json" | grep -q SECRET-VALUE; }

uninstall_conf() { CLAUDE_CONFIG_DIR=$conf "$SUTRA_BIN" uninstall --client claude >/dev/null 2>&1; }
reinstall() { # $1: the route flag, or nothing for the default
    uninstall_conf
    CLAUDE_CONFIG_DIR=$conf "$SUTRA_BIN" install --client claude $1 >/dev/null
}

# Scenario 1: deny and ask rules in every scope, every Bash command otherwise allowed.
steps1=$(python3 - <<'PY'
import json
cmds = [
    ("git 2>/dev/null push origin t01", "t01"), ("git ${X} push origin t02", "t02"),
    ("FOO=1 git push origin t03", "t03"), ("true && git push origin t04", "t04"),
    ("git $X push origin t05; true", "t05"),
    ("rm 2>/dev/null -rf canary06", "canary06"), ("rm ${X:-} -rf canary07", "canary07"),
    ("FOO=1 rm -rf canary08", "canary08"),
    ("npm run deploy", "run deploy"), ("npm ${X} run deploy", "run deploy"),
    ("npm 2>/dev/null run deploy", "run deploy"),
    ("cat 2>/dev/null .env", "-"), ("cat $X .env", "-"), ("X=1 cat .env", "-"),
    ("kubectl 2>/dev/null delete pod t15", "t15"), ("kubectl \"$@\" delete pod t16", "t16"),
    ("python3 run_tests.py", "-"),
]
print(json.dumps([{"tool": "Bash", "input": {"command": c, "description": "step"}} for c, _ in cmds]))
PY
)
# What each step leaves when it runs (exact rules' steps leave the same line: counted apart).
traces1=(t01 t02 t03 t04 t05 canary06 canary07 canary08 - - - - - - t15 t16 -)
export CLAUDE_CODE_SESSION_KIND=bg
export CLAUDE_BG_SESSION_PERMISSION_RULES='{"allow": [], "deny": ["Bash(kubectl delete:*)"]}'
for route in off auto always; do
    case $route in off) reinstall --no-wrap-bash ;; auto) reinstall "" ;; always) reinstall --wrap-bash ;; esac
    perm_run "rules-$route" "$steps1" --allowedTools "Bash"
done
unset CLAUDE_CODE_SESSION_KIND CLAUDE_BG_SESSION_PERMISSION_RULES
host_stops=0
for n in $(seq 1 16); do
    stopped rules-off "$n" && host_stops=$((host_stops + 1))
    echo "  step $n: $(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[int(sys.argv[2])-1]["input"]["command"])' "$steps1" "$n") -> off: $(stopped rules-off "$n" && echo stopped || echo ran), auto: $(stopped rules-auto "$n" && echo stopped || echo ran), always: $(stopped rules-always "$n" && echo stopped || echo ran)"
done
check "the host alone stops most of the rule steps (the control: the rules are read)" '[ "$host_stops" -ge 12 ]'
for route in auto always; do
    bad_steps=""
    for n in $(seq 1 16); do
        trace=${traces1[$((n - 1))]}
        if stopped rules-off "$n"; then
            if ! stopped "rules-$route" "$n" || [ "$(perm_text "$T/rules-$route-$n.json")" != "$(perm_text "$T/rules-off-$n.json")" ]; then
                bad_steps="$bad_steps $n"
            elif [ "$trace" != - ] && left_trace "rules-$route" "$trace" "$n"; then
                bad_steps="$bad_steps $n(ran)"
            fi
        fi
    done
    check "route $route: every step the host alone stops is still stopped, with the host's own answer (failing:$bad_steps)" '[ -z "$bad_steps" ]'
    check "route $route: npm run deploy ran no more often than without the route" \
        '[ "$(grep -c "run deploy" "$T/rules-$route-ran.log")" -le "$(grep -c "run deploy" "$T/rules-off-ran.log")" ]'
    check "route $route: the denied .env never reaches the model" '! grep -q SECRET-VALUE "$T"/rules-$route-*.json'
    check "route $route: a command no rule names is still routed (sutra's view of the failing run)" \
        'perm_text "$T/rules-$route-17.json" | grep -q "\[sutra: " && perm_text "$T/rules-$route-17.json" | head -1 | grep -qx "Exit code 3"'
done
check "without the route the same run reaches the model as the host's own cut" '! perm_text "$T/rules-off-17.json" | grep -q "\[sutra: "'

# Scenario 2: an allow rule naming the wrapper. Without sutra the host asks for `curl` and for
# `npm view` (nothing allows them); with --wrap-bash the wrapped text would match
# `Bash(<sutra>:*)`, so the guard leaves them as written and the host asks as before.
uninstall_conf
printf '%s\n' "{\"permissions\": {\"allow\": [\"Bash($SUTRA_BIN:*)\", \"Bash(sutra:*)\"]}}" >"$conf/settings.json"
steps2=$(python3 -c 'import json; print(json.dumps([{"tool":"Bash","input":{"command":c,"description":"step"}} for c in ["curl -s http://127.0.0.1:9/t21", "npm view left-pad t22"]]))')
reinstall --no-wrap-bash
perm_run wrapper-off "$steps2"
reinstall --wrap-bash
perm_run wrapper-always "$steps2"
for n in 1 2; do echo "  allow rule naming sutra, step $n: off -> $(perm_text "$T/wrapper-off-$n.json" | head -c 100 | tr '\n' ' '); always -> $(perm_text "$T/wrapper-always-$n.json" | head -c 100 | tr '\n' ' ')"; done
check "the host alone asks for both (the control)" 'stopped wrapper-off 1 && stopped wrapper-off 2'
check "an allow rule naming the wrapper widens nothing: both still asked, nothing ran" \
    'stopped wrapper-always 1 && stopped wrapper-always 2 && ! left_trace wrapper-always t21 1 && ! left_trace wrapper-always t22 2'

# Scenario 3: narrow allow rules with the default install. The auto route wraps nothing here
# (wrapped, a command that `Bash(npm test:*)` allows would be asked), so every answer is the
# one the host gives without sutra: no new prompt, no lost one.
uninstall_conf
printf '%s\n' '{"permissions": {}}' >"$conf/settings.json"
steps3=$(python3 -c 'import json; print(json.dumps([{"tool":"Bash","input":{"command":c,"description":"step"}} for c in ["npm test t31", "ls run_tests.py", "python3 run_tests.py", "git status t34"]]))')
reinstall --no-wrap-bash
perm_run narrow-off "$steps3" --allowedTools "Bash(npm test:*)"
reinstall ""
perm_run narrow-auto "$steps3" --allowedTools "Bash(npm test:*)"
for n in 1 2 3 4; do echo "  narrow allow rules, step $n: off -> $(perm_text "$T/narrow-off-$n.json" | head -c 80 | tr '\n' ' '); auto -> $(perm_text "$T/narrow-auto-$n.json" | head -c 80 | tr '\n' ' ')"; done
check "with narrow allow rules the auto route changes no answer (each step as without sutra)" \
    '(for n in 1 2 3 4; do [ "$(perm_text "$T/narrow-auto-$n.json")" = "$(perm_text "$T/narrow-off-$n.json")" ] || exit 1; done)'
check "the allowed command ran and a command no rule covers was asked, both as without sutra" \
    '! stopped narrow-auto 1 && stopped narrow-auto 3'
check "nothing was wrapped" '! grep -q "exec --shell" "$T/debug-narrow-auto.log"'
uninstall_conf
check "uninstall leaves the user's settings as they were" '[ "$(cat "$conf/settings.json")" = "{\"permissions\": {}}" ]'

finish
