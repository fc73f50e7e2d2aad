// MS009 object-order-inversion: the most common SQL Server deadlock. Each
// process holds locks in one table and waits in another that the next
// process holds: the transactions touch the same tables in opposite orders.
// Rests on the objectname of every resource of the cycle; silent when the
// report gives none (trace flag 1204) or the cycle stays in one table (the
// key lookup of MS001, the conversion of MS002). docs/rules/MS009.md.
#include <map>
#include <set>

#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

class ObjectOrderInversion : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS009", "object-order-inversion", Severity::kError,
                                "transactions lock the same tables in opposite orders: one order "
                                "for all",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || event.deadlock->edges.size() < 2) return;
    // What each process waits in (its own edge) and holds (the edge it blocks).
    std::map<std::string, std::string> waits_in, holds_in;
    std::set<std::string> objects;
    for (const WaitEdge& e : event.deadlock->edges) {
      std::string object(e.lock.Field("objectname"));
      if (object.empty()) return;  // an exchange, an application lock, a 1204 report
      waits_in[e.waiter] = object;
      holds_in[e.blocker] = object;
      objects.insert(object);
    }
    if (objects.size() < 2) return;
    for (const auto& [process, object] : waits_in) {
      auto held = holds_in.find(process);
      if (held == holds_in.end() || held->second == object) return;
    }
    std::string message;
    for (const ProcessFacts& p : facts.deadlock->processes) {
      if (!p.wait) continue;
      const std::string& id = p.participant->id;
      message += (message.empty() ? "" : "; ") + ms_rules::Who(*p.participant) + " holds " +
                 ms_rules::ShortName(holds_in[id]) + " and waits in " + ms_rules::ShortName(waits_in[id]);
    }
    out->push_back(MakeFinding(message, Hint(facts.deadlock->processes, objects, holds_in),
                               ms_rules::CycleAndWaitersEvidence(event, facts.deadlock->processes)));
  }

 private:
  static std::string Hint(const std::vector<ProcessFacts>& processes,
                          const std::set<std::string>& objects,
                          std::map<std::string, std::string>& holds_in) {
    std::string order;
    for (const std::string& o : objects) order += (order.empty() ? "" : ", then ") + o;
    std::string hint = "Touch these tables in one order in every transaction, for example " + order +
                       " (sorted by name). ";
    for (const ProcessFacts& p : processes) {
      if (!p.wait) continue;
      std::string held = holds_in[p.participant->id];
      std::string waited(p.wait->lock.Field("objectname"));
      if (held > waited) {  // this process goes against the sorted order
        hint += "Here " + ms_rules::Who(*p.participant) + " holds " + ms_rules::ShortName(held) +
                " and then runs `" + pg_rules::OneLine(p.query, 90) + "` at " +
                ms_rules::WhereRuns(p) + ": run that statement before the one on " +
                ms_rules::ShortName(held) + ", or lock the " + ms_rules::ShortName(waited) +
                " rows first with SELECT ... WITH (UPDLOCK, HOLDLOCK). ";
        break;
      }
    }
    return hint + "Lowering the isolation level or NOLOCK does not help: writes keep their X locks "
                  "to the end of the transaction at every level. " +
           std::string(ms_rules::kNotTimeouts);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs009ObjectOrderInversion(const RuleSettings&) {
  return std::make_unique<ObjectOrderInversion>();
}

}  // namespace lockgraph
