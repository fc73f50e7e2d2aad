#!/usr/bin/env python3
# Pipe-filter latency of `tail -F log | lockgraph analyze --format ndjson -`
# (issue 20; docs/performance.md, "Latency of the pipe filter"). Plays FILE
# into lockgraph's stdin as `tail -F` passes on a server's log: first the
# first HEAD lines at once (tail's last lines of the file; the format is
# sniffed on them once the pipe pauses), then one whole message per write()
# with PAUSE seconds between messages (PostgreSQL writes each message whole:
# parsers/flushable.h). The pipe then stays open and silent for 1 s before it
# is closed. Prints, per event, the time from the write() of the event's last
# line to the event's line on lockgraph's stdout; the median and max over
# the events made after the head; the events that leave only at the end of
# input (lock waits still open when it ends: they cannot leave earlier); and
# whether stdout is byte-identical to `lockgraph analyze --format ndjson -
# < FILE` (the same bytes read at once). Never run as a test.
#
#   python3 bench/stdin_latency.py LOCKGRAPH FILE [--head 10] [--pause 0.15]
#       [--split auto|stderr|csvlog|jsonlog] [-v]
import argparse
import collections
import json
import re
import statistics
import subprocess
import threading
import time

# A stderr line that starts a message: PostgreSQL's severities (the other
# labels, DETAIL, HINT, CONTEXT, STATEMENT, QUERY, LOCATION, and TAB lines,
# belong to the message before them).
STARTS = re.compile(rb"\b(LOG|ERROR|WARNING|FATAL|PANIC|NOTICE|INFO|DEBUG[1-5]?):  ")


def split_messages(lines, kind):
    """[[line, ...], ...]: the lines of each message, in order."""
    messages = []
    open_quotes = False
    for line in lines:
        if kind == "jsonlog":
            starts = True
        elif kind == "csvlog":
            starts = not open_quotes  # a record runs on while a quote is open
            open_quotes ^= line.count(b'"') % 2 == 1
        else:
            starts = not line.startswith(b"\t") and STARTS.search(line) is not None
        if starts or not messages:
            messages.append([])
        messages[-1].append(line)
    return messages


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lockgraph")
    ap.add_argument("file")
    ap.add_argument("--head", type=int, default=10)
    ap.add_argument("--pause", type=float, default=0.15)
    ap.add_argument("--split", default="auto", choices=["auto", "stderr", "csvlog", "jsonlog"])
    ap.add_argument("-v", action="store_true", help="print every event's latency")
    a = ap.parse_args()
    data = open(a.file, "rb").read()
    kind = a.split
    if kind == "auto":
        kind = "jsonlog" if data.startswith(b"{") else "csvlog" if a.file.endswith(".csv") else "stderr"
    messages = split_messages(data.splitlines(keepends=True), kind)
    reference = subprocess.run([a.lockgraph, "analyze", "--format", "ndjson", "-"], stdin=open(a.file, "rb"),
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout

    p = subprocess.Popen([a.lockgraph, "analyze", "--format", "ndjson", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    arrived = []  # (monotonic time, line)

    def read():
        for line in p.stdout:
            arrived.append((time.monotonic(), line))

    reader = threading.Thread(target=read)
    reader.start()
    written = {}  # line number -> monotonic time of its write()
    line_no = 0
    head = 0
    while head < len(messages) and line_no < a.head:  # tail -F's first lines, at once
        line_no += len(messages[head])
        head += 1
    head_lines = line_no
    p.stdin.write(b"".join(b"".join(m) for m in messages[:head]))
    t = time.monotonic()
    written.update({n: t for n in range(1, line_no + 1)})
    time.sleep(0.5)
    for m in messages[head:]:
        p.stdin.write(b"".join(m))
        t = time.monotonic()
        for _ in m:
            line_no += 1
            written[line_no] = t
        time.sleep(a.pause)
    time.sleep(1.0)
    t_close = time.monotonic()
    p.stdin.close()
    reader.join()
    p.wait()

    steady, in_head, at_end = [], [], []
    for t, line in arrived:
        e = json.loads(line)
        if e["type"] == "summary":
            continue
        last = e["source"]["last_line"]
        ms = (t - written[last]) * 1000
        if a.v:
            print("  %-9s lines %d-%d: %.1f ms" % (e["type"], e["source"]["first_line"], last, ms))
        if t >= t_close:
            at_end.append(e)
        elif last <= head_lines:
            in_head.append(ms)
        else:
            steady.append(ms)
    out = b"".join(line for _, line in arrived)
    print("%s (%s, %d lines in %d messages; the first %d lines at once, then a message every %.2f s)"
          % (a.file, kind, line_no, len(messages), head_lines, a.pause))
    if steady:
        print("  %d events after the head: median %.1f ms, max %.1f ms after the write() of their last line"
              % (len(steady), statistics.median(steady), max(steady)))
    else:
        print("  no event after the head")
    if in_head:
        print("  %d events of the head (wait for the sniffing pause, 300 ms): max %.0f ms" % (len(in_head), max(in_head)))
    kinds = collections.Counter("%s %s" % (e["type"], e.get("outcome", "")) for e in at_end)
    print("  %d events at the end of input (%s)" % (len(at_end), ", ".join(
        "%d %s" % (n, k) for k, n in sorted(kinds.items())) or "none"))
    print("  output byte-identical to the file read at once: %s" % ("yes" if out == reference else "NO"))


if __name__ == "__main__":
    main()
