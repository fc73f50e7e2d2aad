#!/usr/bin/env bash
# End-to-end test of the MySQL / MariaDB reader and rules against a live
# MariaDB server (CTest: e2e_mysql).
#
#   tests/e2e/mysql.sh LOCKGRAPH_BIN
#
# Runs scripts/make-mysql-samples.sh into a temporary directory on a free
# loopback port (a throwaway MariaDB, one deadlock per scenario), then checks
# that `LOCKGRAPH_BIN analyze --format json` on the error log reports exactly
# as many deadlocks as the server's Innodb_deadlocks counter, each complete,
# with a victim, and with the rules of its scenario; and that each scenario's
# SHOW ENGINE INNODB STATUS gives its one deadlock. Prints one line per check
# and "N passed, M failed"; exits 1 if any check failed.
# Needs: mariadb-server, mariadb-client, python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e-mysql "${1:-}"
command -v mariadbd >/dev/null || command -v /usr/sbin/mariadbd >/dev/null ||
  e2e_fail_all "mariadb-server is not installed (scripts/setup.sh)"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$ROOT/scripts/make-mysql-samples.sh" "$WORK" "$PORT" >"$WORK/make.log" 2>&1 ||
  { cat "$WORK/make.log"; e2e_fail_all "make-mysql-samples.sh failed"; }

verdict() {  # verdict NAME RESULT: RESULT is "ok" or what went wrong
  if [ "$2" = ok ]; then check pass "$1"; else check fail "$1" "$2"; fi
}

cat >"$WORK/error_log.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])][1:]
expected_rules = {"opposite_order": ["MY007"], "gap_insert": ["MY001", "MY008"],
                  "supremum_insert": ["MY001", "MY008"], "duplicate_key": ["MY002"],
                  "share_upgrade": ["MY003"], "fk_parent": ["MY003"],
                  "secondary_vs_primary": ["MY004", "MY008"], "auto_inc": ["MY006", "MY008"]}
events = [e for e in doc["events"] if e["type"] == "deadlock"]
counter = int(rows[-1][1])
problems = []
if len(events) != counter:
    problems.append(f"{len(events)} deadlocks, Innodb_deadlocks = {counter}")
for (name, _), ev in zip(rows, events):
    rules = [f["id"] for f in ev.get("findings", [])]
    if rules != expected_rules[name]:
        problems.append(f"{name}: rules {rules}, expected {expected_rules[name]}")
    if ev["engine"] != "mysql" or not ev.get("complete") or "victim" not in ev:
        problems.append(f"{name}: engine, complete or victim wrong")
print("ok" if not problems else "; ".join(problems))
PY
cat >"$WORK/status.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
events = [e for e in doc["events"] if e["type"] == "deadlock"]
ok = len(events) == 1 and events[0]["engine"] == "mysql" and events[0].get("complete")
print("ok" if ok else f"{len(events)} deadlocks: {json.dumps(events)[:300]}")
PY

"$BIN" analyze --format json "$WORK/mariadb-10.11-error.log" >"$WORK/error.json" 2>"$WORK/error.err"
verdict "error log: one deadlock per Innodb_deadlocks, rules per scenario" \
  "$(python3 "$WORK/error_log.py" "$WORK/error.json" "$WORK/mariadb-scenarios.tsv" 2>&1)"
for status in "$WORK"/mariadb-*.status*.txt; do
  "$BIN" analyze --format json "$status" >"$WORK/status.json" 2>/dev/null
  verdict "status: $(basename "$status")" "$(python3 "$WORK/status.py" "$WORK/status.json" 2>&1)"
done

finish
