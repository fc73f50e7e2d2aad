#!/usr/bin/env bash
# Regenerates samples/postgresql/clients/: what real drivers print when the server
# aborts their statement with "deadlock detected", and the server's csvlog of the
# same run (server.csv) to check the edges against. Each driver provokes, against a
# throwaway PostgreSQL 15 cluster (scripts/pg-cluster.sh), one 2-process and one
# 3-process row deadlock and prints the exception the way its framework normally does:
#   psycopg2.txt   pytest failure output (python3-psycopg2, python3-pytest)
#   psycopg3.txt   uncaught Python traceback (python3-psycopg)
#   asyncpg.txt    uncaught Python traceback (python3-asyncpg)
#   django.txt     uncaught traceback, chained psycopg2 -> django.db.utils (python3-django)
#   rails.txt      minitest failure output of ActiveRecord (ruby-activerecord, ruby-pg)
#   node-pg.txt    console.error(err) of node-postgres (npm `pg`)
#   jdbc.txt       uncaught exception of pgJDBC (libpostgresql-jdbc-java), plain, then wrapped
#   pgx.txt        log.Fatalf of Go pgx v4 (golang-github-jackc-pgx-v4-dev): no DETAIL
#   libpq-go.txt   `go test` failure with lib/pq (golang-github-lib-pq-dev): no DETAIL
# Each driver connects with application_name lg_<driver>, so the server's deadlock
# records of its run are told apart in server.csv. The deadlock: n sessions each
# update their own row; sessions 1..n-1 then update the next session's row, one every
# 0.5 s (deadlock_timeout is 100 ms, so each has checked and found no cycle), and the
# last one updates the first session's row: it closes the cycle and is the victim.
# Needs (only here, not for the build or the tests): the packages above, golang-go,
# default-jdk-headless, npm. Run as root or as a user that may run PostgreSQL.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CLUSTER="$HERE/pg-cluster.sh"
OUT="$ROOT/samples/postgresql/clients"
PY=/usr/bin/python3   # Debian's python, where the python3-* drivers are installed

WORK=$(mktemp -d /tmp/lockgraph-clients.XXXXXX)
chmod 755 "$WORK"
cleanup() {
  "$CLUSTER" stop "$WORK/pg" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=scenarios.sh
source "$HERE/scenarios.sh"
for _ in 1 2 3 4 5; do
  PORT=$(lg_free_port)
  if "$CLUSTER" start "$WORK/pg" "$PORT"; then break; fi
done
"$CLUSTER" psql "$WORK/pg" "$PORT" -q -d postgres -c "CREATE DATABASE lgclient"
"$CLUSTER" psql "$WORK/pg" "$PORT" -q -d lgclient -c \
  "CREATE TABLE items (id int PRIMARY KEY, v int NOT NULL);
   INSERT INTO items SELECT g, 0 FROM generate_series(1, 1000) g"
export LG_HOST=127.0.0.1 LG_PORT=$PORT LG_DB=lgclient
export LG_DSN="host=127.0.0.1 port=$PORT user=postgres dbname=lgclient"
mkdir -p "$WORK/src" "$OUT"
cd "$WORK/src"
BASE=0
next_base() { BASE=$((BASE + 10)); }

# run DRIVER COMMAND... : runs the 2- then the 3-process deadlock (args: N BASE),
# appending what the program printed (stdout and stderr, as a CI log keeps them).
run() {
  local driver=$1 n
  shift
  : >"$OUT/$driver.txt"
  for n in 2 3; do
    next_base
    "$@" "$n" "$BASE" >>"$OUT/$driver.txt" 2>&1 || true
  done
  echo "make-client-samples: $driver: $(grep -c 'deadlock detected' "$OUT/$driver.txt") lines naming the deadlock"
}

# ---- psycopg2 under pytest --------------------------------------------------------------
cat >test_transfer.py <<'EOF'
import os
import threading
import time

import psycopg2

DSN = os.environ["LG_DSN"]
SQL = "UPDATE items SET v = v + 1 WHERE id = %s"


def provoke(n, base):
    conns = [psycopg2.connect(DSN, application_name="lg_psycopg2") for _ in range(n)]
    threads = []
    try:
        for i, conn in enumerate(conns):
            conn.cursor().execute(SQL, (base + i + 1,))
        for i in range(n - 1):
            t = threading.Thread(target=conns[i].cursor().execute, args=(SQL, (base + i + 2,)))
            t.start()
            threads.append(t)
            time.sleep(0.5)
        conns[-1].cursor().execute(SQL, (base + 1,))
    finally:
        conns[-1].rollback()
        for i in reversed(range(len(threads))):
            threads[i].join()
            conns[i].rollback()
        for conn in conns:
            conn.close()


def test_two_way_transfer():
    provoke(2, int(os.environ["LG_BASE"]))


def test_three_way_transfer():
    provoke(3, int(os.environ["LG_BASE"]) + 5)
EOF
next_base
LG_BASE=$BASE $PY -m pytest -p no:cacheprovider test_transfer.py >"$OUT/psycopg2.txt" 2>&1 || true
echo "make-client-samples: psycopg2: $(grep -c 'deadlock detected' "$OUT/psycopg2.txt") lines"

# ---- psycopg 3, asyncpg, Django: uncaught tracebacks ------------------------------------
cat >psycopg3_transfer.py <<'EOF'
import os
import sys
import threading
import time

import psycopg

SQL = "UPDATE items SET v = v + 1 WHERE id = %s"


def main(n, base):
    conns = [psycopg.connect(os.environ["LG_DSN"], application_name="lg_psycopg3") for _ in range(n)]
    for i, conn in enumerate(conns):
        conn.execute(SQL, (base + i + 1,))
    for i in range(n - 1):
        threading.Thread(target=conns[i].execute, args=(SQL, (base + i + 2,)), daemon=True).start()
        time.sleep(0.5)
    conns[-1].execute(SQL, (base + 1,))


main(int(sys.argv[1]), int(sys.argv[2]))
EOF
run psycopg3 $PY psycopg3_transfer.py

cat >asyncpg_transfer.py <<'EOF'
import asyncio
import os
import sys

import asyncpg

SQL = "UPDATE items SET v = v + 1 WHERE id = $1"


async def main(n, base):
    conns = []
    for _ in range(n):
        conns.append(await asyncpg.connect(
            host=os.environ["LG_HOST"], port=int(os.environ["LG_PORT"]), user="postgres",
            database=os.environ["LG_DB"], server_settings={"application_name": "lg_asyncpg"}))
    for i, conn in enumerate(conns):
        await conn.execute("BEGIN")
        await conn.execute(SQL, base + i + 1)
    waiting = []
    for i in range(n - 1):
        waiting.append(asyncio.create_task(conns[i].execute(SQL, base + i + 2)))
        await asyncio.sleep(0.5)
    await conns[-1].execute(SQL, base + 1)


asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
EOF
run asyncpg $PY asyncpg_transfer.py

cat >django_transfer.py <<'EOF'
import os
import sys
import threading
import time

import django
from django.conf import settings

DB = {"ENGINE": "django.db.backends.postgresql", "HOST": os.environ["LG_HOST"],
      "PORT": os.environ["LG_PORT"], "USER": "postgres", "NAME": os.environ["LG_DB"],
      "OPTIONS": {"application_name": "lg_django"}}
settings.configure(DATABASES={"default": DB, "s1": dict(DB), "s2": dict(DB)})
django.setup()
from django.db import connections  # noqa: E402

SQL = "UPDATE items SET v = v + 1 WHERE id = %s"


def update(conn, row):
    with conn.cursor() as cursor:
        cursor.execute(SQL, [row])


def main(n, base):
    conns = [connections[alias] for alias in ("default", "s1", "s2")[:n]]
    for i, conn in enumerate(conns):
        conn.set_autocommit(False)
        conn.inc_thread_sharing()
        update(conn, base + i + 1)
    for i in range(n - 1):
        threading.Thread(target=update, args=(conns[i], base + i + 2), daemon=True).start()
        time.sleep(0.5)
    update(conns[-1], base + 1)


main(int(sys.argv[1]), int(sys.argv[2]))
EOF
run django $PY django_transfer.py

# ---- Rails (ActiveRecord) under minitest ------------------------------------------------
cat >transfer_test.rb <<'EOF'
require "minitest/autorun"
require "active_record"

ActiveRecord::Base.establish_connection(
  adapter: "postgresql", host: ENV["LG_HOST"], port: ENV["LG_PORT"].to_i,
  username: "postgres", database: ENV["LG_DB"], application_name: "lg_rails", pool: 5)

class TransferTest < Minitest::Test
  i_suck_and_my_tests_are_order_dependent!

  def provoke(n, base)
    pool = ActiveRecord::Base.connection_pool
    conns = Array.new(n) { pool.checkout }
    conns.each_with_index do |c, i|
      c.begin_db_transaction
      c.execute("UPDATE items SET v = v + 1 WHERE id = #{base + i + 1}")
    end
    (0...n - 1).each do |i|
      Thread.new { conns[i].execute("UPDATE items SET v = v + 1 WHERE id = #{base + i + 2}") rescue nil }
      sleep 0.5
    end
    conns[-1].execute("UPDATE items SET v = v + 1 WHERE id = #{base + 1}")
  end

  def test_two_way_transfer
    provoke(2, ENV["LG_BASE"].to_i)
  end

  def test_three_way_transfer
    provoke(3, ENV["LG_BASE"].to_i + 5)
  end
end
EOF
next_base
LG_BASE=$BASE ruby transfer_test.rb --seed 1 >"$OUT/rails.txt" 2>&1 || true
echo "make-client-samples: rails: $(grep -c 'deadlock detected' "$OUT/rails.txt") lines"

# ---- node-postgres ----------------------------------------------------------------------
mkdir -p node && (cd node && npm init -y >/dev/null && npm install --no-audit --no-fund pg@8 >/dev/null 2>&1)
NODE_PG_VERSION=$(node -e 'console.log(require("./node/node_modules/pg/package.json").version)')
cat >node/transfer.js <<'EOF'
const { Client } = require('pg');

const SQL = 'UPDATE items SET v = v + 1 WHERE id = $1';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(n, base) {
  const clients = [];
  for (let i = 0; i < n; i++) {
    const c = new Client({ host: process.env.LG_HOST, port: +process.env.LG_PORT, user: 'postgres',
      database: process.env.LG_DB, application_name: 'lg_node_pg' });
    await c.connect();
    clients.push(c);
  }
  for (let i = 0; i < n; i++) {
    await clients[i].query('BEGIN');
    await clients[i].query(SQL, [base + i + 1]);
  }
  for (let i = 0; i < n - 1; i++) {
    clients[i].query(SQL, [base + i + 2]).catch(() => {});
    await sleep(500);
  }
  await clients[n - 1].query(SQL, [base + 1]);
}

main(+process.argv[2], +process.argv[3]).catch((err) => {
  console.error(err);
  process.exit(1);
});
EOF
run node-pg node node/transfer.js


# ---- pgJDBC -----------------------------------------------------------------------------
cat >Transfer.java <<'EOF'
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

public class Transfer {
  static void update(Connection c, int row) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("UPDATE items SET v = v + 1 WHERE id = ?")) {
      s.setInt(1, row);
      s.executeUpdate();
    }
  }

  static void provoke(int n, int base) throws Exception {
    String url = "jdbc:postgresql://" + System.getenv("LG_HOST") + ":" + System.getenv("LG_PORT")
        + "/" + System.getenv("LG_DB") + "?user=postgres&ApplicationName=lg_jdbc";
    Connection[] conns = new Connection[n];
    for (int i = 0; i < n; i++) {
      conns[i] = DriverManager.getConnection(url);
      conns[i].setAutoCommit(false);
      update(conns[i], base + i + 1);
    }
    for (int i = 0; i < n - 1; i++) {
      final Connection c = conns[i];
      final int row = base + i + 2;
      Thread t = new Thread(() -> { try { update(c, row); } catch (SQLException e) { } });
      t.setDaemon(true);
      t.start();
      Thread.sleep(500);
    }
    update(conns[n - 1], base + 1);
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    int base = Integer.parseInt(args[1]);
    if (n == 2) {
      provoke(n, base);
    } else {
      try {
        provoke(n, base);
      } catch (SQLException e) {
        throw new IllegalStateException("transfer of batch " + base + " failed", e);
      }
    }
  }
}
EOF
run jdbc java -cp /usr/share/java/postgresql.jar Transfer.java

# ---- Go: pgx v4 (log.Fatalf) and lib/pq (go test), GOPATH mode with Debian's sources ----
export GO111MODULE=off GOPATH="$WORK/go:/usr/share/gocode" GOCACHE="$WORK/gocache" GOFLAGS=
mkdir -p "$WORK/go/src/lgpgx" "$WORK/go/src/lgpq"
cat >"$WORK/go/src/lgpgx/main.go" <<'EOF'
package main

import (
	"context"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v4"
)

const sql = "UPDATE items SET v = v + 1 WHERE id = $1"

func main() {
	ctx := context.Background()
	n, _ := strconv.Atoi(os.Args[1])
	base, _ := strconv.Atoi(os.Args[2])
	conns := make([]*pgx.Conn, n)
	for i := range conns {
		c, err := pgx.Connect(ctx, os.Getenv("LG_DSN")+" application_name=lg_pgx")
		if err != nil {
			log.Fatalf("connect: %v", err)
		}
		conns[i] = c
		c.Exec(ctx, "BEGIN")
		c.Exec(ctx, sql, base+i+1)
	}
	for i := 0; i < n-1; i++ {
		go conns[i].Exec(ctx, sql, base+i+2)
		time.Sleep(500 * time.Millisecond)
	}
	if _, err := conns[n-1].Exec(ctx, sql, base+1); err != nil {
		log.Fatalf("transfer of batch %d failed: %v", base, err)
	}
}
EOF
cat >"$WORK/go/src/lgpq/transfer_test.go" <<'EOF'
package lgpq

import (
	"context"
	"database/sql"
	"os"
	"strconv"
	"testing"
	"time"

	_ "github.com/lib/pq"
)

const update = "UPDATE items SET v = v + 1 WHERE id = $1"

func provoke(t *testing.T, n, base int) {
	ctx := context.Background()
	db, err := sql.Open("postgres", os.Getenv("LG_DSN")+" sslmode=disable application_name=lg_libpq_go")
	if err != nil {
		t.Fatal(err)
	}
	conns := make([]*sql.Conn, n)
	for i := range conns {
		if conns[i], err = db.Conn(ctx); err != nil {
			t.Fatal(err)
		}
		conns[i].ExecContext(ctx, "BEGIN")
		conns[i].ExecContext(ctx, update, base+i+1)
	}
	for i := 0; i < n-1; i++ {
		go conns[i].ExecContext(ctx, update, base+i+2)
		time.Sleep(500 * time.Millisecond)
	}
	if _, err := conns[n-1].ExecContext(ctx, update, base+1); err != nil {
		t.Fatalf("transfer: %v", err)
	}
}

func TestTwoWayTransfer(t *testing.T) {
	base, _ := strconv.Atoi(os.Getenv("LG_BASE"))
	provoke(t, 2, base)
}

func TestThreeWayTransfer(t *testing.T) {
	base, _ := strconv.Atoi(os.Getenv("LG_BASE"))
	provoke(t, 3, base+5)
}
EOF
(cd "$WORK/go/src/lgpgx" && go build -o "$WORK/lgpgx" .)
run pgx "$WORK/lgpgx"
next_base
(cd "$WORK/go/src/lgpq" && LG_BASE=$BASE go test -count=1 -v . >"$OUT/libpq-go.txt" 2>&1 || true)
sed -i -E 's#[0-9]+\.[0-9]+s\)#0.00s)#g' "$OUT/libpq-go.txt"
echo "make-client-samples: libpq-go: $(grep -c 'deadlock detected' "$OUT/libpq-go.txt") lines"

# The temporary directory is no part of the sample.
sed -i "s#$WORK/src#/home/ci/app#g; s#$WORK/go/src#/home/ci/go/src#g" "$OUT"/*.txt

# ---- the server's side ------------------------------------------------------------------
SERVER_VERSION=$("$(_lg_bindir)/postgres" --version)
"$CLUSTER" stop "$WORK/pg"
cp "$WORK/pg/log/postgresql.csv" "$OUT/server.csv"
chmod 644 "$OUT"/*
{
  echo "# Client output samples"
  echo
  echo "Made by scripts/make-client-samples.sh on $(date -u +%Y-%m-%d) against $SERVER_VERSION;"
  echo "server.csv is the server's csvlog of the same run (application_name lg_<driver>)."
  echo "Drivers: python3-psycopg2 $(dpkg-query -W -f='${Version}' python3-psycopg2)," \
    "python3-pytest $(dpkg-query -W -f='${Version}' python3-pytest)," \
    "python3-psycopg $(dpkg-query -W -f='${Version}' python3-psycopg)," \
    "python3-asyncpg $(dpkg-query -W -f='${Version}' python3-asyncpg)," \
    "python3-django $(dpkg-query -W -f='${Version}' python3-django)," \
    "ruby-activerecord $(dpkg-query -W -f='${Version}' ruby-activerecord)," \
    "ruby-pg $(dpkg-query -W -f='${Version}' ruby-pg), node pg $NODE_PG_VERSION (npm)," \
    "libpostgresql-jdbc-java $(dpkg-query -W -f='${Version}' libpostgresql-jdbc-java)," \
    "golang-github-jackc-pgx-v4-dev $(dpkg-query -W -f='${Version}' golang-github-jackc-pgx-v4-dev)," \
    "golang-github-lib-pq-dev $(dpkg-query -W -f='${Version}' golang-github-lib-pq-dev)."
  echo
  echo "Each file holds one 2-process and one 3-process row deadlock; the last session"
  echo "to wait closes the cycle and is the victim (see the script's header)."
  echo "pgx and lib/pq print no DETAIL. Paths of the temporary directory are"
  echo "replaced by /home/ci/app, go test durations by 0.00s."
} >"$OUT/README.md"
echo "make-client-samples: wrote $OUT"
