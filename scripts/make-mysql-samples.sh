#!/usr/bin/env bash
# Makes the real MariaDB InnoDB deadlock samples of samples/mysql/: starts a
# throwaway MariaDB (scripts/mariadb-server.sh) with innodb_print_all_deadlocks
# = ON, runs one scenario per deadlock kind with timed sessions, and keeps the
# error log and SHOW ENGINE INNODB STATUS after each scenario.
#
#   scripts/make-mysql-samples.sh [OUTDIR] [PORT]    (default samples/mysql, 33069)
#
# Writes OUTDIR/mariadb-10.11-error.log (every deadlock of the run),
# OUTDIR/mariadb-<scenario>.status.txt (\G output), one tabular status
# (mariadb-opposite_order.status-table.txt), OUTDIR/mariadb-scenarios.tsv
# (scenario, Innodb_deadlocks after it) and the clients' output.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/../samples/mysql}
PORT=${2:-33069}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
DIR=$(mktemp -d /tmp/lockgraph-mariadb.XXXXXX)
SRV="$HERE/mariadb-server.sh"
trap '"$SRV" stop "$DIR"; rm -rf "$DIR"' EXIT
"$SRV" start "$DIR" "$PORT" >/dev/null

sql() { "$SRV" sql "$DIR" --batch "$@"; }
deadlocks() { sql -N -e "SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'" | cut -f2; }

# run NAME SETUP A B [C]: the sessions start together; their SLEEPs order the
# statements. Each session connects over TCP so the report shows 127.0.0.1.
run() {
  local name=$1 setup=$2
  shift 2
  sql -e "DROP DATABASE IF EXISTS shop; CREATE DATABASE shop; USE shop; $setup"
  local i=0 pids=()
  for script in "$@"; do
    i=$((i + 1))
    printf 'USE shop;\n%s\n' "$script" |
      mariadb --no-defaults -h 127.0.0.1 -P "$PORT" -uroot --force -vvv \
        >"$DIR/$name.$i.out" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
  for ((k = 1; k <= i; k++)); do
    { echo "== session $k"; cat "$DIR/$name.$k.out"; } >>"$OUT/mariadb-clients.txt"
  done
  sql -e 'SHOW ENGINE INNODB STATUS\G' >"$OUT/mariadb-$name.status.txt"
  printf '%s\t%s\n' "$name" "$(deadlocks)" >>"$OUT/mariadb-scenarios.tsv"
}

sql -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1'"
: >"$OUT/mariadb-clients.txt"
printf 'scenario\tInnodb_deadlocks\n' >"$OUT/mariadb-scenarios.tsv"

# Rows updated in opposite orders (MY007).
run opposite_order \
  "CREATE TABLE account (id INT PRIMARY KEY, balance INT) ENGINE=InnoDB;
   INSERT INTO account VALUES (1, 100), (2, 100);" \
  "BEGIN; UPDATE account SET balance = balance - 10 WHERE id = 1; DO SLEEP(1);
   UPDATE account SET balance = balance + 10 WHERE id = 2; COMMIT;" \
  "DO SLEEP(0.5); BEGIN; UPDATE account SET balance = balance - 10 WHERE id = 2; DO SLEEP(1);
   UPDATE account SET balance = balance + 10 WHERE id = 1; COMMIT;"
sql -t -e 'SHOW ENGINE INNODB STATUS' >"$OUT/mariadb-opposite_order.status-table.txt"

# Gap locks from a locking read of a missing key, then inserts into the gap (MY001).
run gap_insert \
  "CREATE TABLE slot (id INT PRIMARY KEY, note VARCHAR(20)) ENGINE=InnoDB;
   INSERT INTO slot VALUES (10, 'a'), (20, 'b');" \
  "BEGIN; SELECT * FROM slot WHERE id = 15 FOR UPDATE; DO SLEEP(1);
   INSERT INTO slot VALUES (15, 'x'); COMMIT;" \
  "DO SLEEP(0.5); BEGIN; SELECT * FROM slot WHERE id = 16 FOR UPDATE; DO SLEEP(1);
   INSERT INTO slot VALUES (16, 'y'); COMMIT;"

# The same past the last row: next-key locks on the supremum (MY001).
run supremum_insert \
  "CREATE TABLE slot (id INT PRIMARY KEY, note VARCHAR(20)) ENGINE=InnoDB;
   INSERT INTO slot VALUES (10, 'a'), (20, 'b');" \
  "BEGIN; SELECT * FROM slot WHERE id > 20 FOR UPDATE; DO SLEEP(1);
   INSERT INTO slot VALUES (30, 'x'); COMMIT;" \
  "DO SLEEP(0.5); BEGIN; SELECT * FROM slot WHERE id > 25 FOR UPDATE; DO SLEEP(1);
   INSERT INTO slot VALUES (40, 'y'); COMMIT;"

# Three inserts of one key; the first rolls back; the other two hold S and want X (MY002).
run duplicate_key \
  "CREATE TABLE token (id INT PRIMARY KEY) ENGINE=InnoDB;" \
  "BEGIN; INSERT INTO token VALUES (7); DO SLEEP(1.2); ROLLBACK;" \
  "DO SLEEP(0.3); BEGIN; INSERT INTO token VALUES (7); DO SLEEP(1); COMMIT;" \
  "DO SLEEP(0.6); BEGIN; INSERT INTO token VALUES (7); DO SLEEP(1); COMMIT;"

# LOCK IN SHARE MODE, then UPDATE of the same row by both (MY003).
run share_upgrade \
  "CREATE TABLE stock (id INT PRIMARY KEY, qty INT) ENGINE=InnoDB;
   INSERT INTO stock VALUES (1, 5);" \
  "BEGIN; SELECT qty FROM stock WHERE id = 1 LOCK IN SHARE MODE; DO SLEEP(1);
   UPDATE stock SET qty = qty - 1 WHERE id = 1; COMMIT;" \
  "DO SLEEP(0.5); BEGIN; SELECT qty FROM stock WHERE id = 1 LOCK IN SHARE MODE; DO SLEEP(1);
   UPDATE stock SET qty = qty - 1 WHERE id = 1; COMMIT;"

# Child inserts take S on the parent row; then both update the parent (MY005).
run fk_parent \
  "CREATE TABLE orders (id INT PRIMARY KEY, items INT) ENGINE=InnoDB;
   CREATE TABLE order_line (id INT PRIMARY KEY, order_id INT,
     FOREIGN KEY (order_id) REFERENCES orders (id)) ENGINE=InnoDB;
   INSERT INTO orders VALUES (1, 0);" \
  "BEGIN; INSERT INTO order_line VALUES (1, 1); DO SLEEP(1);
   UPDATE orders SET items = items + 1 WHERE id = 1; COMMIT;" \
  "DO SLEEP(0.5); BEGIN; INSERT INTO order_line VALUES (2, 1); DO SLEEP(1);
   UPDATE orders SET items = items + 1 WHERE id = 1; COMMIT;"

# A secondary-index locking read against a primary-key update of the same rows (MY004).
run secondary_vs_primary \
  "CREATE TABLE job (id INT PRIMARY KEY, owner INT, state INT, KEY idx_owner (owner)) ENGINE=InnoDB;
   INSERT INTO job VALUES (1, 5, 0), (2, 6, 0);" \
  "BEGIN; SELECT * FROM job WHERE owner = 5 FOR UPDATE; DO SLEEP(1);
   UPDATE job SET state = 1 WHERE owner = 6; COMMIT;" \
  "DO SLEEP(0.5); BEGIN; UPDATE job SET state = 2 WHERE id = 2; DO SLEEP(1);
   SELECT * FROM job WHERE owner = 5 FOR UPDATE; COMMIT;"

# INSERT ... SELECT holds the AUTO-INC lock of its target to the end of the
# statement while it waits for a row; a plain insert then waits for AUTO-INC (MY006).
run auto_inc \
  "CREATE TABLE src (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;
   INSERT INTO src VALUES (1, 1), (2, 2);
   CREATE TABLE dst (id INT AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=InnoDB;" \
  "BEGIN; UPDATE src SET v = v + 1 WHERE id = 2; DO SLEEP(1);
   INSERT INTO dst (v) VALUES (9); COMMIT;" \
  "DO SLEEP(0.5); BEGIN; INSERT INTO dst (v) SELECT v FROM src; COMMIT;"

"$SRV" stop "$DIR"
# The error log, with the temporary directory's name made stable.
sed -e "s#$DIR#/tmp/lockgraph-mariadb#g" "$DIR/error.log" >"$OUT/mariadb-10.11-error.log"
echo "make-mysql-samples: $(tail -n1 "$OUT/mariadb-scenarios.tsv" | cut -f2) deadlocks; samples in $OUT"
