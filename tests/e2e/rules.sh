#!/usr/bin/env bash
# End-to-end test of the rules against a real PostgreSQL server (CTest: e2e_rules).
#
#   tests/e2e/rules.sh LOCKGRAPH_BIN
#
# Starts a throwaway cluster on a free loopback port, runs every scenario of
# scripts/rule-scenarios.sh and then deadlocks of two shapes (6 + 4), and checks that
# `LOCKGRAPH_BIN analyze --format json` on the stderr log, the csvlog and the jsonlog
# gives each scenario's deadlock exactly the rules it was made for (fresh pids, keys and
# OIDs each run), and that the two shapes form two groups of 6 and 4. Prints one line per
# check and "N passed, M failed"; exits 1 if any check failed.
# Needs: PostgreSQL 15 server + client (psql, pgbench), python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e-rules "${1:-}"
# shellcheck source=../../scripts/rule-scenarios.sh
source "$ROOT/scripts/rule-scenarios.sh"
e2e_start_cluster || e2e_fail_all "could not start a PostgreSQL cluster"

LG_PG_PORT=$PORT
LG_LOGDIR="$PGDIR/log"
LG_WORKDIR="$WORK/scenarios"
lg_setup && lg_rule_setup || e2e_fail_all "setup failed"
lg_all_rule_scenarios || e2e_fail_all "a rule scenario failed (outputs in $LG_WORKDIR)"
lg_rule_two_shapes 6 4 || e2e_fail_all "the two-shapes scenarios failed"
echo "e2e-rules: scenarios ran in $((SECONDS - T0)) s"
"$CLUSTER" stop "$PGDIR"        # flushes the three log files

for kind in log csv json; do
  timeout 120 "$BIN" analyze --format json "$PGDIR/log/postgresql.$kind" \
    >"$WORK/$kind.json" 2>"$WORK/$kind.err"
  echo $? >"$WORK/$kind.rc"
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
        "lg_r_advisory_session_A": ["PG007"]}

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
    wrong, seen = [], set()
    for ev in doc["events"]:
        app = ev.get("session", {}).get("application", "")
        ids = [f["id"] for f in ev["findings"]]
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
    run = [f["id"] for f in doc["findings"]]
    # PG009 three times: the pgbench retries, the 6 pairs and the 4 rings (each a
    # burst of one statement's deadlocks within seconds); PG011: the clipped queries.
    out(run == ["PG009", "PG009", "PG009", "PG010", "PG011"], f"{label}: run-level findings",
        str(run))
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
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
rc=$?
echo "e2e-rules: took $((SECONDS - T0)) s"
exit $rc
