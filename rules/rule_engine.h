// Runs the selected rules over a stream of events: reads each event's facts
// once, signs deadlocks, lets every rule add findings to the event (before
// any emitter sees it, so streamed NDJSON carries them), groups deadlocks by
// signature, and at the end collects run-level findings. docs/rules.md.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/deadlock_groups.h"
#include "rules/rule.h"

namespace lockgraph {

/// --rules / --disable / rule options.
struct RuleSelection {
  std::vector<std::string> only;     // --rules: only these (empty: every rule)
  std::vector<std::string> disable;  // --disable: all but these
  RuleSettings settings;
};

/// Not thread-safe, not copyable.
class RuleEngine {
 public:
  /// Checks the IDs of a selection (case-insensitive; rule names are
  /// accepted too). Returns false and sets *error, naming the unknown ones
  /// and listing the known IDs.
  static bool CheckSelection(const RuleSelection& selection, std::string* error);

  /// `selection` should have passed CheckSelection; unknown IDs select nothing.
  explicit RuleEngine(const RuleSelection& selection);
  ~RuleEngine();
  RuleEngine(const RuleEngine&) = delete;
  RuleEngine& operator=(const RuleEngine&) = delete;

  /// Signs a deadlock (event->signature), appends the selected rules'
  /// findings to event->findings, groups deadlocks, counts run facts.
  void OnEvent(Event* event);

  /// After the last event: runs every rule's Finish. `inputs` describe the
  /// inputs read. Fills the run-level findings, the groups and, when
  /// `causes` is given, the causes of the groups (each largest first).
  void Finish(std::vector<RunFacts::Input> inputs, std::vector<Finding>* findings,
              std::vector<DeadlockGroup>* groups, std::vector<DeadlockCause>* causes = nullptr);

  /// IDs of the rules that run, in ID order.
  std::vector<std::string> Selected() const;

 private:
  void CountFacts(const Event& event);

  std::vector<std::unique_ptr<Rule>> rules_;
  DeadlockGrouper grouper_;
  RunFacts facts_;
};

}  // namespace lockgraph
