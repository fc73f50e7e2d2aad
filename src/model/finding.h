// A rule's verdict about one event or about a whole run: which cause it
// names, how sure and how serious, and the fix written for this very case.
// Made by rules (rules/rule.h), printed by every emitter; the JSON form is in
// docs/json-schema.md#findings.
#pragma once

#include <string>
#include <vector>

namespace lockgraph {

enum class Severity { kError, kWarning, kNote };

struct Finding {
  std::string rule_id;    // permanent: "PG001"
  std::string rule_name;  // "inconsistent-row-lock-order"
  Severity severity = Severity::kWarning;
  std::string message;    // one line, naming the processes, tables and keys
  std::string hint;       // the fix for this case: tables, statements, keys
  std::vector<std::string> evidence;  // the edges, lines and text it rests on
  /// Run-level findings about deadlock groups (a retry storm): their
  /// signatures. Empty otherwise.
  std::vector<std::string> signatures;
};

/// "error", "warning", "note".
const char* SeverityName(Severity s);

}  // namespace lockgraph
