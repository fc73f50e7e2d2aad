# Sessions that make live lock waits on a MariaDB server, for
# scripts/make-mysql-watch-samples.sh and tests/e2e/mysql_watch.sh (sourced).
# Needs SRV (scripts/mariadb-server.sh), SDIR (the server's directory),
# PORT, and LOG (a directory for the clients' output). Each session runs in
# the background over TCP as root, with innodb_lock_wait_timeout 120 s, and
# keeps its connection open (idle, transaction open) for HOLD seconds after
# its statements, so that a poller sees it sleeping in its transaction.
# shellcheck shell=bash
HOLD=${HOLD:-60}
SESSION_PIDS=()

mw_sql() { "$SRV" sql "$SDIR" --batch "$@"; }

# mw_setup: a fresh database `shop` with table account (ids 1..4).
mw_setup() {
  mw_sql -e "DROP DATABASE IF EXISTS shop; CREATE DATABASE shop; USE shop;
    CREATE TABLE account (id INT PRIMARY KEY, balance INT) ENGINE=InnoDB;
    INSERT INTO account VALUES (1, 100), (2, 100), (3, 100), (4, 100), (5, 100), (6, 100);
    CREATE TABLE ledger (id INT PRIMARY KEY, amount INT) ENGINE=InnoDB;
    INSERT INTO ledger VALUES (1, 10);"
}

# mw_session NAME SQL: runs SQL in a new connection, then keeps it open
# (the feeder execs sleep, so that killing its pid closes the connection).
mw_session() {
  local name=$1 sql=$2
  rm -f "$LOG/$name.fifo"
  mkfifo "$LOG/$name.fifo"
  mariadb --no-defaults -h 127.0.0.1 -P "$PORT" -uroot --force --unbuffered -vvv <"$LOG/$name.fifo" \
    >"$LOG/$name.out" 2>&1 &
  SESSION_PIDS+=($!)
  (printf 'SELECT CONNECTION_ID() AS lg_connection_id;\nUSE shop;\nSET SESSION innodb_lock_wait_timeout = 120;\n%s\n' \
    "$sql"; exec sleep "$HOLD") \
    >"$LOG/$name.fifo" &
  SESSION_PIDS+=($!)
}

# mw_id NAME: the connection id of session NAME (waits up to 5 s for it).
mw_id() {
  local i id
  for i in $(seq 1 50); do
    id=$(sed -n 's/^| *\([0-9][0-9]*\) |$/\1/p' "$LOG/$1.out" 2>/dev/null | head -n 1)
    [ -n "$id" ] && { echo "$id"; return 0; }
    sleep 0.1
  done
  return 1
}

# mw_wait_for_waiters N: until N transactions wait (10 s at most).
mw_wait_for_waiters() {
  local i n
  for i in $(seq 1 100); do
    n=$(mw_sql -N -e "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")
    [ "$n" -ge "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

# mw_end_sessions: ends every session (their transactions roll back).
mw_end_sessions() {
  local p
  for p in "${SESSION_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${SESSION_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  SESSION_PIDS=()
}

# The scenarios. idle_blocker: A updates account 1 and sleeps in its
# transaction; B and C wait for it.
mw_idle_blocker() {
  mw_session idle_A "BEGIN; UPDATE account SET balance = balance - 1 WHERE id = 1;"
  sleep 0.3
  mw_session idle_B "UPDATE account SET balance = balance + 2 WHERE id = 1;"
  sleep 0.3
  mw_session idle_C "UPDATE account SET balance = balance + 3 WHERE id = 1;"
  mw_wait_for_waiters 2
}

# chain3: D holds account 3 (sleeping), E holds account 4 and waits for 3,
# F waits for 4: D <- E <- F.
mw_chain3() {
  mw_session chain_D "BEGIN; UPDATE account SET balance = balance - 1 WHERE id = 3;"
  sleep 0.3
  mw_session chain_E "BEGIN; UPDATE account SET balance = balance - 1 WHERE id = 4; UPDATE account SET balance = balance + 1 WHERE id = 3;"
  sleep 0.3
  mw_session chain_F "UPDATE account SET balance = balance + 5 WHERE id = 4;"
  mw_wait_for_waiters 2
}

# deadlock: G and H update accounts 5 and 6 in opposite orders.
mw_deadlock() {
  mw_session dl_G "BEGIN; UPDATE account SET balance = balance - 10 WHERE id = 5; DO SLEEP(1); UPDATE account SET balance = balance + 10 WHERE id = 6; COMMIT;"
  mw_session dl_H "DO SLEEP(0.5); BEGIN; UPDATE account SET balance = balance - 10 WHERE id = 6; DO SLEEP(1); UPDATE account SET balance = balance + 10 WHERE id = 5; COMMIT;"
}

# mdl (needs performance_schema = ON): K reads ledger and sleeps in its
# transaction (shared read metadata lock), L's ALTER TABLE waits for it, M's
# SELECT queues behind the ALTER.
mw_mdl() {
  mw_session mdl_K "BEGIN; SELECT amount FROM ledger WHERE id = 1;"
  sleep 0.3
  mw_session mdl_L "SET SESSION lock_wait_timeout = 120; ALTER TABLE ledger ADD COLUMN note INT;"
  sleep 0.3
  mw_session mdl_M "SELECT amount FROM ledger WHERE id = 1;"
  local i n
  for i in $(seq 1 100); do
    n=$(mw_sql -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE LIKE 'Waiting for table metadata lock'")
    [ "$n" -ge 2 ] && return 0
    sleep 0.1
  done
  return 1
}
