// --format codequality: the GitLab Code Quality report that a job hands to
// `artifacts:reports:codequality` (a JSON array of issues: description,
// check_name, fingerprint, severity, location.path, location.lines.begin).
// One issue per deadlock group (fingerprint: its signature), per lock cycle
// of a snapshot, per lock wait over check's --max-lock-wait (its wait key)
// and per finding (a group's on its first deadlock, as sarif does), each
// fingerprint once, so that GitLab follows an issue across pipelines.
// Paths are relative to the source root (source_paths.h). docs/ci.md#gitlab.
// Under `analyze` the issues of each event that is not a deadlock are
// rendered when it is made, into an EventSpool, with holes for what only
// Write knows (hole_text.h), and written from it at Write: memory stays flat.
#include <nlohmann/json.hpp>

#include <iostream>
#include <set>

#include "analysis/signature.h"
#include "gate/baseline.h"
#include "gate/check_gate.h"
#include "emit/ci_text.h"
#include "emit/keeping_emitter.h"
#include "emit/event_json.h"
#include "emit/event_spool.h"
#include "emit/hole_text.h"
#include "emit/late_wait_key.h"

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

// The holes of a spooled issue: its fingerprint, known (the argument) or
// from a late wait key (rule and LateWaitKeyArg), and the first input's
// path for an event without a file.
constexpr char kFingerprintHole = 'f';
constexpr char kLateFingerprintHole = 'w';
constexpr char kFirstInputHole = 'p';

// Issues are items of the top-level array.
constexpr unsigned kIssueDepth = 2;

class CodeQualityEmitter : public KeepingEmitter {
 public:
  std::string Name() const override { return "codequality"; }
  std::string Description() const override {
    return "GitLab Code Quality JSON (redacted unless --no-redact; docs/ci.md)";
  }
  bool RedactsByDefault() const override { return true; }

  void Write(const Report& report, std::ostream& out) override {
    seen_.clear();
    bool first = true;
    item_ = [&](std::string_view issue) {
      out << (first ? "[\n" : ",\n") << std::string(kIssueDepth, ' ') << issue;
      first = false;
    };
    for (const DeadlockGroup& g : GroupsByCause(report)) {
      Add("LG-DEADLOCK", GroupFails(check_, g) ? "critical" : "info", GroupTitle(g),
          g.signature, g.first_source, report);
      if (const Event* ev = GroupExample(report, g))
        for (const Finding& f : ev->findings) AddFinding(report, ev, f);
    }
    // Events come from OnEvent (`analyze`), else from the report (check,
    // callers that collect every event, in log order): never both.
    KeepReportEvents(report);
    const LateWaitKeys keys(report);
    if (spool_failed_ || !spool_.ForEachSorted([&](std::string_view packed) {
          WriteSpooled(report, keys, packed);
        }))
      std::cerr << "lockgraph: cannot read back the issues kept in a temporary file\n";
    for (const Finding& f : report.findings) AddFinding(report, nullptr, f);
    if (check_) AddCheck(report);
    out << (first ? "[]" : "\n]") << '\n';
    item_ = nullptr;
  }

 private:
  static std::string Fingerprint(const std::string& check, const std::string& identity) {
    return check == "LG-DEADLOCK" ? identity : Fnv1a64Hex(check + "|" + identity);
  }

  // The issue; `fingerprint` and `at.file` may be kJsonHoleValue.
  static json Issue(const std::string& check, const char* severity, const std::string& description,
                    const std::string& fingerprint, const SourceSpan& at) {
    json lines = {{"begin", std::max<uint64_t>(at.first_line, 1)}};
    if (at.last_line > at.first_line) lines["end"] = at.last_line;
    return {{"type", "issue"},
            {"check_name", check},
            {"description", description},
            {"categories", json::array({"Bug Risk"})},
            {"fingerprint", fingerprint},
            {"severity", severity},
            {"location", {{"path", at.file}, {"lines", std::move(lines)}}}};
  }

  static std::string FirstInput(const Report& report) {
    return report.inputs.empty() ? "-" : report.inputs.front().file;
  }

  // `identity` names the issue across runs: a deadlock group's fingerprint
  // is its signature, any other's the FNV-1a 64 of rule and identity, so
  // two rules on one deadlock stay apart. Each fingerprint is written once.
  void Add(const std::string& check, const char* severity, const std::string& description,
           const std::string& identity, const SourceSpan& source, const Report& report) {
    std::string fingerprint = Fingerprint(check, identity);
    if (!seen_.insert(fingerprint).second) return;
    SourceSpan at = source;
    if (at.file.empty()) at.file = FirstInput(report);
    item_(DumpJsonAt(Issue(check, severity, description, fingerprint, at), kIssueDepth));
  }

  static std::string Identity(const Event* ev, const Finding& f) {
    return ev ? (ev->deadlock    ? ev->signature
                 : ev->lock_wait ? WaitKey(*ev)
                                 : SourceText(ev->source) + " " + ev->time)
              : FindingKey(f);
  }

  void AddFinding(const Report& report, const Event* ev, const Finding& f) {
    SourceSpan source = ev ? ev->source : RunSource(report, f);
    Add(f.rule_id, FindingSeverity(check_, report, ev, f), FindingTitle(f), Identity(ev, f), source,
        report);
  }

  // Spools the issues of the findings of an event that is not a deadlock
  // (a group's are written from its example). `report` is null at OnEvent
  // (no check verdict then: FindingSeverity does not read it).
  void Keep(const Event& ev, const Report* report, uint32_t input, uint64_t line) override {
    if (ev.deadlock) return;
    static const Report kNoReport;
    for (const Finding& f : ev.findings) {
      std::vector<HoleText::JsonHole> holes;
      std::string late = !report && ev.lock_wait ? LateWaitKeyArg(ev, input) : std::string();
      if (late.empty())
        holes.push_back(
            {"fingerprint", kFingerprintHole, Fingerprint(f.rule_id, Identity(&ev, f))});
      else
        holes.push_back({"fingerprint", kLateFingerprintHole, PackFields({f.rule_id, late})});
      SourceSpan at = ev.source;
      if (at.file.empty()) {
        at.file = kJsonHoleValue;
        holes.push_back({"path", kFirstInputHole, ""});
      }
      json issue = Issue(f.rule_id, FindingSeverity(check_, report ? *report : kNoReport, &ev, f),
                         FindingTitle(f), kJsonHoleValue, at);
      HoleText text;
      text.AppendJson(DumpJsonAt(issue, kIssueDepth), holes);
      if (!spool_.Add(input, line, text.packed())) spool_failed_ = true;
    }
  }

  // Writes a spooled issue unless its fingerprint was written before.
  void WriteSpooled(const Report& report, const LateWaitKeys& keys, std::string_view packed) {
    std::string fingerprint, text;
    FillHoles(packed, [&](char kind, std::string_view arg) {
      if (kind == kFirstInputHole) return DumpJsonAt(json(FirstInput(report)), 0);
      if (kind == kFingerprintHole) {
        fingerprint = arg;
      } else {
        std::vector<std::string_view> f = UnpackFields(arg);
        if (f.size() == 2) fingerprint = Fingerprint(std::string(f[0]), keys.WaitKey(f[1]));
      }
      return DumpJsonAt(json(fingerprint), 0);
    }, &text);
    if (seen_.insert(fingerprint).second) item_(text);
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
      const Event ev = c.event(i);
      Add("LG-LOCK-CYCLE", c.deadlocks_failed ? "critical" : "info", CycleTitle(ev),
          CycleTitle(ev), ev.source, report);
    }
    for (const LongWait& w : c.long_waits) {
      const Event ev = c.event(w.event);
      Add("LG-LOCK-WAIT", w.known ? "info" : "major",
          WaitTitle(ev) + " (limit " + c.max_lock_wait + ")", w.key, ev.source, report);
    }
  }

  std::set<std::string> seen_;
  std::function<void(std::string_view)> item_;  // during Write: writes one issue
  EventSpool spool_;
  bool spool_failed_ = false;
};

}  // namespace

std::unique_ptr<Emitter> MakeCodeQualityEmitter() { return std::make_unique<CodeQualityEmitter>(); }

}  // namespace lockgraph
