"""Checks of tests/e2e/mysql_watch.sh on `lockgraph watch mysql://` output.

    python3 mysql_watch.py WHAT ARGS... < watch.ndjson   (or a file argument)

Prints "ok" or what is wrong. Events are compared whole: member ids, depths,
states, queries; edges with waiter, blocker, mode, lock and basis."""
import json
import sys


def events(text):
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            out.append(json.loads(line))
    return out


def record(heap):
    return {"type": "record", "database": "shop", "table": "account", "index": "PRIMARY",
            "space": None, "page": None, "heap_no": heap, "lock_data": None}


def same_lock(got, want):
    """Record locks: space and page are the server's; the rest must match."""
    for k, v in want.items():
        if v is None:
            if k not in got:
                return False
        elif got.get(k) != v:
            return False
    return set(got) <= set(want) | {"text"}


def chain_of(evs, root, kind="chain"):
    found = [e for e in evs if e["type"] == kind and e["root_blocker"] == root]
    return found[-1] if found else None


def member_view(m):
    return (m["id"], m["depth"], m.get("state"), m.get("query", ""))


def edge_view(e):
    return (e["waiter"], e["blocker"], e["mode"], e["basis"], e.get("derived", False))


def check_chain(ev, members, edges, locks):
    if ev is None:
        return "no chain event yet"
    if ev.get("engine") != "mysql":
        return f"engine {ev.get('engine')}"
    got = [member_view(m) for m in ev["members"]]
    if got != members:
        return f"members {got}, expected {members}"
    got_edges = [edge_view(e) for e in ev["edges"]]
    if got_edges != edges:
        return f"edges {got_edges}, expected {edges}"
    for e, lock in zip(ev["edges"], locks):
        if not same_lock(e["lock"], lock):
            return f"lock {e['lock']}, expected {lock}"
    return None


def idle(evs, a, b, c):
    a, b, c = int(a), int(b), int(c)
    ev = chain_of(evs, a)
    members = [(a, 0, "idle in transaction", ""),
               (b, 1, "active", "UPDATE account SET balance = balance + 2 WHERE id = 1"),
               (c, 1, "active", "UPDATE account SET balance = balance + 3 WHERE id = 1")]
    edges = [(b, a, "X", "reported", False), (c, a, "X", "reported", False),
             (c, b, "X", "soft", False)]
    problem = check_chain(ev, members, edges, [record(2)] * 3)
    if problem and ev is not None:  # the order of c's two edges is the server's
        edges = [edges[0], edges[2], edges[1]]
        problem = check_chain(ev, members, edges, [record(2)] * 3)
    if problem:
        return problem
    root = ev["members"][0]
    if root.get("holds") != [{"mode": "X", "lock": ev["edges"][0]["lock"]}]:
        return f"root holds {root.get('holds')}"
    if root.get("rows_locked") != 1 or root["session"].get("user") != "root" or \
            root["session"].get("database") != "shop" or root["session"].get("command_tag") != "Sleep":
        return f"root fields {root}"
    findings = ev.get("findings", [])
    if [f["id"] for f in findings] != ["MY009"]:
        return f"findings {[f['id'] for f in findings]}"
    if f"`KILL {a}`" not in findings[0]["hint"] or \
            not findings[0]["message"].startswith(f"connection {a} sleeps with its transaction open"):
        return f"MY009 {findings[0]}"
    return None


def started(evs, *pairs):
    for pair in pairs:
        waiter, blockers = pair.split(":")
        want = sorted(int(x) for x in blockers.split(","))
        got = [e for e in evs if e["type"] == "wait_started" and e["waiter"]["id"] == int(waiter)]
        if len(got) != 1:
            return f"{len(got)} wait_started for {waiter}"
        w = got[0]
        if sorted(w["blocked_by"]) != want or w["waiter"]["waiting_for"]["mode"] != "X" or \
                not same_lock(w["waiter"]["waiting_for"]["lock"], record(2)):
            return f"wait_started {w}"
    return None


def chain3(evs, d, e, f):
    d, e, f = int(d), int(e), int(f)
    members = [(d, 0, "idle in transaction", ""),
               (e, 1, "active", "UPDATE account SET balance = balance + 1 WHERE id = 3"),
               (f, 2, "active", "UPDATE account SET balance = balance + 5 WHERE id = 4")]
    edges = [(e, d, "X", "reported", False), (f, e, "X", "reported", False)]
    return check_chain(chain_of(evs, d), members, edges, [record(4), record(5)])


def deadlock(evs, g, h, before_watch=False):
    g, h = str(g), str(h)
    dls = [e for e in evs if e["type"] == "deadlock"]
    if len(dls) != 1:
        return f"{len(dls)} deadlock events"
    d = dls[0]
    if d.get("engine") != "mysql" or not d.get("complete") or d.get("before_watch", False) != before_watch:
        return f"engine/complete/before_watch: {d}"
    procs = {str(p["id"]): p for p in d["processes"]}
    if set(procs) != {g, h}:
        return f"processes {sorted(procs)}, expected {sorted([g, h])}"
    if str(d.get("victim")) not in procs:
        return f"victim {d.get('victim')}"
    want_queries = {g: "UPDATE account SET balance = balance + 10 WHERE id = 6",
                    h: "UPDATE account SET balance = balance + 10 WHERE id = 5"}
    for pid, q in want_queries.items():
        if procs[pid].get("query") != q:
            return f"query of {pid}: {procs[pid].get('query')!r}"
    edges = sorted((str(e["waiter"]), str(e["blocker"]), e["mode"], e["lock"].get("table")) for e in d["edges"])
    want = sorted([(g, h, "X,REC_NOT_GAP", "account"), (h, g, "X,REC_NOT_GAP", "account")])
    if edges != want:
        return f"edges {edges}, expected {want}"
    if [f["id"] for f in d.get("findings", [])] != ["MY007"]:
        return f"findings {[f['id'] for f in d.get('findings', [])]}"
    return None


def ended(evs, *ids):
    for i in ids:
        got = [e for e in evs if e["type"] == "wait_ended" and e["waiter"]["id"] == int(i)]
        if len(got) != 1:
            return f"{len(got)} wait_ended for {i}"
    return None


def mdl(evs, k, l, m):
    k, l, m = int(k), int(l), int(m)
    members = [(k, 0, "idle in transaction", ""),
               (l, 1, "active", "ALTER TABLE ledger ADD COLUMN note INT"),
               (m, 2, "active", "SELECT amount FROM ledger WHERE id = 1")]
    edges = [(l, k, "EXCLUSIVE", "hard", True), (m, l, "SHARED_READ", "soft", True)]
    lock = {"type": "metadata", "database": "shop", "table": "ledger",
            "text": "metadata lock on `shop`.`ledger`"}
    ev = chain_of(evs, k)
    problem = check_chain(ev, members, edges, [lock, lock])
    if problem:
        return problem
    if ev["members"][0].get("holds") != [{"mode": "SHARED_READ", "lock": lock}]:
        return f"holds {ev['members'][0].get('holds')}"
    return None


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == "refused":
        rc, took, out, err, label, message, code, secret = args
        out_text, err_text = open(out).read(), open(err).read()
        lines = err_text.splitlines()
        want_start = f"lockgraph watch: {label}: could not connect: {message}"
        if rc != "2":
            return f"exit {rc}"
        if int(took) > 5:
            return f"took {took} s"
        if len(lines) != 1 or not lines[0].startswith(want_start) or \
                f"(error {code}); not retried" not in lines[0]:
            return f"stderr {err_text!r}"
        if secret in out_text + err_text:
            return "the password was printed"
        return None
    if what == "restart":
        err, label = args
        text = open(err).read()
        if f"lockgraph watch: {label}: connection lost: " not in text and \
                f"lockgraph watch: {label}: could not connect: " not in text:
            return f"no lost connection in {text!r}"
        if f"lockgraph watch: {label}: polling again after " not in text:
            return f"never polled again: {text!r}"
        return None
    if what == "summary":
        evs = events(sys.stdin.read())
        if args[0] != "0":
            return f"exit {args[0]}"
        s = evs[-1] if evs else {}
        if s.get("type") != "summary" or s.get("servers") != 1 or s.get("failed_polls", 0) < 1:
            return f"summary {s}"
        return None
    if what == "once_json":
        rc, k, l, m = args
        doc = json.load(sys.stdin)
        if rc != "0" or [s["ok"] for s in doc["servers"]] != [True]:
            return f"exit {rc}, servers {doc['servers']}"
        types = [e["type"] for e in doc["events"]]
        if types != ["snapshot", "chain"]:
            return f"events {types}"
        if doc["events"][0]["blocking"] != "information_schema.innodb_lock_waits":
            return f"snapshot {doc['events'][0]}"
        return mdl(doc["events"], k, l, m)
    if what == "once_text":
        text = sys.stdin.read()
        k = args[0]
        for want in [f"root blocker {k} (root@shop", "(!) idle in transaction for",
                     "MY009", f"`KILL {k}`", "(blockers from information_schema.innodb_lock_waits)"]:
            if want not in text:
                return f"no {want!r} in {text!r}"
        return None
    if what == "before_watch":
        rc, g, h = args
        doc = json.load(sys.stdin)
        if rc != "0":
            return f"exit {rc}"
        return deadlock(doc["events"], g, h, before_watch=True)
    if what == "mixed":
        rc, my_label, pg_label = args
        doc = json.load(sys.stdin)
        servers = [(s["server"], s["ok"]) for s in doc["servers"]]
        if rc != "0" or servers != [(my_label, True), (pg_label, True)]:
            return f"exit {rc}, servers {servers}"
        heads = [e["engine"] for e in doc["events"] if e["type"] == "snapshot"]
        if heads != ["mysql", "postgresql"]:
            return f"snapshot engines {heads}"
        return None
    if what == "once_ok":
        doc = json.load(sys.stdin)
        if args[0] != "0" or [s["ok"] for s in doc["servers"]] != [True]:
            return f"exit {args[0]}, servers {doc['servers']}"
        return None
    evs = events(sys.stdin.read())
    return {"idle": idle, "started": started, "chain3": chain3, "deadlock": deadlock,
            "ended": ended, "mdl": mdl}[what](evs, *args)


if __name__ == "__main__":
    problem = main()
    print(problem or "ok")
