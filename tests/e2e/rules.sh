#!/usr/bin/env bash
# End-to-end test of the rules against a real PostgreSQL server (CTest: e2e_rules).
#
#   tests/e2e/rules.sh LOCKGRAPH_BIN
#
# Starts a throwaway cluster on a free loopback port, runs every scenario of
# scripts/rule-scenarios.sh and then deadlocks of two shapes (6 + 4), and checks that
# `LOCKGRAPH_BIN analyze --format json` on the stderr log, the csvlog and the jsonlog
# gives each scenario's deadlock exactly the rules it was made for (fresh pids, keys and
# OIDs each run), and that the two shapes form two groups of 6 and 4. Then the lessons of
# scripts/rule-scenarios-lessons.sh: PG016 on the re-run's 23505 (run-level), PG017 on the
# queue workers' waits, and PG015 and PG017 on the pg_locks snapshots taken while the
# pooled_advisory and queue scenarios held their locks. Prints one line per
# check and "N passed, M failed"; exits 1 if any check failed.
# Needs: PostgreSQL 15 server + client (psql, pgbench), python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e-rules "${1:-}"
# shellcheck source=../../scripts/rule-scenarios.sh
source "$ROOT/scripts/rule-scenarios.sh"
# shellcheck source=../../scripts/rule-scenarios-lessons.sh
source "$ROOT/scripts/rule-scenarios-lessons.sh"
e2e_start_cluster || e2e_fail_all "could not start a PostgreSQL cluster"

LG_PG_PORT=$PORT
LG_LOGDIR="$PGDIR/log"
LG_WORKDIR="$WORK/scenarios"
lg_setup && lg_rule_setup || e2e_fail_all "setup failed"
lg_all_rule_scenarios || e2e_fail_all "a rule scenario failed (outputs in $LG_WORKDIR)"
lg_rule_two_shapes 6 4 || e2e_fail_all "the two-shapes scenarios failed"
lg_lessons_rule_setup && LG_SNAPSHOT_DIR="$WORK/snapshots" lg_all_lessons_rule_scenarios ||
  e2e_fail_all "a lessons scenario failed (outputs in $LG_WORKDIR)"
for k in l_pooled_advisory.A l_pooled_advisory.B l_rerun.B l_queue.A l_queue.B l_queue.C l_queue.D; do
  echo "$k=${LG_PIDS[$k]}"
done >"$WORK/lesson-pids.txt"
echo "e2e-rules: scenarios ran in $((SECONDS - T0)) s"
"$CLUSTER" stop "$PGDIR"        # flushes the three log files

for kind in log csv json; do
  timeout 120 "$BIN" analyze --format json "$PGDIR/log/postgresql.$kind" \
    >"$WORK/$kind.json" 2>"$WORK/$kind.err"
  echo $? >"$WORK/$kind.rc"
done
for snap in pooled_advisory queue; do
  timeout 120 "$BIN" analyze --format json "$WORK/snapshots/$snap.csv" >"$WORK/$snap.json" 2>"$WORK/$snap.err"
done

python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
# What each scenario's deadlock must get (tests/unit/test_rule_samples.cc has the same).
DEADLOCK = {"row_order": ["PG001"], "text_order": ["PG001", "PG002"], "table_order": ["PG003"],
            "upgrade_row": ["PG004"], "upgrade_table": ["PG004"], "fk": ["PG005"],
            "fk_parent": ["PG005"], "advisory_xact": ["PG007"], "advisory_session": ["PG007"],
            "ddl_deadlock": ["PG006"], "function": ["PG001", "PG008"], "clipped": ["PG001"],
            "retry": ["PG001"], "shape_pair": ["PG001"], "shape_ring": ["PG001"]}
# Lock waits: PG006 and PG007 by scenario, and PG010 on every wait of 1000 ms or more.
WAIT = {"lg_r_ddl_queue_B": ["PG006"], "lg_r_ddl_queue_C": ["PG006"],
        "lg_r_ddl_queue_D": ["PG006"], "lg_r_ddl_deadlock_B": ["PG006"],
        "lg_r_advisory_session_A": ["PG007"], "lg_l_pooled_advisory_B": ["PG007"]}
PIDS = dict(l.strip().split("=", 1) for l in open(f"{work}/lesson-pids.txt") if "=" in l)

def scenario(app):
    s = app[5:] if app.startswith("lg_r_") else app
    return s[:-2] if len(s) > 2 and s[-2] == "_" else s

passed = failed = 0
def out(ok, name, detail=""):
    global passed, failed
    passed += ok
    failed += not ok
    print(("PASS" if ok else "FAIL") + "  " + name + (" - " + detail if detail else ""))

for kind, label in (("log", "stderr log"), ("csv", "csvlog"), ("json", "jsonlog")):
    try:
        doc = json.load(open(f"{work}/{kind}.json"))
    except Exception as e:  # noqa: BLE001
        out(False, f"{label}: lockgraph output", f"no JSON: {e}")
        continue
    wrong, seen, queue_pg017 = [], set(), []
    for ev in doc["events"]:
        app = ev.get("session", {}).get("application", "")
        ids = [f["id"] for f in ev["findings"]]
        if app.startswith("lg_l_queue_") and "PG017" in ids:  # once, on the third waiter
            queue_pg017.append([f for f in ev["findings"] if f["id"] == "PG017"][0])
            ids.remove("PG017")
        if ev["type"] == "deadlock":
            scen = scenario(app)
            seen.add(scen)
            if DEADLOCK.get(scen) != ids:
                wrong.append(f"deadlock of {app} at line {ev['source']['first_line']}: {ids}")
        elif ev["type"] == "lock_wait":
            want = WAIT.get(app, []) + (["PG010"] if ev.get("waited_ms", 0) >= 1000 else [])
            if ids != want:
                wrong.append(f"lock wait of {app} at line {ev['source']['first_line']}: {ids}")
    out(not wrong, f"{label}: each event has exactly its rules",
        "; ".join(wrong[:3]) if wrong else f"{len(doc['events'])} events")
    # stderr writes one deadlock as "deadlock detected at character 13" (upgrade_table),
    # which the stderr reader does not take for a deadlock yet.
    expected = set(DEADLOCK) - ({"upgrade_table"} if kind == "log" else set())
    out(seen >= expected, f"{label}: every scenario's deadlock found",
        f"missing {sorted(expected - seen)}" if not seen >= expected else f"{len(seen)} scenarios")
    q = PIDS
    ok = len(queue_pg017) == 1 and queue_pg017[0]["message"].startswith(
        f"3 backends ({q['l_queue.B']}, {q['l_queue.C']} and {q['l_queue.D']}) wait at once for "
        "rows of jobs in the same SELECT ... FOR UPDATE ... LIMIT")
    out(ok, f"{label}: PG017 once on the queue workers' waits",
        str([f["message"] for f in queue_pg017]))
    run = [f["id"] for f in doc["findings"]]
    # PG009 three times: the pgbench retries, the 6 pairs and the 4 rings (each a
    # burst of one statement's deadlocks within seconds); PG011: the clipped queries;
    # PG016: the re-run's duplicate key next to its wait.
    out(run == ["PG009", "PG009", "PG009", "PG010", "PG011", "PG016"],
        f"{label}: run-level findings", str(run))
    pg016 = [f for f in doc["findings"] if f["id"] == "PG016"]
    ok = len(pg016) == 1 and pg016[0]["message"] == (
        "1 duplicate-key error (23505) on invoices (constraint invoices_customer_id_period_key "
        "on (customer_id, period)) within 60 s of 1 lock wait or deadlock on invoices; the "
        "failing backend had waited for the lock first") and \
        "key: (customer_id, period)=(1, 2026-11)" in pg016[0]["evidence"]
    out(ok, f"{label}: PG016 on the re-run's 23505", str([f["message"] for f in pg016]))
    out(doc["summary"].get("unique_violations") == 1, f"{label}: summary counts the 23505",
        str(doc["summary"].get("unique_violations")))
    pairs = {ev["signature"] for ev in doc["events"]
             if ev["type"] == "deadlock" and scenario(ev["session"]["application"]) == "shape_pair"}
    rings = {ev["signature"] for ev in doc["events"]
             if ev["type"] == "deadlock" and scenario(ev["session"]["application"]) == "shape_ring"}
    counts = {g["signature"]: g["count"] for g in doc["groups"]}
    carried = {}
    for ev in doc["events"]:
        if ev["type"] == "deadlock":
            carried[ev["signature"]] = carried.get(ev["signature"], 0) + 1
    # The pairs run the row_order scenario's UPDATE: that deadlock joins their group.
    ok = len(pairs) == 1 and len(rings) == 1 and pairs != rings and counts == carried and \
        counts.get(next(iter(pairs), ""), 0) == 7 and counts.get(next(iter(rings), ""), 0) == 4
    out(ok, f"{label}: two shapes, two groups of 6 (+ row_order) and 4",
        f"pair signatures {sorted(pairs)}, ring signatures {sorted(rings)}, "
        f"{len(counts)} groups, largest {sorted(counts.values(), reverse=True)[:4]}")
for snap, rule, start in (
        ("pooled_advisory", "PG015",
         f"{PIDS['l_pooled_advisory.A']} (lg_l_pooled_advisory_A) is idle, no transaction open, for "),
        ("queue", "PG017",
         f"3 backends ({PIDS['l_queue.B']}, {PIDS['l_queue.C']} and {PIDS['l_queue.D']}) wait at "
         "once for rows of jobs")):
    try:
        doc = json.load(open(f"{work}/{snap}.json"))
    except Exception as e:  # noqa: BLE001
        out(False, f"snapshot {snap}: lockgraph output", f"no JSON: {e}")
        continue
    found = [(f["id"], f["message"]) for ev in doc["events"] for f in ev["findings"]
             if f["id"] in ("PG015", "PG016", "PG017")]
    ok = len(found) == 1 and found[0][0] == rule and found[0][1].startswith(start)
    out(ok, f"snapshot {snap}: {rule} once, on the right backends", str(found))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
rc=$?
echo "e2e-rules: took $((SECONDS - T0)) s"
exit $rc
