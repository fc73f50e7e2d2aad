// The plug-in point for rules: one class per rule, one file each, plus one
// line in RegisterBuiltinRules() (rules/registry.cc). A rule sees every event
// in the order events are made, with the facts read from it once
// (src/analysis/event_facts.h), and the whole run at the end. Rules keep
// their own state for repetition. Pages: docs/rules/<ID>.md; how the engine
// runs them: docs/rules.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/event_facts.h"
#include "model/event.h"
#include "model/finding.h"

namespace lockgraph {

/// What `lockgraph rules` lists. IDs are permanent: a renamed rule keeps its ID.
struct RuleInfo {
  std::string_view id;       // "PG001"
  std::string_view name;     // "inconsistent-row-lock-order"
  Severity severity = Severity::kWarning;
  std::string_view summary;  // one line
  std::string_view engine = "postgresql";  // the events it reads (Event::engine)
};

/// Options of the rules, with their defaults (docs/cli.md).
struct RuleSettings {
  double max_wait_ms = 1000;  // --max-wait: PG010 reports lock waits at least this long
};

/// Facts about the whole run, for Finish(). Locations are "file:line".
struct RunFacts {
  struct Input {
    std::string file, format;
    std::string log_line_prefix;  // stderr and syslog: the prefix used
  };
  std::vector<Input> inputs;
  uint64_t deadlocks = 0;
  uint64_t lock_waits = 0;
  uint64_t clipped_queries = 0;  // deadlock participants whose query looks clipped
  std::string first_clipped;
  uint64_t localized_deadlocks = 0;  // "deadlock detected" in another language
  std::string first_localized;
  uint64_t deadlocks_without_detail = 0;  // log_error_verbosity = terse, or cut
  std::string first_without_detail;
};

/// Not thread-safe: one instance per analysis.
class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  /// Called for every event, deadlocks and lock waits, in the order they are
  /// made; appends findings about this event to *out.
  virtual void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) {}
  /// Called once after the last event; appends run-level findings.
  virtual void Finish(const RunFacts& run, std::vector<Finding>* out) {}

 protected:
  /// A finding of this rule with its default severity.
  Finding MakeFinding(std::string message, std::string hint,
                      std::vector<std::string> evidence) const {
    const RuleInfo& i = info();
    return Finding{std::string(i.id), std::string(i.name), i.severity, std::move(message),
                   std::move(hint), std::move(evidence), {}};
  }
};

/// Every builtin rule, in ID order.
std::vector<std::unique_ptr<Rule>> RegisterBuiltinRules(const RuleSettings& settings);

}  // namespace lockgraph
