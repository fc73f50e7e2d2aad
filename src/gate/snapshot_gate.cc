// See snapshot_gate.h.
#include "gate/snapshot_gate.h"

#include "analysis/signature.h"
#include "analysis/statement.h"

namespace lockgraph {
namespace {

double WaitAge(const Backend& b) {
  if (b.wait_mode.empty()) return -1;  // not waiting for a lock
  return b.wait_age_ms.value_or(b.state_age_ms.value_or(0));
}

}  // namespace

const Backend* LongestSnapshotWaiter(const Event& event) {
  const Backend* longest = nullptr;
  auto consider = [&](const Backend& b) {
    if (WaitAge(b) >= 0 && (!longest || WaitAge(b) > WaitAge(*longest))) longest = &b;
  };
  if (event.chain)
    for (const BlockingTree::Member& m : event.chain->members) consider(m.backend);
  if (event.cycle)
    for (const Backend& b : event.cycle->members) consider(b);
  return longest;
}

double SnapshotWaitMs(const Event& event) {
  const Backend* b = LongestSnapshotWaiter(event);
  return b ? WaitAge(*b) : 0;
}

std::string SnapshotWaitKey(const Event& event) {
  const Backend* b = LongestSnapshotWaiter(event);
  if (!b) return "";
  return Fnv1a64Hex("snapshot " + b->wait_mode + " " + b->wait_lock.type + " | " +
                    StatementShape(b->query, false));
}

std::string SnapshotWaitDescription(const Event& event) {
  const Backend* b = LongestSnapshotWaiter(event);
  if (!b) return "";
  std::string text = b->wait_mode + " on " + b->wait_lock.type + " (snapshot)";
  std::string sql = NormalizeSql(b->query, 64);
  return sql.empty() ? text : text + ": " + sql;
}

std::string CyclePids(const Event& event) {
  if (!event.cycle) return "";
  std::string s;
  for (const Backend& b : event.cycle->members) s += (s.empty() ? "" : " -> ") + b.id;
  if (!event.cycle->members.empty()) s += " -> " + event.cycle->members.front().id;
  return s;
}

}  // namespace lockgraph
