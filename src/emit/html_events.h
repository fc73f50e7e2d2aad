// What the HTML report keeps of the events (src/emit/html_emitter.cc), taken
// as each event is made, so that the report keeps no Report::events: the
// chart's counts, each rule's count, each deadlock group's first
// occurrences and its first deadlock in full, the lock waits with the
// longest chains, and each snapshot's rendered piece (in an EventSpool).
// What grows with the log: 24 bytes per deadlock and per lock wait (their
// place in log order, for their numbers) and one chart entry per second.
// docs/performance.md#html-kept-event-by-event-night-of-2026-12-05.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/log_place.h"
#include "analysis/report.h"
#include "emit/event_spool.h"
#include "emit/html_chart.h"

namespace lockgraph {

/// One rule's findings (the rule's name and severity as its last finding in
/// log order gives them).
struct RuleCount {
  std::string id, name;
  Severity severity = Severity::kNote;
  uint64_t findings = 0;
};

/// A deadlock group's occurrences as the report lists them. The pointer is
/// the HtmlEvents' own.
struct GroupOccurrences {
  struct Row {
    int deadlock_no = 0;  // in log order, as in the text output
    std::string time;     // DisplayTime, escaped
    std::string where;    // WhereHtml
    std::string victims;  // VictimsText, escaped
  };
  size_t count = 0;            // every occurrence
  std::vector<Row> rows;       // the first ones, in log order
  const Event* example = nullptr;  // the first, in full (null when none)
};

/// A lock wait listed, with its number in log order.
struct WaitRow {
  int no = 0;
  const Event* event = nullptr;
};

/// Not copyable; not thread-safe.
class HtmlEvents {
 public:
  /// `rows_listed`: occurrences listed per group; `waits_listed`: lock
  /// waits listed (longest chains first).
  HtmlEvents(size_t rows_listed, size_t waits_listed);
  ~HtmlEvents();
  HtmlEvents(const HtmlEvents&) = delete;
  HtmlEvents& operator=(const HtmlEvents&) = delete;

  /// Takes what the page shows of `event`, made at `place` in log order.
  /// `late_names`: relation OIDs it does not name yet may be named at
  /// Finish (events as they are made, before Analyzer::Finish named them).
  void Add(const Event& event, const LogPlace& place, bool late_names);
  /// Numbers the occurrences and waits, and names the late relations of the
  /// events kept, from `report`'s relation names. Once, after the last Add.
  void Finish(const Report& report);

  const TimeChart& chart() const { return chart_; }
  /// The rules of the events' findings, then of `run_findings`, most
  /// findings first (ties by rule ID).
  std::vector<RuleCount> Rules(const std::vector<Finding>& run_findings) const;
  /// The occurrences of deadlocks with `signature` (count 0: none).
  GroupOccurrences Occurrences(const std::string& signature) const;
  uint64_t lock_waits() const { return wait_places_.size(); }
  /// The waits listed, in the order shown.
  std::vector<WaitRow> Waits() const;
  bool has_snapshots() const { return has_snapshots_; }
  /// Each snapshot, chain and cycle's piece (html_snapshots.h), in log order.
  EventSpool& snapshot_pieces() { return snapshot_pieces_; }

 private:
  struct Kept;  // an event kept in full, with its place and input
  struct Group;
  struct RuleState {
    RuleCount count;
    std::pair<LogPlace, size_t> last;  // of the finding that named it
  };
  void AddDeadlock(const Event& event, const LogPlace& place, bool late_names);
  void AddWait(const Event& event, const LogPlace& place, bool late_names);
  int Number(const std::vector<LogPlace>& places, const LogPlace& place) const;

  size_t rows_listed_, waits_listed_;
  TimeChart chart_;
  std::map<std::string, RuleState> rules_;
  std::map<std::string, std::unique_ptr<Group>> groups_;
  std::vector<LogPlace> deadlock_places_, wait_places_;  // sorted at Finish
  std::vector<std::unique_ptr<Kept>> waits_;  // the listed ones so far, in the order shown
  bool has_snapshots_ = false;
  EventSpool snapshot_pieces_;
};

}  // namespace lockgraph
