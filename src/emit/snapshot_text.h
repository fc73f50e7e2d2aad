// Text of the events a lock snapshot yields (snapshot, chain, cycle) and of
// `watch`'s wait_started / wait_ended, for the text emitter and the live
// view. Hostile text (queries, application names) goes through
// PrintableText (emit/text_safety.h).
#pragma once

#include <ostream>

#include "model/event.h"

namespace lockgraph {

/// Numbers chains and cycles in the order they are written. Not thread-safe.
class SnapshotText {
 public:
  explicit SnapshotText(bool color) : color_(color) {}
  /// Writes one block for a snapshot-type event; false (nothing written)
  /// for other events.
  bool Write(const Event& event, std::ostream& out);
  /// `watch`: a deadlock the server reported between two polls (MySQL's
  /// LATEST DETECTED DEADLOCK): its transactions, waits and victim.
  void WriteDeadlock(const Event& event, std::ostream& out) const;

  /// "850 ms", "2.4 s", "3 min 12 s", "2 h 05 min".
  static std::string Duration(double ms);
  /// "idle in transaction" or "idle in transaction (aborted)": a root blocker
  /// that holds its locks while the application does something else.
  static bool IdleInTransaction(const Backend& b);

 private:
  std::string Paint(const char* code, const std::string& s) const;
  void WriteSnapshot(const Event& ev, std::ostream& out) const;
  void WriteChain(const Event& ev, std::ostream& out);
  void WriteCycle(const Event& ev, std::ostream& out);
  void WriteEnded(const Event& ev, std::ostream& out) const;
  void WriteWaitChange(const Event& ev, std::ostream& out) const;
  std::string RootLine(const Backend& root) const;
  std::string WaitLine(const Backend& waiter, const std::vector<WaitEdge>& edges) const;

  bool color_;
  int chain_no_ = 0;
  int cycle_no_ = 0;
};

}  // namespace lockgraph
