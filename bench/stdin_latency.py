#!/usr/bin/env python3
# Pipe-filter latency of `lockgraph analyze --format ndjson -` (issue 20):
# writes FILE to lockgraph's stdin one line at a time, pausing 0.15 s after
# each, and prints when the first event comes out: after which input line and
# how long after that line was written; or that none came, also 5 s after
# the last line. Never run as a test.
#
#   python3 bench/stdin_latency.py LOCKGRAPH FILE
import subprocess, sys, time, select, os
lg, path = sys.argv[1], sys.argv[2]
lines = open(path, 'rb').read().splitlines(keepends=True)
p = subprocess.Popen([lg, 'analyze', '--format', 'ndjson', '-'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
os.set_blocking(p.stdout.fileno(), False)
first_event = None
for i, line in enumerate(lines):
    p.stdin.write(line); p.stdin.flush()
    t_last = time.monotonic()
    r, _, _ = select.select([p.stdout], [], [], 0.15)
    if r:
        data = p.stdout.read()
        if data and first_event is None:
            first_event = (i + 1, time.monotonic() - t_last)
            break
if first_event:
    print("first event after input line %d, %.0f ms after that line was written" % (first_event[0], first_event[1] * 1000))
else:
    r, _, _ = select.select([p.stdout], [], [], 5.0)
    print("no event while the %d lines were written with 0.15 s pauses; %s 5 s after the last line" % (len(lines), "one came" if r else "still none"))
p.stdin.close(); p.wait()
