#!/usr/bin/env bash
# One command for a new machine: installs the Debian packages, builds, and
# runs every test: the Catch2 unit, parser and golden tests, the command-line
# tests and the end-to-end scenarios against a throwaway PostgreSQL cluster
# (tests/e2e), first under AddressSanitizer + UBSan, then a short libFuzzer
# run of every input format (20 s per target), then the release build (its summary is last).
# LOCKGRAPH_QUICK=1 skips the sanitizer and fuzz stages.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "${LOCKGRAPH_QUICK:-0}" != 1 ]; then
  BUILD_DIR=build-asan BUILD_TYPE=Debug CMAKE_ARGS=-DLOCKGRAPH_SANITIZE=ON bash scripts/build.sh
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     ctest --output-on-failure)
  tests/fuzz/run.sh "${FUZZ_SECONDS:-20}"  # each target (tests/fuzz/fuzz_*.cc)
fi
bash scripts/build.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure
