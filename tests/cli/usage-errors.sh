# Sourced by tests/cli/run.sh (check, BIN, WORK): command-line mistakes are said in
# plain words on stderr, with the nearest name, and exit 2 (docs/cli.md#errors).

usage_says() {  # usage_says WANT ARGS...: exit 2, nothing on stdout, WANT on stderr
  local want=$1
  shift
  "$BIN" "$@" </dev/null >"$WORK/usage.out" 2>"$WORK/usage.err"
  local rc=$?
  [ $rc -eq 2 ] && [ ! -s "$WORK/usage.out" ] && grep -qF -- "$want" "$WORK/usage.err" ||
    { echo "exit $rc; stderr:"; cat "$WORK/usage.err"; return 1; }
}
check "usage: a misspelt command suggests the nearest" \
  usage_says "unknown command 'analize'; did you mean 'analyze'?" analize x.log
check "usage: no command lists the commands" \
  usage_says "a command is required: analyze, check, baseline, report, watch, follow, rules, explain." 
check "usage: an option given twice" \
  usage_says "lockgraph: --format given more than once; give it once" analyze --format json --format text x
check "usage: an unknown format lists the formats and the nearest" \
  usage_says "--format: 'jsn' is not one of text, json," analyze --format jsn x
check "usage: no far-fetched suggestion (yaml is not html)" \
  bash -c "! '$BIN' analyze --format yaml x 2>&1 | grep -q 'did you mean'"
check "usage: a negative number names the option" \
  usage_says "lockgraph: --max-wait: -5 is negative; give a number of at least 0" analyze --max-wait -5 x
check "usage: a number out of range gives the range" \
  usage_says "lockgraph: --threads: 0 is out of range; give a number from 1 to 64" analyze --threads 0 x
check "usage: a misspelt option suggests the nearest, and the command's help" \
  bash -c "'$BIN' analyze --formt json x 2>&1 | grep -qF \"'--formt' is not an option or input of 'lockgraph analyze'; did you mean '--format'?\" &&
           '$BIN' analyze --formt json x 2>&1 | grep -qF \"Run 'lockgraph analyze --help'\""
check "usage: a hostile command word is shown escaped, never as terminal control" bash -c \
  "'$BIN' \$'ana\\x1b[31mlyze' 2>&1 | grep -qF 'ana\\x1b[31mlyze' && ! '$BIN' \$'ana\\x1b[31mlyze' 2>&1 | grep -q \$'\\x1b'"
