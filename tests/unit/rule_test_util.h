// Helpers for the rule tests: run the real pipeline (parsers, rule engine)
// on inline log text or a sample, and pick findings by rule.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.h"

namespace lockgraph::rule_test {

/// Like test::AnalyzeText (file names become "input"), with a rule selection.
inline Report AnalyzeWithRules(const std::string& text, const RuleSelection& rules) {
  char path[] = "/tmp/lockgraph-rule-test-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, text.data(), text.size()) != ssize_t(text.size())) std::abort();
  close(fd);
  AnalyzeOptions options;
  options.rules = rules;
  Analyzer analyzer(options, nullptr);
  std::string error;
  bool ok = analyzer.AnalyzeInput(path, &error);
  unlink(path);
  if (!ok) throw std::runtime_error(error);
  Report report = std::move(analyzer.Finish());
  for (Event& ev : report.events) ev.source.file = "input";
  return report;
}

/// Analyzes a sample file in place (samples/<relative>); file names are kept.
inline Report AnalyzeSample(const std::string& relative, const RuleSelection& rules = {}) {
  AnalyzeOptions options;
  options.rules = rules;
  Analyzer analyzer(options, nullptr);
  std::string error;
  if (!analyzer.AnalyzeInput(std::string(LOCKGRAPH_SAMPLES_DIR) + "/" + relative, &error))
    throw std::runtime_error(error);
  return std::move(analyzer.Finish());
}

/// Copies of the findings of rule `id` on every event of `report`, in event
/// order (copies: `report` may be a temporary).
inline std::vector<Finding> EventFindings(const Report& report, const std::string& id) {
  std::vector<Finding> out;
  for (const Event& ev : report.events)
    for (const Finding& f : ev.findings)
      if (f.rule_id == id) out.push_back(f);
  return out;
}

/// The run-level findings of rule `id`.
inline std::vector<Finding> RunFindings(const Report& report, const std::string& id) {
  std::vector<Finding> out;
  for (const Finding& f : report.findings)
    if (f.rule_id == id) out.push_back(f);
  return out;
}

/// IDs of the rules that fired on one event, in order: "PG001 PG002".
inline std::string RuleIds(const Event& ev) {
  std::string s;
  for (const Finding& f : ev.findings) s += (s.empty() ? "" : " ") + f.rule_id;
  return s;
}

/// The only deadlock event of a report (fails the test when there is not one).
inline const Event& OnlyDeadlock(const Report& report) {
  const Event* found = nullptr;
  int n = 0;
  for (const Event& ev : report.events)
    if (ev.deadlock) {
      found = &ev;
      ++n;
    }
  if (n != 1) throw std::runtime_error("expected one deadlock, got " + std::to_string(n));
  return *found;
}

/// The findings of rule `id` on the only deadlock.
inline std::vector<Finding> DeadlockFindings(const Report& report, const std::string& id) {
  std::vector<Finding> out;
  for (const Finding& f : OnlyDeadlock(report).findings)
    if (f.rule_id == id) out.push_back(f);
  return out;
}

}  // namespace lockgraph::rule_test
