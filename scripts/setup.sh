#!/usr/bin/env bash
# Installs every build and test dependency from Debian's packages (root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  g++ cmake make pkg-config ca-certificates \
  libre2-dev libcli11-dev nlohmann-json3-dev libgraphviz-dev graphviz \
  libpqxx-dev catch2 libpugixml-dev zlib1g-dev libpg-query-dev \
  postgresql postgresql-client python3 gzip clang libclang-rt-14-dev >/dev/null
# The browser test (tests/browser, CTest browser_report): Debian's Chromium,
# driven by playwright-core from npm. Node.js and npm from Debian only when
# the machine has none (a Node.js of its own ships its own npm).
# fonts-dejavu-core: Graphviz's pango plugin maps Helvetica and Times to
# DejaVu Sans and Serif (`dot -v` says so); the graphs in
# tests/golden/*/expected.html were laid out with their text widths.
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver \
  fonts-dejavu-core >/dev/null
if ! command -v npm >/dev/null; then
  $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
BROWSER_DIR="$(cd "$(dirname "$0")/.." && pwd)/tests/browser"
want=$(node -p 'require(process.argv[1]).packages["node_modules/playwright-core"].version' \
  "$BROWSER_DIR/package-lock.json")
have=$(node -p 'require(process.argv[1]).version' \
  "$BROWSER_DIR/node_modules/playwright-core/package.json" 2>/dev/null || true)
if [ "$want" != "$have" ]; then
  (cd "$BROWSER_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
