// What `lockgraph check` decided, in the text and JSON reports: the broken
// limits, the new and known deadlock signatures, the long waits and the
// baseline entries no longer seen (docs/ci.md, docs/json-schema.md#check).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/report.h"
#include "gate/check_result.h"

namespace lockgraph {

/// {"passed", "broken": [...], "new_deadlocks", "known_deadlocks",
///  "new_signatures": [...], "long_waits": [{key, waited_ms, known, file,
///  first_line}], "fail_on": [...], "baseline", "stale": [...]}.
nlohmann::ordered_json CheckToJson(const CheckResult& check, const Report& report);

/// Writes DumpJsonAt(CheckToJson(check, report), depth) (`depth` -1:
/// DumpJson(…, -1), compact) without holding the long waits as JSON: one
/// is made and written at a time (`--max-lock-wait 0` on a long log lists
/// every wait).
void WriteCheckJson(const CheckResult& check, const Report& report, int depth, std::ostream& out);

/// "check: FAIL" or "check: ok", then one line per broken limit and per
/// stale baseline entry. Log text goes through PrintableText.
void WriteCheckText(const CheckResult& check, std::ostream& out);

}  // namespace lockgraph
