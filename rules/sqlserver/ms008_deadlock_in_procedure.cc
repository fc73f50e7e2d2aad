// MS008 deadlock-in-procedure: processes of the cycle were running inside
// stored procedures (or functions, triggers): name each procedure, its line
// and the statement there, which the input buffers (`EXEC usp_p1`) do not
// show. docs/rules/MS008.md.
#include <set>

#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

// The innermost frame of a module (not an ad hoc batch), or null.
const ContextFrame* ProcedureFrame(const Participant& p) {
  for (const ContextFrame& f : p.frames)
    if (!f.function.empty() && f.function != "adhoc" && f.function != "unknown" &&
        f.function != "dynamic")
      return &f;
  return nullptr;
}

std::string FrameText(const ContextFrame& f) {
  std::string s = f.function + (f.line ? " line " + std::to_string(*f.line) : "");
  if (!f.statement.empty() && f.statement != "unknown")
    s += " (" + pg_rules::OneLine(f.statement, 70) + ")";
  return s;
}

class DeadlockInProcedure : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS008", "deadlock-in-procedure", Severity::kNote,
                                "the deadlock happened inside stored procedures: their names, "
                                "lines and statements",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock) return;
    std::vector<std::string> parts, places, evidence = ms_rules::CycleEvidence(event);
    std::set<std::string> tables;
    for (const ProcessFacts& p : facts.deadlock->processes) {
      if (!p.wait) continue;  // not on the cycle
      if (!p.wait_table.empty()) tables.insert(p.wait_table);
      const ContextFrame* f = ProcedureFrame(*p.participant);
      if (!f) continue;
      parts.push_back(ms_rules::Who(*p.participant) + " in " + FrameText(*f));
      places.push_back(f->function + (f->line ? " line " + std::to_string(*f->line) : ""));
      for (const ContextFrame& frame : p.participant->frames)
        evidence.push_back(p.participant->id + " frame: " + FrameText(frame));
    }
    if (parts.empty()) return;
    std::string message;
    for (const std::string& s : parts) message += (message.empty() ? "" : "; ") + s;
    std::string hint = "Look at " + pg_rules::JoinIds(places) + ": the statements there wait for "
                       "locks the other transactions hold; the input buffers only show the calls. ";
    std::string list;
    for (const std::string& t : tables) list += (list.empty() ? "" : ", ") + t;
    if (tables.size() > 1)
      hint += "Make every procedure that takes part touch " + list + " in one order (and the rows "
              "of each in key order), or take the locks it needs at its start (SELECT ... WITH "
              "(UPDLOCK) in that order).";
    else if (!event.findings.empty())
      hint += "The other findings on this deadlock say what to change there.";
    else
      hint += "Make the procedures take their locks in one order, at their start (SELECT ... WITH "
              "(UPDLOCK) on the rows they will change, in key order).";
    out->push_back(MakeFinding(std::move(message), std::move(hint), std::move(evidence)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs008DeadlockInProcedure(const RuleSettings&) {
  return std::make_unique<DeadlockInProcedure>();
}

}  // namespace lockgraph
