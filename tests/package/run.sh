#!/usr/bin/env bash
# CTest `package`: builds the Debian package with cpack, inspects it (control
# fields, Depends from dpkg-shlibdeps, maintainer scripts, every path),
# installs it into a clean tree with `dpkg --root` (maintainer scripts run
# chrootless: the system user is made in the tree), and checks what a user
# gets: `lockgraph --version`, `man -w` and lint-free pages for every command,
# bash completion of commands, options, values, rules and files, the zsh
# script, and the systemd unit (`systemd-analyze verify`). As root under
# CI=true (or LOCKGRAPH_PACKAGE_SYSTEM=1) it also installs the package on the
# machine with `dpkg -i`, checks the user, the pages and the unit there, and
# purges it. docs/packaging.md.
# Usage: tests/package/run.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)"
BIN="$BUILD/lockgraph"
WORK="$(mktemp -d /tmp/lockgraph-package.XXXXXX)"
SYSTEM_INSTALLED=0
cleanup() {
  if [ "$SYSTEM_INSTALLED" = 1 ]; then dpkg --purge lockgraph >/dev/null 2>&1; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
CHECK_DIR="$WORK"
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
check "lockgraph --version prints project(VERSION) $version" \
  same "lockgraph $version" "$("$BIN" --version)"

# --- build ---
DEB="$WORK/lockgraph_${version}_amd64.deb"
check "cpack -G DEB writes lockgraph_${version}_amd64.deb" \
  bash -c "cd '$BUILD' && cpack -G DEB -B '$WORK' >'$WORK/cpack.log' 2>&1 && test -f '$DEB'"
if [ ! -f "$DEB" ]; then cat "$WORK/cpack.log"; echo "$pass passed, $((fail)) failed"; exit 1; fi
echo "     $(du -k "$DEB" | cut -f1) KiB"

# --- inspect: control ---
field() { dpkg-deb -f "$DEB" "$1"; }
check "Package, Version, Architecture" \
  same "lockgraph $version amd64" "$(field Package) $(field Version) $(field Architecture)"
depends="$(field Depends)"
echo "     Depends: $depends"
has_dep() { [[ ", $depends," == *", $1"[\ ,]* ]] || { echo "no $1 in Depends: $depends"; return 1; }; }
check "Depends: adduser and the shared libraries (dpkg-shlibdeps)" bash -c "$(declare -f has_dep);
  depends='$depends'; for p in adduser libc6 libstdc++6 libpq5 libpqxx-6.4 libre2-9 libgvc6 \
    libcgraph6 libpugixml1v5 zlib1g libbz2-1.0 liblzma5 libzstd1 libpg-query1504.0 libmariadb3; do
    has_dep \$p || exit 1; done"
check "control archive: conffiles, postinst, prerm, postrm" \
  same "conffiles control md5sums postinst postrm prerm" \
  "$(dpkg-deb --ctrl-tarfile "$DEB" | tar -t | sed 's#^\./##' | grep -v '^$' | sort | tr '\n' ' ' | sed 's/ $//')"
check "conffiles: /etc/default/lockgraph" same "/etc/default/lockgraph" "$(dpkg-deb -I "$DEB" conffiles)"

if command -v lintian >/dev/null; then
  check "lintian: no error or warning" bash -c \
    "lintian --fail-on error,warning '$DEB' >'$WORK/lintian' 2>&1; rc=\$?
     grep -v 'running with root privileges' '$WORK/lintian'; exit \$rc"
else
  echo "skip lintian (not installed; optional)"
fi

# --- inspect: files ---
dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's#^\./#/#' | grep -v '/$' | sort >"$WORK/paths"
pages=$("$BIN" manpage --list)
{
  echo /etc/default/lockgraph
  echo /usr/bin/lockgraph
  echo /usr/lib/lockgraph/lockgraph-servers.so
  echo /usr/lib/systemd/system/lockgraph-follow.service
  echo /usr/lib/sysusers.d/lockgraph.conf
  echo /usr/share/bash-completion/completions/lockgraph
  for p in $pages; do echo "/usr/share/man/man1/$p.1.gz"; done
  echo /usr/share/doc/lockgraph/README.md.gz
  echo /usr/share/doc/lockgraph/changelog.gz
  echo /usr/share/doc/lockgraph/copyright
  echo /usr/share/zsh/vendor-completions/_lockgraph
} | sort >"$WORK/want"
check "dpkg -c: every path, nothing else" diff "$WORK/want" "$WORK/paths"
check "a man page for every command (analyze check baseline report watch rules explain and any new one)" \
  bash -c "for c in analyze check baseline report watch rules explain; do
    grep -qx /usr/share/man/man1/lockgraph-\$c.1.gz '$WORK/paths' || { echo no page for \$c; exit 1; }; done"
check "binary stripped (no .debug_info), owned by root, 0755" bash -c "
  dpkg-deb -c '$DEB' | grep -q '^-rwxr-xr-x root/root .* ./usr/bin/lockgraph$' &&
  dpkg-deb -x '$DEB' '$WORK/x' && readelf -S '$WORK/x/usr/bin/lockgraph' | grep -q ' .dynsym ' &&
  ! readelf -S '$WORK/x/usr/bin/lockgraph' | grep -q ' .debug_info '"

# --- install into a clean tree ---
ROOT="$WORK/root"
mkdir -p "$ROOT/var/lib/dpkg/info" "$ROOT/var/lib/dpkg/updates"
touch "$ROOT/var/lib/dpkg/status"
force_root=""
[ "$(id -u)" -eq 0 ] || force_root="--force-not-root"
check "dpkg --root installs it (postinst chrootless)" \
  dpkg --root="$ROOT" --force-script-chrootless --force-depends $force_root -i "$DEB"
check "dpkg knows it installed" \
  same "install ok installed $version" "$(dpkg --root="$ROOT" -s lockgraph 2>/dev/null |
    sed -n 's/^Status: //p;s/^Version: //p' | tr '\n' ' ' | sed 's/ $//')"
if command -v systemd-sysusers >/dev/null; then
  check "postinst made the system user lockgraph, in group adm" bash -c "
    grep -q '^lockgraph:x:[0-9]*:[0-9]*:lockgraph follow:/var/lib/lockgraph:/usr/sbin/nologin$' '$ROOT/etc/passwd' &&
    grep -Eq '^adm:x:[0-9]+:(.*,)?lockgraph(,.*)?$' '$ROOT/etc/group'"
fi
check "changelog.gz: its first entry is this version (packaging/debian/changelog)" \
  same "lockgraph ($version) unstable; urgency=medium" \
  "$(zcat "$ROOT/usr/share/doc/lockgraph/changelog.gz" | head -1)"
check "installed lockgraph --version" same "lockgraph $version" "$("$ROOT/usr/bin/lockgraph" --version)"
SAMPLE="$(cd "$(dirname "$0")/../.." && pwd)/samples/postgresql/scenarios.log"
check "installed lockgraph analyzes a sample as the build's binary does" \
  same "$("$BIN" analyze --format json "$SAMPLE" 2>&1)" "$("$ROOT/usr/bin/lockgraph" analyze --format json "$SAMPLE" 2>&1)"
# Port 1 refuses: the message is libpq's, from the module in /usr/lib/lockgraph/.
check "installed lockgraph opens its server module (libpq answers for watch)" bash -c "
  '$ROOT/usr/bin/lockgraph' watch --once 'postgresql://lockgraph@127.0.0.1:1/x' 2>&1 | grep -q 'Connection refused'"
check "installed binary without its module: watch says why, analyze still works" bash -c "
  mkdir -p '$WORK/alone/bin' && cp '$ROOT/usr/bin/lockgraph' '$WORK/alone/bin/' &&
  out=\$('$WORK/alone/bin/lockgraph' watch --once 'postgresql://lockgraph@127.0.0.1:1/x' 2>&1); rc=\$?
  [ \$rc = 2 ] && [[ \$out == *'cannot open the server module lockgraph-servers.so'* ]] &&
  '$WORK/alone/bin/lockgraph' analyze --format json '$SAMPLE' >/dev/null"

# --- man pages ---
export MANPATH="$ROOT/usr/share/man"
for p in $pages; do
  check "man -w $p" same "$ROOT/usr/share/man/man1/$p.1.gz" "$(man -w "$p")"
  check "$p(1) renders without warnings (groff -ww)" bash -c \
    "zcat '$ROOT/usr/share/man/man1/$p.1.gz' | groff -ww -man -z 2>&1 | { ! grep .; }"
  if command -v mandoc >/dev/null; then
    check "$p(1) mandoc -T lint clean" bash -c \
      "zcat '$ROOT/usr/share/man/man1/$p.1.gz' | mandoc -T lint -W style 2>&1 | { ! grep .; }"
  fi
done
check "man lockgraph-analyze shows --format and its values" bash -c \
  "MANWIDTH=100 man lockgraph-analyze 2>/dev/null | grep -q 'codequality: GitLab Code Quality JSON'"
unset MANPATH

# --- bash completion ---
complete_bash() {  # complete_bash WORD...: the candidates for the last word
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _lockgraph; printf "%s\n" "${COMPREPLY[@]}"' bash \
    "$ROOT/usr/share/bash-completion/completions/lockgraph" "$@" | sort
}
check "bash: lockgraph an<TAB>" same "analyze" "$(complete_bash lockgraph an)"
check "bash: lockgraph <TAB>: every command" \
  same "$(printf '%s\n' $pages | sed -n 's/^lockgraph-//p' | sort)" "$(complete_bash lockgraph '')"
check "bash: lockgraph analyze --format <TAB>" \
  same "$(printf '%s\n' codequality dot github html json junit ndjson prometheus sarif text)" \
  "$(complete_bash lockgraph analyze --format '')"
check "bash: lockgraph analyze --format=j<TAB>" \
  same "$(printf '%s\n' json junit)" "$(complete_bash lockgraph analyze --format = j)"
check "bash: lockgraph watch -f <TAB> (watch's own formats)" \
  same "$(printf '%s\n' dot json ndjson text)" "$(complete_bash lockgraph watch -f '')"
check "bash: lockgraph check --max-<TAB>" \
  same "$(printf '%s\n' --max-deadlocks --max-lock-wait --max-unparsed --max-wait)" \
  "$(complete_bash lockgraph check --max-)"
check "bash: lockgraph check --fail-on PG001,PG01<TAB>" \
  same "$(printf 'PG001,PG01%s\n' 0 1 2 3 4 5 6 7)" "$(complete_bash lockgraph check --fail-on PG001,PG01)"
check "bash: lockgraph explain MY00<TAB>" \
  same "$(printf 'MY00%s\n' 1 2 3 4 5 6 7 8 9)" "$(complete_bash lockgraph explain MY00)"
mkdir -p "$WORK/logs/sub" && touch "$WORK/logs/pg-1.log" "$WORK/logs/pg-2.log.gz"
check "bash: lockgraph analyze <dir>/pg<TAB>: files" \
  same "$(printf '%s\n' "$WORK/logs/pg-1.log" "$WORK/logs/pg-2.log.gz")" \
  "$(complete_bash lockgraph analyze "$WORK/logs/pg")"
check "bash: lockgraph check --source-root <dir>/s<TAB>: directories" \
  same "$WORK/logs/sub" "$(complete_bash lockgraph check --source-root "$WORK/logs/s")"
check "bash: lockgraph report -o <TAB> offers files; --threads <TAB> nothing" bash -c \
  "[ -n \"\$(cd '$WORK/logs' && $(declare -f complete_bash); ROOT='$ROOT' complete_bash lockgraph report -o pg)\" ] &&
   [ -z \"\$($(declare -f complete_bash); ROOT='$ROOT' complete_bash lockgraph analyze --threads '')\" ]"

# --- zsh completion ---
if command -v zsh >/dev/null; then
  ZSH_SCRIPT="$ROOT/usr/share/zsh/vendor-completions/_lockgraph"
  check "zsh: _lockgraph parses (zsh -n)" zsh -n "$ZSH_SCRIPT"
  check "zsh: compinit finds _lockgraph for lockgraph" zsh -fc "
    fpath=('$ROOT/usr/share/zsh/vendor-completions' \$fpath)
    autoload -Uz compinit && compinit -u -D && [[ \$_comps[lockgraph] == _lockgraph ]]"
  complete_zsh() {  # complete_zsh LINE: the candidates zsh offers at its end
    zsh -f "$(dirname "$0")/zsh_complete.zsh" "$ROOT/usr/share/zsh/vendor-completions" \
      "$WORK/zsh-hits" "$1"
  }
  check "zsh: lockgraph an<TAB>" same "analyze" "$(complete_zsh 'lockgraph an')"
  check "zsh: lockgraph <TAB>: every command" \
    same "$(printf '%s\n' $pages | sed -n 's/^lockgraph-//p' | sort)" "$(complete_zsh 'lockgraph ')"
  check "zsh: lockgraph analyze --format <TAB>" \
    same "$(printf '%s\n' codequality dot github html json junit ndjson prometheus sarif text)" \
    "$(complete_zsh 'lockgraph analyze --format ')"
  check "zsh: lockgraph check --max-<TAB>" \
    same "$(printf '%s\n' --max-deadlocks --max-lock-wait --max-unparsed --max-wait)" \
    "$(complete_zsh 'lockgraph check --max-')"
  check "zsh: lockgraph explain MY00<TAB>" \
    same "$(printf 'MY00%s\n' 1 2 3 4 5 6 7 8 9)" "$(complete_zsh 'lockgraph explain MY00')"
  check "zsh: lockgraph analyze <dir>/pg<TAB>: files" \
    same "$(printf '%s\n' pg-1.log pg-2.log.gz)" "$(complete_zsh "lockgraph analyze $WORK/logs/pg")"
fi

# --- systemd unit ---
UNIT="$ROOT/usr/lib/systemd/system/lockgraph-follow.service"
check "unit runs 'lockgraph follow' as lockgraph with StateDirectory, LogsDirectory, hardening" bash -c "
  for l in 'ExecStart=/usr/bin/lockgraph follow \$LOCKGRAPH_FOLLOW_ARGS' 'EnvironmentFile=-/etc/default/lockgraph' \
           'ExecReload=/bin/kill -HUP \$MAINPID' \
           User=lockgraph SupplementaryGroups=adm StateDirectory=lockgraph LogsDirectory=lockgraph \
           ProtectSystem=strict NoNewPrivileges=yes Restart=on-failure; do
    grep -qxF \"\$l\" '$UNIT' || { echo \"missing: \$l\"; exit 1; }; done"
check "/etc/default/lockgraph holds the follow arguments" grep -qxF \
  'LOCKGRAPH_FOLLOW_ARGS="--state /var/lib/lockgraph/state.json --output /var/log/lockgraph/events.ndjson /var/log/postgresql/"' \
  "$ROOT/etc/default/lockgraph"
if command -v systemd-analyze >/dev/null; then
  # The tree's binary in ExecStart (verify checks that it is executable) and
  # the tree's pages for Documentation=man:lockgraph(1).
  mkdir -p "$WORK/unit"
  sed "s#^ExecStart=/usr/bin/lockgraph #ExecStart=$ROOT/usr/bin/lockgraph #" "$UNIT" \
    >"$WORK/unit/lockgraph-follow.service"
  check "systemd-analyze verify lockgraph-follow.service" bash -c \
    "MANPATH='$ROOT/usr/share/man' systemd-analyze verify '$WORK/unit/lockgraph-follow.service' 2>&1 | { ! grep .; }"
  if systemd-analyze security --help 2>/dev/null | grep -q -- --offline; then
    echo "     $(systemd-analyze security --offline=true "$WORK/unit/lockgraph-follow.service" 2>/dev/null |
      grep -o 'Overall exposure level.*' || true)"
  fi
fi

# --- on the machine itself (CI, as root) ---
if [ "$(id -u)" -eq 0 ] && { [ "${CI:-}" = true ] || [ "${LOCKGRAPH_PACKAGE_SYSTEM:-0}" = 1 ]; }; then
  if dpkg -s lockgraph >/dev/null 2>&1; then
    echo "skip the system install: a lockgraph package is already installed"
  else
    SYSTEM_INSTALLED=1
    check "dpkg -i on the machine (Depends satisfied)" dpkg -i "$DEB"
    check "system: lockgraph --version" same "lockgraph $version" "$(/usr/bin/lockgraph --version)"
    check "system: user lockgraph in group adm" bash -c "id -nG lockgraph | tr ' ' '\n' | grep -qx adm"
    check "system: man -w lockgraph" same "/usr/share/man/man1/lockgraph.1.gz" "$(man -w lockgraph)"
    check "system: bash completion found by bash-completion's path" \
      test -f /usr/share/bash-completion/completions/lockgraph
    if command -v systemd-analyze >/dev/null; then
      check "system: systemd-analyze verify" bash -c \
        "systemd-analyze verify /usr/lib/systemd/system/lockgraph-follow.service 2>&1 | { ! grep .; }"
    fi
    check "system: dpkg --purge removes it and its conffile" bash -c \
      "dpkg --purge lockgraph >/dev/null && [ ! -e /usr/bin/lockgraph ] && [ ! -e /etc/default/lockgraph ] &&
       ! dpkg -s lockgraph >/dev/null 2>&1"
    SYSTEM_INSTALLED=0
  fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
