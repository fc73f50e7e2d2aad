// The JSON form of rule findings and deadlock groups, shared by the json and
// ndjson emitters; docs/json-schema.md#findings, #causes and #groups.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/report.h"

namespace lockgraph {

/// [{id, name, severity, message, hint, evidence[, signatures]}], in order.
nlohmann::ordered_json FindingsToJson(const std::vector<Finding>& findings);

/// [{signature, cause, count, first_seen, last_seen, rules, processes}], largest first.
nlohmann::ordered_json GroupsToJson(const std::vector<DeadlockGroup>& groups);

/// [{cause, rule, count, first_seen, last_seen, statements, signatures,
/// rules}], largest first; docs/json-schema.md#causes.
nlohmann::ordered_json CausesToJson(const std::vector<DeadlockCause>& causes);

}  // namespace lockgraph
