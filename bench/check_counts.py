#!/usr/bin/env python3
"""Compare lockgraph's JSON report with gen_pglog's expected counts.

  check_counts.py EXPECTED.json REPORT.json   (REPORT: lockgraph analyze --format json)
  check_counts.py EXPECTED.json REPORT.ndjson (--format ndjson: events, then the summary)

Prints one line per compared figure and PASS or FAIL; exit 0 on PASS, 1 on FAIL.
"""
import collections
import json
import sys


def load_report(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
        if isinstance(doc, dict) and "summary" in doc:
            return doc["summary"], doc.get("events", [])
    except json.JSONDecodeError:
        pass
    events, summary = [], None
    for line in text.splitlines():
        if not line.strip():
            continue
        obj = json.loads(line)
        if obj.get("type") == "summary":
            summary = obj
        else:
            events.append(obj)
    if summary is None:
        raise SystemExit(f"{path}: no summary in the report")
    return summary, events


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        exp = json.load(f)
    summary, events = load_report(sys.argv[2])
    lines = summary.get("lines", {})
    outcomes = collections.Counter(e.get("outcome") for e in events if e.get("type") == "lock_wait")
    sizes = collections.Counter(len(e.get("edges", [])) for e in events if e.get("type") == "deadlock")
    tuple_edges = sum(1 for e in events if e.get("type") == "deadlock"
                      for edge in e.get("edges", []) if edge.get("lock", {}).get("type") == "tuple")
    checks = [
        ("deadlocks", exp["deadlocks"], summary.get("deadlocks")),
        ("deadlocks_incomplete", 0, summary.get("deadlocks_incomplete")),
        ("deadlock_sizes", {int(k): v for k, v in exp["deadlock_sizes"].items() if v},
         dict(sorted(sizes.items()))),
        ("tuple_edges", exp["tuple_edges"], tuple_edges),
        ("lock_waits", exp["lock_waits"], summary.get("lock_waits")),
        ("lines.total", exp["lines"], lines.get("total")),
        ("lines.unparsed", 0, lines.get("unparsed")),
    ]
    for k, v in exp["lock_waits_by_outcome"].items():
        checks.append((f"lock_waits.{k}", v, outcomes.get(k, 0)))
    others = {k: v for k, v in outcomes.items() if k not in exp["lock_waits_by_outcome"]}
    if others:
        checks.append(("lock_waits.other_outcomes", {}, others))
    # relation_name, where lockgraph gives one, must be the table's name.
    names = exp.get("relations", {})
    named = wrong = 0
    first_wrong = None
    for e in events:
        locks = [edge.get("lock", {}) for edge in e.get("edges", [])] if e.get("type") == "deadlock" \
            else [e.get("lock", {})]
        for lock in locks:
            if "relation_name" not in lock or str(lock.get("relation")) not in names:
                continue
            named += 1
            if lock["relation_name"] != names[str(lock["relation"])]:
                wrong += 1
                first_wrong = first_wrong or (e.get("source", {}), lock.get("text"), lock["relation_name"])
    if names:
        checks.append(("relation_names_wrong", 0, wrong))
    ok = True
    for name, want, got in checks:
        good = want == got
        ok &= good
        print(f"{'ok  ' if good else 'FAIL'} {name}: expected {want}, lockgraph {got}")
    if names:
        print(f"     ({named} lock targets named; first wrong: {first_wrong})")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
