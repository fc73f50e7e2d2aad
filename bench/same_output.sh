#!/usr/bin/env bash
# Byte-identity check for performance work: runs two lockgraph binaries on
# the same inputs with the same flags and compares their outputs (stdout and
# the exit code). Never run as a test (it takes minutes on big files).
#
#   bench/same_output.sh OLD_BINARY NEW_BINARY "FORMATS" FILE...
#
# FORMATS: space-separated --format values (e.g. "json sarif junit").
# Prints one line per file and format, "same" or "DIFFERENT", and exits 1
# when any output differs.
set -uo pipefail
old=$1 new=$2 formats=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lg-same.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
  for fmt in $formats; do
    "$old" analyze --format "$fmt" "$f" >"$tmp/old" 2>/dev/null; o=$?
    "$new" analyze --format "$fmt" "$f" >"$tmp/new" 2>/dev/null; n=$?
    if [ "$o" = "$n" ] && cmp -s "$tmp/old" "$tmp/new"; then
      echo "same       $fmt $f"
    else
      echo "DIFFERENT  $fmt $f (exit $o / $n)"; status=1
    fi
  done
done
exit $status
