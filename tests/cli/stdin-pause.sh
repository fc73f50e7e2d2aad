# shellcheck shell=bash
# Sourced by tests/cli/run.sh (uses its check(), $BIN, $ROOT, $WORK): the pipe
# filter `tail -F log | lockgraph analyze --format ndjson -` (issue 20). A writer
# sends the first 21 lines of scenarios.log at once (as tail -F sends a log's
# last lines; they end with a deadlock's message, which no later line closes),
# then keeps the pipe open and silent for 3 s. The deadlock's event must be on
# lockgraph's stdout before 1.5 s of that silence have passed (it leaves about
# 0.35 s in: the format is sniffed after a 300 ms pause, then the 50 ms quiet
# flush closes the record; before issue 20 it left at the end of input), and
# the whole output must equal that of the same lines read at once; with the
# parser thread (--threads 2) and without. A generous bound, not a latency
# figure: those are bench/stdin_latency.py's (docs/performance.md).

# Times scale with LOCKGRAPH_TEST_TIME_SCALE (CMake sets 4 for the
# AddressSanitizer build, whose format sniffing alone takes over a second
# here with LSan's full unwinding on every malloc): the silence and the
# bound grow together, so an event that left only at the end of input
# still fails; and the writer first waits for lockgraph to have started, so
# that a pause is a pause on the pipe, not time spent before the first read.
TIME_SCALE=${LOCKGRAPH_TEST_TIME_SCALE:-1}
scaled() { python3 -c "import sys; print(float(sys.argv[1]) * float(sys.argv[2]))" "$1" "$TIME_SCALE"; }

# deadlock_before_silence_ends THREADS: prints "early" or "late" for each
# deadlock event: before or after the marker file pause-late (written 1.5 s
# into the silence) was there; succeeds on one "early" and the same output.
deadlock_before_silence_ends() {
  local log="$WORK/pause-head21.log" late="$WORK/pause-late" out="$WORK/pause-out"
  head -21 "$ROOT/samples/postgresql/scenarios.log" >"$log"
  rm -f "$late" "$out"
  {
    sleep "$(scaled 0.25)"
    cat "$log"
    sleep "$(scaled 1.5)"
    : >"$late"
    sleep "$(scaled 1.5)"
  } | "$BIN" analyze --threads "$1" --format ndjson - 2>/dev/null |
    while IFS= read -r line; do
      printf '%s\n' "$line" >>"$out"
      case $line in
        '{"type":"deadlock",'*) if [ -e "$late" ]; then echo late; else echo early; fi ;;
      esac
    done >"$WORK/pause-when"
  echo "deadlock events: $(tr '\n' ' ' <"$WORK/pause-when")"
  [ "$(cat "$WORK/pause-when")" = early ] &&
    "$BIN" analyze --format ndjson - <"$log" | cmp - "$out"
}
for pause_threads in 1 2; do
  check "stdin pipe gone quiet (--threads $pause_threads): the deadlock leaves within 1.5 s; output as read at once" \
    deadlock_before_silence_ends "$pause_threads"
done

# tail -F of a freshly started server's log: its first lines are the startup
# messages alone, which stop before log_line_prefix's %q part, so the prefix
# sniffed on them ("%m [%p] ") does not fit the sessions' lines that come
# after the pause. The first of those lines that looks prefixed but does not
# fit makes the reader detect the prefix again: every deadlock of the log
# comes out, as from the file read at once, with a note that names both
# prefixes.
startup_lines_first() {
  local log="$1"
  { sleep "$(scaled 0.25)"; head -5 "$log"; sleep "$(scaled 0.6)"; tail -n +6 "$log"; } |
    "$BIN" analyze --format ndjson - 2>"$WORK/startup.err" | grep -v '"type":"summary"' >"$WORK/startup.out"
  "$BIN" analyze --format ndjson - <"$log" | grep -v '"type":"summary"' >"$WORK/startup.want"
  echo "deadlocks: $(grep -c '"type":"deadlock"' "$WORK/startup.out") of $(grep -c '"type":"deadlock"' "$WORK/startup.want")"
  cmp "$WORK/startup.want" "$WORK/startup.out" &&
    "$BIN" analyze --format json - < <({ sleep "$(scaled 0.25)"; head -5 "$log"; sleep "$(scaled 0.6)"; tail -n +6 "$log"; }) |
    python3 -c '
import json, sys
d = json.load(sys.stdin)
notes = [x["message"] for x in d["diagnostics"] if "from this line on" in x["message"]]
assert d["summary"]["lines"]["unparsed"] == 0, d["summary"]
assert len(notes) == 1 and "%m [%p] %q%u@%d/%a " in notes[0] and "%m [%p] " in notes[0], notes'
}
check "stdin: a fresh server's startup lines first, a pause, then sessions: the prefix is detected again, no deadlock lost" \
  startup_lines_first "$ROOT/samples/postgresql/scenarios.log"
check "stdin, journald: the same through syslog framing" \
  startup_lines_first "$ROOT/samples/postgresql/rendered/framing-journald.log"
