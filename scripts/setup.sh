#!/usr/bin/env bash
# Installs every build and test dependency from Debian's packages (root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  g++ cmake make pkg-config ca-certificates \
  libre2-dev libcli11-dev nlohmann-json3-dev libgraphviz-dev graphviz \
  libpqxx-dev catch2 libpugixml-dev zlib1g-dev libpg-query-dev libsimdjson-dev \
  postgresql postgresql-client python3 gzip clang libclang-rt-14-dev \
  mariadb-server mariadb-client libhowardhinnant-date-dev tzdata libmariadb-dev >/dev/null

# Node.js and npm (for the SARIF validator and the browser test) from Debian
# only when the machine has none (a Node.js of its own ships its own npm).
if ! command -v npm >/dev/null; then
  $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

# Microsoft's SARIF validator for tests/e2e/check.sh, pinned in
# tests/sarif/package-lock.json.
SARIF_DIR="$(cd "$(dirname "$0")/.." && pwd)/tests/sarif"
if ! cmp -s "$SARIF_DIR/package-lock.json" "$SARIF_DIR/node_modules/.lockgraph-installed" ||
   [ ! -x "$SARIF_DIR/node_modules/.bin/sarif-multitool" ]; then
  (cd "$SARIF_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  cp "$SARIF_DIR/package-lock.json" "$SARIF_DIR/node_modules/.lockgraph-installed"
fi

# The browser test (tests/browser, CTest browser_report): Debian's Chromium,
# driven by playwright-core from npm (pinned in tests/browser/package-lock.json).
# fonts-dejavu-core: Graphviz's pango plugin maps Helvetica and Times to
# DejaVu Sans and Serif (`dot -v` says so); the graphs in
# tests/golden/*/expected.html were laid out with their text widths.
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver \
  fonts-dejavu-core >/dev/null
BROWSER_DIR="$(cd "$(dirname "$0")/.." && pwd)/tests/browser"
want=$(node -p 'require(process.argv[1]).packages["node_modules/playwright-core"].version' \
  "$BROWSER_DIR/package-lock.json")
have=$(node -p 'require(process.argv[1]).version' \
  "$BROWSER_DIR/node_modules/playwright-core/package.json" 2>/dev/null || true)
if [ "$want" != "$have" ]; then
  (cd "$BROWSER_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# --- Localized servers (issue 15, part 4: scripts/make-localized-samples.sh) ---
# lc_messages must name a locale the system knows: generate the UTF-8 locales
# of the languages whose samples are made, and gettext for msgunfmt (reads
# the catalogues /usr/share/locale/*/LC_MESSAGES/postgres-15.mo).
$SUDO apt-get install -y -qq --no-install-recommends locales gettext >/dev/null
I18N_LOCALES="de_DE es_ES fr_FR it_IT ja_JP ka_GE ko_KR pl_PL pt_BR ru_RU sv_SE tr_TR uk_UA zh_CN"
i18n_missing=0
for l in $I18N_LOCALES; do
  grep -qx "$l.UTF-8 UTF-8" /etc/locale.gen || { echo "$l.UTF-8 UTF-8" | $SUDO tee -a /etc/locale.gen >/dev/null; }
  locale -a | grep -qix "$l.utf-\?8" || i18n_missing=1
done
if [ "$i18n_missing" = 1 ]; then $SUDO locale-gen >/dev/null; fi
# --- end localized servers ---

# Compressed input (src/io/decoder.cc, issue 15): bzip2, xz and zstd decoders,
# and the command-line tools that scripts/render/platforms.py and
# tests/cli/run.sh compress with.
$SUDO apt-get install -y -qq --no-install-recommends \
  libbz2-dev liblzma-dev libzstd-dev bzip2 xz-utils zstd >/dev/null

# The Debian package (cmake/install.cmake, CTest package: tests/package/run.sh):
# dpkg-shlibdeps for its Depends, man and groff to find and render the pages,
# mandoc to lint them, zsh for the zsh completion, systemd-analyze and
# systemd-sysusers for the unit and its user, adduser for the postinst,
# lintian for Debian policy.
$SUDO apt-get install -y -qq --no-install-recommends \
  dpkg-dev man-db groff-base mandoc zsh systemd adduser binutils lintian >/dev/null
# Prometheus metrics (src/metrics, docs/metrics.md): cpp-httplib serves
# /metrics (Debian builds it as a library with OpenSSL, zlib and brotli:
# their headers come with it); prometheus and promtool for tests/e2e/metrics.sh
# and tests/metrics/rules.sh; curl to scrape.
$SUDO apt-get install -y -qq --no-install-recommends \
  libcpp-httplib-dev libssl-dev libbrotli-dev prometheus curl >/dev/null
# The package under a real systemd (CTest package_systemd: tests/package/systemd.sh):
# systemd-nspawn boots the machine's own root (an overlay) with systemd as PID 1;
# logrotate rotates the PostgreSQL log inside it as Debian does.
$SUDO apt-get install -y -qq --no-install-recommends systemd-container logrotate dbus >/dev/null
# tests/fleet/check.py (CTest fleet_configs) parses the YAML shipper configs of docs/fleet/.
$SUDO apt-get install -y -qq --no-install-recommends python3-yaml >/dev/null
