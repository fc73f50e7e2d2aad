#!/usr/bin/env bash
# End-to-end test against a real PostgreSQL server (registered in CTest as e2e_postgresql).
#
#   tests/e2e/run.sh LOCKGRAPH_BIN
#
# Starts a throwaway cluster on a free loopback port, runs every scenario of
# scripts/scenarios.sh, then checks that `LOCKGRAPH_BIN analyze --format json` finds in
# the stderr log, the csvlog and the jsonlog exactly the deadlocks the server counted,
# with the exact cycles read independently from the csvlog, and the lock waits of the
# lock_wait, lock_timeout and chain scenarios. Prints one line per check and
# "N passed, M failed"; exits 1 if any check failed.
# Needs: PostgreSQL 15 server + client (psql, pgbench), python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e "${1:-}"

# The 12 checks, in order; when a prerequisite fails the rest are reported as failed.
ALL_CHECKS=(
  "scenarios ran against a live server"
  "server truth: csvlog shows the expected cycles and waits"
  "(a) pg_stat_database deadlocks == csvlog 'deadlock detected' records"
  "(b) stderr log: summary.deadlocks"
  "(b) stderr log: cycles and victims"
  "(b) csvlog: summary.deadlocks"
  "(b) csvlog: cycles and victims"
  "(b) jsonlog: summary.deadlocks"
  "(b) jsonlog: cycles and victims"
  "(c) lock_wait scenario: lock_wait acquired"
  "(c) lock_timeout scenario: lock_wait timeout"
  "(c) chain scenario: chain [C, B, A]"
)
fail_rest() {  # fail_rest FROM_INDEX REASON
  local i
  for ((i = $1; i < ${#ALL_CHECKS[@]}; i++)); do check fail "${ALL_CHECKS[$i]}" "$2"; done
  finish
}

# ---- cluster and scenarios ------------------------------------------------------------
e2e_start_cluster || fail_rest 0 "could not start a PostgreSQL cluster"

LG_PG_PORT=$PORT
LG_LOGDIR="$PGDIR/log"
LG_WORKDIR="$WORK/scenarios"
failed_scen=()
if ! lg_setup; then fail_rest 0 "lg_setup failed"; fi
for s in two_way three_way lock_wait lock_timeout chain checkout; do
  "scenario_$s" || failed_scen+=("$s")
done
if [ ${#failed_scen[@]} -gt 0 ]; then
  check fail "${ALL_CHECKS[0]}" "failed: ${failed_scen[*]}"
  fail_rest 1 "scenarios failed"
fi
check pass "${ALL_CHECKS[0]}" "6 scenarios in $((SECONDS - T0)) s"

# Server-side deadlock count: every backend flushes its statistics when it exits, so wait
# until the scenario sessions are gone.
for _ in $(seq 1 100); do
  n=$("$CLUSTER" psql "$PGDIR" "$PORT" -d postgres -Atc \
    "select count(*) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()")
  [ "$n" = 0 ] && break
  sleep 0.1
done
STAT_DEADLOCKS=$("$CLUSTER" psql "$PGDIR" "$PORT" -d postgres -Atc \
  "select coalesce(sum(deadlocks), 0) from pg_stat_database")
"$CLUSTER" stop "$PGDIR"        # flushes the three log files

# Export the scenario pids for the python checks.
{
  for k in "${!LG_PIDS[@]}"; do printf '%s=%s\n' "$k" "${LG_PIDS[$k]}"; done
} >"$WORK/pids.txt"

# ---- lockgraph ------------------------------------------------------------------------
LOGS=(stderr:postgresql.log csvlog:postgresql.csv jsonlog:postgresql.json)
for entry in "${LOGS[@]}"; do
  kind=${entry%%:*}
  file="$PGDIR/log/${entry#*:}"
  if [ -z "$BIN" ] || [ ! -x "$BIN" ]; then
    echo "lockgraph binary not found: '${BIN}'" >"$WORK/$kind.err"
    echo 127 >"$WORK/$kind.rc"
    : >"$WORK/$kind.json"
    continue
  fi
  timeout 120 "$BIN" analyze --format json "$file" >"$WORK/$kind.json" 2>"$WORK/$kind.err"
  echo $? >"$WORK/$kind.rc"
done

# ---- checks ---------------------------------------------------------------------------
python3 - "$PGDIR/log/postgresql.csv" "$WORK" "$STAT_DEADLOCKS" <<'PY' >"$WORK/checks.out"
import csv, json, re, sys

csv_path, work, stat_deadlocks = sys.argv[1], sys.argv[2], int(sys.argv[3])
csv.field_size_limit(1 << 30)
pids = {}
for line in open(f"{work}/pids.txt"):
    k, v = line.strip().split("=", 1)
    pids[k] = int(v)

def out(ok, name, detail=""):
    print(("PASS" if ok else "FAIL") + "\t" + name + "\t" + detail)

# --- ground truth from the csvlog (python's csv module, independent of lockgraph) ---
EDGE = re.compile(r"^Process (\d+) waits for (\S+) on (.+); blocked by process (\d+)\.$")
records = list(csv.reader(open(csv_path, newline="")))
truth = []                 # [(victim, ((waiter, mode, text, blocker), ...), app)]
for r in records:
    if r[13] != "deadlock detected":
        continue
    edges = []
    for line in r[14].split("\n"):
        m = EDGE.match(line)
        if m:
            edges.append((int(m[1]), m[2], m[3], int(m[4])))
    truth.append((int(r[3]), tuple(edges), r[22]))
truth_cycles = sorted((v, e) for v, e, _ in truth)

def lock_lines(pid):
    return [r[13] for r in records if r[3] == str(pid)]

# Check 2: the scenarios produced what they claim, according to the server itself.
problems = []
def cyc(name):
    return [(v, e) for v, e, app in truth if app.startswith(f"lg_{name}_")]
P = lambda k: pids.get(k, -1)
tw = cyc("two_way")
if len(tw) != 1 or tw[0][0] != P("two_way.B") or \
   [(e[0], e[3]) for e in tw[0][1]] != [(P("two_way.B"), P("two_way.A")), (P("two_way.A"), P("two_way.B"))] or \
   any(not (e[1] == "ShareLock" and e[2].startswith("transaction ")) for e in tw[0][1]):
    problems.append(f"two_way cycle {tw}")
th = cyc("three_way")
A, B, C = P("three_way.A"), P("three_way.B"), P("three_way.C")
if len(th) != 1 or th[0][0] != C or [(e[0], e[3]) for e in th[0][1]] != [(C, A), (A, B), (B, C)]:
    problems.append(f"three_way cycle {th}")
co = [(v, e) for v, e, app in truth if app == "lg_checkout"]
big_tuple = [c for c in co if len(c[1]) >= 3 and any(e[2].startswith("tuple (") for e in c[1])]
if not big_tuple:
    problems.append("checkout: no cycle of >= 3 processes with a tuple edge")
if not any(m.startswith(f"process {P('lock_wait.B')} acquired ShareLock") for m in lock_lines(P("lock_wait.B"))):
    problems.append("lock_wait: no 'acquired' line for B")
if "canceling statement due to lock timeout" not in lock_lines(P("lock_timeout.B")):
    problems.append("lock_timeout: no lock timeout error for B")
for k in ("chain.B", "chain.C"):
    if not any(" still waiting for " in m for m in lock_lines(P(k))):
        problems.append(f"{k}: no 'still waiting' line")
sizes = {}
for _, e in truth_cycles:
    sizes[len(e)] = sizes.get(len(e), 0) + 1
out(not problems, "server truth: csvlog shows the expected cycles and waits",
    "; ".join(problems) if problems else
    f"{len(truth)} deadlocks, cycle sizes {dict(sorted(sizes.items()))}, "
    f"{len(big_tuple)} checkout cycles of >= 3 with a tuple edge")

# Check 3 (a)
out(stat_deadlocks == len(truth) and len(truth) > 0,
    "(a) pg_stat_database deadlocks == csvlog 'deadlock detected' records",
    f"pg_stat_database {stat_deadlocks}, csvlog {len(truth)}")

# Checks 4-9 (b)
def load(kind):
    rc = open(f"{work}/{kind}.rc").read().strip()
    err = open(f"{work}/{kind}.err").read().strip().splitlines()
    try:
        doc = json.load(open(f"{work}/{kind}.json"))
        if not isinstance(doc, dict):
            raise ValueError("top level is not an object")
        return doc, None
    except Exception as e:  # noqa: BLE001
        why = f"no JSON from lockgraph (exit {rc}): {e}"
        if err:
            why += f"; stderr: {err[-1][:200]}"
        return None, why

docs = {}
for kind, label in (("stderr", "stderr log"), ("csvlog", "csvlog"), ("jsonlog", "jsonlog")):
    doc, why = load(kind)
    docs[kind] = doc
    name_n = f"(b) {label}: summary.deadlocks"
    name_c = f"(b) {label}: cycles and victims"
    if doc is None:
        out(False, name_n, why)
        out(False, name_c, why)
        continue
    got_n = (doc.get("summary") or {}).get("deadlocks")
    out(got_n == len(truth), name_n, f"lockgraph {got_n}, csvlog {len(truth)}")
    try:
        got = sorted(
            (ev["victim"], tuple((e["waiter"], e["mode"], e["lock"]["text"], e["blocker"])
                                 for e in ev["edges"]))
            for ev in doc.get("events", []) if ev.get("type") == "deadlock")
    except (KeyError, TypeError) as e:
        out(False, name_c, f"malformed deadlock event: missing {e}")
        continue
    missing = [c for c in truth_cycles if c not in got]
    extra = [c for c in got if c not in truth_cycles]
    # multiset comparison
    ok = got == truth_cycles
    detail = f"{len(got)} cycles compared"
    if not ok:
        detail = (f"{len(got)} from lockgraph vs {len(truth_cycles)} in csvlog; "
                  f"first missing {missing[:1]}, first unexpected {extra[:1]}")
    out(ok, name_c, detail)

# Checks 10-12 (c)
def waits_of(doc, pid):
    return [ev for ev in doc.get("events", [])
            if ev.get("type") == "lock_wait" and ev.get("waiter", ev.get("pid")) == pid]

def check_c(name, pred):
    problems = []
    for kind, doc in docs.items():
        if doc is None:
            problems.append(f"{kind}: no lockgraph output")
            continue
        why = pred(doc)
        if why:
            problems.append(f"{kind}: {why}")
    out(not problems, name, "; ".join(problems) if problems else "stderr, csvlog and jsonlog agree")

def lw_acquired(doc):
    a, b = P("lock_wait.A"), P("lock_wait.B")
    evs = waits_of(doc, b)
    if len(evs) != 1:
        return f"{len(evs)} lock_wait events for B={b}, expected 1"
    ev = evs[0]
    if ev.get("outcome") != "acquired":
        return f"outcome {ev.get('outcome')!r}"
    if a not in (ev.get("holders") or []):
        return f"holders {ev.get('holders')} lack A={a}"
    if not isinstance(ev.get("waited_ms"), (int, float)) or ev["waited_ms"] < 1000:
        return f"waited_ms {ev.get('waited_ms')!r}, expected >= 1000 (A held the row ~1.5 s)"
    return None

def lw_timeout(doc):
    a, b = P("lock_timeout.A"), P("lock_timeout.B")
    evs = waits_of(doc, b)
    if len(evs) != 1:
        return f"{len(evs)} lock_wait events for B={b}, expected 1"
    ev = evs[0]
    if ev.get("outcome") != "timeout":
        return f"outcome {ev.get('outcome')!r}"
    if a not in (ev.get("holders") or []):
        return f"holders {ev.get('holders')} lack A={a}"
    return None

def chain(doc):
    a, b, c = P("chain.A"), P("chain.B"), P("chain.C")
    evc, evb = waits_of(doc, c), waits_of(doc, b)
    if len(evc) != 1 or len(evb) != 1:
        return f"{len(evc)} lock_wait events for C={c} and {len(evb)} for B={b}, expected 1 each"
    if evc[0].get("chain") != [c, b, a]:
        return f"C's chain {evc[0].get('chain')}, expected {[c, b, a]}"
    if evb[0].get("chain") != [b, a]:
        return f"B's chain {evb[0].get('chain')}, expected {[b, a]}"
    if evc[0].get("outcome") != "acquired" or evb[0].get("outcome") != "acquired":
        return f"outcomes C {evc[0].get('outcome')!r}, B {evb[0].get('outcome')!r}"
    return None

check_c("(c) lock_wait scenario: lock_wait acquired", lw_acquired)
check_c("(c) lock_timeout scenario: lock_wait timeout", lw_timeout)
check_c("(c) chain scenario: chain [C, B, A]", chain)
PY
py_rc=$?
n_lines=0
while IFS=$'\t' read -r verdict name detail; do
  n_lines=$((n_lines + 1))
  if [ "$verdict" = PASS ]; then check pass "$name" "$detail"; else check fail "$name" "$detail"; fi
done <"$WORK/checks.out"
if [ $py_rc -ne 0 ] || [ $n_lines -ne $((${#ALL_CHECKS[@]} - 1)) ]; then
  check fail "check script" "python exited $py_rc after $n_lines checks"
fi
for kind in stderr csvlog jsonlog; do
  if [ -s "$WORK/$kind.err" ]; then
    echo "e2e: lockgraph stderr for $kind (last lines):"; tail -n 3 "$WORK/$kind.err" | sed 's/^/    /'
  fi
done
finish
