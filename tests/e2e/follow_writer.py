#!/usr/bin/env python3
"""Grows a log the way PostgreSQL does, for tests/e2e/follow.sh: whole messages,
one write() each, with pauses, and rotates it on the way with logrotate's two
methods: `create` (rename to NAME.1, older ones shifted, a new NAME) and
`copytruncate` (copy to NAME.1, then truncate NAME to 0).

    follow_writer.py SAMPLE DIR NAME SEED

SAMPLE is a real server log (samples/postgresql/scenarios.log). Prints one
line per rotation. Takes about 8 s."""
import os
import random
import re
import shutil
import sys
import time

PART = re.compile(r" (DETAIL|HINT|CONTEXT|STATEMENT|QUERY):  ")


def messages(path):
    msgs = []
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        starts = line[:2] == "20" and not PART.search(line)
        if starts or not msgs:
            msgs.append(line)
        else:
            msgs[-1] += line
    return msgs


def shift(folder, name):
    names = sorted((n for n in os.listdir(folder) if n.startswith(name + ".")),
                   key=lambda n: int(n.rsplit(".", 1)[1]), reverse=True)
    for n in names:
        k = int(n.rsplit(".", 1)[1])
        os.rename(os.path.join(folder, n), os.path.join(folder, f"{name}.{k + 1}"))


def main():
    sample, folder, name, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    rnd = random.Random(seed)
    msgs = messages(sample)
    path = os.path.join(folder, name)
    rotations = {len(msgs) * k // 5: ("create" if k % 2 else "copytruncate") for k in range(1, 5)}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    pause = 8.0 / len(msgs)
    for i, msg in enumerate(msgs):
        how = rotations.get(i)
        if how == "create":
            shift(folder, name)
            os.rename(path, path + ".1")
            os.close(fd)  # the server reopens its log (SIGHUP, pg_ctl logrotate)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            print(f"rotated (create) before message {i}", flush=True)
        elif how == "copytruncate":
            shift(folder, name)
            shutil.copyfile(path, path + ".1")
            os.truncate(path, 0)
            print(f"rotated (copytruncate) before message {i}", flush=True)
        os.write(fd, msg.encode("utf-8", "surrogateescape"))
        time.sleep(rnd.uniform(0, 2 * pause))
    os.close(fd)


main()
