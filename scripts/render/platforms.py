#!/usr/bin/env python3
"""Renders the real server run of samples/postgresql/scenarios.csv (the csvlog
written by scripts/make-samples.sh) into the cloud export envelopes lockgraph
reads (docs/postgresql.md#cloud-exports), and compresses one rendering with
bzip2, xz and zstd (the command-line tools):

  samples/postgresql/rendered/platform-<name>.<ext>

Envelope shapes follow the published samples quoted in the shared reference
platforms.md §1.3-1.7 (pgBadger fixtures t/fixtures/cloudsql.log.gz and
cnpg.log.gz, darold/pgbadger issues #579 #747 #762, pganalyze collector
input/system/{google_cloudsql,azure}); see docs/postgresql.md#cloud-exports:
  gcp-ndjson        Cloud SQL, Log Router sink: one entry per line, oldest first,
                    prefix '%m [%p]: [%l-1] db=%d,user=%u ', one entry per
                    stderr line (DETAIL, CONTEXT, STATEMENT each their own)
  gcp-array         the same as the console / gcloud download: a pretty-printed
                    JSON array, newest first
  alloydb           AlloyDB: NDJSON, '[file.c:line]  ' after each severity
  azure-records     Azure diagnostic settings to Event Hub: {"records": [...]}
                    pretty-printed, prefix '%m [%p] %q[user=%u,db=%d,app=%a] '
                    (the one in pganalyze's logs_test.go), DETAIL in
                    properties.detail, other parts as records of their own
  azure-pt1h        the same to a storage account: one record per line
  azure-la          Log Analytics CSV export of AzureDiagnostics (record_*_s
                    columns, pgBadger's list), newest first
  cnpg              CloudNativePG's JSON wrapper around csvlog fields
The files hold the first N whole records of the run (N printed, the same for
every file) so that each stays under a few hundred KB.
Run from the repository root: python3 scripts/render/platforms.py
"""
import csv
import datetime
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "samples/postgresql/scenarios.csv")
OUT = os.path.join(ROOT, "samples/postgresql/rendered")
LIMIT = 300_000  # bytes, the largest rendering

COLS = ["log_time", "user_name", "database_name", "process_id", "connection_from",
        "session_id", "session_line_num", "command_tag", "session_start_time",
        "virtual_transaction_id", "transaction_id", "error_severity", "sql_state_code",
        "message", "detail", "hint", "internal_query", "internal_query_pos", "context",
        "query", "query_pos", "location", "application_name", "backend_type",
        "leader_pid", "query_id"]
# log_line_prefix %l (1 is the first line of the session).


def records():
    with open(SRC, newline="") as f:
        for row in csv.reader(f):
            yield dict(zip(COLS, row))


def continued(text):
    """A multi-line part as the server writes it to stderr: TAB after newline."""
    return text.replace("\n", "\n\t")


def parts(r):
    """(label, text) of each stderr line of one record, in the server's order."""
    out = [(r["error_severity"], r["message"])]
    for label, key in (("DETAIL", "detail"), ("HINT", "hint"), ("QUERY", "internal_query"),
                       ("CONTEXT", "context"), ("STATEMENT", "query")):
        if r[key]:
            out.append((label, r[key]))
    return out


def gcp_prefix(r):
    return "%s [%s]: [%s-1] db=%s,user=%s " % (r["log_time"], r["process_id"],
                                              r["session_line_num"], r["database_name"],
                                              r["user_name"])


def azure_prefix(r):
    p = "%s [%s] " % (r["log_time"], r["process_id"])
    if r["session_id"] and r["user_name"]:  # %q: session processes only
        p += "[user=%s,db=%s,app=%s] " % (r["user_name"], r["database_name"],
                                         r["application_name"])
    return p


def iso(log_time, micro):
    """'2026-12-02 10:15:18.556 UTC' -> '2026-12-02T10:15:18.556xxxZ'."""
    return log_time[:10] + "T" + log_time[11:23] + "%03d" % micro + "Z"


def gcp_entries(recs, alloydb=False):
    seq = 0
    for r in recs:
        for i, (label, text) in enumerate(parts(r)):
            seq += 1
            if alloydb and i == 0:
                text = "[deadlock.c:1135]  " + text if "deadlock" in text else "[elog.c:97]  " + text
            payload = gcp_prefix(r) + label + ":  " + continued(text)
            ts = iso(r["log_time"], seq % 1000)
            if alloydb:
                resource = {"type": "alloydb.googleapis.com/Instance",
                            "labels": {"instance_id": "lg-primary", "location": "europe-west1",
                                       "resource_container": "projects/123456789",
                                       "cluster_id": "lg-cluster"}}
                log_name = "projects/lg-project/logs/alloydb.googleapis.com%2Fpostgres.log"
            else:
                resource = {"type": "cloudsql_database",
                            "labels": {"database_id": "lg-project:lg-instance",
                                       "project_id": "lg-project", "region": "europe"}}
                log_name = "projects/lg-project/logs/cloudsql.googleapis.com%2Fpostgres.log"
            yield {"insertId": "s=lg;i=%x" % seq, "logName": log_name,
                   "receiveTimestamp": ts, "resource": resource,
                   "severity": "ERROR" if r["error_severity"] == "ERROR" else "INFO",
                   "textPayload": payload, "timestamp": ts}


def azure_records(recs):
    for r in recs:
        prefix = azure_prefix(r)
        for i, (label, text) in enumerate(parts(r)):
            if label == "DETAIL":
                continue  # carried by the record of the message
            props = {"timestamp": r["log_time"], "processId": int(r["process_id"]),
                     "errorLevel": label, "sqlerrcode": r["sql_state_code"],
                     "message": prefix + label + ":  " + continued(text)}
            if i == 0 and r["detail"]:
                props["detail"] = r["detail"]
            yield {"properties": props, "time": iso(r["log_time"], 0)[:23] + "Z",
                   "resourceId": "/SUBSCRIPTIONS/00000000-0000-0000-0000-000000000000/"
                                 "RESOURCEGROUPS/LG/PROVIDERS/MICROSOFT.DBFORPOSTGRESQL/"
                                 "FLEXIBLESERVERS/LG-SERVER",
                   "location": "westeurope", "category": "PostgreSQLLogs",
                   "operationName": "LogEvent"}


LA_COLS = ["record_application_name_s", "record_backend_type_s", "record_command_tag_s",
           "record_connection_from_s", "record_context_s", "record_database_name_s",
           "record_detail_s", "record_error_severity_s", "record_hint_s", "record_log_time_s",
           "record_message_s", "record_process_id_s", "record_query_id_s", "record_query_pos_s",
           "record_query_s", "record_session_id_s", "record_session_line_num_s",
           "record_session_start_time_s", "record_sql_state_code_s", "record_transaction_id_s",
           "record_user_name_s", "record_virtual_transaction_id_s"]


def azure_la(recs, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["TenantId", "TimeGenerated [UTC]", "ResourceId", "Category",
                    "OperationName"] + LA_COLS)
        for r in reversed(recs):  # the portal exports newest first
            w.writerow(["00000000-0000-0000-0000-000000000000",
                        r["log_time"][:19].replace(" ", "T") + "Z",
                        "/SUBSCRIPTIONS/0/RESOURCEGROUPS/LG/PROVIDERS/MICROSOFT.DBFORPOSTGRESQL/"
                        "FLEXIBLESERVERS/LG-SERVER", "PostgreSQLLogs", "LogEvent"] +
                       [r[c[len("record_"):-len("_s")]] if c != "record_query_s" else r["query"]
                        for c in LA_COLS])


def cnpg(recs):
    for r in recs:
        rec = {k: r[k] for k in COLS if r[k] and k not in ("location", "leader_pid")}
        when = datetime.datetime.strptime(r["log_time"][:23], "%Y-%m-%d %H:%M:%S.%f")
        ts = when.replace(tzinfo=datetime.timezone.utc).timestamp()
        yield {"level": "info", "ts": ts, "logger": "postgres", "msg": "record",
               "logging_pod": "lg-cluster-1", "record": rec}


def write_lines(path, objs):
    with open(path, "w") as f:
        for o in objs:
            f.write(json.dumps(o, separators=(",", ":")) + "\n")


def render(recs):
    files = {}
    p = os.path.join(OUT, "platform-gcp-ndjson.json")
    write_lines(p, gcp_entries(recs))
    files["gcp-ndjson"] = p
    p = os.path.join(OUT, "platform-gcp-array.json")
    with open(p, "w") as f:
        json.dump(list(reversed(list(gcp_entries(recs)))), f, indent=2)
        f.write("\n")
    files["gcp-array"] = p
    p = os.path.join(OUT, "platform-alloydb.json")
    write_lines(p, gcp_entries(recs, alloydb=True))
    files["alloydb"] = p
    p = os.path.join(OUT, "platform-azure-records.json")
    with open(p, "w") as f:
        json.dump({"records": list(azure_records(recs))}, f, indent=2)
        f.write("\n")
    files["azure-records"] = p
    p = os.path.join(OUT, "platform-azure-pt1h.json")
    write_lines(p, azure_records(recs))
    files["azure-pt1h"] = p
    p = os.path.join(OUT, "platform-azure-la.csv")
    azure_la(recs, p)
    files["azure-la"] = p
    p = os.path.join(OUT, "platform-cnpg.json")
    write_lines(p, cnpg(recs))
    files["cnpg"] = p
    return files


def main():
    recs = list(records())
    os.makedirs(OUT, exist_ok=True)
    n = len(recs)
    while True:
        files = render(recs[:n])
        biggest = max(os.path.getsize(p) for p in files.values())
        if biggest <= LIMIT:
            break
        n = n * LIMIT // biggest - 1
    base = files["gcp-ndjson"]
    for tool, ext in (("bzip2", "bz2"), ("xz", "xz"), ("zstd", "zst")):
        out = os.path.join(OUT, "platform-gcp-ndjson-%s.json.%s" % (tool, ext))
        with open(base, "rb") as src, open(out, "wb") as dst:
            subprocess.run([tool, "-c", "-q"] if tool != "zstd" else [tool, "-c", "-q", "-19"],
                           stdin=src, stdout=dst, check=True)
    print("first %d of %d records (up to %s)" % (n, len(recs), recs[n - 1]["log_time"]))
    for name in sorted(os.listdir(OUT)):
        if name.startswith("platform-"):
            print("  %-40s %7d bytes" % (name, os.path.getsize(os.path.join(OUT, name))))


if __name__ == "__main__":
    sys.exit(main())
