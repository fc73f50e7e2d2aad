#!/usr/bin/env bash
# CTest `package_systemd`: the Debian package under a real systemd. systemd-nspawn
# boots this machine's own root (an overlay on a tmpfs, so nothing is changed
# here) with systemd as PID 1 and its own loopback network. Inside it the test
# installs lockgraph_<version>_amd64.deb with dpkg -i, makes a PostgreSQL 15
# cluster whose backends really deadlock, and enables lockgraph-follow.service
# as shipped (user lockgraph in group adm, /etc/default/lockgraph), with the
# drop-in packaging/systemd/metrics.conf that lets it serve /metrics. While deadlocks go on it is
# restarted by systemctl, killed with SIGKILL (systemd restarts it), and the log
# is rotated by Debian's own logrotate rule (copytruncate). At the end the
# events file must hold exactly the deadlocks and lock waits `lockgraph analyze`
# finds in the final log files, each once, and a Prometheus started by systemd
# must have scraped the deadlocks written since the last start. docs/packaging.md.
# Usage: tests/package/systemd.sh BUILD_DIR   (root; scripts/setup.sh installs
# systemd-container and logrotate)
set -uo pipefail
BUILD="$(cd "${1:?usage: systemd.sh BUILD_DIR}" && pwd)"
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ "$(id -u)" != 0 ] || ! command -v systemd-nspawn >/dev/null || ! command -v logrotate >/dev/null; then
  echo "FAIL package_systemd needs root, systemd-nspawn and logrotate (scripts/setup.sh installs them)"
  exit 1
fi
W="$(mktemp -d /tmp/lockgraph-systemd.XXXXXX)"
CT="$W/root"
NSPAWN_PID=""
LEADER=""
cleanup() {
  if [ -n "$NSPAWN_PID" ] && kill -0 "$NSPAWN_PID" 2>/dev/null; then
    kill "$NSPAWN_PID" 2>/dev/null  # nspawn powers the container off
    for _ in $(seq 1 100); do kill -0 "$NSPAWN_PID" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$NSPAWN_PID" 2>/dev/null
    wait "$NSPAWN_PID" 2>/dev/null
  fi
  mountpoint -q "$CT" && umount -l "$CT"
  mountpoint -q "$W/t" && umount -l "$W/t"
  rm -rf "$W"
}
trap cleanup EXIT
CHECK_DIR="$W"
# shellcheck source=lib.sh
source "$SRC/tests/package/lib.sh"
in_ct() { nsenter -t "$LEADER" -m -u -i -n -p -C -- "$@"; }
psql_ct() { in_ct runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p 5499 -d lockgraph "$@"; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }

# --- the package ---
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
DEB="$W/lockgraph_${version}_amd64.deb"
check "cpack -G DEB writes lockgraph_${version}_amd64.deb" \
  bash -c "cd '$BUILD' && cpack -G DEB -B '$W/cpack' >'$W/cpack.log' 2>&1 && cp '$W/cpack/lockgraph_${version}_amd64.deb' '$DEB'"
[ -f "$DEB" ] || { cat "$W/cpack.log"; finish; }

# --- the machine: this root, changes kept in a tmpfs ---
mkdir -p "$W/t" "$CT"
mount -t tmpfs -o size=2g tmpfs "$W/t" && mkdir -p "$W/t/upper" "$W/t/work" &&
  mount -t overlay overlay -o "lowerdir=/,upperdir=$W/t/upper,workdir=$W/t/work" "$CT" ||
  { echo "FAIL overlay of / (needs CAP_SYS_ADMIN)"; fail=$((fail + 1)); finish; }
cp "$DEB" "$CT/root/lockgraph.deb"
# Only what the test needs starts at boot; the machine's own servers stay off.
for unit in mariadb.service postgresql.service postgresql@15-main.service prometheus.service \
  prometheus-node-exporter.service; do
  ln -sf /dev/null "$CT/etc/systemd/system/$unit"
done
# Prometheus (started below by systemd) scrapes lockgraph follow every second.
mkdir -p "$CT/etc/prometheus"
cat >"$CT/etc/prometheus/lockgraph-test.yml" <<'EOF'
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: lockgraph-follow
    static_configs:
      - targets: ["127.0.0.1:9187"]
EOF

systemd-nspawn -D "$CT" --boot --register=no --keep-unit --link-journal=no --private-network \
  --machine="lockgraph-test-$$" --console=read-only >"$W/boot.log" 2>&1 &
NSPAWN_PID=$!
# The container's PID 1 is not nspawn's first child: nspawn forks an outer child
# that clones the inner one in a new PID namespace and exits; the inner child,
# reparented to nspawn (a subreaper), execs systemd. Wait for that process.
container_init() {
  local c self
  self=$(readlink /proc/self/ns/pid)
  for c in $(pgrep -P "$NSPAWN_PID"); do
    [ "$(cat "/proc/$c/comm" 2>/dev/null)" = systemd ] &&
      [ "$(readlink "/proc/$c/ns/pid" 2>/dev/null)" != "$self" ] && { echo "$c"; return 0; }
  done
  return 1
}
for _ in $(seq 1 300); do
  LEADER=$(container_init) && break
  kill -0 "$NSPAWN_PID" 2>/dev/null || break
  sleep 0.2
done
state="no systemd came up under nspawn in 60 s"
# Right after its exec, systemd has no bus yet ("Failed to connect to bus"):
# ask again until it answers, then --wait for the boot to end (120 s in all).
if [ -n "$LEADER" ]; then
  deadline=$((SECONDS + 120))
  while left=$((deadline - SECONDS)) && [ "$left" -gt 0 ]; do  # timeout 0: no timeout
    state=$(timeout "$left" nsenter -t "$LEADER" -m -u -i -n -p -C -- \
      systemctl is-system-running --wait 2>&1)
    case "$state" in running | degraded) break ;; esac
    kill -0 "$LEADER" 2>/dev/null || break
    sleep 0.2
  done
fi
check "systemd boots as PID 1 of the machine (is-system-running: $state)" \
  bash -c "[ '$state' = running ] || [ '$state' = degraded ]"
[ "$pass" -ge 2 ] || { tail -30 "$W/boot.log"; finish; }

# --- install, as a user would ---
check "dpkg -i lockgraph_${version}_amd64.deb on the running machine" in_ct dpkg -i /root/lockgraph.deb
check "the system user lockgraph is in group adm (reads /var/log/postgresql)" \
  bash -c "nsenter -t $LEADER -m -- id -nG lockgraph | tr ' ' '\n' | grep -qx adm"
check "systemd knows lockgraph-follow.service, not enabled" \
  bash -c "[ \"\$(nsenter -t $LEADER -m -u -i -n -p -C -- systemctl is-enabled lockgraph-follow.service)\" = disabled ]"

# --- a PostgreSQL cluster whose backends deadlock ---
check "pg_createcluster 15 lgtest (port 5499), log_lock_waits on, started by systemd" bash -c "
  nsenter -t $LEADER -m -u -i -n -p -C -- bash -c '
    pg_createcluster 15 lgtest -p 5499 >/dev/null &&
    pg_conftool -s 15 lgtest set log_lock_waits on &&
    pg_conftool -s 15 lgtest set deadlock_timeout 100ms &&
    systemctl start postgresql@15-lgtest &&
    runuser -u postgres -- createdb -p 5499 lockgraph &&
    runuser -u postgres -- psql -X -q -p 5499 -d lockgraph -c \"CREATE TABLE t (id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 0), (2, 0);\"'"
LOG=/var/log/postgresql/postgresql-15-lgtest.log

# deadlocks N: N pairs of sessions updating rows 1 and 2 in opposite orders; each
# pair deadlocks exactly once (the other session waits first: a lock wait).
deadlocks() {
  local i a b
  for i in $(seq 1 "$1"); do
    psql_ct -c "BEGIN; UPDATE t SET v = v + 1 WHERE id = 1; SELECT pg_sleep(0.4); UPDATE t SET v = v + 1 WHERE id = 2; COMMIT;" >/dev/null 2>&1 &
    a=$!
    sleep 0.1
    psql_ct -c "BEGIN; UPDATE t SET v = v + 1 WHERE id = 2; SELECT pg_sleep(0.4); UPDATE t SET v = v + 1 WHERE id = 1; COMMIT;" >/dev/null 2>&1 &
    b=$!
    wait "$a" "$b"  # not nspawn, also a child of this shell
  done
}
EVENTS="$CT/var/log/lockgraph/events.ndjson"  # the machine's files, seen from here
events_deadlocks() { if [ -f "$EVENTS" ]; then grep -c '"type":"deadlock"' "$EVENTS"; else echo 0; fi; }
wait_deadlocks() {  # wait_deadlocks N: until the events file holds N deadlocks (30 s at most)
  for _ in $(seq 1 150); do [ "$(events_deadlocks)" -ge "$1" ] && return 0; sleep 0.2; done
  return 1
}
main_pid() { in_ct systemctl show -p MainPID --value lockgraph-follow.service; }

check "Prometheus runs as a systemd unit of the machine" in_ct systemd-run -q --unit=lockgraph-test-prometheus \
  -p User=prometheus -p StateDirectory=lockgraph-test-prometheus /usr/bin/prometheus \
  --config.file=/etc/prometheus/lockgraph-test.yml --storage.tsdb.path=/var/lib/lockgraph-test-prometheus \
  --web.listen-address=127.0.0.1:9090

# --- the service as shipped, with /metrics (docs/packaging.md#metrics) ---
in_ct sed -i 's#^LOCKGRAPH_FOLLOW_ARGS="#LOCKGRAPH_FOLLOW_ARGS="--metrics-listen 127.0.0.1:9187 #' /etc/default/lockgraph
install -D -m 0644 "$SRC/packaging/systemd/metrics.conf" \
  "$CT/etc/systemd/system/lockgraph-follow.service.d/metrics.conf"
in_ct systemctl daemon-reload
check "systemctl enable --now lockgraph-follow.service: active, as user lockgraph" bash -c "
  nsenter -t $LEADER -m -u -i -n -p -C -- systemctl enable --now lockgraph-follow.service 2>/dev/null &&
  sleep 1 && [ \"\$(nsenter -t $LEADER -m -u -i -n -p -C -- systemctl is-active lockgraph-follow.service)\" = active ] &&
  pid=\$(nsenter -t $LEADER -m -u -i -n -p -C -- systemctl show -p MainPID --value lockgraph-follow.service) &&
  [ \"\$(nsenter -t $LEADER -m -u -i -n -p -C -- ps -o user= -p \$pid)\" = lockgraph ]"

deadlocks 3
check "3 deadlocks in /var/log/lockgraph/events.ndjson" wait_deadlocks 3
check "systemctl restart lockgraph-follow.service" in_ct systemctl restart lockgraph-follow.service
deadlocks 3
check "6 deadlocks after the restart" wait_deadlocks 6
old=$(main_pid)
in_ct kill -9 "$old"
for _ in $(seq 1 100); do  # RestartSec=5s
  new=$(main_pid)
  [ -n "$new" ] && [ "$new" != 0 ] && [ "$new" != "$old" ] &&
    [ "$(in_ct systemctl is-active lockgraph-follow.service)" = active ] && break
  sleep 0.2
done
check "SIGKILL: systemd restarts it (Restart=on-failure), NRestarts=1" bash -c \
  "n=\$(nsenter -t $LEADER -m -u -i -n -p -C -- systemctl show -p NRestarts --value lockgraph-follow.service)
   a=\$(nsenter -t $LEADER -m -u -i -n -p -C -- systemctl is-active lockgraph-follow.service)
   echo \"pid $old -> $new, NRestarts=\$n, \$a\"; [ \"\$n\" = 1 ] && [ \"\$a\" = active ]"
since=$(wc -l <"$EVENTS")
deadlocks 3
check "9 deadlocks after SIGKILL" wait_deadlocks 9
check "logrotate -f /etc/logrotate.d/postgresql-common (copytruncate) rotates the log" bash -c "
  nsenter -t $LEADER -m -u -i -n -p -C -- logrotate -f /etc/logrotate.d/postgresql-common &&
  test -s '$CT$LOG.1'"
deadlocks 3
check "12 deadlocks after the rotation" wait_deadlocks 12
sleep 1  # the last lock waits' ends

# --- exactly analyze's events, each once ---
in_ct lockgraph analyze --format ndjson "$LOG.1" "$LOG" >"$W/analyze.ndjson" 2>"$W/analyze.err"
cp "$EVENTS" "$W/events.ndjson"
check "events.ndjson holds exactly analyze's deadlocks and lock waits of the final files, each once" \
  python3 - "$W/events.ndjson" "$W/analyze.ndjson" <<'PY'
import collections, json, sys
def events(path):
    c = collections.Counter()
    for line in open(path):
        e = json.loads(line)
        if e.get("type") in ("deadlock", "lock_wait"):
            e["source"].pop("file", None)  # read before the rotation moved it to .1
            c[json.dumps(e, sort_keys=True)] += 1
    return c
got, want = events(sys.argv[1]), events(sys.argv[2])
kinds = collections.Counter(json.loads(e)["type"] for e in want.elements())
twice = sum(n - 1 for n in got.values() if n > 1)
print(f"analyze: {kinds['deadlock']} deadlocks, {kinds['lock_wait']} lock waits; "
      f"{twice} written twice, {sum((want - got).values())} missing, {sum((got - want).values())} extra")
sys.exit(0 if kinds["deadlock"] == 12 and kinds["lock_wait"] >= 12 and got == want else 1)
PY
cat "$W/out"

# --- Prometheus scraped the service ---
want_since=$(tail -n +"$((since + 1))" "$W/events.ndjson" | grep -c '"type":"deadlock"')
check "Prometheus (systemd) scrapes sum(lockgraph_deadlocks_total) = $want_since, the deadlocks since the last start" \
  bash -c "for i in \$(seq 1 50); do
    v=\$(nsenter -t $LEADER -m -u -i -n -p -C -- curl -s 'http://127.0.0.1:9090/api/v1/query?query=sum(lockgraph_deadlocks_total)' |
       python3 -c 'import json,sys; t=sys.stdin.read(); r=json.loads(t)[\"data\"][\"result\"] if t else []; print(r[0][\"value\"][1] if r else \"\")')
    [ \"\$v\" = '$want_since' ] && exit 0; sleep 0.2; done; echo \"scraped: \$v\"
    nsenter -t $LEADER -m -u -i -n -p -C -- journalctl -u lockgraph-test-prometheus.service --no-pager -n 12 -o cat; exit 1"
finish
