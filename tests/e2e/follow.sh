#!/usr/bin/env bash
# End-to-end test of `lockgraph follow` (registered in CTest as e2e_follow).
#
#   tests/e2e/follow.sh LOCKGRAPH_BIN
#
# 1. A real PostgreSQL 15 cluster writes stderr, csvlog and jsonlog to files named
#    postgresql-%Y-%m-%d_%H%M%S.*; the scenarios of scripts/scenarios.sh run while
#    pg_rotate_logfile() makes new files between them. One follower per format (a
#    GLOB); the stderr one is killed with SIGKILL and restarted mid-way. Each output
#    must hold exactly the events `analyze --format ndjson` finds in the final files:
#    none twice, none missing. The latency from a deadlock's lines reaching the log to
#    its event reaching the output is measured.
# 2. A log grown message by message from a real sample (tests/e2e/follow_writer.py),
#    rotated by logrotate's create and copytruncate, while follow (a DIR) is killed
#    with SIGKILL and restarted again and again: the same comparison.
# 3. --output-max-size rotation, SIGHUP reopening, SIGTERM and exit codes.
# Prints one line per check and "N passed, M failed". Needs PostgreSQL 15, python3.
# The latency limit (150 ms) is multiplied by LOCKGRAPH_TEST_TIME_SCALE (CMake sets 4
# for the sanitizer build, whose code runs several times slower; the release build
# is held to 150 ms).
set -uo pipefail
LATENCY_MAX=$((150 * ${LOCKGRAPH_TEST_TIME_SCALE:-1}))

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e_follow "${1:-}"

# compare NAME OUTPUT [--any-file] FILE...: the events of OUTPUT (follow) against
# `analyze --format ndjson FILE...`; --any-file compares without source.file (a file
# renamed or copied since follow read it).
compare() {
  local name=$1 out=$2 any=""
  shift 2
  if [ "${1:-}" = --any-file ]; then any=1; shift; fi
  "$BIN" analyze --format ndjson "$@" >"$WORK/$name.analyze" 2>"$WORK/$name.analyze.err"
  local verdict
  verdict=$(python3 - "$out" "$WORK/$name.analyze" "$any" <<'PY'
import collections, json, sys
out, ref, any_file = sys.argv[1], sys.argv[2], sys.argv[3]
def events(path):
    evs = []
    for line in open(path):
        e = json.loads(line)
        if e.get("type") not in ("deadlock", "lock_wait"):
            continue
        if any_file:
            e["source"].pop("file", None)
        evs.append(json.dumps(e, sort_keys=True))
    return collections.Counter(evs)
got, want = events(out), events(ref)
twice = sum(n - 1 for n in got.values() if n > 1)
missing = want - got
extra = got - want
kinds = collections.Counter(json.loads(e)["type"] for e in want.elements())
if twice or missing or extra:
    print(f"{twice} written twice, {sum(missing.values())} missing, {sum(extra.values())} not in analyze")
    for e in list(missing)[:2]: print("  missing:", e[:300])
    for e in list(extra)[:2]: print("  extra:  ", e[:300])
else:
    print(f"ok {kinds['deadlock']} deadlocks, {kinds['lock_wait']} lock waits, each once")
PY
)
  case "$verdict" in
    "ok 0 deadlocks"*) check fail "$name" "$verdict (nothing to compare)" ;;
    ok*) check pass "$name" "${verdict#ok }" ;;
    *) check fail "$name" "$verdict" ;;
  esac
}

# start_follow NAME ARGS...: lockgraph follow in the background; sets FOLLOW_PID.
start_follow() {
  local name=$1
  shift
  "$BIN" follow --finish-after 1000 "$@" 2>>"$WORK/$name.stderr" &
  FOLLOW_PID=$!
  BG_PIDS+=("$FOLLOW_PID")
}

# stop_follow NAME PID: SIGTERM, expect exit 0.
stop_follow() {
  kill -TERM "$2" 2>/dev/null
  wait "$2"
  local rc=$?
  if [ "$rc" -eq 0 ]; then check pass "$1 stops on SIGTERM with 0"
  else check fail "$1 stops on SIGTERM with 0" "exit $rc; $(tail -3 "$WORK/$1.stderr")"; fi
}

# ---- 1. a real server rotating its own logs -------------------------------------------
e2e_start_cluster "log_filename = 'postgresql-%Y-%m-%d_%H%M%S.log'" ||
  e2e_fail_all "could not start a PostgreSQL cluster"
LOGDIR="$PGDIR/log"
LG_PG_PORT=$PORT
LG_WORKDIR="$WORK/scenarios"
lg_setup >/dev/null || e2e_fail_all "lg_setup failed"
# scripts/scenarios.sh reads LG_LOGDIR/postgresql.{log,csv}: links to the newest files.
LG_LOGDIR="$WORK/current"
mkdir -p "$LG_LOGDIR"
link_current() {
  local ext
  for ext in log csv; do
    ln -sfn "$(ls "$LOGDIR"/postgresql-*."$ext" | sort | tail -n1)" "$LG_LOGDIR/postgresql.$ext"
  done
}
link_current
rotate() {
  sleep 1.1
  _lg_psql -d postgres -c "select pg_rotate_logfile()" >/dev/null
  sleep 0.3
  link_current
}

start_follow log --state "$WORK/log.state" --output "$WORK/log.ndjson" "$LOGDIR/*.log"
LOG_PID=$FOLLOW_PID
start_follow csv --state "$WORK/csv.state" --output "$WORK/csv.ndjson" "$LOGDIR/*.csv"
CSV_PID=$FOLLOW_PID
start_follow json --state "$WORK/json.state" --output "$WORK/json.ndjson" "$LOGDIR/*.json"
JSON_PID=$FOLLOW_PID
sleep 0.5

# Latency: from the first line of a deadlock report in the log to its event in the output.
python3 - "$LOGDIR" "$WORK/log.ndjson" >"$WORK/latency.txt" 2>&1 <<'PY' &
import glob, json, os, sys, time
logdir, out = sys.argv[1], sys.argv[2]
start = os.path.getsize(out) if os.path.exists(out) else 0
t_log = t_out = None
deadline = time.time() + 60
while time.time() < deadline and t_out is None:
    if t_log is None:
        for p in glob.glob(logdir + "/*.log"):
            with open(p, errors="replace") as f:
                if "ERROR:  deadlock detected" in f.read():
                    t_log = time.monotonic()
    if os.path.exists(out):
        with open(out) as f:
            f.seek(start)
            if any(json.loads(l).get("type") == "deadlock" for l in f if l.endswith("\n")):
                t_out = time.monotonic()
    time.sleep(0.002)
print("none" if t_log is None or t_out is None else f"{(t_out - t_log) * 1000:.0f}")
PY
LAT_PID=$!
scenario_two_way || check fail "scenario two_way"
wait "$LAT_PID"
LATENCY=$(cat "$WORK/latency.txt")
if [ "$LATENCY" != none ] && [ "$LATENCY" -le "$LATENCY_MAX" ]; then
  check pass "deadlock event written ${LATENCY} ms after its lines reached the log (<= $LATENCY_MAX)"
else
  check fail "deadlock event latency" "$LATENCY"
fi
rotate
scenario_three_way || check fail "scenario three_way"
# SIGKILL the stderr follower mid-way; it resumes from its state.
kill -KILL "$LOG_PID"; wait "$LOG_PID" 2>/dev/null
scenario_lock_wait || check fail "scenario lock_wait"
start_follow log --state "$WORK/log.state" --output "$WORK/log.ndjson" "$LOGDIR/*.log"
LOG_PID=$FOLLOW_PID
rotate
scenario_lock_timeout || check fail "scenario lock_timeout"
kill -KILL "$LOG_PID"; wait "$LOG_PID" 2>/dev/null
start_follow log --state "$WORK/log.state" --output "$WORK/log.ndjson" "$LOGDIR/*.log"
LOG_PID=$FOLLOW_PID
rotate
scenario_chain || check fail "scenario chain"
rotate
scenario_checkout || check fail "scenario checkout"
sleep 2  # the rotated files are closed after --finish-after 1000
NFILES=$(ls "$LOGDIR"/postgresql-*.log | wc -l)
if [ "$NFILES" -ge 5 ]; then check pass "the server rotated to $NFILES stderr files"
else check fail "server rotation" "$NFILES files"; fi
stop_follow log "$LOG_PID"
stop_follow csv "$CSV_PID"
stop_follow json "$JSON_PID"
compare "stderr across rotation and two SIGKILLs" "$WORK/log.ndjson" "$LOGDIR"/postgresql-*.log
compare "csvlog across rotation" "$WORK/csv.ndjson" "$LOGDIR"/postgresql-*.csv
compare "jsonlog across rotation" "$WORK/json.ndjson" "$LOGDIR"/postgresql-*.json
"$CLUSTER" stop "$PGDIR" >/dev/null 2>&1

# ---- 2. logrotate create and copytruncate, SIGKILL again and again ---------------------
GEN="$WORK/gen"
mkdir -p "$GEN"
python3 "$HERE/follow_writer.py" "$ROOT/samples/postgresql/scenarios.log" "$GEN" postgresql.log 7 \
  >"$WORK/writer.out" 2>&1 &
WRITER=$!
BG_PIDS+=("$WRITER")
KILLS=0
while kill -0 "$WRITER" 2>/dev/null; do
  start_follow gen --state "$WORK/gen.state" --output "$WORK/gen.ndjson" "$GEN"
  sleep "0.$((RANDOM % 6 + 2))"
  kill -KILL "$FOLLOW_PID" 2>/dev/null && KILLS=$((KILLS + 1))
  wait "$FOLLOW_PID" 2>/dev/null
done
wait "$WRITER"
start_follow gen --state "$WORK/gen.state" --output "$WORK/gen.ndjson" "$GEN"
sleep 2.5
stop_follow gen "$FOLLOW_PID"
ROT=$(grep -c rotated "$WORK/writer.out")
if [ "$ROT" -eq 4 ] && [ "$KILLS" -ge 5 ]; then
  check pass "the log was rotated $ROT times (create, copytruncate) and follow killed $KILLS times"
else
  check fail "writer rotations and kills" "$ROT rotations, $KILLS kills"
fi
compare "create, copytruncate and $KILLS SIGKILLs" "$WORK/gen.ndjson" --any-file "$GEN"/postgresql.log*

# ---- 3. latency, output rotation, SIGHUP, exit codes ------------------------------------
mkdir -p "$WORK/lat"
start_follow lat --output "$WORK/lat.ndjson" "$WORK/lat"
LATPID=$FOLLOW_PID
LAT=$(python3 "$HERE/follow_latency.py" "$ROOT/samples/postgresql/scenarios.log" "$WORK/lat" \
  "$WORK/lat.ndjson" 10)
stop_follow lat "$LATPID"
MAXQ=$(echo "$LAT" | sed -n 's/^quiet: median [0-9]* ms, max \([0-9]*\) ms.*/\1/p')
MAXN=$(echo "$LAT" | sed -n 's/.*next message: median [0-9]* ms, max \([0-9]*\) ms$/\1/p')
if [ -n "$MAXQ" ] && [ -n "$MAXN" ] && [ "$MAXQ" -le "$LATENCY_MAX" ] && [ "$MAXN" -le "$LATENCY_MAX" ]; then
  check pass "latency of a deadlock event over 10 rounds (<= $LATENCY_MAX ms)" "$LAT"
else
  check fail "latency of a deadlock event" "$LAT"
fi

OUT="$WORK/rot"
mkdir -p "$OUT/logs"
cp "$ROOT/samples/postgresql/scenarios.json" "$OUT/logs/"
"$BIN" follow --once --output "$OUT/events.ndjson" --output-max-size 20k --output-keep 50 \
  "$OUT/logs" 2>"$WORK/rot.stderr"
rc=$?
BIG=$(find "$OUT" -name 'events.ndjson*' -size +40k | wc -l)
NOUT=$(ls "$OUT"/events.ndjson* | wc -l)
cat "$OUT"/events.ndjson* >"$WORK/rot.all"
if [ "$rc" -eq 0 ] && [ "$NOUT" -ge 3 ] && [ "$BIG" -eq 0 ]; then
  check pass "--output-max-size 20k rotated into $NOUT files"
else
  check fail "--output-max-size" "rc $rc, $NOUT files, $BIG too big"
fi
compare "rotated output files together" "$WORK/rot.all" "$OUT/logs/scenarios.json"

mkdir -p "$OUT/hup"
start_follow hup --output "$OUT/hup/events.ndjson" "$OUT/hup/"
HUP_PID=$FOLLOW_PID
head -n 200 "$ROOT/samples/postgresql/scenarios.json" >"$OUT/hup/pg.json"
sleep 1
mv "$OUT/hup/events.ndjson" "$OUT/hup/events.ndjson.old"
kill -HUP "$HUP_PID"
sleep 0.5
tail -n +201 "$ROOT/samples/postgresql/scenarios.json" >>"$OUT/hup/pg.json"
sleep 1
stop_follow hup "$HUP_PID"
if [ -s "$OUT/hup/events.ndjson.old" ] && [ -s "$OUT/hup/events.ndjson" ]; then
  check pass "SIGHUP reopens --output after a move ($(wc -l <"$OUT/hup/events.ndjson.old") + $(wc -l <"$OUT/hup/events.ndjson") events)"
else
  check fail "SIGHUP reopen" "$(ls -l "$OUT/hup")"
fi
cat "$OUT/hup/events.ndjson.old" "$OUT/hup/events.ndjson" >"$WORK/hup.all"
compare "events across SIGHUP" "$WORK/hup.all" "$OUT/hup/pg.json"

"$BIN" follow --once >/dev/null 2>"$WORK/usage.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "name the logs to follow" "$WORK/usage.err"; then
  check pass "no target: exit 2 with a reason"
else check fail "no target" "rc $rc: $(cat "$WORK/usage.err")"; fi
echo '{"version": 1, "files": [' >"$WORK/bad.state"
"$BIN" follow --once --state "$WORK/bad.state" "$OUT/logs" >/dev/null 2>"$WORK/bad.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "malformed state" "$WORK/bad.err"; then
  check pass "a malformed state file: exit 2, not a silent fresh start"
else check fail "malformed state" "rc $rc: $(cat "$WORK/bad.err")"; fi
finish
