#!/usr/bin/env bash
# One command for a new machine: installs the Debian packages, builds, and
# runs `lockgraph analyze` on a log a real PostgreSQL server wrote.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/lockgraph analyze "${@:-samples/postgresql/scenarios.log}"
