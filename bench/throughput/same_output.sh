#!/usr/bin/env bash
# Checks that two sutra binaries give the same bytes: the view, the --json form (the same store
# key, so the same ids) and the view of standard input, for every case of tests/data/real and
# any further files given (the third through a pipe), and that each stored original restores byte for byte.
#   bash bench/throughput/same_output.sh OLD NEW [FILE...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: same_output.sh OLD NEW [FILE...]" >&2; exit 2; }
old="$1" new="$2"
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SUTRA_HOME="$work/home" SUTRA_STATS=0
checked=0 differ=0
for f in "$root"/tests/data/real/*.out "$@"; do
  cmd=""; code=""
  meta="${f%.out}.meta"
  if [ -f "$meta" ]; then
    cmd=$(sed -n 's/^command=//p' "$meta")
    code=$(sed -n 's/^exit=//p' "$meta")
  fi
  args=(--command "$cmd")
  [ -n "$code" ] && args+=(--exit-code "$code")
  for form in view json stdin; do
    for bin in old new; do
      b="${!bin}"
      case "$form" in
        view) "$b" compress "$f" "${args[@]}" > "$work/$bin" ;;
        json) "$b" compress "$f" "${args[@]}" --json > "$work/$bin" ;;
        stdin) cat "$f" | "$b" compress "${args[@]}" > "$work/$bin" ;;
      esac
    done
    checked=$((checked + 1))
    if ! cmp -s "$work/old" "$work/new"; then
      echo "DIFFERS: $form of $f"
      differ=$((differ + 1))
    fi
    [ "$form" = json ] && cp "$work/new" "$work/json"
  done
  # The id the new binary stored gives back the original (or its retained prefix).
  id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["id"] or "")' < "$work/json")
  if [ -n "$id" ]; then
    "$new" restore "$id" --all > "$work/restored"
    if ! cmp -s "$work/restored" "$f"; then
      echo "RESTORE DIFFERS: $f"
      differ=$((differ + 1))
    fi
  fi
done
echo "$checked outputs compared, $differ differ"
[ "$differ" -eq 0 ]
