#!/usr/bin/env bash
# `sutra mcp` driven by the official TypeScript SDK client (@modelcontextprotocol/sdk, pinned).
# The SDK is installed from npm into a cache outside the repository; without node, npm or the
# registry the test is skipped (exit 125) with a message saying why.
set -u
sutra="${SUTRA_BIN:?set SUTRA_BIN to the built sutra binary}"
here=$(cd "$(dirname "$0")" && pwd)
sdk_version=1.32.2
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sutra-test/npm"

skip() {
  echo "SKIP e2e.mcp_sdk: $*"
  exit 125
}

command -v node >/dev/null 2>&1 || skip "node is not installed"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"
[ "$(node -p 'Number(process.versions.node.split(".")[0]) >= 18')" = true ] ||
  skip "node $(node --version) is too old; the SDK needs node 18 or newer"

pkg="$cache/node_modules/@modelcontextprotocol/sdk/package.json"
have=$( [ -f "$pkg" ] && node -p "require(process.argv[1]).version" "$pkg" 2>/dev/null)
if [ "$have" != "$sdk_version" ]; then
  mkdir -p "$cache" || skip "cannot create $cache"
  echo "installing @modelcontextprotocol/sdk@$sdk_version into $cache"
  if ! timeout 300 npm install --prefix "$cache" --no-audit --no-fund --fetch-retries=1 \
      --fetch-timeout=30000 "@modelcontextprotocol/sdk@$sdk_version" >"$cache/install.log" 2>&1; then
    tail -5 "$cache/install.log"
    skip "npm could not install @modelcontextprotocol/sdk@$sdk_version (registry unreachable?)"
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SUTRA_HOME="$tmp/store" SUTRA_CONFIG="$tmp/none.toml" SUTRA_SDK_DIR="$cache" SUTRA_BIN="$sutra" \
  node "$here/mcp_sdk.mjs"
