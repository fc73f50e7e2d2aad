// The hook for whatever watches `lockgraph follow` run (the metrics
// endpoint, --metrics-listen): told of every event written, every finding
// in it, and the line counts of every batch read. Called on follow's one
// thread, after the event was written; must not throw; must be quick.
#pragma once

#include <string>

#include "model/event.h"
#include "parsers/input_format.h"

namespace lockgraph {

class FollowObserver {
 public:
  virtual ~FollowObserver() = default;
  /// An event written to the output (with its findings and signature).
  virtual void OnEvent(const Event& event) { (void)event; }
  /// Each finding of an event written, right after OnEvent.
  virtual void OnFinding(const Finding& finding, const Event& event) {
    (void)finding;
    (void)event;
  }
  /// Lines of `file` read since the last call for it: how many were
  /// parsed, skipped, not understood (LineCounts, only the new ones).
  virtual void OnLines(const std::string& file, const LineCounts& added) {
    (void)file;
    (void)added;
  }
  /// A followed file began, rotated, was truncated or finished; `what` is
  /// the line follow prints on stderr for it.
  virtual void OnFileNote(const std::string& file, const std::string& what) {
    (void)file;
    (void)what;
  }
};

}  // namespace lockgraph
