// See check_report.h.
#include "emit/check_report.h"

#include "emit/text_safety.h"

namespace lockgraph {

nlohmann::ordered_json CheckToJson(const CheckResult& c, const Report& report) {
  nlohmann::ordered_json waits = nlohmann::ordered_json::array();
  for (const LongWait& w : c.long_waits) {
    const Event ev = c.event(w.event);
    waits.push_back({{"key", w.key}, {"waited_ms", w.waited_ms}, {"known", w.known},
                     {"file", ev.source.file}, {"first_line", ev.source.first_line}});
  }
  nlohmann::ordered_json fresh = nlohmann::ordered_json::array();
  for (const DeadlockGroup& g : report.groups)
    if (c.IsNew(g.signature)) fresh.push_back(g.signature);
  nlohmann::ordered_json j = {{"passed", !c.Failed()},
                              {"broken", c.broken},
                              {"new_deadlocks", c.new_deadlocks},
                              {"known_deadlocks", c.known_deadlocks},
                              {"new_signatures", std::move(fresh)},
                              {"long_waits", std::move(waits)},
                              {"fail_on", c.fail_on}};
  if (c.has_baseline) {
    j["baseline"] = c.baseline_file;
    j["stale"] = c.stale;
  }
  return j;
}

void WriteCheckText(const CheckResult& c, std::ostream& out) {
  out << "check: " << (c.Failed() ? "FAIL" : "ok") << '\n';
  for (const std::string& b : c.broken) out << "  broken: " << PrintableText(b) << '\n';
  if (c.has_baseline)
    out << "  baseline " << PrintableText(c.baseline_file) << ": " << c.known_deadlocks
        << " known deadlocks, " << c.new_deadlocks << " new\n";
  for (const std::string& s : c.stale) out << "  no longer seen: " << PrintableText(s) << '\n';
}

}  // namespace lockgraph
