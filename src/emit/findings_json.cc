// See findings_json.h.
#include "emit/findings_json.h"

#include "emit/event_fields.h"
#include "emit/json_tree.h"

namespace lockgraph {
namespace {

using json = nlohmann::ordered_json;

json Seen(const std::string& time, const SourceSpan& source) {
  return {{"time", time}, {"file", source.file}, {"first_line", source.first_line},
          {"last_line", source.last_line}};
}

}  // namespace

json FindingsToJson(const std::vector<Finding>& findings) {
  JsonTree t;
  FindingsValue(findings, t);
  return t.Take();
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
