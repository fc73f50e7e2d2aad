// `check` puts every event aside as it is made, encoded (model/event_codec.h)
// in an EventSpool that spills to a temporary file, because its verdict and
// the relation names an input gives later are known only after the last
// line. Then it reads them back one at a time, in log order, finished as
// Analyzer::Finish and RelocateSources finish the events they keep: memory
// stays flat (docs/performance.md#check-event-by-event).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "analysis/late_relation_names.h"
#include "analysis/report.h"
#include "emit/emitter.h"
#include "emit/event_spool.h"
#include "gate/check_gate.h"

namespace lockgraph {

/// Not thread-safe, not copyable.
class PutAsideEvents : public EventStream {
 public:
  /// `next`, when not null, sees every event too, as it comes.
  /// `memory_budget`: bytes held in memory before the temporary file.
  explicit PutAsideEvents(EventStream* next = nullptr, size_t memory_budget = 1 << 20)
      : next_(next), spool_(memory_budget) {}

  void OnInputStart(size_t input) override;
  void OnEvent(const Event& event) override;

  /// After Analyzer::Finish: every event read back becomes what the report
  /// would hold, its relations named from `report` and its paths made
  /// relative to `root` (RelocateSources; empty: left as they are).
  void Finish(const Report& report, const std::string& root);

  /// Calls `fn` with each event in log order (Report::events' order), its
  /// input's number and its index for Get(). Returns false when the events
  /// cannot be read back (the temporary file), or were not all put aside.
  bool ForEach(const std::function<void(const Event&, uint32_t input, size_t index)>& fn);
  /// The event of `index` (as ForEach gave it); an empty event, said on
  /// stderr, when it cannot be read back.
  Event Get(size_t index);

  size_t size() const { return spool_.size(); }

 private:
  bool Load(std::string_view bytes, Event* event, uint32_t* input) const;

  EventStream* next_;
  EventSpool spool_;
  uint32_t input_ = 0;
  bool failed_ = false;
  std::string buffer_;
  std::optional<LateRelationNames> names_;
  std::string root_;
};

/// The gate (gate/check_gate.h) given every event put aside, in log order;
/// its result reads long waits and cycles back from `events`, which must
/// outlive it. None when the events cannot be read back.
std::optional<CheckResult> DecideCheck(const Report& report, const CheckLimits& limits,
                                       PutAsideEvents& events);

/// Every event put aside to `emitter`, which has the verdict
/// (Emitter::OnCheckedEvent), in log order. False when they cannot be read
/// back.
bool HandOverChecked(PutAsideEvents& events, const Report& report, Emitter& emitter,
                     std::ostream& out);

}  // namespace lockgraph
