#!/usr/bin/env python3
"""gen_pglocks: a synthetic pg_locks snapshot of N waiting backends, as
`psql -X --csv -f docs/snapshot.sql` writes it (PostgreSQL 15; the row and
column shapes were copied from a real capture), for bench/run.sh.

  gen_pglocks.py [--waiters 100000] [--seed 1] -o snapshot.csv

The waits form what a busy server shows: blocking trees under N/50 root
blockers (a root is idle in transaction, or runs DDL and holds an
AccessExclusiveLock on a table), each new waiter waiting for a root (60%) or
for a backend that is itself waiting (chains), and 1% of the waiters in 2- to
6-backend cycles that the deadlock detector has not broken yet. Only contested
locks are listed (every holder and waiter of a target someone waits for),
ordered as the query orders them. Writes snapshot.csv.expected.json with the
counts: waiting backends, root blockers, cycles.
"""
import argparse
import csv
import datetime
import json
import random

COLUMNS = ("sampled_at,pid,locktype,database,relation,page,tuple,virtualxid,transactionid,classid,objid,"
           "objsubid,virtualtransaction,mode,granted,fastpath,waitstart,blocking_pids,wait_event_type,"
           "wait_event,state,backend_type,backend_xid,xact_start,query_start,state_change,usename,datname,"
           "application_name,client_addr,relation_name,query").split(",")

DB_OID = 16384
TABLES = [("inventory", 16402, "sku"), ("orders", 16411, "id"), ("customers", 16420, "id"), ("carts", 16433, "id")]


EPOCH_US = int(datetime.datetime(2026, 12, 2, 10, 0, tzinfo=datetime.timezone.utc).timestamp()) * 1_000_000


def ts(us):
    """psql's timestamptz text in UTC: 2026-12-02 10:49:26.868155+00 (trailing zeros dropped)."""
    sec, frac = divmod(us, 1_000_000)
    text = datetime.datetime.fromtimestamp(sec, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    if frac:
        text += f".{frac:06}".rstrip("0")
    return text + "+00"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--waiters", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    n = args.waiters
    now = EPOCH_US

    roots = n // 50 + 1
    in_cycles = n // 100
    procs = []  # dict per backend

    def new_proc(kind):
        p = {
            "pid": 20000 + len(procs) * 3 + rnd.randrange(3),
            "xid": 5_000_000 + len(procs),
            "vxid": f"{rnd.randrange(3, 400)}/{rnd.randrange(1, 90000)}",
            "xact_start": now - rnd.randrange(2_000_000, 600_000_000),
            "kind": kind,
            "app": rnd.choice(["shop-api", "checkout-worker", "psql"]),
            "addr": f"10.0.{rnd.randrange(1, 5)}.{rnd.randrange(2, 250)}",
        }
        p["query_start"] = p["xact_start"] + rnd.randrange(0, 1_000_000)
        procs.append(p)
        return p

    # target key -> {"row": (locktype fields...), "holders": [(proc, mode)], "waiters": [(proc, mode)]}
    targets = {}

    def target(key, fields):
        return targets.setdefault(key, {"fields": fields, "holders": [], "waiters": []})

    def xact_target(p):
        t = target(("transactionid", p["xid"]), {"locktype": "transactionid", "transactionid": p["xid"]})
        if not t["holders"]:
            t["holders"].append((p, "ExclusiveLock"))
        return t

    root_list = []
    for _ in range(roots):
        p = new_proc("root")
        if rnd.random() < 0.25:  # DDL on its own table (a partition): AccessExclusiveLock
            name, oid = f"{rnd.choice(TABLES)[0]}_p{len(procs)}", 30000 + len(procs)
            p["ddl"] = (name, oid)
            p["query"] = f"ALTER TABLE {name} ADD COLUMN note text;"
        else:
            name, _oid, key = rnd.choice(TABLES)
            p["query"] = f"UPDATE {name} SET updated_at = now() WHERE {key} = {rnd.randrange(1, 200000)};"
        root_list.append(p)

    waiting = []

    def wait(w, blocker):
        if "ddl" in blocker and rnd.random() < 0.5:
            name, oid = blocker["ddl"]
            t = target(("relation", oid),
                       {"locktype": "relation", "database": DB_OID, "relation": oid, "relation_name": name})
            if not t["holders"]:
                t["holders"].append((blocker, "AccessExclusiveLock"))
            mode = "RowExclusiveLock"
            w["query"] = f"UPDATE {name} SET updated_at = now() WHERE id = {rnd.randrange(1, 200000)};"
            w["wait_event"] = "relation"
        else:
            t = xact_target(blocker)
            mode = "ShareLock"
            name, _oid, key = rnd.choice(TABLES)
            w["query"] = f"UPDATE {name} SET updated_at = now() WHERE {key} = {rnd.randrange(1, 200000)};"
            w["wait_event"] = "transactionid"
        # The statement that waits started 1 to 120 s ago, in a transaction
        # begun up to 10 s before; it has waited since just after its start.
        w["query_start"] = now - rnd.randrange(1_000_000, 120_000_000)
        w["xact_start"] = w["query_start"] - rnd.randrange(0, 10_000_000)
        w["waitstart"] = w["query_start"] + rnd.randrange(50, 5_000)
        w["blockers"] = [blocker["pid"]]
        t["waiters"].append((w, mode))

    for _ in range(n - in_cycles):
        w = new_proc("waiter")
        b = rnd.choice(root_list) if (not waiting or rnd.random() < 0.6) else rnd.choice(waiting)
        wait(w, b)
        waiting.append(w)
    cycles = 0
    left = in_cycles
    while left >= 2:
        k = min(left, rnd.randrange(2, 7))
        members = [new_proc("waiter") for _ in range(k)]
        for i, w in enumerate(members):
            wait(w, members[(i + 1) % k])
        left -= k
        cycles += 1

    sampled = now + rnd.randrange(1, 999_999)  # statement_timestamp(): one value per snapshot
    rows = []

    def activity(p):
        if p["kind"] == "root":
            if "ddl" in p:
                wet, we, state = "", "", "active"
            else:
                wet, we, state = "Client", "ClientRead", "idle in transaction"
        else:
            wet, we, state = "Lock", p["wait_event"], "active"
        return {
            "wait_event_type": wet, "wait_event": we, "state": state, "backend_type": "client backend",
            "backend_xid": p["xid"], "xact_start": ts(p["xact_start"]), "query_start": ts(p["query_start"]),
            "state_change": ts(p["query_start"] + 3), "usename": "shop_app", "datname": "shop",
            "application_name": p["app"], "client_addr": p["addr"], "query": p["query"],
        }

    def row(p, fields, mode, granted):
        r = dict.fromkeys(COLUMNS, "")
        r.update(activity(p))
        r.update({k: v for k, v in fields.items() if k != "relation_name"})
        r["relation_name"] = fields.get("relation_name", "")
        r.update({"sampled_at": ts(sampled), "pid": p["pid"], "virtualtransaction": p["vxid"], "mode": mode,
                  "granted": "t" if granted else "f", "fastpath": "f"})
        if not granted:
            r["waitstart"] = ts(p["waitstart"])
            r["blocking_pids"] = "{" + ",".join(str(b) for b in p["blockers"]) + "}"
        rows.append(r)

    def order_key(item):
        key, _t = item
        return (key[0], key[1:])

    for _key, t in sorted(targets.items(), key=order_key):
        if not t["waiters"]:
            continue
        for p, mode in t["holders"]:
            row(p, t["fields"], mode, True)
        for p, mode in sorted(t["waiters"], key=lambda pm: (pm[0]["waitstart"], pm[0]["pid"])):
            row(p, t["fields"], mode, False)

    with open(args.out, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    with open(args.out + ".expected.json", "w", encoding="utf-8") as f:
        json.dump({"generator": "gen_pglocks", "seed": args.seed, "waiting_backends": n,
                   "root_blockers": roots, "deadlocked_sets": cycles, "rows": len(rows)}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
