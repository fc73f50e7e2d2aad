#!/usr/bin/env bash
# Builds the libFuzzer targets (one per input format, plus the sniffers) with
# clang (ASan + UBSan) and runs them one after the other, seeded with the
# samples/, tests/golden/ and tests/fuzz/seeds/ files of their format and with
# their dictionary (tests/fuzz/dict/).
#   tests/fuzz/run.sh [SECONDS] [TARGET...]          short: 20 s each, fresh corpus
#   tests/fuzz/run.sh --long [SECONDS] [TARGET...]   600 s each (default), the
#       corpus kept in $FUZZ_BUILD_DIR/corpus/<target> between runs
# One fuzzer at a time on purpose: the machine's cores are shared.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LONG=0
if [ "${1:-}" = --long ]; then LONG=1; shift; fi
DEFAULT_SECONDS=20
[ $LONG = 1 ] && DEFAULT_SECONDS=600
SECONDS_EACH=${1:-${FUZZ_SECONDS:-$DEFAULT_SECONDS}}
[ $# -gt 0 ] && shift
BUILD=${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLOCKGRAPH_FUZZ=ON >/dev/null
cmake --build "$BUILD" -j"${FUZZ_JOBS:-2}" --target lockgraph_fuzz_targets >/dev/null

# The seed files of each target (name patterns under samples/, tests/golden/
# and tests/fuzz/seeds/); the sniffer target gets all of them.
seed_patterns() {
  case "$1" in
    fuzz_pg_stderr | fuzz_pg_stderr_chunks) echo '*.log' ;;
    fuzz_pg_syslog | fuzz_pg_syslog_frame | fuzz_pg_syslog_blocks) echo 'syslog-*.log framing-journald.log stderr-*.log' ;;
    fuzz_pg_csvlog | fuzz_pglocks_csv) echo '*.csv' ;;
    fuzz_mysql_snapshot) echo 'mariadb-*-snapshot*' ;;
    fuzz_pg_jsonlog | fuzz_pglocks_json) echo '*.json' ;;
    fuzz_sqlserver_xml) echo '*.xdl *.xml' ;;
    fuzz_sqlserver_errorlog) echo '*.txt' ;;
    fuzz_client) echo '*.txt *.log' ;;
    fuzz_gcp_logging | fuzz_azure_diagnostics) echo 'platform-*.json' ;;
    fuzz_azure_log_analytics) echo 'platform-*.csv' ;;
    *) echo '*.log *.csv *.json *.xdl *.xml *.txt' ;;
  esac
}

seed() {  # seed TARGET DIR: real inputs cut to 64 KiB (seeds may exceed -max_len)
  local pattern f patterns
  read -ra patterns <<<"$(seed_patterns "$1")"  # read: no glob expansion
  for pattern in "${patterns[@]}"; do
    find "$ROOT/samples" "$ROOT/tests/golden" "$ROOT/tests/fuzz/seeds" -type f \
      -name "$pattern" -print0 2>/dev/null |
      while IFS= read -r -d '' f; do
        head -c 65536 "$f" >"$2/seed-$(echo "$f" | md5sum | cut -c1-12)"
      done
  done
}

if [ $LONG = 1 ]; then
  CORPUS=$BUILD/corpus
else
  CORPUS=$(mktemp -d /tmp/lockgraph-fuzz.XXXXXX)
  trap 'rm -rf "$CORPUS"' EXIT
fi
targets=("$@")
if [ ${#targets[@]} = 0 ]; then
  for t in "$ROOT"/tests/fuzz/fuzz_*.cc; do targets+=("$(basename "$t" .cc)"); done
fi
# A UBSan report is a finding: stop on it (libFuzzer then saves the input).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# Graphviz's own leaks when the HTML emitter lays graphs out (its snapshot
# section draws every tree and cycle): the suppressions the unit tests use,
# with full stacks so that they match (tests/lsan-graphviz.supp).
export LSAN_OPTIONS="suppressions=$ROOT/tests/lsan-graphviz.supp:fast_unwind_on_malloc=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0 passed=0 failed=0
for name in "${targets[@]}"; do
  target=$BUILD/$name
  mkdir -p "$CORPUS/$name"
  seed "$name" "$CORPUS/$name"
  dict=()
  short=${name#fuzz_}
  short=${short%_chunks}  # the chunked stderr reader: stderr's dictionary
  short=${short%_frame}   # the syslog framing: syslog's
  short=${short%_blocks}  # syslog read on threads: syslog's
  [ -f "$ROOT/tests/fuzz/dict/$short.dict" ] && dict=(-dict="$ROOT/tests/fuzz/dict/$short.dict")
  echo "fuzz: $name for ${SECONDS_EACH}s"
  if ! "$target" -max_total_time="$SECONDS_EACH" -max_len=16384 -timeout=25 -rss_limit_mb=2048 \
      -print_final_stats=1 "${dict[@]}" -artifact_prefix="$BUILD/$name-" \
      "$CORPUS/$name" >"$BUILD/$name.log" 2>&1; then
    echo "FAIL  $name: see $BUILD/$name.log"; tail -30 "$BUILD/$name.log"; status=1
    failed=$((failed + 1))
  else
    runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$BUILD/$name.log")
    units=$(awk '/stat::new_units_added/ {print $2}' "$BUILD/$name.log")
    corpus=$(grep -Eo 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$BUILD/$name.log" | tail -1)
    echo "PASS  $name: $runs runs, $units new units, $corpus"
    passed=$((passed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
exit $status
