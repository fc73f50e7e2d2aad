// The lock waits a baseline lists (gate/baseline.h), taken as each event is
// made, so that `lockgraph baseline` keeps no events: one entry per wait
// key, described by its first wait in log order. A key that rests on a
// relation OID not named yet is finished from the relation names of the
// whole input, as Analyzer::Finish names the events it keeps.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/log_place.h"
#include "analysis/report.h"
#include "gate/baseline.h"

namespace lockgraph {

/// Memory: one entry per distinct key (per input while its relation is
/// unnamed). Handed to an Analyzer as its EventStream, it takes every event
/// as it is made. Not thread-safe; copyable.
class BaselineWaits : public EventStream {
 public:
  /// Waits shorter than `min_wait_ms` are left out.
  explicit BaselineWaits(double min_wait_ms) : min_wait_ms_(min_wait_ms) {}
  /// Takes `event` (a lock wait, else nothing), made at `place`.
  /// `late_names`: relation OIDs it does not name yet may be named later in
  /// its input (events as they are made, before Analyzer::Finish).
  void Add(const Event& event, const LogPlace& place, bool late_names);
  /// EventStream: Add with the event's place and late names.
  void OnInputStart(size_t input) override { input_ = uint32_t(input); }
  void OnEvent(const Event& event) override {
    Add(event, {input_, event.source.first_line, seq_++}, true);
  }
  /// Every key with its description, sorted by key; names from `report`'s
  /// relation names.
  std::vector<Baseline::Entry> Entries(const Report& report) const;

 private:
  struct Wait {
    LogPlace place;
    bool late = false;
    // late: the key and the description are head + relation + tail, the
    // relation being OID `relation` of `database` or its name (at Entries).
    WaitKeyText key, what;
    std::string database, relation;
    std::string description;  // when not late: WaitDescription()
  };
  double min_wait_ms_;
  uint32_t input_ = 0;
  uint64_t seq_ = 0;
  std::map<std::string, Wait> waits_;  // the first of each kind, in log order
};

}  // namespace lockgraph
