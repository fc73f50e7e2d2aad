// See baseline.h. The file is written with nlohmann_json (keys in a fixed
// order, entries sorted) so that a baseline diff shows only what changed.
#include "gate/baseline.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/signature.h"
#include "analysis/statement.h"
#include "gate/baseline_waits.h"

namespace lockgraph {
namespace {

bool Has(const std::vector<Baseline::Entry>& entries, const std::string& key) {
  auto it = std::lower_bound(entries.begin(), entries.end(), key,
                             [](const Baseline::Entry& e, const std::string& k) { return e.key < k; });
  return it != entries.end() && it->key == key;
}

std::string Relation(const LockTarget& lock) {
  if (!lock.relation_name.empty()) return lock.relation_name;
  return std::string(lock.Field("relation"));
}

std::vector<Baseline::Entry> Sorted(const std::map<std::string, std::string>& m) {
  std::vector<Baseline::Entry> out;
  for (const auto& [key, what] : m) out.push_back({key, what});
  return out;
}

nlohmann::ordered_json EntriesToJson(const std::vector<Baseline::Entry>& entries,
                                     const char* key_name) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const Baseline::Entry& e : entries) a.push_back({{key_name, e.key}, {"what", e.what}});
  return a;
}

bool EntriesFromJson(const nlohmann::json& doc, const char* field, const char* key_name,
                     std::vector<Baseline::Entry>* out, std::string* error) {
  if (!doc.contains(field)) return true;
  if (!doc[field].is_array()) {
    *error = std::string("'") + field + "' is not an array";
    return false;
  }
  for (const auto& e : doc[field]) {
    if (!e.is_object() || !e.contains(key_name) || !e[key_name].is_string()) {
      *error = std::string("an entry of '") + field + "' has no string '" + key_name + "'";
      return false;
    }
    out->push_back({e[key_name].get<std::string>(), e.value("what", std::string())});
  }
  std::sort(out->begin(), out->end(),
            [](const Baseline::Entry& a, const Baseline::Entry& b) { return a.key < b.key; });
  return true;
}

}  // namespace

bool Baseline::HasDeadlock(const std::string& key) const { return Has(deadlocks, key); }
bool Baseline::HasLockWait(const std::string& key) const { return Has(lock_waits, key); }
bool Baseline::HasFinding(const std::string& key) const { return Has(findings, key); }
bool Baseline::HasCause(const std::string& key) const { return Has(causes, key); }

WaitKeyText WaitKeyParts(const Event& event) {
  const LockWait& w = *event.lock_wait;
  return {w.mode + " " + w.lock.type + " ", " | " + StatementShape(w.statement, false)};
}

std::string WaitKey(const Event& event) {
  WaitKeyText t = WaitKeyParts(event);
  return Fnv1a64Hex(t.head + Relation(event.lock_wait->lock) + t.tail);
}

WaitKeyText WaitDescriptionParts(const Event& event) {
  const LockWait& w = *event.lock_wait;
  std::string sql = NormalizeSql(w.statement, 64);
  return {w.mode + " on " + w.lock.type, sql.empty() ? "" : ": " + sql};
}

std::string WaitDescription(const Event& event) {
  const std::string rel = Relation(event.lock_wait->lock);
  WaitKeyText t = WaitDescriptionParts(event);
  return t.head + (rel.empty() ? "" : " of " + rel) + t.tail;
}

std::string FindingKey(const Finding& f) {
  std::vector<std::string> sigs = f.signatures;
  std::sort(sigs.begin(), sigs.end());
  std::string key = f.rule_id;
  for (const std::string& s : sigs) key += " " + s;
  return key;
}

Baseline MakeBaseline(const Report& report, double min_wait_ms) {
  BaselineWaits waits(min_wait_ms);
  uint64_t i = 0;
  for (const Event& ev : report.events) waits.Add(ev, {0, i, i}, false), ++i;
  return MakeBaseline(report, waits.Entries(report));
}

Baseline MakeBaseline(const Report& report, std::vector<Baseline::Entry> lock_waits) {
  std::map<std::string, std::string> deadlocks, findings;
  for (const DeadlockGroup& g : report.groups) {
    std::string what;
    for (const SignatureMember& m : g.members) what += (what.empty() ? "" : " | ") + m.statement;
    deadlocks.emplace(g.signature, what);
  }
  for (const Finding& f : report.findings) findings.emplace(FindingKey(f), f.rule_name);
  std::map<std::string, std::string> causes;
  for (const DeadlockCause& c : report.causes) {
    std::string what = c.rule.empty() ? "no rule" : c.rule;
    for (const std::string& s : c.statements) what += " | " + s;
    causes.emplace(c.id, what);
  }
  return Baseline{Sorted(deadlocks), std::move(lock_waits), Sorted(findings), Sorted(causes)};
}

std::string BaselineToJson(const Baseline& b) {
  nlohmann::ordered_json doc;
  doc["lockgraph_baseline"] = kBaselineVersion;
  doc["deadlocks"] = EntriesToJson(b.deadlocks, "signature");
  doc["lock_waits"] = EntriesToJson(b.lock_waits, "key");
  doc["findings"] = EntriesToJson(b.findings, "key");
  doc["causes"] = EntriesToJson(b.causes, "cause");
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

bool LoadBaseline(const std::string& path, Baseline* baseline, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot read the baseline";
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  std::string why;
  if (doc.is_discarded() || !doc.is_object()) {
    why = "not a JSON object";
  } else if (!doc.contains("lockgraph_baseline") ||
             (doc["lockgraph_baseline"] != 1 && doc["lockgraph_baseline"] != kBaselineVersion)) {
    why = "not a lockgraph baseline of version 1 or " + std::to_string(kBaselineVersion) +
          " (\"lockgraph_baseline\": " + std::to_string(kBaselineVersion) + ")";
  } else if (EntriesFromJson(doc, "deadlocks", "signature", &baseline->deadlocks, &why) &&
             EntriesFromJson(doc, "lock_waits", "key", &baseline->lock_waits, &why) &&
             EntriesFromJson(doc, "findings", "key", &baseline->findings, &why) &&
             (doc["lockgraph_baseline"] == 1 ||
              EntriesFromJson(doc, "causes", "cause", &baseline->causes, &why))) {
    return true;
  }
  *error = path + ": " + why;
  return false;
}

}  // namespace lockgraph
