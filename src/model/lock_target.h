// A lockable resource, engine-neutral: a type named as the engine names it
// (pg_locks.locktype for PostgreSQL: transactionid, tuple, relation, ...)
// plus its identifying fields in a fixed order. docs/json-schema.md lists them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

/// One identifying field of a lock target, e.g. {"relation", "16390", true}.
struct LockField {
  std::string name;
  std::string value;
  bool numeric = false;  // emit as a JSON number
};

struct LockTarget {
  std::string type;               // "transactionid", "tuple", "advisory", ...
  std::vector<LockField> fields;  // fixed order per type
  std::string text;               // the tag exactly as logged
  std::string relation_name;      // resolved name of `relation`, if known

  /// The value of field `name`, or "" when absent.
  std::string_view Field(std::string_view name) const;
  /// A stable key: type plus field values ("tuple:16384/16390/0/5").
  std::string Key() const;
  /// Short human label ("tuple (0,5) of inventory", "transaction 748").
  std::string Label() const;
};

}  // namespace lockgraph
