#!/usr/bin/env bash
# Peak RSS of the CI formats before and after a change (issue 20), on one
# generated log and on the same log N times through a pipe, with byte
# identity of the outputs. Never run as a test (minutes on big files).
#
#   bench/ci_memory.sh OLD_BINARY NEW_BINARY FILE [TIMES] [FORMATS]
#
# TIMES (default 10): how many copies go through the pipe; FORMATS default
# "sarif github codequality". Prints one line per (format, input, binary):
# peak RSS (MB, 2^20 bytes), wall seconds, output bytes, then "same" or
# "DIFFERENT". Uses /usr/bin/time (apt-get install time).
set -uo pipefail
old=$1 new=$2 file=$3 times=${4:-10} formats=${5:-sarif github codequality}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lg-cimem.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0
copies=()
for ((i = 0; i < times; ++i)); do copies+=("$file"); done
measure() {  # NAME BINARY FORMAT MODE(file|pipe)
  local name=$1 bin=$2 fmt=$3 mode=$4
  if [ "$mode" = file ]; then
    /usr/bin/time -f '%M %e' -o "$tmp/time" "$bin" analyze --format "$fmt" "$file" >"$tmp/$name" 2>/dev/null
  else
    /usr/bin/time -f '%M %e' -o "$tmp/time" bash -c 'b=$1 f=$2; shift 2; cat "$@" | "$b" analyze --format "$f" -' \
      _ "$bin" "$fmt" "${copies[@]}" >"$tmp/$name" 2>/dev/null
  fi
  awk -v n="$name" -v m="$mode" -v fmt="$fmt" -v bytes="$(wc -c <"$tmp/$name")" \
    '{printf "%-12s %-5s %-4s %8.1f MB %7.2f s %12d bytes\n", fmt, m, n, $1 / 1024, $2, bytes}' "$tmp/time"
}
for fmt in $formats; do
  for mode in file pipe; do
    measure old "$old" "$fmt" "$mode"
    measure new "$new" "$fmt" "$mode"
    if cmp -s "$tmp/old" "$tmp/new"; then echo "same"; else echo "DIFFERENT"; status=1; fi
  done
done
exit $status
