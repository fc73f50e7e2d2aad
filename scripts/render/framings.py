#!/usr/bin/env python3
"""Renders the real server run samples/postgresql/scenarios.{log,csv} (made by
scripts/make-samples.sh) into the framings other tools put around PostgreSQL
log lines, one file each: samples/postgresql/rendered/framing-<name>.log.

Every file holds the whole run, so that each one must give the deadlocks and
lock waits of the csvlog. heroku-https, whose prefix is long (800 KB as
text), is written gzip-compressed (framing-heroku-https.log.gz); lockgraph
reads gzip by its magic bytes. What is rendered, and from what:

  docker-compose       scenarios.log lines as `docker compose logs` prints
                       them (`db-1   | `), with a second, non-PostgreSQL
                       service (`web-1  | `) interleaved
  docker-compose-v1    older `docker-compose logs -t`: `db_1   | <RFC3339Nano> `
  docker-timestamps    `docker logs --timestamps`: `<RFC3339Nano>Z <line>`
  kubectl              `kubectl logs --prefix --timestamps`, with a second
                       container (`exporter`) of the same pod interleaved
  journald             `journalctl -o short` of a stderr captured by journald
                       (read by the `syslog` format, not a framing)
  grep                 real `grep -H -n -C<k>` output over the run split into
                       two files (grep's `--` between them)
  rds                  the csvlog rendered as stderr with Amazon RDS's
                       log_line_prefix '%t:%r:%u@%d:[%p]:' (no framing)
  cloudwatch           that RDS text as a CloudWatch Logs export: the
                       ingestion time `...000Z ` before each prefixed line,
                       continuation lines without it (platforms.md §1.2)
  heroku               classic logplex drain (`app[postgres.PID]: [GREEN]
                       [SEQ-PART]  sql_error_code = %e ...`, §1.6, §9.1)
  heroku-https (.gz)   the HTTPS drain: RFC 6587 octet count, RFC 5424
                       header, Heroku's long prefix (pganalyze's
                       LogPrefixHeroku2)
  rfc5424              scenarios.log lines in RFC 5424 syslog messages

The web and exporter lines are made up here (plain application output); they
carry no lock data and must be skipped as streams that are not PostgreSQL.
Run from the repository root: python3 scripts/render/framings.py
"""
import csv
import datetime
import gzip
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "samples", "postgresql")
OUT = os.path.join(SAMPLES, "rendered")
PREFIX_TIME = re.compile(r"^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\.(\d{3}) UTC ")


def read_log():
    with open(os.path.join(SAMPLES, "scenarios.log"), encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def read_csv():
    with open(os.path.join(SAMPLES, "scenarios.csv"), encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def line_times(lines):
    """Each line's time as RFC 3339 parts (date, hh:mm:ss, ms); a
    continuation line gets the time of the prefixed line before it."""
    times, last = [], None
    for line in lines:
        m = PREFIX_TIME.match(line)
        if m:
            last = m.groups()
        times.append(last)
    return times


def write(name, lines, compress=False):
    path = os.path.join(OUT, "framing-%s.log" % name)
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    if compress:
        path += ".gz"
        data = gzip.compress(data, mtime=0)  # the same bytes on every run
    with open(path, "wb") as f:
        f.write(data)
    print("%-40s %5d lines %7d bytes" % (os.path.relpath(path, ROOT), len(lines),
                                         os.path.getsize(path)))


def web_line(i, t):
    return '127.0.0.1 - - [%s %s +0000] "GET /api/items/%d HTTP/1.1" 200 %d' % (
        t[0], t[1], i % 97, 120 + i % 50)


def docker_compose(lines, times):
    out = []
    for i, (line, t) in enumerate(zip(lines, times)):
        out.append(("db-1   | " + line) if line else "db-1   |")
        if i % 7 == 3:
            out.append("web-1  | " + web_line(i, t))
    return out


def docker_compose_v1(lines, times):
    return ["db_1   | %sT%s.%s000000Z %s" % (t[0], t[1], t[2], line)
            for line, t in zip(lines, times)]


def docker_timestamps(lines, times):
    return ["%sT%s.%s000000Z %s" % (t[0], t[1], t[2], line) for line, t in zip(lines, times)]


def kubectl(lines, times):
    out = []
    for i, (line, t) in enumerate(zip(lines, times)):
        out.append("[pod/pg-0/postgres] %sT%s.%s000000Z %s" % (t[0], t[1], t[2], line))
        if i % 11 == 5:
            out.append('[pod/pg-0/exporter] %sT%s.%s000000Z level=info msg="scrape ok" '
                       'duration_seconds=0.0%02d' % (t[0], t[1], t[2], i % 90))
    return out


def journald(lines, times):
    # systemd captures the postmaster's stderr: one pid (the postmaster's)
    # on every line; `short` format, month in English.
    out = []
    for line, t in zip(lines, times):
        d = datetime.datetime.strptime(t[0] + " " + t[1], "%Y-%m-%d %H:%M:%S")
        out.append("%s dbhost postgres[6497]: %s" % (d.strftime("%b %d %H:%M:%S"), line))
    return out


def grep_output(lines):
    # Two files, cut before the first pgbench line (nothing is waiting then),
    # names with '-' in them; grep as a user runs it, context wide enough
    # to keep every TAB line of every message.
    cut = next(i for i, l in enumerate(lines) if "lg_checkout" in l)
    while lines[cut].startswith("\t"):
        cut -= 1
    longest = run = 0
    for line in lines:
        run = run + 1 if line.startswith("\t") else 0
        longest = max(longest, run)
    context = (longest + 1) // 2 + 1
    with tempfile.TemporaryDirectory() as tmp:
        names = ["postgresql-15-a.log", "postgresql-15-b.log"]
        for name, part in zip(names, (lines[:cut], lines[cut:])):
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write("\n".join(part) + "\n")
        cmd = ["grep", "-H", "-n", "-C%d" % context, r" \[[0-9]*\] "] + names
        res = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, check=True)
    print("ran: " + " ".join(cmd))
    return res.stdout.split("\n")[:-1]


# csvlog columns (PostgreSQL 15).
(TIME, USER, DB, PID, FROM, SESSION, LINE, TAG, START, VXID, XID, SEVERITY, STATE,
 MESSAGE, DETAIL, HINT, IQUERY, IQPOS, CONTEXT, QUERY, QPOS, LOCATION, APP) = range(23)
PARTS = [(MESSAGE, None), (DETAIL, "DETAIL"), (HINT, "HINT"), (IQUERY, "QUERY"),
         (CONTEXT, "CONTEXT"), (QUERY, "STATEMENT")]


def physical_lines(row):
    """The stderr parts of one csvlog row, as (label, text lines)."""
    for col, label in PARTS:
        if not row[col]:
            continue
        text = row[col].split("\n")
        yield (label or row[SEVERITY]), text


def remote(row):
    if not row[FROM]:
        return ""
    host, _, port = row[FROM].rpartition(":")
    return "%s(%s)" % (host, port) if host else row[FROM]


def rds_prefix(row):
    t = row[TIME][:19] + " UTC"
    return "%s:%s:%s@%s:[%s]:" % (t, remote(row), row[USER], row[DB], row[PID])


def rds(rows):
    """(prefixed or continuation line, csv row) in log order."""
    out = []
    for row in rows:
        for label, text in physical_lines(row):
            out.append((rds_prefix(row) + label + ":  " + text[0], row))
            out.extend(("\t" + more, row) for more in text[1:])
    return out


def cloudwatch(rds_lines):
    out = []
    for line, row in rds_lines:
        if line.startswith("\t"):
            out.append(line)
        else:
            out.append("%sT%sZ %s" % (row[TIME][:10], row[TIME][11:23], line))
    return out


def heroku_time(row):
    return row[TIME][:10] + "T" + row[TIME][11:19] + "+00:00"


def heroku_messages(rows, prefix):
    """Heroku's `[SEQ-PART] ` lines: SEQ counts each backend's messages."""
    seq = {}
    for row in rows:
        seq[row[PID]] = seq.get(row[PID], 0) + 1
        part = 0
        for label, text in physical_lines(row):
            part += 1
            yield row, "[GREEN] [%d-%d]  %s%s:  %s" % (seq[row[PID]], part, prefix(row), label,
                                                      text[0])
            for more in text[1:]:
                part += 1
                yield row, "[GREEN] [%d-%d] \t%s" % (seq[row[PID]], part, more)


def heroku(rows):
    return ["%s app[postgres.%s]: %s" % (heroku_time(row), row[PID], msg)
            for row, msg in heroku_messages(rows, lambda r: "sql_error_code = %s " % r[STATE])]


def heroku2_prefix(row):
    # ` sql_error_code = %e time_ms = "%m" pid="%p" proc_start_time="%s"
    # session_id="%c" vtid="%v" tid="%x" log_line="%l" %qdatabase="%d"
    # connection_source="%r" user="%u" application_name="%a" ` (the leading
    # space is written by heroku_messages' two spaces).
    p = ('sql_error_code = %s time_ms = "%s" pid="%s" proc_start_time="%s" session_id="%s" '
         'vtid="%s" tid="%s" log_line="%s" ' % (row[STATE], row[TIME], row[PID], row[START],
                                               row[SESSION], row[VXID], row[XID], row[LINE]))
    if row[FROM]:  # %q: the rest only for sessions
        p += 'database="%s" connection_source="%s" user="%s" application_name="%s" ' % (
            row[DB], remote(row), row[USER], row[APP])
    return p


def heroku_https(rows):
    out = []
    for row, msg in heroku_messages(rows, heroku2_prefix):
        syslog = "<134>1 %s host app postgres.6497 - %s" % (heroku_time(row), msg)
        out.append("%d %s" % (len(syslog.encode("utf-8")) + 1, syslog))
    return out


def rfc5424(lines, times):
    return ["<134>1 %sT%s.%sZ dbhost postgres 6497 - - %s" % (t[0], t[1], t[2], line)
            for line, t in zip(lines, times)]


def main():
    os.makedirs(OUT, exist_ok=True)
    lines = read_log()
    times = line_times(lines)
    rows = read_csv()
    write("docker-compose", docker_compose(lines, times))
    write("docker-compose-v1", docker_compose_v1(lines, times))
    write("docker-timestamps", docker_timestamps(lines, times))
    write("kubectl", kubectl(lines, times))
    write("journald", journald(lines, times))
    write("grep", grep_output(lines))
    rds_lines = rds(rows)
    write("rds", [line for line, _ in rds_lines])
    write("cloudwatch", cloudwatch(rds_lines))
    write("heroku", heroku(rows))
    write("heroku-https", heroku_https(rows), compress=True)
    write("rfc5424", rfc5424(lines, times))


if __name__ == "__main__":
    main()
