#!/usr/bin/env bash
# Regenerates samples/postgresql/localized/ from a real PostgreSQL server whose
# lc_messages is set, in turn, to each language the Debian postgresql package
# ships a catalogue for (plus C = English, the reference run):
#   <lang>.log                 stderr, log_line_prefix '%m [%p] %q%u@%d/%a '
#   <lang>.csv, <lang>.json    csvlog and jsonlog of the same run (de fr ja ru zh_CN)
#   README.md                  settings, scenarios, pids, counts
# One cluster (scripts/pg-cluster.sh); before each language: ALTER SYSTEM SET
# lc_messages and log_filename = '<lang>.log', reload, rotate. Every language runs
# the same scenarios in the same order, so tests/unit/test_localized.cc can compare
# its events with those of en.log.
# Needs: PostgreSQL 15 server + client, the locales of scripts/setup.sh.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CLUSTER="$HERE/pg-cluster.sh"
OUT="$ROOT/samples/postgresql/localized"
# lang:locale (lang = the gettext catalogue name)
LANGS=${LG_LANGS:-"en:C de:de_DE.UTF-8 es:es_ES.UTF-8 fr:fr_FR.UTF-8 it:it_IT.UTF-8 ja:ja_JP.UTF-8 ko:ko_KR.UTF-8 ru:ru_RU.UTF-8 sv:sv_SE.UTF-8 uk:uk_UA.UTF-8 zh_CN:zh_CN.UTF-8 ka:ka_GE.UTF-8"}
STRUCTURED="en de fr ja ru zh_CN"

WORK=$(mktemp -d /tmp/lockgraph-i18n.XXXXXX)
chmod 755 "$WORK"
cleanup() {
  "$CLUSTER" stop "$WORK/main" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=scenarios.sh
source "$HERE/scenarios.sh"

for attempt in 1 2 3 4 5; do
  LG_PG_PORT=$(lg_free_port)
  if PGCLUSTER_EXTRA_CONF="log_filename = 'boot.log'" "$CLUSTER" start "$WORK/main" "$LG_PG_PORT"; then
    break
  fi
done
LOGDIR="$WORK/main/log"
# The scenarios below check outcomes by SQLSTATE (the texts are translated), and
# wait for lock waits in pg_locks rather than in the log.
unset LG_LOGDIR
LG_WORKDIR="$WORK/scen"
lg_setup
_lg_q -- "
  SET client_min_messages = warning;
  DROP TABLE IF EXISTS ledger, audit;
  CREATE TABLE ledger (id int PRIMARY KEY, amount int NOT NULL);
  CREATE TABLE audit (id int PRIMARY KEY, note text);" >/dev/null
SERVER_VERSION=$("$(_lg_bindir)/postgres" --version)

_lg_verbose() { printf '%s\n' '\set VERBOSITY verbose' >&"${_LG_FD[$1]}"; }
_lg_has_state() { grep -q -- "$2" "$LG_WORKDIR/$1.out"; }

# Two sessions update two rows in opposite order: 2-process deadlock on
# transaction locks; B closes the cycle and is the victim.
_i18n_two_way() {
  _lg_open A "lg_${LANG_NAME}_two_way_A" && _lg_open B "lg_${LANG_NAME}_two_way_B" || return 1
  _lg_verbose A; _lg_verbose B
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_step A "UPDATE accounts SET balance = balance - 10 WHERE id = 1;" || return 1
  _lg_step B "UPDATE accounts SET balance = balance - 20 WHERE id = 2;" || return 1
  _lg_send A "UPDATE accounts SET balance = balance + 10 WHERE id = 2;"
  _lg_wait_lock A 300 || return 1
  _lg_send B "UPDATE accounts SET balance = balance + 20 WHERE id = 1;"
  _lg_wait_done B && _lg_wait_done A || return 1
  _lg_has_state B 40P01 || { _lg_err "two_way: B was not the victim"; return 1; }
  _lg_step B "ROLLBACK;" && _lg_step A "COMMIT;" || return 1
  _lg_record "${LANG_NAME}_two_way" A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}"
}

# A holds row 3; C holds row 4; B waits for row 3 (transaction lock of A, and
# B now holds the tuple lock of row 3); C waits for row 3 behind B (tuple
# lock); A wants row 4: A -> C (transaction), C -> B (tuple), B -> A
# (transaction). A closes the cycle and is the victim.
_i18n_tuple() {
  local s
  for s in A B C; do
    _lg_open $s "lg_${LANG_NAME}_tuple_$s" || return 1
    _lg_verbose $s
    _lg_step $s "BEGIN;" || return 1
  done
  _lg_step A "UPDATE accounts SET balance = balance + 1 WHERE id = 3;" || return 1
  _lg_step C "UPDATE accounts SET balance = balance + 1 WHERE id = 4;" || return 1
  _lg_send B "UPDATE accounts SET balance = balance + 2 WHERE id = 3;"
  _lg_wait_lock B 300 || return 1
  _lg_send C "UPDATE accounts SET balance = balance + 3 WHERE id = 3;"
  _lg_wait_lock C 300 || return 1
  _lg_send A "UPDATE accounts SET balance = balance + 4 WHERE id = 4;"
  _lg_wait_done A || return 1
  _lg_has_state A 40P01 || { _lg_err "tuple: A was not the victim"; return 1; }
  _lg_step A "ROLLBACK;" || return 1
  _lg_wait_done B && _lg_step B "COMMIT;" || return 1
  _lg_wait_done C && _lg_step C "COMMIT;" || return 1
  _lg_record "${LANG_NAME}_tuple" A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" C="${_LG_BACKEND[C]}"
}

# Relation locks: A locks ledger, B locks audit, each then wants the other's.
_i18n_relation() {
  _lg_open A "lg_${LANG_NAME}_relation_A" && _lg_open B "lg_${LANG_NAME}_relation_B" || return 1
  _lg_verbose A; _lg_verbose B
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_step A "LOCK TABLE ledger IN SHARE ROW EXCLUSIVE MODE;" || return 1
  _lg_step B "LOCK TABLE audit IN ACCESS EXCLUSIVE MODE;" || return 1
  _lg_send A "LOCK TABLE audit IN ACCESS SHARE MODE;"
  _lg_wait_lock A 300 || return 1
  _lg_send B "LOCK TABLE ledger IN EXCLUSIVE MODE;"
  _lg_wait_done B && _lg_wait_done A || return 1
  _lg_has_state B 40P01 || { _lg_err "relation: B was not the victim"; return 1; }
  _lg_step B "ROLLBACK;" && _lg_step A "COMMIT;" || return 1
  _lg_record "${LANG_NAME}_relation" A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}"
}

# still waiting, then acquired (a row), and a relation wait during parse
# analysis (" at character N" after the lock-wait message), then acquired.
_i18n_waits() {
  _lg_open A "lg_${LANG_NAME}_waits_A" && _lg_open B "lg_${LANG_NAME}_waits_B" || return 1
  _lg_verbose A; _lg_verbose B
  _lg_step A "BEGIN;" || return 1
  _lg_step A "UPDATE accounts SET balance = balance + 5 WHERE id = 5;" || return 1
  _lg_send B "UPDATE accounts SET balance = balance - 5 WHERE id = 5;"
  _lg_wait_lock B 400 || return 1
  _lg_step A "COMMIT;" && _lg_wait_done B || return 1
  _lg_step A "BEGIN;" || return 1
  _lg_step A "LOCK TABLE ledger IN ACCESS EXCLUSIVE MODE;" || return 1
  _lg_send B "SELECT count(*) FROM ledger;"
  _lg_wait_lock B 400 || return 1
  _lg_step A "COMMIT;" && _lg_wait_done B || return 1
  if grep -q ERROR "$LG_WORKDIR/B.out"; then _lg_err "waits: B failed"; return 1; fi
  _lg_record "${LANG_NAME}_waits" A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}"
}

# lock_timeout: B waits for row 7 and is cancelled after 500 ms (55P03).
_i18n_timeout() {
  _lg_open A "lg_${LANG_NAME}_timeout_A" && _lg_open B "lg_${LANG_NAME}_timeout_B" || return 1
  _lg_verbose A; _lg_verbose B
  _lg_step A "BEGIN;" || return 1
  _lg_step A "UPDATE accounts SET balance = balance + 7 WHERE id = 7;" || return 1
  _lg_step B "SET lock_timeout = '500ms';" || return 1
  _lg_send B "UPDATE accounts SET balance = balance - 7 WHERE id = 7;"
  _lg_wait_done B || return 1
  _lg_has_state B 55P03 || { _lg_err "timeout: B did not time out"; return 1; }
  _lg_step A "COMMIT;" || return 1
  _lg_record "${LANG_NAME}_timeout" A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}"
}

ROWS=""
for pair in $LANGS; do
  LANG_NAME=${pair%%:*}
  locale=${pair#*:}
  _lg_psql -d postgres -c "ALTER SYSTEM SET lc_messages = '$locale'" >/dev/null
  _lg_psql -d postgres -c "ALTER SYSTEM SET log_filename = '$LANG_NAME.log'" >/dev/null
  _lg_psql -d postgres -c "SELECT pg_reload_conf()" >/dev/null
  sleep 0.5
  _lg_psql -d postgres -c "SELECT pg_rotate_logfile()" >/dev/null
  sleep 0.5
  have=$(_lg_psql -d postgres -c "SHOW lc_messages")
  [ "$have" = "$locale" ] || { echo "lc_messages is '$have', not '$locale'" >&2; exit 1; }
  _lg_run two_way _i18n_two_way
  _lg_run tuple _i18n_tuple
  _lg_run relation _i18n_relation
  _lg_run waits _i18n_waits
  _lg_run timeout _i18n_timeout
  ROWS+="| $LANG_NAME | \`$locale\` | $(for s in two_way tuple relation waits timeout; do
      printf '%s: A=%s B=%s%s; ' "$s" "${LG_PIDS[${LANG_NAME}_$s.A]}" "${LG_PIDS[${LANG_NAME}_$s.B]}" \
        "${LG_PIDS[${LANG_NAME}_$s.C]:+ C=${LG_PIDS[${LANG_NAME}_$s.C]}}"; done) |
"
done
_lg_psql -d postgres -c "ALTER SYSTEM SET log_filename = 'end.log'" >/dev/null
_lg_psql -d postgres -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.5
_lg_psql -d postgres -c "SELECT pg_rotate_logfile()" >/dev/null
"$CLUSTER" stop "$WORK/main"

mkdir -p "$OUT"
rm -f "$OUT"/*.log "$OUT"/*.csv "$OUT"/*.json
for pair in $LANGS; do
  l=${pair%%:*}
  cp "$LOGDIR/$l.log" "$OUT/$l.log"
  case " $STRUCTURED " in
    *" $l "*) cp "$LOGDIR/$l.csv" "$OUT/$l.csv"; cp "$LOGDIR/$l.json" "$OUT/$l.json" ;;
  esac
done
chmod 644 "$OUT"/*

count() { grep -c -- "$1" "$2" || true; }
cat >"$OUT/README.md" <<MD
# Localized PostgreSQL sample logs (real server output)

Generated by \`scripts/make-localized-samples.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC') from
\`$SERVER_VERSION\` (Debian package; its catalogues are
/usr/share/locale/<lang>/LC_MESSAGES/postgres-15.mo), one throwaway cluster
(\`scripts/pg-cluster.sh\`). Do not edit by hand: rerun the script.

Settings: \`log_line_prefix = '%m [%p] %q%u@%d/%a '\`, \`log_lock_waits = on\`,
\`deadlock_timeout = 100ms\`, \`log_destination = 'stderr,csvlog,jsonlog'\`; before each
language \`ALTER SYSTEM SET lc_messages\` and \`log_filename = '<lang>.log'\`, reload,
\`pg_rotate_logfile()\`. en is \`lc_messages = 'C'\`: the reference run.
csvlog and jsonlog are kept for: $STRUCTURED.

Scenarios, the same in every language and in this order (psql sessions, application
\`lg_<lang>_<scenario>_<A|B|C>\`):

| scenario | what happens |
|---|---|
| two_way | A, B update accounts 1, 2 in opposite order: 2-process deadlock on transaction locks, victim B |
| tuple | A holds row 3, C row 4; B waits for row 3, C queues behind B on the tuple lock; A wants row 4: 3-process cycle A -> C (transaction) -> B (tuple) -> A, victim A |
| relation | A: LOCK ledger SHARE ROW EXCLUSIVE, B: LOCK audit ACCESS EXCLUSIVE, then each wants the other's table: deadlock on relation locks, victim B |
| waits | B waits for row 5 (still waiting, acquired), then for \`SELECT count(*) FROM ledger\` while A holds ACCESS EXCLUSIVE (the wait happens in parse analysis, so the messages end in the translated " at character 22") |
| timeout | B with \`lock_timeout = 500ms\` waits for row 7 and is cancelled (55P03) |

| lang | locale | backend pids |
|---|---|---|
$ROWS
ka is a partially translated catalogue: its deadlock edge lines and log_lock_waits
messages are untranslated (English), its query lines and some lock tags translated.
pl, pt_BR and tr have no catalogue in postgresql-15 (the server writes English):
their templates are tested from the .po text (parsers/postgresql/catalog_extra.tsv).
MD
echo "make-localized-samples: wrote $(ls "$OUT" | wc -l) files to $OUT"
