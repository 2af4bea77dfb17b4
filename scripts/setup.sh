#!/usr/bin/env bash
# Installs every Debian package the build and the tests need (sudo when not root).
set -euo pipefail
packages=(g++ cmake ninja-build pkg-config git python3
          libboost-dev libtomlplusplus-dev nlohmann-json3-dev libfmt-dev libsodium-dev
          libpcre2-dev libgtest-dev libgmock-dev libbenchmark-dev time)
# Tools only some scripts need, on request: `setup.sh fuzz` (scripts/fuzz.sh), `setup.sh valgrind`.
for extra in "$@"; do
  case "$extra" in
    fuzz) packages+=(clang-16 libclang-rt-16-dev) ;;
    valgrind) packages+=(valgrind) ;;
    *) echo "setup: unknown extra '$extra' (fuzz, valgrind)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
