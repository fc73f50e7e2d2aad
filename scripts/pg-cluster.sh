#!/usr/bin/env bash
# Throwaway PostgreSQL cluster for lockgraph's real-server scenarios.
#
#   scripts/pg-cluster.sh start DIR [PORT]   create (if needed) and start; waits until ready
#   scripts/pg-cluster.sh stop  DIR          fast shutdown; idempotent; returns once the
#                                            logging collector has flushed and exited
#   scripts/pg-cluster.sh psql  DIR [PORT] [psql args...]
#   scripts/pg-cluster.sh status DIR         exit 0 if running
#
# Layout of DIR (created and chowned to the `postgres` user when run as root):
#   DIR/data/                     PGDATA
#   DIR/log/postgresql.{log,csv,json}   stderr, csvlog and jsonlog (no rotation)
#   DIR/.s.PGSQL.PORT             unix socket; TCP only on 127.0.0.1:PORT
#   DIR/port                      the port of the last `start`
#   DIR/startup.log               output of pg_ctl before the logging collector takes over
#
# Environment:
#   PG_BINDIR              server binaries (default /usr/lib/postgresql/15/bin)
#   PGCLUSTER_EXTRA_CONF   extra postgresql.conf lines appended at initdb time (later
#                          settings win), e.g. "log_line_prefix = '%t [%p]: '"
#
# PostgreSQL refuses to run as root, so as root every server command runs as `postgres`
# via runuser; DIR must therefore be reachable by that user (e.g. under /tmp).
set -euo pipefail

DEFAULT_PORT=54329

die() { echo "pg-cluster: $*" >&2; exit 1; }

pg_bindir() {
  if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"; return; fi
  if [ -x /usr/lib/postgresql/15/bin/postgres ]; then echo /usr/lib/postgresql/15/bin; return; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
  [ -n "$d" ] && [ -x "$d/postgres" ] || die "no PostgreSQL server binaries found (set PG_BINDIR)"
  echo "$d"
}

BIN=$(pg_bindir)

# Run a command as the cluster owner, from inside DIR (postgres cannot read root's cwd).
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd "$CDIR" && runuser -u postgres -- "$@")
  else
    (cd "$CDIR" && "$@")
  fi
}

abs_dir() {
  local d=$1
  case "$d" in /*) ;; *) d="$PWD/$d" ;; esac
  # normalise without requiring existence
  echo "$d" | sed -e 's#/\+#/#g' -e 's#/\./#/#g' -e 's#/$##'
}

read_port() {
  if [ -n "${1:-}" ]; then echo "$1"; return; fi
  if [ -f "$CDIR/port" ]; then cat "$CDIR/port"; return; fi
  echo "$DEFAULT_PORT"
}

is_running() {
  [ -f "$CDIR/data/PG_VERSION" ] || return 1
  as_owner "$BIN/pg_ctl" status -D "$CDIR/data" >/dev/null 2>&1
}

# PIDs whose parent is $1 (reads /proc; procps may be absent).
children_of() {
  local parent=$1 p stat rest
  for p in /proc/[0-9]*; do
    stat=$(cat "$p/stat" 2>/dev/null) || continue
    rest=${stat##*) }            # fields after "(comm) "
    set -- $rest                 # $1 = state, $2 = ppid
    [ "${2:-}" = "$parent" ] && echo "${p#/proc/}"
  done
  return 0
}

# True if PID exists and is not a zombie (an unreaped zombie has already exited).
proc_alive() {
  local stat rest
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  rest=${stat##*) }
  [ "${rest%% *}" != "Z" ]
}

init_cluster() {
  local port=$1
  as_owner "$BIN/initdb" -D "$CDIR/data" -U postgres --auth=trust -E UTF8 \
    --locale=C --no-sync >"$CDIR/initdb.log" 2>&1 \
    || { cat "$CDIR/initdb.log" >&2; die "initdb failed"; }
  cat >>"$CDIR/data/postgresql.conf" <<EOF

# ---- lockgraph scenario settings (scripts/pg-cluster.sh) ----
listen_addresses = '127.0.0.1'
unix_socket_directories = '$CDIR'
max_connections = 300
fsync = off
logging_collector = on
log_destination = 'stderr,csvlog,jsonlog'
log_directory = '$CDIR/log'
log_filename = 'postgresql.log'
log_rotation_age = 0
log_rotation_size = 0
log_line_prefix = '%m [%p] %q%u@%d/%a '
log_lock_waits = on
deadlock_timeout = '100ms'
lc_messages = 'C'
log_timezone = 'UTC'
EOF
  if [ -n "${PGCLUSTER_EXTRA_CONF:-}" ]; then
    printf '\n# ---- PGCLUSTER_EXTRA_CONF ----\n%s\n' "$PGCLUSTER_EXTRA_CONF" \
      >>"$CDIR/data/postgresql.conf"
  fi
}

cmd_start() {
  local port
  port=$(read_port "${1:-}")
  [[ "$port" =~ ^[0-9]+$ ]] || die "bad port: $port"
  if is_running; then
    die "cluster in $CDIR is already running (port $(cat "$CDIR/port" 2>/dev/null || echo '?'))"
  fi
  mkdir -p "$CDIR" "$CDIR/log"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$CDIR" "$CDIR/log"
    runuser -u postgres -- test -w "$CDIR" \
      || die "$CDIR is not reachable by user postgres (choose a directory under /tmp)"
  fi
  chmod 700 "$CDIR"
  if [ ${#CDIR} -gt 90 ]; then
    die "path too long for a unix socket: $CDIR"
  fi
  if [ ! -f "$CDIR/data/PG_VERSION" ]; then
    init_cluster "$port"
  fi
  echo "$port" >"$CDIR/port"
  [ "$(id -u)" -ne 0 ] || chown postgres: "$CDIR/port"
  # Port given on the command line so a reused DIR can move to a new port.
  if ! as_owner "$BIN/pg_ctl" start -D "$CDIR/data" -w -t 60 -l "$CDIR/startup.log" \
        -o "-p $port" >"$CDIR/pg_ctl.out" 2>&1; then
    cat "$CDIR/pg_ctl.out" "$CDIR/startup.log" >&2 || true
    tail -n 20 "$CDIR/log/postgresql.log" >&2 2>/dev/null || true
    die "server did not start (port $port busy?)"
  fi
  # pg_ctl -w returns once postmaster.pid says "ready"; confirm a real connection works.
  local i
  for i in $(seq 1 100); do
    if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres; then
      echo "pg-cluster: running in $CDIR on 127.0.0.1:$port"
      return 0
    fi
    sleep 0.1
  done
  die "server started but does not accept connections on 127.0.0.1:$port"
}

cmd_stop() {
  [ -d "$CDIR" ] || return 0
  if ! is_running; then
    return 0
  fi
  local pm kids
  pm=$(head -n1 "$CDIR/data/postmaster.pid" 2>/dev/null || true)
  kids=""
  [ -n "$pm" ] && kids=$(children_of "$pm")
  as_owner "$BIN/pg_ctl" stop -D "$CDIR/data" -m fast -w -t 60 >/dev/null 2>&1 \
    || as_owner "$BIN/pg_ctl" stop -D "$CDIR/data" -m immediate -w -t 30 >/dev/null 2>&1 \
    || true
  # The logging collector outlives the postmaster until its pipe drains; wait for it
  # (and every other former child) so the log files are complete when we return.
  local i p alive
  for i in $(seq 1 150); do
    alive=0
    for p in $pm $kids; do
      proc_alive "$p" && { alive=1; break; }
    done
    [ $alive -eq 0 ] && return 0
    sleep 0.1
  done
  echo "pg-cluster: warning: server processes still alive after stop" >&2
}

cmd_psql() {
  local port
  if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then port=$1; shift; else port=$(read_port ""); fi
  exec "$BIN/psql" -X -h 127.0.0.1 -p "$port" -U postgres "$@"
}

[ $# -ge 2 ] || die "usage: $0 start|stop|psql|status DIR [PORT] [psql args...]"
action=$1
CDIR=$(abs_dir "$2")
shift 2
case "$action" in
  start)  cmd_start "$@" ;;
  stop)   cmd_stop ;;
  psql)   cmd_psql "$@" ;;
  status) is_running ;;
  *) die "unknown action: $action" ;;
esac
