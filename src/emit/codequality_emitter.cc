// --format codequality: the GitLab Code Quality report that a job hands to
// `artifacts:reports:codequality` (a JSON array of issues: description,
// check_name, fingerprint, severity, location.path, location.lines.begin).
// One issue per deadlock group (fingerprint: its signature), per lock cycle
// of a snapshot, per lock wait over check's --max-lock-wait (its wait key)
// and per finding (a group's on its first deadlock, as sarif does), each
// fingerprint once, so that GitLab follows an issue across pipelines.
// Paths are relative to the source root (source_paths.h). docs/ci.md#gitlab.
#include <nlohmann/json.hpp>

#include <set>

#include "analysis/signature.h"
#include "gate/baseline.h"
#include "gate/check_gate.h"
#include "emit/ci_text.h"
#include "emit/emitter.h"

namespace lockgraph {
namespace {

using json = nlohmann::ordered_json;

const char* FindingSeverity(const CheckResult* check, const Report& report, const Event* ev,
                            const Finding& f) {
  if (FindingFails(check, report, ev, f)) return "critical";
  switch (f.severity) {
    case Severity::kError: return "major";
    case Severity::kWarning: return "minor";
    case Severity::kNote: return "info";
  }
  return "minor";
}

class CodeQualityEmitter : public Emitter {
 public:
  std::string Name() const override { return "codequality"; }
  std::string Description() const override {
    return "GitLab Code Quality JSON (redacted unless --no-redact; docs/ci.md)";
  }
  bool RedactsByDefault() const override { return true; }
  EventNeeds NeedsEvents() const override { return EventNeeds::kExamplesAndFindings; }

  void Write(const Report& report, std::ostream& out) override {
    issues_ = json::array();
    seen_.clear();
    for (const DeadlockGroup& g : GroupsByCause(report)) {
      Add("LG-DEADLOCK", GroupFails(check_, g) ? "critical" : "info", GroupTitle(g),
          g.signature, g.first_source, report);
      if (const Event* ev = GroupExample(report, g))
        for (const Finding& f : ev->findings) AddFinding(report, ev, f);
    }
    for (const Event& ev : report.events)
      if (!ev.deadlock)
        for (const Finding& f : ev.findings) AddFinding(report, &ev, f);
    for (const Finding& f : report.findings) AddFinding(report, nullptr, f);
    if (check_) AddCheck(report);
    out << issues_.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
  }

 private:
  // `identity` names the issue across runs: a deadlock group's fingerprint
  // is its signature, any other's the FNV-1a 64 of rule and identity, so
  // two rules on one deadlock stay apart.
  void Add(const std::string& check, const char* severity, const std::string& description,
           const std::string& identity, const SourceSpan& source, const Report& report) {
    std::string fingerprint =
        check == "LG-DEADLOCK" ? identity : Fnv1a64Hex(check + "|" + identity);
    if (!seen_.insert(fingerprint).second) return;
    SourceSpan at = source;
    if (at.file.empty()) at.file = report.inputs.empty() ? "-" : report.inputs.front().file;
    json lines = {{"begin", std::max<uint64_t>(at.first_line, 1)}};
    if (at.last_line > at.first_line) lines["end"] = at.last_line;
    issues_.push_back({{"type", "issue"},
                       {"check_name", check},
                       {"description", description},
                       {"categories", json::array({"Bug Risk"})},
                       {"fingerprint", fingerprint},
                       {"severity", severity},
                       {"location", {{"path", at.file}, {"lines", std::move(lines)}}}});
  }

  void AddFinding(const Report& report, const Event* ev, const Finding& f) {
    std::string identity = ev ? (ev->deadlock    ? ev->signature
                                 : ev->lock_wait ? WaitKey(*ev)
                                                 : SourceText(ev->source) + " " + ev->time)
                              : FindingKey(f);
    SourceSpan source = ev ? ev->source : RunSource(report, f);
    Add(f.rule_id, FindingSeverity(check_, report, ev, f), FindingTitle(f), identity, source, report);
  }

  // A run-level finding points at the first group it names, else the input.
  static SourceSpan RunSource(const Report& report, const Finding& f) {
    for (const DeadlockGroup& g : GroupsByCause(report))
      for (const std::string& s : f.signatures)
        if (s == g.signature) return g.first_source;
    return SourceSpan{};
  }

  void AddCheck(const Report& report) {
    const CheckResult& c = *check_;
    for (size_t i : c.cycles) {
      const Event& ev = report.events[i];
      Add("LG-LOCK-CYCLE", c.deadlocks_failed ? "critical" : "info", CycleTitle(ev),
          CycleTitle(ev), ev.source, report);
    }
    for (const LongWait& w : c.long_waits) {
      const Event& ev = report.events[w.event];
      Add("LG-LOCK-WAIT", w.known ? "info" : "major",
          WaitTitle(ev) + " (limit " + c.max_lock_wait + ")", w.key, ev.source, report);
    }
  }

  json issues_;
  std::set<std::string> seen_;
};

}  // namespace

std::unique_ptr<Emitter> MakeCodeQualityEmitter() { return std::make_unique<CodeQualityEmitter>(); }

}  // namespace lockgraph
