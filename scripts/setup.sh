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

# Microsoft's SARIF validator for tests/e2e/check.sh, pinned in
# tests/sarif/package-lock.json; node and npm from Debian unless present.
command -v npm >/dev/null || $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
SARIF_DIR="$(cd "$(dirname "$0")/.." && pwd)/tests/sarif"
if ! cmp -s "$SARIF_DIR/package-lock.json" "$SARIF_DIR/node_modules/.lockgraph-installed" ||
   [ ! -x "$SARIF_DIR/node_modules/.bin/sarif-multitool" ]; then
  (cd "$SARIF_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  cp "$SARIF_DIR/package-lock.json" "$SARIF_DIR/node_modules/.lockgraph-installed"
fi
