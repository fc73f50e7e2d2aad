# shellcheck shell=bash
# What tests/package/run.sh and systemd.sh share: check NAME COMMAND... runs
# COMMAND, prints "ok" or "FAIL" with its output, and counts it in $pass and
# $fail; same EXPECTED ACTUAL compares whole texts. The sourcing script sets
# CHECK_DIR, a directory of its own for the outputs.
pass=0
fail=0
check() {  # check NAME COMMAND...: runs COMMAND, counts it
  local name="$1"; shift
  if "$@" >"$CHECK_DIR/out" 2>&1; then
    pass=$((pass + 1)); echo "ok   $name"
  else
    fail=$((fail + 1)); echo "FAIL $name"; sed 's/^/     /' "$CHECK_DIR/out" | head -40
  fi
}
same() {  # same EXPECTED ACTUAL: exact text, with a diff on failure
  if [ "$1" == "$2" ]; then return 0; fi
  diff <(printf '%s\n' "$1") <(printf '%s\n' "$2"); return 1
}
