#!/usr/bin/env bash
# Install what is needed, build everything, run every test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" -DBUILD_TESTING=ON "$@"
cd "${SUTRA_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)"
