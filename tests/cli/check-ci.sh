# Sourced by tests/cli/run.sh (uses its check(), $BIN, $ROOT, $WORK): what a CI
# service gets from `lockgraph check` (issue 17): repository-relative paths in
# sarif, github, junit and codequality; SARIF that Microsoft's validator with
# the GitHub rules accepts (tests/sarif/validate.sh; not installed: SKIP, FAIL
# under CI=true); GitLab Code Quality fields; limits that are usage errors;
# --max-unparsed; pg_locks snapshots judged.

# The jobs below run in other folders: the binary's absolute path.
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac

# A repository with the log in logs/, the job in a sibling folder.
mkdir -p "$WORK/repo/.git" "$WORK/repo/logs" "$WORK/job"
cp "$ROOT/samples/postgresql/rules.log" "$WORK/repo/logs/pg.log"
CI_RUN="cd '$WORK/job' && '$BIN' check"
check "check: sarif paths are relative to the git work tree, with %SRCROOT%" bash -c \
  "$CI_RUN -f sarif ../repo/logs/pg.log >'$WORK/ci.sarif' 2>/dev/null; test \$? -eq 1 &&
   python3 - '$WORK/ci.sarif' '$WORK/repo' <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))['runs'][0]
assert run['originalUriBaseIds'] == {'%SRCROOT%': {'uri': 'file://' + sys.argv[2] + '/'}}, run['originalUriBaseIds']
locs = [l['physicalLocation']['artifactLocation'] for r in run['results'] for l in r['locations']]
assert all(r.get('locations') for r in run['results'])
assert {(a['uri'], a['uriBaseId']) for a in locs} == {('logs/pg.log', '%SRCROOT%')}, set(map(str, locs))
run_level = [r for r in run['results'] if r['ruleId'] in ('PG009', 'PG011')]
assert len(run_level) >= 2, [r['ruleId'] for r in run['results']]
PY"
check "check: an absolute input path gives the same repository path" bash -c \
  "$CI_RUN -f sarif '$WORK/repo/logs/pg.log' 2>/dev/null | grep '\"uri\": \"' | sort -u | grep -v file:// | sed 's/ *//' | tr -d '\\n' | grep -qx '\"uri\": \"logs/pg.log\",'"
check "check: --source-root sets the root" bash -c \
  "$CI_RUN -f sarif --source-root '$WORK/repo/logs' ../repo/logs/pg.log 2>/dev/null | grep -q '\"uri\": \"pg.log\"'"
check "check: github, junit and codequality use the same repository path" bash -c \
  "$CI_RUN -f github ../repo/logs/pg.log 2>/dev/null | grep -v '^::notice title' | grep -v '^::warning title' | grep -v '^::error title' >'$WORK/gh.txt';
   ! grep -v 'file=logs/pg.log,line=' '$WORK/gh.txt' &&
   $CI_RUN -f junit ../repo/logs/pg.log 2>/dev/null | grep -o 'file=\"[^\"]*\"' | sort -u | grep -qx 'file=\"logs/pg.log\"' &&
   $CI_RUN -f codequality ../repo/logs/pg.log 2>/dev/null | grep -o '\"path\": \"[^\"]*\"' | sort -u | grep -qx '\"path\": \"logs/pg.log\"'"
check "check: the no-verdict line names the repository path" bash -c \
  "$CI_RUN -i csvlog ../repo/logs/pg.log 2>&1 >/dev/null | grep -q '^lockgraph check: no verdict: logs/pg.log was not understood (0 of '"
check "check: without a git work tree, paths are relative to the current directory" bash -c \
  "cd '$WORK' && cp '$ROOT/samples/postgresql/prefix-pgbadger.log' '$WORK/job/p.log' && cd '$WORK/job' &&
   '$BIN' check -f github p.log 2>/dev/null | grep -q '^::error file=p.log,line='"

# Every SARIF made here, through Microsoft's validator with the GitHub rules.
for f in rules.log scenarios.log snapshots/snapshot.csv snapshots/pg_locks.csv groups.log; do
  n=$(echo "$f" | tr / -)
  (cd "$WORK/job" && "$BIN" check -f sarif --max-lock-wait 1s --fail-on PG001,PG009 \
    "$ROOT/samples/postgresql/$f" >"$WORK/v-$n.sarif" 2>/dev/null)
done
"$BIN" baseline "$ROOT/samples/postgresql/scenarios.log" -o "$WORK/base.json" 2>/dev/null
(cd "$WORK/job" && "$BIN" check -f sarif --baseline "$WORK/base.json" --max-lock-wait 1s \
  "$ROOT/samples/postgresql/rules.log" >"$WORK/v-stale.sarif" 2>/dev/null)
"$ROOT/tests/sarif/validate.sh" "$WORK/ci.sarif" "$WORK"/v-*.sarif >"$WORK/validate.out" 2>&1
vrc=$?
if [ $vrc -eq 3 ] && [ "${CI:-}" != "true" ]; then
  echo "SKIP  check: SARIF through the validator (tests/sarif not installed: npm ci)"
else
  check "check: every SARIF passes sarif-multitool --rule-kind Gh;Sarif without error" bash -c \
    "cat '$WORK/validate.out'; test $vrc -eq 0 && test \$(grep -c ': 0 errors' '$WORK/validate.out') -eq 7"
fi
check "check: a baseline's absent entries have a location too" bash -c \
  "python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))[\"runs\"][0][\"results\"]; a=[x for x in r if x.get(\"baselineState\")==\"absent\"]; assert a and all(x[\"locations\"] for x in a), len(a)' '$WORK/v-stale.sarif'"

check "codequality: GitLab's fields and severities, unique fingerprints, signatures as fingerprints" bash -c \
  "$CI_RUN -f codequality --max-lock-wait 1s ../repo/logs/pg.log >'$WORK/cq.json' 2>/dev/null; test \$? -eq 1 &&
   '$BIN' analyze -f json '$WORK/repo/logs/pg.log' >'$WORK/cq-a.json' &&
   python3 - '$WORK/cq.json' '$WORK/cq-a.json' <<'PY'
import json, sys
issues, a = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert isinstance(issues, list) and issues
for i in issues:
    assert isinstance(i['description'], str) and i['description'], i
    assert isinstance(i['check_name'], str) and i['check_name'], i
    assert i['severity'] in ('info', 'minor', 'major', 'critical', 'blocker'), i
    assert i['location']['path'] == 'logs/pg.log', i
    assert isinstance(i['location']['lines']['begin'], int) and i['location']['lines']['begin'] >= 1, i
fps = [i['fingerprint'] for i in issues]
assert len(fps) == len(set(fps)), 'duplicate fingerprints'
groups = sorted(g['signature'] for g in a['groups'])
assert sorted(i['fingerprint'] for i in issues if i['check_name'] == 'LG-DEADLOCK') == groups
PY"

# Limits: negative or absurd values are usage errors naming the option (exit 2).
SAMPLE_PB="$ROOT/samples/postgresql/prefix-pgbadger.log"
for bad in "--max-deadlocks -1" "--max-deadlocks 18446744073709551615" "--max-deadlocks x" \
           "--max-unparsed -5"; do
  opt=${bad% *}
  check "check $bad: usage error naming $opt, exit 2" bash -c \
    "'$BIN' check $bad '$SAMPLE_PB' >/dev/null 2>'$WORK/err'; test \$? -eq 2 && grep -q -- '$opt' '$WORK/err'"
done
for bad in "-5s" "100d" "2000000"; do
  check "check --max-lock-wait $bad: usage error, exit 2" bash -c \
    "'$BIN' check --max-lock-wait '$bad' '$SAMPLE_PB' >/dev/null 2>'$WORK/err'; test \$? -eq 2 &&
     grep -q -- \"--max-lock-wait '$bad' is not a duration from 0 to 1 day\" '$WORK/err'"
done
check "check --max-deadlocks 1000000000 is accepted" bash -c \
  "'$BIN' check --max-deadlocks 1000000000 '$SAMPLE_PB' >/dev/null 2>&1"
{ cat "$SAMPLE_PB"; echo 'garbage one'; echo 'garbage two'; } >"$WORK/garbage2.log"
check "check --max-unparsed 1: 2 lines not understood give no verdict, exit 2" bash -c \
  "'$BIN' check --max-deadlocks 5 --max-unparsed 1 '$WORK/garbage2.log' >/dev/null 2>'$WORK/err'; test \$? -eq 2 &&
   grep -qx 'lockgraph check: no verdict: 2 of 40 lines not understood (--max-unparsed 1; \`lockgraph analyze --show-unparsed\` lists them)' '$WORK/err'"
check "check --max-unparsed 2: within the limit, the verdict stands" bash -c \
  "'$BIN' check --max-deadlocks 5 --max-unparsed 2 '$WORK/garbage2.log' >/dev/null 2>'$WORK/err'; test \$? -eq 0"

# pg_locks snapshots are judged.
SNAP="$ROOT/samples/postgresql/snapshots/snapshot.csv"
check "check: a lock cycle in a snapshot fails like a deadlock" bash -c \
  "'$BIN' check '$SNAP' >/dev/null 2>'$WORK/err'; test \$? -eq 1 &&
   grep -qx 'lockgraph check: FAIL: 1 lock cycle in a snapshot (limit 0): 13922 -> 13957 -> 13922' '$WORK/err'"
check "check: --max-lock-wait applies to the waits' ages in a snapshot" bash -c \
  "'$BIN' check --max-deadlocks 1 --max-lock-wait 3s '$SNAP' >/dev/null 2>'$WORK/err'; test \$? -eq 1 &&
   grep -q '^lockgraph check: FAIL: 1 lock wait longer than 3s (longest 3' '$WORK/err' &&
   '$BIN' check --max-deadlocks 1 --max-lock-wait 5s '$SNAP' >/dev/null 2>&1"
check "check: a snapshot's cycle is a result in sarif, github, junit and codequality" bash -c \
  "'$BIN' check -f sarif '$SNAP' 2>/dev/null | grep -q '\"ruleId\": \"LG-LOCK-CYCLE\"' &&
   '$BIN' check -f github '$SNAP' 2>/dev/null | grep -q '^::error file=.*title=lockgraph%3A lock cycle 13922 -> 13957 -> 13922 in a snapshot::' &&
   '$BIN' check -f junit '$SNAP' 2>/dev/null | grep -q 'failures=\"1\"' &&
   '$BIN' check -f codequality '$SNAP' 2>/dev/null | grep -q '\"check_name\": \"LG-LOCK-CYCLE\"'"
check "analyze -f sarif: paths relative to the git work tree too, never file:// or .." bash -c \
  "cd '$WORK/job' && '$BIN' analyze -f sarif ../repo/logs/pg.log | grep '\"uri\": ' | sort -u >'$WORK/an-uris' &&
   grep -q '\"uri\": \"logs/pg.log\",' '$WORK/an-uris' && grep -q '\"uri\": \"file://$WORK/repo/\"' '$WORK/an-uris' &&
   test \$(wc -l <'$WORK/an-uris') -eq 2"
