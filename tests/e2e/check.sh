#!/usr/bin/env bash
# End-to-end test of the CI gate against a real PostgreSQL server (CTest: e2e_check).
#
#   tests/e2e/check.sh LOCKGRAPH_BIN
#
# Starts a throwaway cluster on a free loopback port (LOCKGRAPH_E2E_PORT forces one),
# makes part 1 of a log (a 2-process deadlock whose UPDATEs carry customer names, and a
# lock wait of ~1.5 s) and part 2 (a 3-process deadlock on another table: a new shape),
# then checks `lockgraph check` and `lockgraph baseline` on them: exit codes, the
# verdict naming the signature, the baseline passing part 1 and failing part 2 with the
# stale entries listed, SARIF through Microsoft's validator with the GitHub rules
# (tests/sarif/validate.sh, installed by
# scripts/setup.sh; missing validator: FAIL under CI=true, SKIP otherwise), JUnit parsed
# with python3's xml and its counts, GitHub annotations, and --redact.
# Prints one line per check and "N passed, M failed"; exits 1 if any check failed.
# Needs: PostgreSQL 15 server + client, python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e-check "${1:-}"
VALIDATOR="$ROOT/tests/sarif/node_modules/.bin/sarif-multitool"
# shellcheck source=../../scripts/rule-scenarios.sh
source "$ROOT/scripts/rule-scenarios.sh"
e2e_start_cluster || e2e_fail_all "could not start a PostgreSQL cluster"

LG_PG_PORT=$PORT
LG_LOGDIR="$PGDIR/log"
LG_WORKDIR="$WORK/scenarios"
LOG="$PGDIR/log/postgresql.log"
lg_setup && lg_rule_setup || e2e_fail_all "setup failed"

# The pair deadlock of part 1: customer names in the statements (for --redact).
_lg_check_pair() {
  _lg_rule_pair check_pair \
    "UPDATE accounts SET owner = 'Jane O''Secret' WHERE id = 3;" \
    "UPDATE accounts SET owner = 'John Secret' WHERE id = 4;" \
    "UPDATE accounts SET owner = 'Jane O''Secret' WHERE id = 4;" \
    "UPDATE accounts SET owner = 'John Secret' WHERE id = 3;"
}
# RAISE LOG a mark and wait until the collector has written it: the log so far is complete.
mark() {
  _lg_q -- "DO \$\$ BEGIN RAISE LOG 'lg-check-mark-$1'; END \$\$;" || return 1
  for _ in $(seq 100); do grep -q "lg-check-mark-$1" "$LOG" && return 0; sleep 0.1; done
  return 1
}

mark 0 || e2e_fail_all "the server log is not written"
_lg_run check_pair _lg_check_pair || e2e_fail_all "the pair deadlock scenario failed"
scenario_lock_wait || e2e_fail_all "the lock wait scenario failed"
mark 1 || e2e_fail_all "mark 1 not logged"
scenario_rule_shape_ring 0 || e2e_fail_all "the ring deadlock scenario failed"
"$CLUSTER" stop "$PGDIR"        # flushes the log
n1=$(grep -n "lg-check-mark-1" "$LOG" | head -n1 | cut -d: -f1)
head -n "$n1" "$LOG" >"$WORK/part1.log"
tail -n +"$((n1 + 1))" "$LOG" >"$WORK/part2.log"
echo "e2e-check: scenarios ran in $((SECONDS - T0)) s; part 1: $n1 lines, part 2: $(wc -l <"$WORK/part2.log") lines"

# run NAME ARGS... : lockgraph ARGS with stdout, stderr and exit code in $WORK/NAME.{out,err,rc}
run() {
  local name=$1
  shift
  (cd "$WORK" && timeout 120 "$BIN" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err")
  echo $? >"$WORK/$name.rc"
}
run analyze1 analyze --format json part1.log
run analyze2 analyze --format json part2.log
run analyze_redact analyze --redact --format json part1.log
run check_plain check part1.log
run check_wait check --max-deadlocks 1 --max-lock-wait 1s part1.log
run check_failon check --max-deadlocks 5 --fail-on PG001 part1.log
run baseline baseline part1.log -o baseline.json
run check_base1 check --baseline baseline.json --max-lock-wait 1s part1.log
run check_base2 check --baseline baseline.json --max-lock-wait 1s part2.log
run sarif1 check --format sarif part1.log
run sarif1_plain check --format sarif --no-redact part1.log
run sarif2 check --format sarif --baseline baseline.json --max-lock-wait 1s --fail-on PG001 part2.log
run json2 check --format json --baseline baseline.json --max-lock-wait 1s part2.log
run junit2 check --format junit --baseline baseline.json --max-lock-wait 1s part2.log
run junit1 check --format junit --max-lock-wait 1s part1.log
run github1 check --format github part1.log
run missing check no-such.log
run bad_baseline check --baseline part1.log part1.log

# Microsoft's validator with the GitHub rules (--rule-kind "Gh;Sarif"), as code scanning
# judges an upload: tests/sarif/validate.sh, one verdict file per SARIF.
VALIDATOR_OK=""
if [ -x "$VALIDATOR" ]; then
  VALIDATOR_OK=1
  for s in sarif1 sarif1_plain sarif2; do
    "$ROOT/tests/sarif/validate.sh" "$WORK/$s.out" >"$WORK/$s.validator.txt" 2>&1
    echo $? >"$WORK/$s.validator.rc"
  done
fi

python3 - "$WORK" "$VALIDATOR_OK" "${CI:-}" <<'PY'
import json, sys, xml.etree.ElementTree as ET
work, validator_ok, ci = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "true"
passed = failed = 0
def out(ok, name, detail=""):
    global passed, failed
    passed += ok
    failed += not ok
    print(("PASS" if ok else "FAIL") + "  " + name + (" - " + detail if detail else ""))
def read(name, ext):
    with open(f"{work}/{name}.{ext}", encoding="utf-8", errors="replace") as f:
        return f.read()
def rc(name): return int(read(name, "rc"))

a1, a2 = json.loads(read("analyze1", "out")), json.loads(read("analyze2", "out"))
pair = [g["signature"] for g in a1["groups"]]
ring = [g["signature"] for g in a2["groups"]]
waits1 = [e for e in a1["events"] if e["type"] == "lock_wait" and e.get("waited_ms", 0) > 1000]
out(len(pair) == 1 and a1["groups"][0]["count"] == 1 and len(ring) == 1 and pair != ring
    and len(waits1) == 1, "the scenarios: one pair deadlock and a 1.5 s wait in part 1, a ring in part 2",
    f"part 1 groups {pair}, long waits {len(waits1)}; part 2 groups {ring}")
pair, ring = pair[0] if pair else "?", ring[0] if ring else "?"

err = read("check_plain", "err")
out(rc("check_plain") == 1 and err.count("\n") == 1 and err.startswith("lockgraph check: FAIL: 1 deadlock (limit 0): " + pair + " x1 (update accounts set owner = ? where id = ?"),
    "check exits 1 and names the deadlock on one stderr line", f"rc {rc('check_plain')}: {err.strip()}")
txt = read("check_plain", "out")
out("deadlock 1" in txt and "signature: " + pair in txt and "check: FAIL" in txt,
    "check prints the text report on stdout", txt[-300:].replace("\n", " | "))
err = read("check_wait", "err")
out(rc("check_wait") == 1 and "lock wait longer than 1s (longest 1" in err and "deadlock" not in err,
    "--max-lock-wait 1s fails on the 1.5 s wait, --max-deadlocks 1 allows the deadlock", err.strip())
err = read("check_failon", "err")
out(rc("check_failon") == 1 and err.strip() == "lockgraph check: FAIL: PG001 found 1 time (--fail-on)",
    "--fail-on PG001 fails on the rule", err.strip())

base = json.load(open(f"{work}/baseline.json"))
keys = [d["signature"] for d in base["deadlocks"]]
wkeys = [w["key"] for w in base["lock_waits"]]
out(rc("baseline") == 0 and base["lockgraph_baseline"] == 2 and keys == [pair]
    and base["deadlocks"][0]["what"] == "update accounts set owner = ? where id = ? | update accounts set owner = ? where id = ?"
    and len(wkeys) >= 1 and wkeys == sorted(wkeys) and list(base) == ["lockgraph_baseline", "deadlocks", "lock_waits", "findings", "causes"]
    and [c["what"] for c in base["causes"]] == ["PG001 | update accounts set owner = ? where id = ?"],
    "baseline writes the pair's signature, the wait keys (sorted) and the cause, version 2", json.dumps(base)[:300])
err = read("check_base1", "err")
out(rc("check_base1") == 0 and err.startswith("lockgraph check: ok: 0 new deadlocks (limit 0), 1 in the baseline, 1 lock wait longer than 1s (all in the baseline)"),
    "check --baseline passes on the log the baseline came from", err.strip())
err = read("check_base2", "err")
out(rc("check_base2") == 1 and err.startswith("lockgraph check: FAIL: 1 new deadlock (limit 0): " + ring + " x1 (update stock set qty = qty - ? where sku = ?")
    and "no longer seen: deadlock " + pair in err,
    "a new deadlock shape fails again and the stale baseline entry is listed", err.strip())

# SARIF
def sarif_checks(name, expect_rc):
    try:
        doc = json.loads(read(name, "out"))
    except Exception as e:  # noqa: BLE001
        out(False, f"{name}: SARIF is JSON", str(e)); return None
    run = doc["runs"][0]
    ok = doc["version"] == "2.1.0" and rc(name) == expect_rc and run["tool"]["driver"]["name"] == "lockgraph"
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    rules = run["tool"]["driver"]["rules"]
    ok = ok and ids[:4] == ["LG-DEADLOCK", "LG-LOCK-WAIT", "LG-LOCK-CYCLE", "PG001"]
    ok = ok and all(r["help"]["text"] and r["help"]["markdown"] and r["fullDescription"]["text"] for r in rules)
    ok = ok and "PG001 inconsistent-row-lock-order" in rules[3]["help"]["markdown"]
    out(ok, f"{name}: SARIF 2.1.0 with rule metadata and help text, exit {expect_rc}", f"rules {ids}")
    if not validator_ok:
        if ci:
            out(False, f"{name}: Microsoft SARIF validator", "tests/sarif/node_modules missing under CI=true (scripts/setup.sh runs npm ci)")
        else:
            print(f"SKIP  {name}: Microsoft SARIF validator not installed (npm ci in tests/sarif)")
        return doc
    report = read(name, "validator.txt")
    out(read(name, "validator.rc").strip() == "0" and ": 0 errors," in report,
        f"{name}: the SARIF validator with the GitHub rules (Gh;Sarif) finds no error", report.strip()[:600])
    res = run["results"]
    out(all(r.get("locations") for r in res)
        and all(l["physicalLocation"]["artifactLocation"].get("uriBaseId") == "%SRCROOT%" for r in res for l in r["locations"])
        and run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + work + "/",
        f"{name}: every result has a location relative to %SRCROOT% (the job's folder: no git work tree)",
        json.dumps(run.get("originalUriBaseIds")))
    return doc
s1 = sarif_checks("sarif1", 1)
if s1:
    res = s1["runs"][0]["results"]
    dl = [r for r in res if r["ruleId"] == "LG-DEADLOCK"]
    pg = [r["ruleId"] for r in res if r["ruleId"].startswith("PG")]
    loc = dl[0]["locations"][0]["physicalLocation"] if dl else {}
    out(len(dl) == 1 and dl[0]["partialFingerprints"]["lockgraphSignature/v1"] == pair and dl[0]["level"] == "error"
        and loc.get("artifactLocation", {}).get("uri") == "part1.log" and loc["region"]["startLine"] >= 1
        and "PG001" in pg, "sarif: one result per deadlock group, fingerprinted by its signature, and the findings",
        f"{len(dl)} deadlock results, findings {pg}")
    raw = read("sarif1", "out")
    out("Secret" not in raw and "owner = ?" in raw, "sarif is redacted by default")
    out("Jane O''Secret" in read("sarif1_plain", "out"), "sarif --no-redact keeps the literals")
s2 = sarif_checks("sarif2", 1)
if s2:
    res = s2["runs"][0]["results"]
    states = sorted((r["ruleId"], r.get("baselineState")) for r in res if r["ruleId"] in ("LG-DEADLOCK", "LG-LOCK-WAIT"))
    out(("LG-DEADLOCK", "new") in states and ("LG-DEADLOCK", "absent") in states and ("LG-LOCK-WAIT", "absent") in states,
        "sarif with a baseline: the new group is 'new', stale entries 'absent'", str(states))

# JUnit
def junit(name):
    try:
        root = ET.fromstring(read(name, "out").encode())
    except ET.ParseError as e:
        out(False, f"{name}: JUnit is well-formed XML", str(e)); return None
    return root
c2 = json.loads(read("json2", "out"))["check"]
out(rc("json2") == 1 and not c2["passed"] and c2["new_signatures"] == [ring] and c2["known_deadlocks"] == 0
    and c2["new_deadlocks"] == 1 and f"deadlock {pair} (update accounts set owner = ? where id = ? | update accounts set owner = ? where id = ?)" in c2["stale"]
    and len(c2["stale"]) == 1 + len(wkeys) and c2["baseline"] == "baseline.json",
    "json: the check section names the new signature and the stale entries", json.dumps(c2)[:300])
j2 = junit("junit2")
if j2 is not None:
    suite = j2.find("testsuite")
    cases = suite.findall("testcase")
    fails = [c for c in cases if c.find("failure") is not None]
    skipped = [c for c in cases if c.find("skipped") is not None]
    attrs = (j2.get("tests"), j2.get("failures"), j2.get("skipped"), suite.get("tests"), suite.get("failures"))
    # part 2: the ring (new: fails), its lock waits over 1 s (one case per key, new:
    # fail), one skipped case per stale entry: the pair's signature and part 1's wait keys.
    wait_keys = {w["key"] for w in c2["long_waits"]}
    new_keys = {w["key"] for w in c2["long_waits"] if not w["known"]}
    want = (1 + len(wait_keys) + len(c2["stale"]), 1 + len(new_keys), len(c2["stale"]))
    out(len(cases) == want[0] and len(fails) == want[1] and len(skipped) == want[2]
        and attrs == (str(want[0]), str(want[1]), str(want[2]), str(want[0]), str(want[1]))
        and fails[0].get("name").startswith("deadlock " + ring) and "UPDATE stock SET qty = qty - ? WHERE sku = ?" in fails[0].find("failure").text
        and all(c.get("classname") == "lockgraph.lock_waits" for c in fails[1:])
        and [c.get("name") for c in skipped] == ["baseline " + x for x in c2["stale"]]
        and rc("junit2") == 1,
        "junit: well-formed, one case per signature and wait key, new ones failing with the report, stale ones skipped",
        f"tests/failures/skipped {attrs}, want {want}, cases {[c.get('name')[:40] for c in cases]}")
j1 = junit("junit1")
if j1 is not None:
    names = [c.get("classname") for c in j1.iter("testcase")]
    out(names == ["lockgraph.deadlocks", "lockgraph.lock_waits"] and j1.get("failures") == "2"
        and "Secret" not in read("junit1", "out"), "junit: the deadlock and the long wait fail; redacted by default",
        f"{names}, failures {j1.get('failures')}")

gh = read("github1", "out").splitlines()
first = next((l for l in gh if l.startswith("::error ")), "")
out(rc("github1") == 1 and first.startswith("::error file=part1.log,line=") and f"title=lockgraph%3A deadlock {pair} x1::" in first
    and all(l.startswith("::") for l in gh) and "%0A" in first,
    "github: annotations with file, line and escaped title and message", first[:160])

ar = read("analyze_redact", "out")
out("Secret" not in ar and "owner = ?" in ar and "Jane O''Secret" in read("analyze1", "out"),
    "analyze --redact replaces the literals; analyze keeps them by default")
out(rc("missing") == 2 and "no-such.log" in read("missing", "err"), "check exits 2 on an unreadable input",
    read("missing", "err").strip())
out(rc("bad_baseline") == 2 and "not a JSON object" in read("bad_baseline", "err"), "check exits 2 on a bad baseline",
    read("bad_baseline", "err").strip())
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
rc=$?
echo "e2e-check: took $((SECONDS - T0)) s"
exit $rc
