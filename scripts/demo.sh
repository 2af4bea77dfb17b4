#!/usr/bin/env bash
# Quick start: install what is needed, build, compress a bundled pytest log, restore a range.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" -DSUTRA_BENCH=OFF -DBUILD_TESTING=OFF
sutra="${SUTRA_BUILD_DIR:-$root/build}/host/sutra"
sample="$root/samples/pytest-failure.log"
# A private store for the demo, so it does not touch your own.
export SUTRA_HOME="${SUTRA_HOME:-$(mktemp -d)/sutra}"

echo "== the original: $(wc -l <"$sample") lines, $(wc -c <"$sample") bytes (samples/pytest-failure.log)"
echo "== what the model reads instead:"
"$sutra" compress --command "pytest -v" --exit-code 1 "$sample" | tee "$SUTRA_HOME.view"
echo
echo "== the view is $(wc -c <"$SUTRA_HOME.view") bytes."
# Restore the first elided range, exactly as the first marker says.
call=$(grep -o 'restore: sutra restore su_[0-9a-f]* --lines [0-9]*-[0-9]*' "$SUTRA_HOME.view" | head -n 1)
id=$(echo "$call" | awk '{print $4}')
range=$(echo "$call" | awk '{print $6}')
first=${range%-*}
echo "== restoring lines $first-$((first + 4)) of that range: sutra restore $id --lines $first-$((first + 4))"
"$sutra" restore "$id" --lines "$first-$((first + 4))"
echo "== and the whole original comes back byte for byte:"
if "$sutra" restore "$id" --all | cmp -s - "$sample"; then echo "identical"; else echo "DIFFERENT"; exit 1; fi
