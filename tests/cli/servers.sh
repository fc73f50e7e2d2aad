# shellcheck shell=bash
# Several servers' logs (sourced by tests/cli/run.sh): each event names its log series as its server
# (JSON source.server, text "server NAME"); the rotations of one server's log name none.
RULES_LOG="$ROOT/samples/postgresql/rules.log"
GROUPS_LOG="$ROOT/samples/postgresql/groups.log"
SCEN_LOG="$ROOT/samples/postgresql/scenarios.log"
check "two servers' logs: each event names its series; the csvlog of the same run counted once" bash -c \
  "'$BIN' analyze --format ndjson '$RULES_LOG' '$ROOT/samples/postgresql/rules.csv' '$GROUPS_LOG' | python3 -c '
import json, sys, collections
c = collections.Counter()
for l in sys.stdin:
    e = json.loads(l)
    if e[\"type\"] != \"summary\":
        c[(e[\"source\"][\"file\"].rsplit(\"/\", 1)[-1], e[\"source\"][\"server\"].rsplit(\"/\", 1)[-1])] += 1
    else:
        assert e[\"repeated\"][\"deadlocks\"] > 0, e
assert set(c) == {(\"rules.log\", \"rules\"), (\"groups.log\", \"groups\")}, c'"
check "one log: no server named" bash -c \
  "! '$BIN' analyze --format ndjson '$RULES_LOG' | grep -q '\"server\"'"
# One server's log cut in two as the collector rotates it (the later one compressed by logrotate):
# one series, so no event names a server, and the events are those of the whole log.
mkdir -p "$WORK/rotated"
head -n 300 "$SCEN_LOG" >"$WORK/rotated/postgresql-2026-12-01_000000.log"
tail -n +301 "$SCEN_LOG" | gzip -c >"$WORK/rotated/postgresql-2026-12-02_000000.log.1.gz"
check "rotated files of one server: one series, no server named, every deadlock kept" bash -c \
  "'$BIN' analyze --format ndjson '$WORK/rotated/postgresql-2026-12-01_000000.log' \
     '$WORK/rotated/postgresql-2026-12-02_000000.log.1.gz' >'$WORK/rotated.ndjson' &&
   ! grep -q '\"server\"' '$WORK/rotated.ndjson' &&
   [ \"\$(grep -c '\"type\":\"deadlock\"' '$WORK/rotated.ndjson')\" = \"\$('$BIN' analyze --format ndjson '$SCEN_LOG' | grep -c '\"type\":\"deadlock\"')\" ]"
check "text: the server beside each event's lines when there are several" bash -c \
  "'$BIN' analyze '$RULES_LOG' '$GROUPS_LOG' | grep -q 'groups.log:[0-9-]*  server .*samples/postgresql/groups'"
