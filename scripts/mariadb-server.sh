#!/usr/bin/env bash
# Throwaway MariaDB server for lockgraph's real-server InnoDB scenarios
# (the MariaDB counterpart of scripts/pg-cluster.sh).
#
#   scripts/mariadb-server.sh start  DIR [PORT]   create (if needed) and start; waits until ready
#   scripts/mariadb-server.sh stop   DIR          shutdown; idempotent; returns once the server exited
#   scripts/mariadb-server.sh sql    DIR [mariadb client args...]   the client, as root, on the socket
#   scripts/mariadb-server.sh status DIR          exit 0 if running
#
# Layout of DIR (created and chowned to the `mysql` user when run as root):
#   DIR/data/          datadir
#   DIR/error.log      the error log (innodb_print_all_deadlocks = ON)
#   DIR/mysqld.sock    unix socket; TCP only on 127.0.0.1:PORT
#   DIR/mysqld.pid     the server's pid
#   DIR/port           the port of the last `start`
#
# MARIADB_EXTRA_CONF: more [mariadbd] lines for `start` (e.g. "performance_schema = ON").
# Debian packages: mariadb-server, mariadb-client (scripts/setup.sh).
set -euo pipefail

DEFAULT_PORT=33069

die() { echo "mariadb-server: $*" >&2; exit 1; }

abs_dir() {
  local d=$1
  case "$d" in /*) ;; *) d="$PWD/$d" ;; esac
  echo "$d" | sed -e 's#/\+#/#g' -e 's#/\./#/#g' -e 's#/$##'
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd "$SDIR" && runuser -u mysql -- "$@")
  else
    (cd "$SDIR" && "$@")
  fi
}

server_pid() {
  [ -f "$SDIR/mysqld.pid" ] || return 1
  local pid
  pid=$(cat "$SDIR/mysqld.pid" 2>/dev/null) || return 1
  [ -n "$pid" ] && [ -d "/proc/$pid" ] || return 1
  echo "$pid"
}

is_running() { server_pid >/dev/null; }

write_config() {
  local port=$1
  cat >"$SDIR/my.cnf" <<EOF
[mariadbd]
datadir = $SDIR/data
socket = $SDIR/mysqld.sock
pid-file = $SDIR/mysqld.pid
log-error = $SDIR/error.log
port = $port
bind-address = 127.0.0.1
skip-name-resolve
innodb_print_all_deadlocks = ON
innodb_buffer_pool_size = 32M
innodb_log_file_size = 16M
innodb_lock_wait_timeout = 20
innodb_flush_log_at_trx_commit = 0
lc_messages = en_US
log_warnings = 2
${MARIADB_EXTRA_CONF:-}
EOF
}

cmd_start() {
  local port=${1:-$DEFAULT_PORT}
  [[ "$port" =~ ^[0-9]+$ ]] || die "bad port: $port"
  is_running && die "server in $SDIR is already running"
  mkdir -p "$SDIR"
  [ ${#SDIR} -le 90 ] || die "path too long for a unix socket: $SDIR"
  write_config "$port"
  echo "$port" >"$SDIR/port"
  if [ "$(id -u)" -eq 0 ]; then
    chown -R mysql: "$SDIR"
    runuser -u mysql -- test -w "$SDIR" || die "$SDIR is not reachable by user mysql (use /tmp)"
  fi
  chmod 700 "$SDIR"
  if [ ! -d "$SDIR/data/mysql" ]; then
    as_owner mariadb-install-db --defaults-file="$SDIR/my.cnf" --auth-root-authentication-method=normal \
      --skip-test-db >"$SDIR/install.log" 2>&1 || { cat "$SDIR/install.log" >&2; die "install-db failed"; }
  fi
  as_owner sh -c "mariadbd --defaults-file='$SDIR/my.cnf' >>'$SDIR/startup.log' 2>&1 &"
  local i
  for i in $(seq 1 150); do
    if mariadb-admin --no-defaults -S "$SDIR/mysqld.sock" -uroot ping >/dev/null 2>&1; then
      echo "mariadb-server: running in $SDIR on 127.0.0.1:$port"
      return 0
    fi
    sleep 0.2
  done
  tail -n 20 "$SDIR/error.log" >&2 2>/dev/null || true
  die "server did not start (port $port busy?)"
}

cmd_stop() {
  local pid
  pid=$(server_pid) || return 0
  mariadb-admin --no-defaults -S "$SDIR/mysqld.sock" -uroot shutdown >/dev/null 2>&1 || kill "$pid"
  local i
  for i in $(seq 1 150); do
    [ -d "/proc/$pid" ] || return 0
    sleep 0.2
  done
  echo "mariadb-server: warning: server $pid still alive after stop" >&2
}

cmd_sql() {
  exec mariadb --no-defaults -S "$SDIR/mysqld.sock" -uroot "$@"
}

[ $# -ge 2 ] || die "usage: $0 start|stop|sql|status DIR [PORT | client args...]"
action=$1
SDIR=$(abs_dir "$2")
shift 2
case "$action" in
  start)  cmd_start "$@" ;;
  stop)   cmd_stop ;;
  sql)    cmd_sql "$@" ;;
  status) is_running ;;
  *) die "unknown action: $action" ;;
esac
