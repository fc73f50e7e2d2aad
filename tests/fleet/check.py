#!/usr/bin/env python3
"""Checks the shipper configs of docs/fleet/ as far as this machine can (CTest:
fleet_configs): none of the shippers' own validators (otelcol validate, vector
validate, fluent-bit --dry-run, promtail -check-syntax) is packaged for Debian,
so this is what is checked instead, and docs/fleet.md says so:

- each file parses as what it is (YAML, JSON, Fluent Bit's classic sections);
- every event field a config or the Elasticsearch template names is a field of
  docs/json-schema.md, and the template maps each field to a type the real
  events carry (lockgraph analyze --format ndjson on the real samples);
- the time layouts the configs give parse the `time` of every real event.

    tests/fleet/check.py SOURCE_DIR LOCKGRAPH_BIN
Prints one line per check and "N passed, M failed"; exits 1 on a failure."""
import datetime
import json
import re
import subprocess
import sys

import yaml

ROOT, BIN = sys.argv[1], sys.argv[2]
FLEET = f"{ROOT}/docs/fleet"
passed = failed = 0


def check(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS  {name}{' - ' + detail if detail else ''}")
    else:
        failed += 1
        print(f"FAIL  {name}{' - ' + detail if detail else ''}")


def fluent_bit_sections(path):
    sections = []
    for raw in open(path):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if re.fullmatch(r"\[[A-Z]+\]", line):
            sections.append((line[1:-1], {}))
            continue
        key, _, value = line.partition(" ")
        if not sections or not value.strip():
            raise ValueError(f"{path}: not a 'Key value' line in a section: {line}")
        sections[-1][1][key] = value.strip()
    return sections


# The real events: every sample format, as follow writes them.
samples = [f"{ROOT}/samples/postgresql/{n}" for n in ("scenarios.log", "rules.log")]
out = subprocess.run([BIN, "analyze", "--format", "ndjson", *samples], capture_output=True,
                     text=True, check=True).stdout
events = [json.loads(l) for l in out.splitlines()]
events = [e for e in events if e.get("type") in ("deadlock", "lock_wait")]
check(len(events) > 100, "real events to check against", f"{len(events)} events")

schema = open(f"{ROOT}/docs/json-schema.md").read()
documented = set(re.findall(r"`([a-z_@]+)`", schema))

# 1. Each file parses.
docs = {}
for name in ("otelcol.yaml", "vector.yaml", "promtail.yaml"):
    try:
        docs[name] = yaml.safe_load(open(f"{FLEET}/{name}"))
        check(isinstance(docs[name], dict), f"{name} parses as YAML")
    except yaml.YAMLError as e:
        check(False, f"{name} parses as YAML", str(e))
for name in ("fluent-bit.conf", "parsers-lockgraph.conf"):
    try:
        docs[name] = fluent_bit_sections(f"{FLEET}/{name}")
        check(True, f"{name} parses as Fluent Bit sections",
              ", ".join(s for s, _ in docs[name]))
    except ValueError as e:
        check(False, f"{name} parses", str(e))
for name in ("elasticsearch-template.json", "elasticsearch-pipeline.json"):
    try:
        docs[name] = json.load(open(f"{FLEET}/{name}"))
        check(True, f"{name} parses as JSON")
    except ValueError as e:
        check(False, f"{name} parses as JSON", str(e))

# 2. Field names.
def walk(props, prefix=""):
    for key, spec in props.items():
        yield prefix + key, key, spec
        if "properties" in spec:
            yield from walk(spec["properties"], prefix + key + ".")


def values(event, path):
    cur = [event]
    for part in path.split("."):
        nxt = []
        for c in cur:
            if isinstance(c, list):
                c = [x.get(part) for x in c if isinstance(x, dict)]
                nxt += [x for x in c if x is not None]
            elif isinstance(c, dict) and part in c:
                v = c[part]
                nxt += v if isinstance(v, list) else [v]
        cur = nxt
    return cur


TYPES = {"keyword": (str, int), "text": (str,), "long": (int,), "double": (int, float),
         "boolean": (bool,), "flattened": (dict,), "date": (str,)}
template = docs.get("elasticsearch-template.json", {})
props = template.get("template", {}).get("mappings", {}).get("properties", {})
undocumented, mistyped, seen = [], [], 0
for path, key, spec in walk(props):
    if key != "@timestamp" and key not in documented:
        undocumented.append(path)
    if "type" not in spec or path == "@timestamp":
        continue
    vals = values_all = [v for e in events for v in values(e, path)]
    seen += bool(vals)
    for v in vals:
        ok = isinstance(v, TYPES[spec["type"]]) and not (spec["type"] != "boolean" and isinstance(v, bool))
        if not ok:
            mistyped.append(f"{path}={v!r} ({spec['type']})")
            break
check(not undocumented, "every field the Elasticsearch template maps is in docs/json-schema.md",
      ", ".join(undocumented) or f"{sum(1 for _ in walk(props))} fields")
check(not mistyped, "the template's types fit the real events",
      "; ".join(mistyped[:5]) or f"{seen} fields seen in real events")
named = {"type", "engine", "time"}
for name in ("vector.yaml", "promtail.yaml", "otelcol.yaml"):
    text = open(f"{FLEET}/{name}").read()
    used = set(re.findall(r"\{\{ (\w+) \}\}", text)) | set(re.findall(r"attributes\.(\w+)", text))
    used |= set(re.findall(r"string!\(\.(\w+)\)", text)) - {"message"}
    for job in (docs.get(name) or {}).get("scrape_configs", []):
        for stage in job.get("pipeline_stages", []):
            used |= set((stage.get("json") or {}).get("expressions", {}).values())
    check(used <= named and used, f"{name} names event fields of the schema", ", ".join(sorted(used)))

# 3. Time layouts on the real events' time.
times = {e["time"] for e in events if e.get("time")}
def parses(fmt):
    bad = []
    for t in times:
        try:
            datetime.datetime.strptime(t, fmt)
        except ValueError:
            bad.append(t)
    return bad
for where, fmt in (("otelcol.yaml / fluent-bit (%L as %f)", "%Y-%m-%d %H:%M:%S.%f %Z"),
                   ("vector.yaml (%.f as .%f)", "%Y-%m-%d %H:%M:%S.%f UTC")):
    bad = parses(fmt)
    check(not bad, f"{where}: the layout parses every event's time",
          f"{len(times)} times" if not bad else f"not: {bad[:3]}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
