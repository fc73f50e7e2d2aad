#!/usr/bin/env bash
# Byte-identity check for performance work: runs two lockgraph binaries on
# the same inputs with the same flags and compares their outputs (stdout and
# the exit code). Never run as a test (it takes minutes on big files).
#
#   bench/same_output.sh OLD_BINARY NEW_BINARY "FORMATS" FILE...
#
# FORMATS: space-separated --format values (e.g. "json sarif junit").
# Prints one line per file and format, "same" or "DIFFERENT", and exits 1
# when any output differs. SAME_COMMAND replaces `analyze` with another
# command and its options (SAME_COMMAND="check --max-lock-wait 1s"); then
# stderr (check's verdict) is compared too.
set -uo pipefail
old=$1 new=$2 formats=$3
command=${SAME_COMMAND:-analyze}
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lg-same.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
  for fmt in $formats; do
    # shellcheck disable=SC2086  # the command's words
    "$old" $command --format "$fmt" "$f" >"$tmp/old" 2>"$tmp/old.err"; o=$?
    # shellcheck disable=SC2086
    "$new" $command --format "$fmt" "$f" >"$tmp/new" 2>"$tmp/new.err"; n=$?
    [ -n "${SAME_COMMAND:-}" ] || : >"$tmp/old.err" >"$tmp/new.err"
    if [ "$o" = "$n" ] && cmp -s "$tmp/old" "$tmp/new" && cmp -s "$tmp/old.err" "$tmp/new.err"; then
      echo "same       $fmt $f"
    else
      echo "DIFFERENT  $fmt $f (exit $o / $n)"; status=1
    fi
  done
done
exit $status
