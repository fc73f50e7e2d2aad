#!/usr/bin/env bash
# Validates SARIF files as GitHub code scanning would accept them: Microsoft's
# validator (@microsoft/sarif-multitool, installed here by scripts/setup.sh with
# npm ci) with the GitHub rules and the SARIF rules (--rule-kind "Gh;Sarif").
#
#   tests/sarif/validate.sh FILE.sarif...
#
# Prints "FILE: N errors, M warnings" and each error; exits 1 when any file has
# an error, 3 when the validator is not installed (callers SKIP, or FAIL under CI).
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VALIDATOR="$HERE/node_modules/.bin/sarif-multitool"
[ -x "$VALIDATOR" ] || { echo "sarif-multitool not installed in $HERE (npm ci)"; exit 3; }
OUT=$(mktemp -d /tmp/lockgraph-sarif-validate.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
status=0
for f in "$@"; do
  # The npm wrapper runs the tool through a shell: the ';' must reach it escaped.
  "$VALIDATOR" validate "$f" --rule-kind 'Gh\;Sarif' -o "$OUT/v.sarif" --log ForceOverwrite \
    >"$OUT/log.txt" 2>&1
  python3 - "$f" "$OUT/v.sarif" "$OUT/log.txt" <<'PY' || status=1
import json, sys
name, result, log = sys.argv[1:4]
try:  # an empty or broken file may leave the validator with nothing to say
    assert json.load(open(name))["version"] == "2.1.0"
except Exception as e:  # noqa: BLE001
    print(f"{name}: not a SARIF 2.1.0 JSON file ({e!r})")
    sys.exit(1)
try:
    run = json.load(open(result))["runs"][0]
except Exception as e:  # noqa: BLE001 - no result file: the validator failed
    print(f"{name}: the validator wrote no result ({e}):\n" + open(log).read()[-800:])
    sys.exit(1)
rules = run["tool"]["driver"].get("rules", [])
def text(r):
    m = r["message"]
    if "text" in m:
        return m["text"]
    rule = rules[r["ruleIndex"]] if r.get("ruleIndex", -1) >= 0 else {}
    tmpl = rule.get("messageStrings", {}).get(m.get("id", ""), {}).get("text", m.get("id", ""))
    for i, a in enumerate(m.get("arguments", [])):
        tmpl = tmpl.replace("{%d}" % i, str(a))
    return tmpl
res = run.get("results", [])
errors = [r for r in res if r.get("level", "warning") == "error"]
print(f"{name}: {len(errors)} errors, {len(res) - len(errors)} warnings")
for r in errors:
    print(f"  {r['ruleId']}: {text(r)[:300]}")
sys.exit(1 if errors else 0)
PY
done
exit $status
