#!/usr/bin/env python3
"""The Grafana dashboard's panels, evaluated on a real Prometheus.

Usage: dashboard_queries.py PROMETHEUS_URL ROOT TITLE...

Every PromQL expression of docs/grafana/lockgraph.json (panel targets) is sent
to PROMETHEUS_URL/api/v1/query as Grafana would send it: the template variables
at "All" ($server, $database -> .*), $__rate_interval 1m, $__range 10m. Each
must evaluate (status success); each panel named in TITLE... must give a
non-empty result with a value above zero in one of its targets. Prints one line
per panel ("title: N series, max V" or the error) and exits 1 on any failure.
Used by tests/e2e/metrics.sh (CTest e2e_metrics) while watch and follow are
scraped: the dashboard works on the data lockgraph really serves.
"""
import json
import sys
import urllib.parse
import urllib.request

VARS = {"$__rate_interval": "1m", "$__range": "10m", "$server": ".*", "$database": ".*"}


def query(url, expr):
    data = urllib.parse.urlencode({"query": expr}).encode()
    with urllib.request.urlopen(url.rstrip("/") + "/api/v1/query", data, timeout=10) as r:
        return json.load(r)


def main():
    url, root, want = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    dash = json.load(open(root + "/docs/grafana/lockgraph.json", encoding="utf-8"))
    failed, seen = False, set()
    for panel in dash.get("panels", []):
        title, series, top, errors = panel.get("title", "?"), 0, None, []
        targets = [t["expr"] for t in panel.get("targets", []) if "expr" in t]
        if not targets:
            continue
        seen.add(title)
        for expr in targets:
            for k, v in VARS.items():
                expr = expr.replace(k, v)
            try:
                d = query(url, expr)
            except Exception as e:  # an HTTP 400 is a bad expression
                errors.append(f"{expr}: {e}")
                continue
            if d.get("status") != "success":
                errors.append(f"{expr}: {d.get('error')}")
                continue
            for r in d["data"]["result"]:
                series += 1
                v = float(r["value"][1])
                top = v if top is None or v > top else top
        ok = not errors and (title not in want or (series and top and top > 0))
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {title}: {series} series, max {top}" + "".join("\n     " + e for e in errors))
    for title in sorted(want - seen):
        failed = True
        print(f"FAIL {title}: no such panel")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
