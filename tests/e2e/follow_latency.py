#!/usr/bin/env python3
"""Measures `lockgraph follow`'s latency, for tests/e2e/follow.sh: a stderr log
gets a whole deadlock message (one write, as the server writes it), then either
nothing (the record leaves after --quiet) or the next message too (it leaves at
once). Prints "quiet: median M ms, max X ms; next message: median M ms, max X ms".

    follow_latency.py SAMPLE DIR OUTPUT ROUNDS

DIR is followed by a running `lockgraph follow --output OUTPUT DIR`."""
import json
import os
import statistics
import sys
import time

sample, folder, output, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lines = open(sample, encoding="utf-8").read().splitlines(keepends=True)
# Lines 1-13 (after a line naming the round): startup and waits; 14-21: the first deadlock (ERROR ... STATEMENT);
# 22-24: the next message (another backend's LOG, CONTEXT, STATEMENT).
before, deadlock, after = "".join(lines[:13]), "".join(lines[13:21]), "".join(lines[21:24])


def wait_for_deadlock(path, offset, deadline):
    while time.monotonic() < deadline:
        if os.path.exists(output) and os.path.getsize(output) > offset:
            with open(output) as f:
                f.seek(offset)
                for line in f:
                    if not line.endswith("\n"):
                        break
                    e = json.loads(line)
                    if e.get("type") == "deadlock" and e["source"]["file"] == path:
                        return time.monotonic()
        time.sleep(0.001)
    return None


results = {"quiet": [], "next message": []}
for k in range(rounds):
    for case in results:
        path = os.path.join(folder, f"pg-{case.replace(' ', '-')}-{k}.log")
        with open(path, "w") as f:  # a first line of its own: not a copy of another file
            f.write(f"2026-12-02 10:15:18.{k:03d} UTC [6497] LOG:  {case} round {k}\n" + before)
        time.sleep(0.4)  # follow finds the file and chooses its format
        offset = os.path.getsize(output) if os.path.exists(output) else 0
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        t0 = time.monotonic()
        os.write(fd, (deadlock + (after if case == "next message" else "")).encode())
        os.close(fd)
        t1 = wait_for_deadlock(path, offset, t0 + 5)
        results[case].append(None if t1 is None else (t1 - t0) * 1000)
out = []
for case, ms in results.items():
    if None in ms:
        out.append(f"{case}: no event within 5 s")
    else:
        out.append(f"{case}: median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms")
print("; ".join(out))
