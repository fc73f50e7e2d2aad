# shellcheck shell=bash
# --timezone, --since and --until (sourced by tests/cli/run.sh), and stdin from a slow writer: the JSON's
# time_iso, the window on a real log, and the usage errors.
SCEN="$ROOT/samples/postgresql/scenarios.log"
MARIA="$ROOT/samples/mysql/mariadb-10.11-error.log"
check "json: time_iso and time_zone_from beside the server's time" bash -c \
  "'$BIN' analyze --format ndjson '$SCEN' | head -1 | python3 -c '
import json,sys
e=json.loads(sys.stdin.readline())
assert e[\"time\"].endswith(\" UTC\"), e[\"time\"]
assert e[\"time_iso\"] == e[\"time\"][:-4].replace(\" \", \"T\") + \"+00:00\", e
assert e[\"time_zone_from\"] == \"log\", e'"
check "--timezone reads zoneless MariaDB times, and says so" bash -c \
  "'$BIN' analyze --format ndjson --timezone Europe/Berlin '$MARIA' | head -1 | grep -q '\"time_iso\":\"2026-12-03T[0-9:]*+01:00\",\"time_zone_from\":\"option\"' &&
   '$BIN' analyze --format ndjson '$MARIA' | head -1 | grep -q '+00:00\",\"time_zone_from\":\"default\"'"
check "--since/--until split a real log; the summary counts what was left out" bash -c "
  all=\$('$BIN' analyze --format json '$SCEN' | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"summary\"][\"deadlocks\"])')
  a=\$('$BIN' analyze --format json --until '2026-12-02 10:15:27' '$SCEN' | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"summary\"][\"deadlocks\"])')
  b=\$('$BIN' analyze --format json --since 2026-12-02T10:15:27Z '$SCEN' | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"summary\"][\"deadlocks\"])')
  test \$a -gt 0 && test \$b -gt 0 && test \$((a + b)) -eq \$all &&
  '$BIN' analyze --until '2026-12-02 10:15:27' '$SCEN' | grep -q '^left out by --since/--until: [0-9]* events outside the window, 0 events with no time that could be read\$'"
check "--since -1h on an old log selects nothing, check says ok on 0 deadlocks" bash -c \
  "'$BIN' check --since -1h '$SCEN' >/dev/null 2>'$WORK/err'; test \$? -eq 0 && grep -q 'ok: 0 deadlocks' '$WORK/err'"
check "--timezone Mars/Olympus: a usage error naming the option" bash -c \
  "'$BIN' analyze --timezone Mars/Olympus '$SCEN' >/dev/null 2>'$WORK/err'; test \$? -eq 2 && grep -q -- '--timezone.*unknown time zone \"Mars/Olympus\"' '$WORK/err'"
check "--since yesterday: a usage error with the forms it takes" bash -c \
  "'$BIN' analyze --since yesterday '$SCEN' >/dev/null 2>'$WORK/err'; test \$? -eq 2 && grep -q -- '--since.*\"yesterday\" is not a time: give an ISO time' '$WORK/err'"
# A slow writer (a line every 50 ms) must not make the sniffer guess the format
# from the first line alone: the deadlock of the first 30 lines is kept.
check "stdin from a slow writer: the format is sniffed on more than the first line" bash -c \
  "(while IFS= read -r l; do printf '%s\n' \"\$l\"; sleep 0.05; done < <(head -30 '$SCEN')) |
   '$BIN' analyze --format ndjson - 2>/dev/null | tail -1 | grep -q '\"deadlocks\":1,.*\"unparsed\":0'"
