// MS004 reader-writer-deadlock: a reader waits for S behind a writer's
// exclusive lock while the writer waits behind the reader's S lock. Under
// read committed, READ_COMMITTED_SNAPSHOT removes the reader's S locks.
// Silent when MS001 (key lookup, a special case) already explained the
// event. docs/rules/MS004.md.
#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

class ReaderWriterDeadlock : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS004", "reader-writer-deadlock", Severity::kWarning,
                                "a reader's S locks against a writer's: row versioning for readers",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock) return;
    for (const Finding& f : event.findings)
      if (f.rule_id == "MS001") return;  // the key lookup finding says it, with its index
    const ProcessFacts* reader = nullptr;
    const ProcessFacts* writer = nullptr;
    for (const ProcessFacts& p : facts.deadlock->processes) {
      if (!p.wait) continue;
      const WaitEdge& e = *p.wait;
      if (!reader && ms_rules::SharedMode(e.mode) && ms_rules::WriteMode(e.blocker_mode)) reader = &p;
      if (!writer && ms_rules::WriteMode(e.mode) && ms_rules::SharedMode(e.blocker_mode)) writer = &p;
    }
    if (!reader || !writer) return;
    const WaitEdge& r = *reader->wait;
    const WaitEdge& w = *writer->wait;
    std::string message = ms_rules::Who(*reader->participant) + " reads (" + r.mode + " on " +
                          r.lock.Label() + ", held " + r.blocker_mode + " by " + r.blocker + ") while " +
                          ms_rules::Who(*writer->participant) + " writes (" + w.mode + " on " +
                          w.lock.Label() + ", held " + w.blocker_mode + " by " + w.blocker + ")";
    std::vector<std::string> ev = ms_rules::CycleEvidence(event);
    for (const ProcessFacts& p : facts.deadlock->processes)
      if (p.wait)
        ev.push_back(ms_rules::ProcessEvidence(p, *event.deadlock) + " [" +
                     p.participant->isolation_level + "]");
    out->push_back(MakeFinding(std::move(message), Hint(*reader), std::move(ev)));
  }

 private:
  static std::string Hint(const ProcessFacts& reader) {
    std::string object(reader.wait->lock.Field("objectname"));
    std::string db = ms_rules::DatabaseOf(object);
    if (db.empty()) db = reader.participant->session.database;
    std::string level = ms_rules::IsolationName(*reader.participant);
    std::string stmt = "`" + pg_rules::OneLine(reader.query, 70) + "` at " + ms_rules::WhereRuns(reader);
    std::string hint;
    if (level == "repeatable read" || level == "serializable")
      hint = "The reader " + stmt + " runs at " + level + ", which keeps its S locks to the end of "
             "the transaction; READ_COMMITTED_SNAPSHOT does not change that level. Run it at read "
             "committed or SNAPSHOT isolation if it does not need the stronger guarantee. ";
    else
      hint = "Let readers read row versions instead of taking S locks: `ALTER DATABASE " +
             (db.empty() ? std::string("...") : "[" + db + "]") +
             " SET READ_COMMITTED_SNAPSHOT ON;` (the reader " + stmt +
             " then waits for no writer; code that relies on a read blocking, such as a queue "
             "table, needs WITH (READCOMMITTEDLOCK) there). Or give the SELECT an index that "
             "avoids the rows the writer changes. ";
    return hint + std::string(ms_rules::kNotNolock) + " " + std::string(ms_rules::kNotTimeouts);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs004ReaderWriterDeadlock(const RuleSettings&) {
  return std::make_unique<ReaderWriterDeadlock>();
}

}  // namespace lockgraph
