#!/usr/bin/env bash
# Makes the real MariaDB lock-snapshot samples of samples/mysql/snapshots/:
# starts a throwaway MariaDB 10.11 (scripts/mariadb-server.sh, with
# performance_schema = ON for metadata locks), sets up the sessions of
# scripts/mysql-watch-scenarios.sh (an idle-in-transaction blocker with two
# waiters, a chain of three, an ALTER TABLE waiting for a metadata lock) and
# saves docs/mysql-snapshot.sql + docs/mysql-snapshot-mdl.sql as `mariadb
# --batch` (TSV) and `--vertical` (\G) output.
#
#   scripts/make-mysql-watch-samples.sh [OUTDIR] [PORT]   (default samples/mysql/snapshots, 33072)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/../samples/mysql/snapshots}
PORT=${2:-33072}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SDIR=$(mktemp -d /tmp/lockgraph-mywatch.XXXXXX)
LOG=$SDIR/clients
SRV="$HERE/mariadb-server.sh"
HOLD=30
# shellcheck source=mysql-watch-scenarios.sh
source "$HERE/mysql-watch-scenarios.sh"
trap 'mw_end_sessions; "$SRV" stop "$SDIR"; rm -rf "$SDIR"' EXIT
MARIADB_EXTRA_CONF="performance_schema = ON
performance_schema_instrument = 'wait/lock/metadata/sql/mdl=ON'" "$SRV" start "$SDIR" "$PORT" >/dev/null
mkdir -p "$LOG"
mw_sql -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1'"
mw_setup
mw_idle_blocker
mw_chain3
mw_mdl
sleep 1  # ages of a second or more
SQL=$HERE/../docs
{ mw_sql <"$SQL/mysql-snapshot.sql"
  mw_sql --skip-column-names <"$SQL/mysql-snapshot-mdl.sql"; } >"$OUT/mariadb-10.11-snapshot.tsv"
# \G: the metadata-lock rows go on numbering after the others (one result).
rows=$(mw_sql --skip-column-names <"$SQL/mysql-snapshot.sql" | wc -l)
{ mw_sql --vertical <"$SQL/mysql-snapshot.sql"
  mw_sql --vertical <"$SQL/mysql-snapshot-mdl.sql" |
    awk -v n="$rows" '/^\*+ [0-9]+\. row \*+$/ { k++; sub(/ [0-9]+\. row/, " " (n + k) ". row") } { print }'
} >"$OUT/mariadb-10.11-snapshot.vertical.txt"
echo "wrote $OUT/mariadb-10.11-snapshot.tsv and mariadb-10.11-snapshot.vertical.txt"
