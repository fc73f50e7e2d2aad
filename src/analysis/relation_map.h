// The relation names an input's records tie to OIDs (the PostgreSQL parser
// learns them from one record at a time: parsers/postgresql/relation_names.h),
// gathered over the whole input, so that events logged before the name was
// learned can show it too, and the summary can list the map.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// One OID a record of an input named.
struct RelationName {
  std::string file;      // the input
  std::string database;  // OID, as the lock tag gives it ("" when none)
  std::string relation;  // OID
  std::string name;
  size_t input = 0;      // the input's number, in the order read
};

class RelationMap {
 public:
  /// Learns the names `event` carries (lock targets with relation_name).
  void Learn(const Event& event, size_t input, const std::string& file);
  /// Names the targets of `event` that carry an OID only.
  void Resolve(Event* event, size_t input) const;
  /// Every OID named once, by input, database and relation (as numbers).
  std::vector<RelationName> Entries() const;

 private:
  using Key = std::tuple<size_t, std::string, std::string>;  // input, database, relation
  struct Entry {
    std::string file, name;
    bool ambiguous = false;  // named twice, differently: shown as the OID
  };
  void Learn(const LockTarget& target, size_t input, const std::string& file);
  void Resolve(LockTarget* target, size_t input) const;
  std::map<Key, Entry> names_;
};

}  // namespace lockgraph
