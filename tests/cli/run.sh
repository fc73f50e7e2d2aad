#!/usr/bin/env bash
# Command-line behaviour of `lockgraph analyze`, run by CTest (cli):
#   tests/cli/run.sh LOCKGRAPH_BIN
# stdin and '-', gzip input, several files, exit codes and error messages,
# NO_COLOR, --show-unparsed, and that every format reports the same counts;
# the usage errors and stdin of `check` and `baseline` (their real-server
# scenarios: tests/e2e/check.sh), and what CI services get from `check`
# (tests/cli/check-ci.sh: paths, SARIF validation, codequality, limits).
set -uo pipefail
BIN=${1:?usage: run.sh LOCKGRAPH_BIN}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SAMPLE="$ROOT/samples/postgresql/prefix-pgbadger.log"
WORK=$(mktemp -d /tmp/lockgraph-cli.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
check() {  # check NAME COMMAND...: passes when COMMAND succeeds
  local name=$1
  shift
  if "$@" >"$WORK/out" 2>&1; then
    PASSED=$((PASSED + 1))
    echo "PASS  $name"
  else
    FAILED=$((FAILED + 1))
    echo "FAIL  $name"
    sed 's/^/      /' "$WORK/out" | head -20
  fi
}

"$BIN" analyze --format json "$SAMPLE" >"$WORK/file.json"
summary() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"])' "$1"; }

check "stdin with - equals the file" bash -c \
  "'$BIN' analyze --format json - < '$SAMPLE' | sed 's#\"file\": \"-\"#\"file\": \"$SAMPLE\"#' | diff - '$WORK/file.json'"
check "stdin without a file argument" bash -c \
  "cat '$SAMPLE' | '$BIN' analyze --format json | grep -q '\"deadlocks\": 1'"
gzip -c "$SAMPLE" >"$WORK/sample.log.gz"
cp "$WORK/sample.log.gz" "$WORK/no-suffix"
check "gzip input gives the same events" bash -c \
  "'$BIN' analyze --format json '$WORK/sample.log.gz' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"inputs\"][0][\"gzip\"]; assert d[\"summary\"][\"deadlocks\"]==1, d[\"summary\"]'"
check "gzip recognised by its magic bytes, not its name" bash -c \
  "'$BIN' analyze --format json '$WORK/no-suffix' | grep -q '\"gzip\": true'"
check "several files: events of both, in input order" bash -c \
  "'$BIN' analyze --format json '$SAMPLE' '$ROOT/samples/postgresql/scenarios.log' | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d[\"summary\"]; f=[e[\"source\"][\"file\"] for e in d[\"events\"]]; assert s[\"deadlocks\"]==46 and len(d[\"inputs\"])==2 and \"repeated\" not in s and f==sorted(f, key=lambda x: x.endswith(\"scenarios.log\")), s'"
check "the same log given twice (plain and gzip): counted once, and said" bash -c \
  "'$BIN' analyze --format json '$SAMPLE' '$WORK/sample.log.gz' | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d[\"summary\"]; assert s[\"deadlocks\"]==1 and s[\"repeated\"]==dict(deadlocks=1, lock_waits=3), s; m=[x[\"message\"] for x in d[\"diagnostics\"]]; assert m and m[0].startswith(\"repeats 1 deadlock and 3 lock waits of \"), m' &&
   '$BIN' analyze '$SAMPLE' '$WORK/sample.log.gz' | grep -q 'sample.log.gz: repeats 1 deadlock and 3 lock waits of'"
check "missing file: exit 2 and the path on stderr" bash -c \
  "'$BIN' analyze /nonexistent/x.log 2>&1 >/dev/null | grep -q '/nonexistent/x.log: cannot open'; test \${PIPESTATUS[0]} -eq 2"
: >"$WORK/empty.log"
check "an empty input: exit 0, 0 events" bash -c \
  "'$BIN' analyze --format json '$WORK/empty.log' | grep -q '\"format\": \"empty\"'"
check "an input that cannot be read: exit 2, names it" bash -c \
  "'$BIN' analyze '$WORK/missing.log' 2>'$WORK/err'; rc=\$?; test \$rc -eq 2 && grep -q 'missing.log' '$WORK/err'"
check "one bad file among good ones: the good one is still reported, exit 2" bash -c \
  "'$BIN' analyze --format json '$WORK/missing.log' '$SAMPLE' 2>/dev/null >'$WORK/mixed.json'; rc=\$?; test \$rc -eq 2 && grep -q '\"deadlocks\": 1' '$WORK/mixed.json'"
check "check: an input read with the wrong format gives no verdict, exit 2" bash -c \
  "'$BIN' check -i csvlog '$SAMPLE' >/dev/null 2>'$WORK/err'; rc=\$?; test \$rc -eq 2 &&
   grep -q 'no verdict' '$WORK/err' && grep -q 'stderr fits the first lines better' '$WORK/err'"
check "usage error: exit 2" bash -c "'$BIN' analyze --format xml '$SAMPLE' 2>/dev/null; test \$? -eq 2"
check "--color always colours, NO_COLOR wins over auto" bash -c \
  "'$BIN' analyze --color always '$SAMPLE' | grep -q \$'\\x1b\\[' && ! NO_COLOR=1 '$BIN' analyze '$SAMPLE' | grep -q \$'\\x1b\\['"
{ cat "$SAMPLE"; echo 'garbage between records'; } >"$WORK/with-garbage.log"
check "--show-unparsed lists file and line" bash -c \
  "'$BIN' analyze --show-unparsed '$WORK/with-garbage.log' | grep -q 'with-garbage.log:39: garbage between records'"
check "unparsed count on stderr without the flag" bash -c \
  "'$BIN' analyze '$WORK/with-garbage.log' 2>&1 >/dev/null | grep -q '1 lines not understood'"
check "ndjson ends with a summary line" bash -c \
  "'$BIN' analyze --format ndjson '$SAMPLE' | tail -1 | grep -q '^{\"type\":\"summary\",\"deadlocks\":1,'"
check "dot renders with Graphviz" bash -c "'$BIN' analyze --format dot '$SAMPLE' | dot -Tsvg >/dev/null"
check "--help shows examples and exit codes" bash -c \
  "'$BIN' analyze --help | grep -q 'Exit codes' && '$BIN' analyze --help | grep -q 'tail -F'"
check "report writes the page of analyze --format html, and says so on stderr" bash -c \
  "'$BIN' report '$SAMPLE' -o '$WORK/r.html' 2>'$WORK/r.err' && '$BIN' analyze --format html '$SAMPLE' | cmp - '$WORK/r.html' && grep -q 'wrote $WORK/r.html (1 deadlocks in 1 groups' '$WORK/r.err'"
check "report -o - writes to stdout" bash -c \
  "'$BIN' report '$SAMPLE' -o - 2>/dev/null | cmp - '$WORK/r.html'"
check "report from stdin" bash -c \
  "'$BIN' report - -o - < '$SAMPLE' 2>/dev/null | grep -q 'id=\"count-deadlocks\">1<'"
check "report without -o: usage error, exit 2" bash -c \
  "'$BIN' report '$SAMPLE' >/dev/null 2>&1; test \$? -eq 2"
check "report to an unwritable path: exit 2, nothing on stdout" bash -c \
  "'$BIN' report '$SAMPLE' -o /nonexistent/dir/r.html 2>'$WORK/err' >'$WORK/out2'; rc=\$?; test \$rc -eq 2 && grep -q 'cannot write /nonexistent/dir/r.html' '$WORK/err' && ! test -s '$WORK/out2'"
check "report replaces an older page whole and leaves no temporary file beside it" bash -c \
  "mkdir '$WORK/rp' && echo old > '$WORK/rp/r.html' && '$BIN' report '$SAMPLE' -o '$WORK/rp/r.html' 2>/dev/null && cmp '$WORK/rp/r.html' '$WORK/r.html' && test \"\$(ls -A '$WORK/rp')\" = r.html"
check "report with no input read leaves no file" bash -c \
  "'$BIN' report /nonexistent/x.log -o '$WORK/rp/none.html' 2>/dev/null; test \$? -eq 2 && test \"\$(ls -A '$WORK/rp')\" = r.html"
check "report -o /dev/stdout writes through the link, which stays" bash -c \
  "'$BIN' report '$SAMPLE' -o /dev/stdout 2>/dev/null | cmp - '$WORK/r.html' && test -L /dev/stdout"
check "report of a missing file among good ones: exit 2, the page still written" bash -c \
  "'$BIN' report /nonexistent/x.log '$SAMPLE' -o '$WORK/r2.html' 2>/dev/null; rc=\$?; test \$rc -eq 2 && grep -q 'id=\"count-deadlocks\">1<' '$WORK/r2.html'"
check "report --help shows examples and exit codes" bash -c \
  "'$BIN' report --help | grep -q 'Exit codes' && '$BIN' report --help | grep -q 'report.html'"

# check and baseline: exit codes of usage and input errors, stdin.
check "check: a deadlock on stdin fails with exit 1 and one verdict line" bash -c \
  "'$BIN' check < '$SAMPLE' >/dev/null 2>'$WORK/err'; test \$? -eq 1 && test \$(wc -l <'$WORK/err') -eq 1 && grep -q '^lockgraph check: FAIL: 1 deadlock (limit 0): ' '$WORK/err'"
check "check: --max-deadlocks 1 passes with exit 0" bash -c \
  "'$BIN' check --max-deadlocks 1 '$SAMPLE' >/dev/null 2>'$WORK/err'; test \$? -eq 0 && grep -q '^lockgraph check: ok: 1 deadlock (limit 1)' '$WORK/err'"
check "check: a bad --max-lock-wait is a usage error (exit 2)" bash -c \
  "'$BIN' check --max-lock-wait soon '$SAMPLE' 2>'$WORK/err' >/dev/null; test \$? -eq 2 && grep -q 'not a duration' '$WORK/err'"
check "check: an unknown --fail-on rule is a usage error (exit 2)" bash -c \
  "'$BIN' check --fail-on PG999 '$SAMPLE' 2>'$WORK/err' >/dev/null; test \$? -eq 2 && grep -q 'PG999' '$WORK/err'"
check "check: a missing baseline is an input error (exit 2)" bash -c \
  "'$BIN' check --baseline '$WORK/none.json' '$SAMPLE' 2>'$WORK/err' >/dev/null; test \$? -eq 2 && grep -q 'none.json: cannot read the baseline' '$WORK/err'"
echo '{"lockgraph_baseline": 3}' >"$WORK/v3.json"
check "check: a baseline of another version is refused (exit 2)" bash -c \
  "'$BIN' check --baseline '$WORK/v3.json' '$SAMPLE' 2>'$WORK/err' >/dev/null; test \$? -eq 2 && grep -q 'not a lockgraph baseline of version 1 or 2' '$WORK/err'"
check "baseline: stdin to stdout, then check passes with it" bash -c \
  "'$BIN' baseline < '$SAMPLE' > '$WORK/b.json' 2>/dev/null && '$BIN' check --baseline '$WORK/b.json' '$SAMPLE' >/dev/null 2>&1"
check "baseline: an unreadable input writes nothing (exit 2)" bash -c \
  "'$BIN' baseline /nonexistent/x.log -o '$WORK/nb.json' 2>/dev/null; test \$? -eq 2 && test ! -e '$WORK/nb.json'"
check "check --help shows examples and exit codes" bash -c \
  "'$BIN' check --help | grep -q 'Exit codes' && '$BIN' baseline --help | grep -q 'lockgraph check --baseline'"

# A log rotated in the middle of a deadlock report, both files given in order: the
# report's head is kept and flagged truncated, its orphan tail lines are counted
# and listed, every other record of both files survives.
SCEN="$ROOT/samples/postgresql/scenarios.log"
head -n 16 "$SCEN" >"$WORK/postgresql.log.1"
tail -n +17 "$SCEN" >"$WORK/postgresql.log"
"$BIN" analyze --format json "$SCEN" >"$WORK/whole.json"
check "log rotated inside a deadlock report: head flagged, tail counted, the rest intact" bash -c \
  "'$BIN' analyze --format json --show-unparsed '$WORK/postgresql.log.1' '$WORK/postgresql.log' >'$WORK/rotated.json'; test \$? -eq 0 && python3 - '$WORK/rotated.json' '$WORK/whole.json' <<'PY'
import json, sys
r, w = (json.load(open(p)) for p in sys.argv[1:3])
s, ws = r['summary'], w['summary']
assert [i['file'].split('/')[-1] for i in r['inputs']] == ['postgresql.log.1', 'postgresql.log'], r['inputs']
assert s['deadlocks'] == ws['deadlocks'] == 45 and s['deadlocks_incomplete'] == 1, (s, ws)
# The wait of pid 6531 straddles the cut: its start is in one file, its end in the other.
assert s['lock_waits'] == ws['lock_waits'] + 1, (s, ws)
assert s['lines']['total'] == ws['lines']['total'] and s['lines']['unparsed'] == 2, s
dl = [e for e in r['events'] if e['type'] == 'deadlock']
assert dl[0]['truncated'] and not dl[0]['complete'], dl[0]
assert dl[0]['problems'] == ['no query lines after the edges', 'the record is cut (end of input)'], dl[0]
assert dl[0]['source']['file'].endswith('postgresql.log.1') and dl[0]['source']['first_line'] == 14
assert [u['line'] for u in r['unparsed']] == [1, 2], r['unparsed']
assert r['unparsed'][0]['text'].startswith('\tProcess 6544: UPDATE accounts'), r['unparsed']
wd = [e for e in w['events'] if e['type'] == 'deadlock']
assert [e['edges'] for e in dl[1:]] == [e['edges'] for e in wd[1:]]
PY"

# bzip2, xz and zstd input (issue 15), told by magic bytes (no suffix), from a
# file and from stdin, concatenated streams, and a cut file: an error that
# names it (exit 2), with the events before the cut still in the report when
# another input makes one.
SCEN="$ROOT/samples/postgresql/scenarios.log"
"$BIN" analyze --format json "$SCEN" >"$WORK/scen-plain.json"
SAME_SUMMARY='import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ("deadlocks", "lock_waits", "lines")
assert [a["summary"][k] for k in keys] == [b["summary"][k] for k in keys], (a["summary"], b["summary"])'
for tool in bzip2 xz zstd; do
  "$tool" -c -q "$SCEN" >"$WORK/scen-$tool"
  check "$tool input gives the same events (magic bytes, no suffix)" bash -c \
    "'$BIN' analyze --format json '$WORK/scen-$tool' >'$WORK/a.json' && python3 -c '$SAME_SUMMARY' '$WORK/a.json' '$WORK/scen-plain.json'"
  check "$tool input on stdin" bash -c \
    "'$BIN' analyze --format json - <'$WORK/scen-$tool' >'$WORK/a.json' && python3 -c '$SAME_SUMMARY' '$WORK/a.json' '$WORK/scen-plain.json'"
  { head -n 1000 "$SCEN" | "$tool" -c -q; tail -n +1001 "$SCEN" | "$tool" -c -q; } >"$WORK/scen-$tool-two"
  check "$tool: two concatenated streams read as one input" bash -c \
    "'$BIN' analyze --format json '$WORK/scen-$tool-two' >'$WORK/a.json' && python3 -c '$SAME_SUMMARY' '$WORK/a.json' '$WORK/scen-plain.json'"
  # -1: bzip2's 100k blocks, so that whole blocks come before the cut.
  "$tool" -1 -c -q "$SCEN" >"$WORK/scen-$tool-1"
  size=$(stat -c %s "$WORK/scen-$tool-1")
  head -c $((size * 3 / 4)) "$WORK/scen-$tool-1" >"$WORK/cut-$tool"
  check "$tool: a cut file is an error naming it, events before the cut reported" bash -c \
    "'$BIN' analyze --format json '$WORK/cut-$tool' '$SAMPLE' >'$WORK/a.json' 2>'$WORK/cut.err'; test \$? -eq 2 &&
     grep -qxF 'lockgraph: $WORK/cut-$tool: truncated $tool input: it ends inside a compressed stream (cut download or copy?)' '$WORK/cut.err' &&
     python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d[\"inputs\"])==2 and d[\"summary\"][\"deadlocks\"] > 2, d[\"summary\"]' '$WORK/a.json'"
done
# One bzip2 block (900k), cut: nothing decodes, the error still names the file.
head -c $(($(stat -c %s "$WORK/scen-bzip2") / 2)) "$WORK/scen-bzip2" >"$WORK/cut-one-block"
check "bzip2: a cut single-block file is an error naming it" bash -c \
  "'$BIN' analyze '$WORK/cut-one-block' >/dev/null 2>'$WORK/cut.err'; test \$? -eq 2 &&
   grep -qxF 'lockgraph: $WORK/cut-one-block: truncated bzip2 input: it ends inside a compressed stream (cut download or copy?)' '$WORK/cut.err'"
# A cloud export (a newest-first Cloud Logging array, zstd) on stdin reads as
# the file does.
"$BIN" analyze --format json "$ROOT/samples/postgresql/rendered/platform-gcp-array.json" >"$WORK/gcp-file.json"
zstd -c -q "$ROOT/samples/postgresql/rendered/platform-gcp-array.json" >"$WORK/gcp-array-zst"
check "a zstd Cloud Logging array on stdin gives the file's events" bash -c \
  "'$BIN' analyze --format json - <'$WORK/gcp-array-zst' >'$WORK/a.json' && python3 -c '$SAME_SUMMARY' '$WORK/a.json' '$WORK/gcp-file.json' &&
   grep -q '\"format\": \"gcp-logging\"' '$WORK/a.json'"

# Application and test output (the client format): a driver's deadlock error
# in a test log fails `check`, whether sniffed or the fallback.
CLIENT="$ROOT/samples/postgresql/clients"
check "check: a deadlock in pytest output on stdin fails with exit 1" bash -c \
  "'$BIN' check - < '$CLIENT/psycopg2.txt' >/dev/null 2>'$WORK/err'; test \$? -eq 1 && grep -q '^lockgraph check: FAIL: 2 deadlocks (limit 0): ' '$WORK/err'"
{ for i in $(seq 1 300); do echo "test_$i PASSED"; done; cat "$CLIENT/jdbc.txt"; } >"$WORK/ci.log"
check "check: a JDBC deadlock after 300 lines of test output fails with exit 1" bash -c \
  "'$BIN' check '$WORK/ci.log' >/dev/null 2>&1; test \$? -eq 1"
check "analyze: client output gives complete: false and source kind client" bash -c \
  "'$BIN' analyze --format json '$CLIENT/node-pg.txt' | python3 -c 'import json,sys; d=json.load(sys.stdin); e=d[\"events\"]; assert d[\"inputs\"][0][\"format\"]==\"client\" and len(e)==2 and all(x[\"source\"][\"kind\"]==\"client\" and not x[\"complete\"] for x in e), e'"
check "analyze: the text output notes client output" bash -c \
  "'$BIN' analyze '$CLIENT/pgx.txt' | grep -q '(client output: statements not logged)'"
printf 'all 12 tests passed\n' >"$WORK/green.log"
check "check: test output without a deadlock passes with exit 0" bash -c \
  "'$BIN' check - < '$WORK/green.log' >/dev/null 2>&1"

MYLOG="$ROOT/samples/mysql/mariadb-10.11-error.log"
check "mysql: record dumps (row data) never printed, in any format" bash -c \
  "for f in text json ndjson dot sarif junit github html codequality; do '$BIN' analyze --format \$f --show-unparsed '$MYLOG' 2>&1 | grep -q 'hex 80000014' && exit 1; done; exit 0"
check "mysql: --show-records prints them under each edge and in the lock's JSON text" bash -c \
  "'$BIN' analyze --show-records '$MYLOG' | grep -qF '      |  0: len 4; hex 80000014; asc     ;;' &&
   '$BIN' analyze --show-records --format json '$MYLOG' | grep -q 'hex 80000014'"
check "mysql: --redact wins over --show-records" bash -c \
  "! '$BIN' analyze --show-records --redact '$MYLOG' | grep -q 'hex 80000014'"
# shellcheck source=check-ci.sh
source "$ROOT/tests/cli/check-ci.sh"
# shellcheck source=github-action.sh
source "$ROOT/tests/cli/github-action.sh"
# shellcheck source=time-window.sh
source "$ROOT/tests/cli/time-window.sh"
# shellcheck source=servers.sh
source "$ROOT/tests/cli/servers.sh"
# shellcheck source=usage-errors.sh
source "$ROOT/tests/cli/usage-errors.sh"
# shellcheck source=stdin-pause.sh
source "$ROOT/tests/cli/stdin-pause.sh"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
