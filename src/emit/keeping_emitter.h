// The CI emitters (sarif, github, codequality) render what they print of an
// event when the event comes (`analyze`: bounded memory, docs/performance.md)
// and splice it in at Write; `check` hands them its events once decided
// (OnCheckedEvent); when no event came either way (a caller that collects
// every event) they render the report's events at Write: never both.
// KeepingEmitter holds that plumbing; each emitter writes Keep().
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>

#include "emit/emitter.h"

namespace lockgraph {

class KeepingEmitter : public Emitter {
 public:
  EventNeeds NeedsEvents() const override { return EventNeeds::kExamples; }
  bool RendersOnEvent() const override { return true; }
  void OnInputStart(size_t input) override { input_ = uint32_t(input); }
  void OnEvent(const Event& ev, std::ostream&) override {
    streamed_ = true;
    Keep(ev, nullptr, input_, ev.source.first_line);
  }
  /// As the report's own events at Write: with the check's verdict.
  void OnCheckedEvent(const Event& ev, const Report& report, std::ostream&) override {
    streamed_ = true;
    Keep(ev, &report, input_, ev.source.first_line);
  }

 protected:
  /// Renders and keeps what the emitter prints of `ev`, the `line`-th of
  /// input `input`; `report` is null when the event is streamed.
  virtual void Keep(const Event& ev, const Report* report, uint32_t input, uint64_t line) = 0;
  /// At Write: keeps the report's events, in log order, when none came
  /// through OnEvent.
  void KeepReportEvents(const Report& report) {
    if (streamed_) return;
    for (size_t i = 0; i < report.events.size(); ++i) Keep(report.events[i], &report, 0, i);
  }

 private:
  uint32_t input_ = 0;
  bool streamed_ = false;
};

}  // namespace lockgraph
