#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for
# FUZZ_SECONDS (default 20), seeded with samples/ and the golden inputs.
#   tests/fuzz/run.sh [SECONDS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECONDS_EACH=${1:-${FUZZ_SECONDS:-20}}
BUILD=${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLOCKGRAPH_FUZZ=ON >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target lockgraph_fuzz_targets >/dev/null
CORPUS=$(mktemp -d /tmp/lockgraph-fuzz.XXXXXX)
trap 'rm -rf "$CORPUS"' EXIT
status=0
passed=0
failed=0
for target in "$BUILD"/fuzz_*; do
  [ -f "$target" ] && [ -x "$target" ] && [[ "$target" != *.* ]] || continue  # not the logs
  name=$(basename "$target")
  mkdir -p "$CORPUS/$name"
  # Seeds: real samples cut to 64 KiB (libFuzzer's default max_len is 4 KiB
  # for new inputs; seeds may be longer).
  find "$ROOT/samples" "$ROOT/tests/golden" -type f \( -name '*.log' -o -name '*.csv' \
    -o -name '*.json' -o -name '*.xdl' -o -name '*.xml' -o -name '*.txt' \) 2>/dev/null |
    while read -r f; do head -c 65536 "$f" >"$CORPUS/$name/$(echo "$f" | md5sum | cut -c1-12)"; done
  echo "fuzz: $name for ${SECONDS_EACH}s"
  if ! "$target" -max_total_time="$SECONDS_EACH" -max_len=16384 -print_final_stats=1 \
      -artifact_prefix="$BUILD/$name-" "$CORPUS/$name" >"$BUILD/$name.log" 2>&1; then
    echo "FAIL  $name: see $BUILD/$name.log"; tail -30 "$BUILD/$name.log"; status=1
    failed=$((failed + 1))
  else
    echo "PASS  $name: $(grep -E 'stat::number_of_executed_units' "$BUILD/$name.log" | awk '{print $2}') runs"
    passed=$((passed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
exit $status
