// See findings_json.h.
#include "emit/findings_json.h"

namespace lockgraph {
namespace {

using json = nlohmann::ordered_json;

json Seen(const std::string& time, const SourceSpan& source) {
  return {{"time", time}, {"file", source.file}, {"first_line", source.first_line},
          {"last_line", source.last_line}};
}

}  // namespace

json FindingsToJson(const std::vector<Finding>& findings) {
  json arr = json::array();
  for (const Finding& f : findings) {
    json j = {{"id", f.rule_id},   {"name", f.rule_name}, {"severity", SeverityName(f.severity)},
              {"message", f.message}, {"hint", f.hint},   {"evidence", f.evidence}};
    if (!f.signatures.empty()) j["signatures"] = f.signatures;
    arr.push_back(std::move(j));
  }
  return arr;
}

json GroupsToJson(const std::vector<DeadlockGroup>& groups) {
  json arr = json::array();
  for (const DeadlockGroup& g : groups) {
    json members = json::array();
    for (const SignatureMember& m : g.members)
      members.push_back({{"statement", m.statement}, {"shape", m.shape}, {"waits_for", m.wait}});
    arr.push_back({{"signature", g.signature},
                   {"cause", g.cause},
                   {"count", g.count},
                   {"first_seen", Seen(g.first_time, g.first_source)},
                   {"last_seen", Seen(g.last_time, g.last_source)},
                   {"rules", g.rules},
                   {"processes", std::move(members)}});
  }
  return arr;
}

json CausesToJson(const std::vector<DeadlockCause>& causes) {
  json arr = json::array();
  for (const DeadlockCause& c : causes)
    arr.push_back({{"cause", c.id},
                   {"rule", c.rule},
                   {"count", c.count},
                   {"first_seen", Seen(c.first_time, c.first_source)},
                   {"last_seen", Seen(c.last_time, c.last_source)},
                   {"statements", c.statements},
                   {"signatures", c.signatures},
                   {"rules", c.rules}});
  return arr;
}

}  // namespace lockgraph
