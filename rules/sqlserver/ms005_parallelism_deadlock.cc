// MS005 parallelism-deadlock: threads of one parallel query wait for each
// other on exchange buffers (exchangeEvent, SyncPoint), or one session's
// workers (same spid, several ecid) are in the cycle. Not a lock-order
// problem: reduce the degree of parallelism or make the plan serial with an
// index. docs/rules/MS005.md.
#include <map>
#include <set>

#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

bool Exchange(const std::string& type) { return type == "exchangeEvent" || type == "SyncPoint"; }

class ParallelismDeadlock : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS005", "parallelism-deadlock", Severity::kWarning,
                                "threads of a parallel query deadlocked on exchange buffers: "
                                "MAXDOP or indexes",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock) return;
    const Deadlock& d = *event.deadlock;
    std::set<std::string> ports;
    for (const LockResource& r : d.resources)
      if (Exchange(r.lock.type)) ports.insert(r.lock.Label());
    // Threads per spid: the workers of one query share a spid.
    std::map<int64_t, std::set<int64_t>> threads;
    for (const Participant& p : d.processes)
      if (p.spid) threads[*p.spid].insert(p.ecid.value_or(0));
    std::vector<std::string> queries;
    for (const auto& [spid, ecids] : threads)
      if (ecids.size() > 1)
        queries.push_back("spid " + std::to_string(spid) + " (" + std::to_string(ecids.size()) +
                          " threads)");
    if (!d.parallel && ports.empty() && queries.empty()) return;
    std::string message = "intra-query parallelism deadlock";
    if (!queries.empty()) message += " of " + pg_rules::JoinIds(queries);
    if (!ports.empty()) {
      message += " on " + std::to_string(ports.size()) + " exchange " +
                 (ports.size() == 1 ? "resource" : "resources") + " (" + *ports.begin() +
                 (ports.size() > 1 ? ", ..." : "") + ")";
    }
    if (d.victims.empty() && d.victim.empty()) message += "; the report names no victim";
    std::vector<std::string> ev = ms_rules::CycleEvidence(event);
    for (const std::string& p : ports) ev.push_back("resource: " + p);
    out->push_back(MakeFinding(std::move(message), Hint(*facts.deadlock), std::move(ev)));
  }

 private:
  static std::string Hint(const DeadlockFacts& df) {
    const ProcessFacts* main = nullptr;
    for (const ProcessFacts& p : df.processes)
      if (!main || (p.frame && !main->frame)) main = &p;
    std::string stmt = main && !main->query.empty()
                           ? "`" + pg_rules::OneLine(main->query, 80) + "` at " + ms_rules::WhereRuns(*main)
                           : "the query";
    return "The threads of one parallel plan wait for each other's exchange buffers; no lock order "
           "of the application is involved. Run " + stmt + " with OPTION (MAXDOP 1) (or a lower "
           "MAXDOP), or give it an index that makes a serial plan cheap (a seek instead of a "
           "parallel scan); server-wide, raise 'cost threshold for parallelism' above the default 5. "
           "WITH (NOLOCK) does not help: the threads wait on "
           "exchange buffers, not on row locks.";
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs005ParallelismDeadlock(const RuleSettings&) {
  return std::make_unique<ParallelismDeadlock>();
}

}  // namespace lockgraph
