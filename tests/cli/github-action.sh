# Sourced by tests/cli/run.sh (uses its check(), $BIN, $ROOT, $WORK): the shell
# step of the GitHub Action (scripts/ci/github-action.sh, action.yml) run locally
# with the environment the runner sets: GITHUB_WORKSPACE, GITHUB_STEP_SUMMARY,
# GITHUB_OUTPUT. The SARIF it writes goes through the validator with the GitHub
# rules when installed.
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
GA="$ROOT/scripts/ci/github-action.sh"
GA_WS="$WORK/gh-workspace"
mkdir -p "$GA_WS/.git" "$GA_WS/ci-logs"
cp "$ROOT/samples/postgresql/prefix-pgbadger.log" "$GA_WS/ci-logs/pg-1.log"
printf 'all 12 tests passed\n' >"$GA_WS/ci-logs/tests.txt"
ga() {  # ga NAME ENV...: runs the step from another folder; output in $WORK/ga-NAME.*
  local name=$1
  shift
  : >"$WORK/ga-$name.summary"
  : >"$WORK/ga-$name.output"
  (cd / && env GITHUB_WORKSPACE="$GA_WS" GITHUB_STEP_SUMMARY="$WORK/ga-$name.summary" \
    GITHUB_OUTPUT="$WORK/ga-$name.output" LOCKGRAPH_BIN="$BIN" "$@" bash "$GA" \
    >"$WORK/ga-$name.out" 2>"$WORK/ga-$name.err")
  echo $? >"$WORK/ga-$name.rc"
}
ga fail LOCKGRAPH_LOGS="ci-logs/*.log" LOCKGRAPH_SARIF=out/../lockgraph.sarif
check "action: a deadlock fails the step (exit 1), annotations with repository paths" bash -c \
  "test \$(cat '$WORK/ga-fail.rc') -eq 1 && grep -q '^::error file=ci-logs/pg-1.log,line=' '$WORK/ga-fail.out' &&
   grep -q '^lockgraph check: FAIL: 1 deadlock (limit 0): ' '$WORK/ga-fail.err'"
check "action: the job summary holds the verdict in Markdown" bash -c \
  "head -1 '$WORK/ga-fail.summary' | grep -qx '## lockgraph check: FAIL' &&
   grep -q '^> lockgraph check: FAIL: 1 deadlock (limit 0): ' '$WORK/ga-fail.summary' &&
   grep -q '^| 1 deadlock (limit 0): ' '$WORK/ga-fail.summary' &&
   grep -q '^| \`ci-logs/pg-1.log\` | stderr | 38 | 38 |\$' '$WORK/ga-fail.summary'"
check "action: outputs exit-code and sarif-file; the SARIF is in the workspace with repository paths" bash -c \
  "grep -qx 'exit-code=1' '$WORK/ga-fail.output' && grep -qx 'sarif-file=out/../lockgraph.sarif' '$WORK/ga-fail.output' &&
   grep -q '\"uri\": \"ci-logs/pg-1.log\"' '$GA_WS/lockgraph.sarif' &&
   grep -q '\"uri\": \"file://$GA_WS/\"' '$GA_WS/lockgraph.sarif'"
if [ -x "$ROOT/tests/sarif/node_modules/.bin/sarif-multitool" ]; then
  check "action: its SARIF passes the validator with the GitHub rules" \
    "$ROOT/tests/sarif/validate.sh" "$GA_WS/lockgraph.sarif"
fi
ga pass LOCKGRAPH_LOGS="ci-logs/tests.txt" LOCKGRAPH_ARGS="--max-lock-wait 5s"
check "action: a clean log passes (exit 0), summary says ok" bash -c \
  "test \$(cat '$WORK/ga-pass.rc') -eq 0 && head -1 '$WORK/ga-pass.summary' | grep -qx '## lockgraph check: ok' &&
   grep -qx 'exit-code=0' '$WORK/ga-pass.output'"
ga report LOCKGRAPH_LOGS="ci-logs/pg-1.log" LOCKGRAPH_FAIL=false
check "action: fail=false reports but exits 0, exit-code still 1" bash -c \
  "test \$(cat '$WORK/ga-report.rc') -eq 0 && grep -qx 'exit-code=1' '$WORK/ga-report.output'"
ga missing LOCKGRAPH_LOGS="ci-logs/nothing-*.log"
check "action: a log that is not there gives no verdict (exit 2)" bash -c \
  "test \$(cat '$WORK/ga-missing.rc') -eq 2 && head -1 '$WORK/ga-missing.summary' | grep -qx '## lockgraph check: no verdict'"
ga nologs
check "action: no logs given is an error (exit 2) in the summary" bash -c \
  "test \$(cat '$WORK/ga-nologs.rc') -eq 2 && grep -q '^::error title=lockgraph::no logs given' '$WORK/ga-nologs.err' &&
   grep -qx '## lockgraph check: no verdict' '$WORK/ga-nologs.summary'"
