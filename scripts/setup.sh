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
  libpqxx-dev catch2 libpugixml-dev zlib1g-dev libpg-query-dev \
  postgresql postgresql-client python3 gzip clang libclang-rt-14-dev >/dev/null
