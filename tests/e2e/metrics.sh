#!/usr/bin/env bash
# End-to-end test of the Prometheus metrics (CTest e2e_metrics; docs/metrics.md):
# a real PostgreSQL cluster and a real Prometheus (Debian `prometheus`, its own
# config and data directory, scraping every second, on free loopback ports).
#
#   tests/e2e/metrics.sh LOCKGRAPH_BIN
#
# `lockgraph watch --format ndjson --metrics-listen 127.0.0.1:0` runs while the four
# watch scenarios hold (a chain, an idle-in-transaction root, an advisory-lock cycle,
# a DDL queue) and then while the server breaks real deadlocks. Prometheus's
# /api/v1/query must give the gauges that `watch --once --format json` reports for
# the same moment, and, once everything is over, exactly the counters that watch's
# own NDJSON adds up to (wait_ended per mode, findings per rule and severity).
# `analyze --format prometheus` of the cluster's log must count the deadlocks per
# cause and the lock waits per mode and outcome that `analyze --format json` lists.
# promtool checks the live scrape; the dashboard and the alerts may name only
# metrics the scrape has. Prints one line per check and "N passed, M failed".
# Needs: PostgreSQL 14+, prometheus and promtool, curl, python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e_metrics "${1:-}"
export LSAN_OPTIONS="suppressions=$HERE/lsan-libpqxx.supp:fast_unwind_on_malloc=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
for tool in prometheus promtool curl; do
  command -v "$tool" >/dev/null || e2e_fail_all "$tool not found (scripts/setup.sh installs it)"
done

# ---- cluster, watch, prometheus ---------------------------------------------------------
source "$ROOT/scripts/watch-scenarios.sh"
e2e_start_cluster || e2e_fail_all "could not start a PostgreSQL cluster"
LG_PG_PORT=$PORT
LG_WORKDIR="$WORK/scenarios"
LG_LOGDIR="$PGDIR/log"
lg_setup >/dev/null && lgw_setup || e2e_fail_all "lg_setup/lgw_setup failed"
# The DSN, and so the `server` label, carries quotes and a backslash: the
# exposition must escape them for Prometheus to take the scrape at all.
DSN="host=127.0.0.1 port=$PORT user=postgres dbname=$LG_PG_DB application_name='lg \"metrics\" \\\\ e2e'"
SERVER=$("$BIN" watch --once --format json "$DSN" 2>"$WORK/once.err" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["servers"][0]["server"])')
[ -n "$SERVER" ] || { cat "$WORK/once.err"; e2e_fail_all "watch --once failed"; }

"$BIN" watch --format ndjson --interval 200ms --metrics-listen 127.0.0.1:0 "$DSN" \
  >"$WORK/watch.ndjson" 2>"$WORK/watch.err" &
WATCH_PID=$!
BG_PIDS+=("$WATCH_PID")
# metrics_url COMMAND ERRFILE: the URL COMMAND says it serves metrics on (up to 10 s).
metrics_url() {
  local url=""
  for _ in $(seq 100); do
    url=$(sed -n "s/^lockgraph $1: serving metrics on \(http:.*\)\$/\1/p" "$2")
    [ -n "$url" ] && break
    sleep 0.1
  done
  echo "$url"
}
METRICS_URL=$(metrics_url watch "$WORK/watch.err")
[ -n "$METRICS_URL" ] || { cat "$WORK/watch.err"; e2e_fail_all "watch did not say where it serves metrics"; }
check pass "watch --metrics-listen 127.0.0.1:0" "$METRICS_URL"
TARGET=${METRICS_URL#http://}
TARGET=${TARGET%/metrics}

# start_prometheus DIR JOB TARGET: a Prometheus of its own in DIR scraping TARGET
# every second; sets PROM to its URL once it is ready.
start_prometheus() {
  local port
  port=$(lg_free_port)
  mkdir -p "$1"
  cat >"$1/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: $2
    static_configs:
      - targets: ['$3']
YML
  prometheus --config.file="$1/prometheus.yml" --storage.tsdb.path="$1/data" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn >"$1/out.log" 2>&1 &
  BG_PIDS+=("$!")
  PROM="http://127.0.0.1:$port"
  for _ in $(seq 150); do curl -fs "$PROM/-/ready" >/dev/null 2>&1 && break; sleep 0.2; done
  curl -fs "$PROM/-/ready" >/dev/null 2>&1 || { tail "$1/out.log"; e2e_fail_all "prometheus did not start"; }
  check pass "prometheus ($2)" "${PROM#http://} scraping $3"
}
start_prometheus "$WORK/prometheus" lockgraph "$TARGET"

# prom QUERY: the result vector as sorted lines "label=value,... VALUE" (labels
# without __name__, job and instance); "error: ..." when the API says so.
prom() {
  curl -fs "$PROM/api/v1/query" --data-urlencode "query=$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
if d.get("status") != "success":
    print("error:", d.get("error")); sys.exit()
rows = []
for r in d["data"]["result"]:
    m = {k: v for k, v in r["metric"].items() if k not in ("__name__", "job", "instance")}
    rows.append(",".join(f"{k}={v}" for k, v in sorted(m.items())) + " " + r["value"][1])
print("\n".join(sorted(rows)))'
}

# prom_equals NAME QUERY EXPECTED: waits (up to 20 s: scrapes lag) until the query
# gives exactly EXPECTED, then checks.
prom_equals() {
  local got=""
  for _ in $(seq 80); do
    got=$(prom "$2")
    [ "$got" = "$3" ] && break
    sleep 0.25
  done
  if [ "$got" = "$3" ]; then check pass "$1" "$(echo "$got" | tr '\n' ';')"
  else check fail "$1" "prometheus: [$(echo "$got" | tr '\n' ';')] lockgraph: [$(echo "$3" | tr '\n' ';')]"; fi
}

# dashboard_works NAME TITLE...: every panel of docs/grafana/lockgraph.json evaluates on
# this Prometheus, and the panels TITLE... show a value above zero.
dashboard_works() {
  local name=$1 out
  shift
  for _ in $(seq 40); do  # scrapes and rate windows lag
    out=$(python3 "$ROOT/tests/metrics/dashboard_queries.py" "$PROM" "$ROOT" "$@" 2>&1) && break
    sleep 0.5
  done
  if [ $? = 0 ] && ! echo "$out" | grep -q '^FAIL'; then check pass "$name" "$(echo "$out" | grep -c '^ok') panels"
  else check fail "$name" "$out"; fi
}

# ---- gauges while the four scenarios hold ---------------------------------------------------
gauges_while_held() {
  "$BIN" watch --once --format json "$DSN" >"$WORK/once.json" 2>"$WORK/once.err" ||
    { check fail "watch --once" "$(cat "$WORK/once.err")"; return 0; }
  # What lockgraph's own JSON says of this moment, as Prometheus will show it.
  python3 - "$WORK/once.json" "$SERVER" >"$WORK/expected-gauges.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ev = doc["events"]
snap = [e for e in ev if e["type"] == "snapshot"][0]
chains = [e for e in ev if e["type"] == "chain"]
idle = sum(1 for c in chains if c["members"][0].get("state", "").startswith("idle in transaction"))
deepest = max([m["depth"] for c in chains for m in c["members"]] or [0])
server = sys.argv[2]
for name, v in [("blocked_sessions", snap["waiting"]), ("open_lock_cycles", snap["cycles"]),
                ("idle_in_transaction_root_blockers", idle), ("deepest_blocking_chain", deepest)]:
    print(f"{name} server={server} {v}")
PY
  local name rest
  while read -r name rest; do
    prom_equals "lockgraph_$name while all four scenarios hold" "lockgraph_$name" "$rest"
  done <"$WORK/expected-gauges.txt"
  prom_equals "lockgraph_server_up" "lockgraph_server_up" "server=$SERVER 1"
  # The longest wait grows with time: between what --once saw and a minute more.
  local once_ms got
  once_ms=$(python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
ages = [m.get("waiting_for", {}).get("age_ms", 0) for e in ev if e["type"] in ("chain", "cycle") for m in e["members"]]
print(max(ages or [0]))' "$WORK/once.json")
  got=$(prom "lockgraph_longest_lock_wait_seconds" | awk '{print $NF}')
  if python3 -c 'import sys; g, o = float(sys.argv[1]), float(sys.argv[2]) / 1000; sys.exit(not (o - 1 <= g <= o + 60))' \
       "${got:-nan}" "$once_ms" 2>/dev/null; then
    check pass "lockgraph_longest_lock_wait_seconds" "$got s (watch --once: $once_ms ms)"
  else
    check fail "lockgraph_longest_lock_wait_seconds" "prometheus: '$got' s, watch --once: $once_ms ms"
  fi
  dashboard_works "the dashboard's live panels show the held scenarios (Prometheus, watch)" \
    "Blocked sessions" "Longest lock wait" "Idle-in-transaction root blockers" "Open lock cycles" \
    "Blocked sessions and longest wait" "Root blockers and chains"
  # Rules: the same findings the NDJSON carried (counted below, after the end).
  return 0
}
lgw_hold all gauges_while_held || check fail "scenarios" "the four watch scenarios could not be built"

# Real deadlocks the server breaks (deadlock_timeout of pg-cluster.sh): waits that
# watch may or may not catch between polls; whatever it reports is counted alike.
scenario_two_way >/dev/null && scenario_three_way >/dev/null ||
  check fail "deadlock scenarios" "scenario_two_way / scenario_three_way failed"

# ---- counters once everything is over -----------------------------------------------------
prom_equals "every gauge back to zero" \
  'lockgraph_blocked_sessions + lockgraph_open_lock_cycles + lockgraph_idle_in_transaction_root_blockers' \
  "server=$SERVER 0"
# The NDJSON is final when no line came for 2 s.
prev=-1
for _ in $(seq 60); do
  now=$(wc -l <"$WORK/watch.ndjson")
  [ "$now" = "$prev" ] && break
  prev=$now
  sleep 2
done
python3 - "$WORK/watch.ndjson" >"$WORK/expected-counters.txt" <<'PY'
import collections, json, sys
waits, findings = collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    ev = json.loads(line)
    if ev["type"] == "wait_ended":
        waits[ev["waiter"]["waiting_for"]["mode"]] += 1
    if ev["type"] not in ("chain_ended", "cycle_ended"):
        for f in ev.get("findings", []):
            findings[(f["id"], f["severity"])] += 1
print("waits", ";".join(f"mode={m},outcome=ended {n}" for m, n in sorted(waits.items())))
print("findings", ";".join(f"rule={r},severity={s} {n}" for (r, s), n in sorted(findings.items())))
print("ended", sum(waits.values()))
PY
want_waits=$(sed -n 's/^waits //p' "$WORK/expected-counters.txt" | tr ';' '\n')
want_findings=$(sed -n 's/^findings //p' "$WORK/expected-counters.txt" | tr ';' '\n')
ended=$(sed -n 's/^ended //p' "$WORK/expected-counters.txt")
[ "${ended:-0}" -ge 10 ] && check pass "watch saw the waits end" "$ended wait_ended events" ||
  check fail "watch saw the waits end" "only ${ended:-0} wait_ended events"
[ -n "$want_findings" ] && check pass "watch's NDJSON carries findings" "$(echo "$want_findings" | tr '\n' ';')" ||
  check fail "watch's NDJSON carries findings" "none"
prom_equals "lockgraph_lock_waits_total = watch's wait_ended events per mode" \
  "lockgraph_lock_waits_total" "$want_waits"
prom_equals "lockgraph_findings_total = the findings of watch's NDJSON per rule and severity" \
  "lockgraph_findings_total" "$want_findings"
prom_equals "lockgraph_lock_wait_seconds_count = wait_ended events" \
  "lockgraph_lock_wait_seconds_count" " $ended"
prom_equals "no failed polls" 'lockgraph_polls_total{result="failed"}' ""
dashboard_works "the dashboard's rate panels show watch's waits and findings" \
  "Lock waits by mode and outcome" "Lock wait duration (quantiles)" "Findings by rule"

# ---- the live scrape itself ---------------------------------------------------------------
curl -fs "$METRICS_URL" >"$WORK/scrape.txt"
if out=$(promtool check metrics <"$WORK/scrape.txt" 2>&1); then check pass "promtool check metrics on the live scrape"
else check fail "promtool check metrics on the live scrape" "$out"; fi
if out=$(python3 "$ROOT/tests/metrics/check_names.py" "$WORK/scrape.txt" "$ROOT" 2>&1); then
  check pass "dashboard and alerts name only served metrics" "$out"
else check fail "dashboard and alerts name only served metrics" "$out"; fi
kill -TERM "$WATCH_PID"
wait "$WATCH_PID"
rc=$?
[ "$rc" = 0 ] && check pass "watch stops on SIGTERM with exit 0" || check fail "watch stops on SIGTERM" "exit $rc"
if curl -fs "$METRICS_URL" >/dev/null 2>&1; then check fail "the metrics port is closed after exit"
else check pass "the metrics port is closed after exit"; fi

# ---- analyze --format prometheus on the cluster's log ---------------------------------------
LOG="$PGDIR/log/postgresql.log"
"$BIN" analyze --format prometheus "$LOG" >"$WORK/analyze.prom" 2>"$WORK/analyze.err"
"$BIN" analyze --format json "$LOG" >"$WORK/analyze.json" 2>>"$WORK/analyze.err"
result=$(python3 - "$WORK/analyze.prom" "$WORK/analyze.json" <<'PY'
import collections, json, re, sys
prom = {}
for line in open(sys.argv[1]):
    if not line.startswith("#"):
        series, value = line.rsplit(" ", 1)
        prom[series] = float(value)
doc = json.load(open(sys.argv[2]))
want = {}
for c in doc["causes"]:
    want[f'lockgraph_deadlocks_total{{database="lockgraph",cause="{c["cause"]}"}}'] = c["count"]
waits = collections.Counter((e["mode"], e["outcome"]) for e in doc["events"] if e["type"] == "lock_wait")
for (m, o), n in waits.items():
    want[f'lockgraph_lock_waits_total{{mode="{m}",outcome="{o}"}}'] = n
got = {k: v for k, v in prom.items() if k.startswith(("lockgraph_deadlocks_total", "lockgraph_lock_waits_total"))}
deadlocks = sum(v for k, v in want.items() if "deadlocks" in k)
if got == want and deadlocks >= 2:
    print(f"ok {deadlocks:.0f} deadlocks in {len(doc['causes'])} causes, {sum(waits.values())} lock waits")
else:
    print(f"differs: prometheus {sorted(got.items())} json {sorted(want.items())}")
PY
)
[ "${result%% *}" = ok ] && check pass "analyze --format prometheus = analyze --format json" "${result#ok }" ||
  check fail "analyze --format prometheus = analyze --format json" "$result"
if out=$(promtool check metrics <"$WORK/analyze.prom" 2>&1); then check pass "promtool check metrics on analyze --format prometheus"
else check fail "promtool check metrics on analyze --format prometheus" "$out"; fi

# ---- follow --metrics-listen, scraped by Prometheus while its log grows ----------------------
# The cluster's log is appended in two halves to a file follow tails; Prometheus's
# deadlock and lock-wait sums must equal the events follow wrote, and analyze's.
mkdir -p "$WORK/flog"
: >"$WORK/flog/postgresql.log"
"$BIN" follow --metrics-listen 127.0.0.1:0 --output "$WORK/follow.ndjson" "$WORK/flog/" \
  2>"$WORK/follow.err" &
FOLLOW_PID=$!
BG_PIDS+=("$FOLLOW_PID")
FOLLOW_URL=$(metrics_url follow "$WORK/follow.err")
[ -n "$FOLLOW_URL" ] && check pass "follow --metrics-listen 127.0.0.1:0" "$FOLLOW_URL" ||
  { check fail "follow --metrics-listen" "$(cat "$WORK/follow.err")"; finish; }
FTARGET=${FOLLOW_URL#http://}
FTARGET=${FTARGET%/metrics}
start_prometheus "$WORK/prometheus-follow" lockgraph-follow "$FTARGET"
half=$(( $(wc -l <"$LOG") / 2 ))
head -n "$half" "$LOG" >>"$WORK/flog/postgresql.log"
# Prometheus scrapes the first half's counts before the second half comes, so that
# the dashboard's increase() and rate() panels see the counters grow.
for _ in $(seq 80); do
  [ -n "$(prom 'sum(lockgraph_log_lines_total) > 0')" ] && break
  sleep 0.25
done
sleep 1
tail -n +"$((half + 1))" "$LOG" >>"$WORK/flog/postgresql.log"
want_deadlocks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["deadlocks"])' "$WORK/analyze.json")
want_waits=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["lock_waits"])' "$WORK/analyze.json")
for _ in $(seq 100); do
  [ "$(grep -c '"type":"deadlock"' "$WORK/follow.ndjson" 2>/dev/null)" = "$want_deadlocks" ] &&
    [ "$(grep -c '"type":"lock_wait"' "$WORK/follow.ndjson")" = "$want_waits" ] && break
  sleep 0.2
done
got_deadlocks=$(grep -c '"type":"deadlock"' "$WORK/follow.ndjson")
got_waits=$(grep -c '"type":"lock_wait"' "$WORK/follow.ndjson")
[ "$got_deadlocks" = "$want_deadlocks" ] && [ "$got_waits" = "$want_waits" ] &&
  check pass "follow wrote each deadlock and lock wait of the grown log once" "$got_deadlocks deadlocks, $got_waits lock waits" ||
  check fail "follow wrote the grown log's events" "$got_deadlocks/$want_deadlocks deadlocks, $got_waits/$want_waits lock waits"
prom_equals "prometheus scraped follow's deadlock count" 'sum(lockgraph_deadlocks_total)' " $want_deadlocks"
prom_equals "prometheus scraped follow's lock-wait count" 'sum(lockgraph_lock_waits_total)' " $want_waits"
dashboard_works "the dashboard's deadlock and log panels show follow's counts" \
  "Deadlocks (range)" "Deadlocks by cause" "Deadlocks by database" "Log lines by result"
kill -TERM "$FOLLOW_PID"
wait "$FOLLOW_PID"
rc=$?
[ "$rc" = 0 ] && check pass "follow stops on SIGTERM with exit 0" || check fail "follow stops on SIGTERM" "exit $rc"

finish
