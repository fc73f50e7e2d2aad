#!/usr/bin/env python3
"""The dashboard and the alerts use only metrics lockgraph serves.

    tests/metrics/check_names.py METRICS [SOURCE_ROOT]

METRICS is a scrape of /metrics (the families named by its `# TYPE` lines) or
docs/metrics.md (the names of its metric table, with their types). Every
PromQL expression of docs/grafana/lockgraph.json (panel targets, template
queries) and docs/prometheus/alerts.yml must name only those metrics
(`_bucket`, `_sum`, `_count` of a histogram count as the histogram); the
dashboard must also be valid JSON. Prints each unknown name as
"file: expr: unknown metric NAME", then "N expressions, M names, K unknown";
exits 1 when any is unknown.
"""
import json
import os
import re
import sys

NAME = re.compile(r"\blockgraph_[a-zA-Z0-9_:]*")


def known_metrics(path):
    """{name: type} from an exposition or from docs/metrics.md."""
    text = open(path, encoding="utf-8").read()
    found = {m.group(1): m.group(2) for m in re.finditer(r"^# TYPE (\S+) (\S+)$", text, re.M)}
    if not found:  # the doc: table rows "| `name` | type | ..."
        found = {m.group(1): m.group(2) for m in
                 re.finditer(r"^\| `(lockgraph_[a-z_]+)` \| (counter|gauge|histogram) \|", text, re.M)}
    return found


def dashboard_exprs(path):
    dash = json.load(open(path, encoding="utf-8"))
    out = []
    for panel in dash.get("panels", []):
        out += [t["expr"] for t in panel.get("targets", []) if "expr" in t]
    for var in dash.get("templating", {}).get("list", []):
        q = var.get("query")
        if isinstance(q, dict):
            q = q.get("query")
        if isinstance(q, str) and "lockgraph_" in q:
            out.append(q)
    return out


def alert_exprs(path):
    # Without PyYAML: every `expr:` value, folded (`>-`) or on one line.
    out, lines = [], open(path, encoding="utf-8").read().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)expr:\s*(.*)$", line)
        if not m:
            continue
        if m.group(2) in (">-", ">", "|", "|-"):
            body, indent = [], len(m.group(1))
            for nxt in lines[i + 1:]:
                if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= indent:
                    break
                body.append(nxt.strip())
            out.append(" ".join(body))
        else:
            out.append(m.group(2))
    return out


def resolve(name, known):
    if name in known:
        return True
    for suffix in ("_bucket", "_sum", "_count"):
        base = name[: -len(suffix)]
        if name.endswith(suffix) and known.get(base) == "histogram":
            return True
    return False


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", ".."))
    known = known_metrics(sys.argv[1])
    if not known:
        sys.exit(f"check_names: {sys.argv[1]}: no metric names found")
    files = {"docs/grafana/lockgraph.json": dashboard_exprs(os.path.join(root, "docs/grafana/lockgraph.json")),
             "docs/prometheus/alerts.yml": alert_exprs(os.path.join(root, "docs/prometheus/alerts.yml"))}
    exprs = names = unknown = 0
    for f, items in files.items():
        for expr in items:
            exprs += 1
            for name in NAME.findall(expr):
                names += 1
                if not resolve(name, known):
                    unknown += 1
                    print(f"{f}: {expr}: unknown metric {name}")
    print(f"{exprs} expressions, {names} names, {unknown} unknown")
    return 1 if unknown or exprs == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
