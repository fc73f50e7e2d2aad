#!/usr/bin/env bash
# The one shell step of lockgraph's GitHub Action (action.yml at the repository
# root): finds or builds lockgraph, runs `lockgraph check` on the logs from the
# job's workspace, writes the SARIF for github/codeql-action/upload-sarif,
# prints annotations (--format github) on the job log, and the verdict in
# Markdown to $GITHUB_STEP_SUMMARY. docs/ci.md#the-github-action.
#
# Environment (action.yml sets it from the inputs; tests/cli/github-action.sh runs
# it locally the same way):
#   LOCKGRAPH_LOGS      logs to check, separated by whitespace; globs allowed (required)
#   LOCKGRAPH_ARGS      more `check` options: "--baseline lockgraph-baseline.json --max-lock-wait 5s"
#   LOCKGRAPH_SARIF     the SARIF file to write (default lockgraph.sarif), relative to the workspace
#   LOCKGRAPH_BIN       a lockgraph binary to use; empty: `lockgraph` on PATH, else built from
#                       this action's source (scripts/setup.sh, scripts/build.sh: Debian/Ubuntu)
#   LOCKGRAPH_FAIL      "false": exit 0 whatever the verdict (the exit code is still an output)
#   GITHUB_WORKSPACE    the repository checkout: logs and the source root of the paths
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT   files the runner provides (optional here)
# Exit code: check's (0 ok, 1 a limit broken, 2 no verdict: unreadable or not understood input,
# usage error), or 0 with LOCKGRAPH_FAIL=false.
set -uo pipefail

ACTION_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORKSPACE=${GITHUB_WORKSPACE:-$PWD}
SARIF=${LOCKGRAPH_SARIF:-lockgraph.sarif}
SUMMARY=${GITHUB_STEP_SUMMARY:-/dev/null}
OUTPUT=${GITHUB_OUTPUT:-/dev/null}

die() { echo "::error title=lockgraph::$1" >&2; printf '## lockgraph check: no verdict\n\n%s\n' "$1" >>"$SUMMARY"; exit 2; }

find_lockgraph() {
  if [ -n "${LOCKGRAPH_BIN:-}" ]; then
    [ -x "$LOCKGRAPH_BIN" ] || die "LOCKGRAPH_BIN '$LOCKGRAPH_BIN' is not an executable"
    echo "$LOCKGRAPH_BIN"
  elif command -v lockgraph >/dev/null; then
    command -v lockgraph
  else
    echo "lockgraph: building from $ACTION_ROOT" >&2
    { bash "$ACTION_ROOT/scripts/setup.sh" && BUILD_DIR="$ACTION_ROOT/build-action" BUILD_TYPE=Release \
        bash "$ACTION_ROOT/scripts/build.sh"; } >&2 || die "could not build lockgraph from $ACTION_ROOT"
    echo "$ACTION_ROOT/build-action/lockgraph"
  fi
}

# The Markdown verdict: the stderr verdict line, the broken limits and the
# inputs with how much of them was understood (from --format json).
write_summary() {
  local rc=$1 verdict=$2 json=$3 title
  case $rc in 0) title="ok" ;; 1) title="FAIL" ;; *) title="no verdict" ;; esac
  {
    echo "## lockgraph check: $title"
    echo
    printf '%s\n' "$verdict" | sed 's/^/> /'
    echo
    python3 - "$json" <<'PY' 2>/dev/null || true
import json, sys
d = json.load(open(sys.argv[1]))
c = d.get("check", {})
md = lambda s: str(s).replace("|", "\\|").replace("\n", " ")
if c.get("broken"):
    print("| broken limit |\n|---|")
    for b in c["broken"]:
        print(f"| {md(b)} |")
    print()
print("| input | format | lines | understood |\n|---|---|---:|---:|")
for i in d.get("inputs", []):
    ln = i.get("lines", {})
    print(f"| `{md(i.get('file'))}` | {md(i.get('format'))} | {ln.get('total', 0)} | {ln.get('parsed', 0)} |")
s = d.get("summary", {})
print(f"\n{s.get('deadlocks', 0)} deadlocks, {s.get('lock_waits', 0)} lock waits, "
      f"{s.get('snapshots', 0)} snapshots.")
PY
  } >>"$SUMMARY"
}

main() {
  [ -n "${LOCKGRAPH_LOGS:-}" ] || die "no logs given (input 'logs')"
  cd "$WORKSPACE" || die "GITHUB_WORKSPACE '$WORKSPACE' is not a folder"
  local bin logs=() args=() patterns=() pattern match
  bin=$(find_lockgraph) || exit 2
  read -r -a patterns <<<"$LOCKGRAPH_LOGS"
  shopt -s nullglob
  for pattern in "${patterns[@]}"; do
    match=($pattern)
    [ ${#match[@]} -gt 0 ] || match=("$pattern")   # no match: check says it cannot be read
    logs+=("${match[@]}")
  done
  shopt -u nullglob
  # Never an empty list: check would read stdin and pass on nothing.
  [ ${#logs[@]} -gt 0 ] || die "no logs given (input 'logs')"
  read -r -a args <<<"${LOCKGRAPH_ARGS:-}"
  local tmp rc
  tmp=$(mktemp -d)
  mkdir -p "$(dirname "$SARIF")"
  # The SARIF first, whatever the verdict: code scanning then sees the current state.
  "$bin" check --format sarif --source-root "$WORKSPACE" "${args[@]}" "${logs[@]}" </dev/null >"$SARIF" 2>/dev/null
  "$bin" check --format json --source-root "$WORKSPACE" "${args[@]}" "${logs[@]}" </dev/null >"$tmp/check.json" 2>/dev/null
  "$bin" check --format github --source-root "$WORKSPACE" "${args[@]}" "${logs[@]}" </dev/null 2>"$tmp/verdict.txt"
  rc=$?
  cat "$tmp/verdict.txt" >&2
  write_summary "$rc" "$(cat "$tmp/verdict.txt")" "$tmp/check.json"
  rm -rf "$tmp"
  { echo "exit-code=$rc"; echo "sarif-file=$SARIF"; } >>"$OUTPUT"
  [ "${LOCKGRAPH_FAIL:-true}" = "false" ] && return 0
  return "$rc"
}

main "$@"
