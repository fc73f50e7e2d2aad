// The JSON form of rule findings and deadlock groups, shared by the json and
// ndjson emitters; docs/json-schema.md#findings and #groups.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/report.h"

namespace lockgraph {

/// [{id, name, severity, message, hint, evidence[, signatures]}], in order.
nlohmann::ordered_json FindingsToJson(const std::vector<Finding>& findings);

/// [{signature, count, first_seen, last_seen, rules, processes}], largest first.
nlohmann::ordered_json GroupsToJson(const std::vector<DeadlockGroup>& groups);

}  // namespace lockgraph
