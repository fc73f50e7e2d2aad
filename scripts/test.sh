#!/usr/bin/env bash
# One command for a new machine: installs the Debian packages, builds, and
# runs every test: the Catch2 unit, parser and golden tests, and the
# end-to-end scenarios against a throwaway PostgreSQL cluster (tests/e2e).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure
