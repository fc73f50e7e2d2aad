#!/usr/bin/env bash
# Parsing on several threads gives the output of one thread, byte for byte
# (docs/performance.md#parallel-parsing): generated csvlog and jsonlog logs
# (bench/gen_pglog, many deadlocks and lock waits, multi-line fields), plain
# and gzip-compressed, every output format, --threads 1 against 2, 3 and 5;
# and a stderr log, plain and gzip-compressed, whose records become events
# on the rules' thread when there are two (ParseSink::Defer), whose blocks
# that thread reads ahead when it waits (io/read_ahead.h), and whose blocks
# are cut into parts read on threads - 1 threads from --threads 3 on
# (parsers/postgresql/stderr_chunks.h), in four formats, --threads 1
# against 2, 3 and 5; and a syslog log the same way (syslog_blocks.h).
# Usage: tests/parallel/run.sh LOCKGRAPH GEN_PGLOG
set -euo pipefail
LG=$1
GEN=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
runs=0
# compare INPUT FORMAT THREADS...: stdout, stderr and exit code of each
# --threads against --threads 1.
compare() {
  local input=$1 out=$2 t rc rc1
  shift 2
  "$LG" analyze --threads 1 --format "$out" "$input" > "$TMP/one.out" 2> "$TMP/one.err" && rc1=0 || rc1=$?
  for t in "$@"; do
    runs=$((runs + 1))
    "$LG" analyze --threads "$t" --format "$out" "$input" > "$TMP/many.out" 2> "$TMP/many.err" && rc=0 || rc=$?
    if [ "$rc" != "$rc1" ] || ! cmp -s "$TMP/one.out" "$TMP/many.out" ||
       ! cmp -s "$TMP/one.err" "$TMP/many.err"; then
      echo "FAIL: $(basename "$input") --format $out: --threads $t differs from --threads 1 (exit $rc vs $rc1)"
      diff <(head -c 200000 "$TMP/one.out") <(head -c 200000 "$TMP/many.out") | head -20 || true
      fail=1
    fi
  done
}
for fmt in csvlog jsonlog; do
  f=$TMP/gen.$fmt
  "$GEN" --format "$fmt" --size 24M --seed 7 --deadlocks-per-10k 40 --waits-per-10k 60 -o "$f" >/dev/null
  gzip -c "$f" > "$f.gz"
  for input in "$f" "$f.gz"; do
    for out in json ndjson text sarif junit github codequality; do
      compare "$input" "$out" 2 3 5
    done
  done
  # The counts are the generator's (bench/check_counts.py), so the runs above compared real work.
  "$LG" analyze --threads 3 --format json "$f" > "$TMP/report.json"
  if ! python3 "$(dirname "$0")/../../bench/check_counts.py" "$f.expected.json" "$TMP/report.json" > "$TMP/check.txt"; then
    echo "FAIL: $fmt: counts differ from the generator's"; cat "$TMP/check.txt"; fail=1
  fi
done
# stderr and syslog (the stderr text as rsyslog writes it): records become
# events on the rules' thread (stderr), blocks cut into parts on threads - 1
# threads from --threads 3 on (stderr_chunks.h), from 2 on for syslog, at
# least two (syslog_blocks.h).
# (syslog: 16 MiB, the first block read line by line and the next ones cut
# into parts, and two formats: it takes longest under the sanitizers.)
for fmt in stderr syslog; do
  f=$TMP/gen.$fmt
  size=24M outs="json ndjson text sarif"
  [ "$fmt" = syslog ] && size=16M outs="json text"
  "$GEN" --format "$fmt" --size "$size" --seed 7 --deadlocks-per-10k 40 --waits-per-10k 60 -o "$f" >/dev/null
  gzip -c "$f" > "$f.gz"
  for input in "$f" "$f.gz"; do
    for out in $outs; do
      compare "$input" "$out" 2 3 5
    done
  done
  for t in 2 3 5; do
    "$LG" analyze --threads "$t" --format json "$f" > "$TMP/report.json"
    if ! python3 "$(dirname "$0")/../../bench/check_counts.py" "$f.expected.json" "$TMP/report.json" > "$TMP/check.txt"; then
      echo "FAIL: $fmt, --threads $t: counts differ from the generator's"; cat "$TMP/check.txt"; fail=1
    fi
  done
done
echo "parallel parsing: $runs runs compared"
exit $fail
