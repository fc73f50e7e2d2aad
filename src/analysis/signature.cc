// See signature.h.
#include "analysis/signature.h"

#include <algorithm>
#include <cstdio>

namespace lockgraph {
namespace {

// What a process contributes: the shape of its statement, what it waits for
// and on which relation. Never a pid, an xid, a tuple position or a key.
SignatureMember Member(const ProcessFacts& p) {
  SignatureMember m;
  m.shape = p.shape;
  const Participant& who = *p.participant;
  m.statement = ReadableSql(who.query, who.query_clipped ? 48 : 4096);
  if (!p.wait) {
    m.wait = "?";
    return m;
  }
  m.wait = p.wait->mode + " " + p.wait->lock.type;
  std::string_view rel = p.wait->lock.Field("relation");
  if (!rel.empty()) m.wait += " " + std::string(rel);  // the OID: stable, never a guess
  return m;
}

// A SQL Server process: the statement that waits (its innermost frame,
// else the input buffer) and the object and index it waits in. Never the
// process id, spid, hobt id, key hash, page or time.
SignatureMember SqlServerMember(const ProcessFacts& p) {
  SignatureMember m;
  m.shape = p.shape;
  m.statement = ReadableSql(p.statement.normalized);
  if (!p.wait) {
    m.wait = "?";
    return m;
  }
  const LockTarget& lock = p.wait->lock;
  m.wait = p.wait->mode + " " + lock.type;
  for (std::string_view field : {"objectname", "indexname", "WaitType"})
    if (!lock.Field(field).empty()) m.wait += " " + std::string(lock.Field(field));
  return m;
}

// The rotation of `v` that sorts first (a cycle has no first member).
size_t SmallestRotation(const std::vector<std::string>& v) {
  size_t best = 0;
  const size_t n = v.size();
  for (size_t r = 1; r < n; ++r) {
    for (size_t k = 0; k < n; ++k) {
      const std::string& a = v[(r + k) % n];
      const std::string& b = v[(best + k) % n];
      if (a == b) continue;
      if (a < b) best = r;
      break;
    }
  }
  return best;
}

// A cycle whose edges name its members (off-cycle processes have no edge).
bool CompleteCycle(const Deadlock& d) { return d.complete && !d.edges.empty(); }

}  // namespace

std::string Fnv1a64Hex(std::string_view text) {
  uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

DeadlockSignature SignDeadlock(const Deadlock& deadlock, const DeadlockFacts& facts) {
  std::vector<SignatureMember> members;
  std::vector<std::string> keys;
  std::vector<std::pair<std::string, SignatureMember>> others;
  const bool sqlserver = facts.engine == "sqlserver";
  for (const ProcessFacts& p : facts.processes) {
    SignatureMember m = sqlserver ? SqlServerMember(p) : Member(p);
    std::string key = m.shape + " | " + m.wait;
    // A SQL Server report also lists processes off the cycle (after the
    // cycle's members): they are no part of the rotation, and are counted
    // in report-independent (sorted) order.
    if (sqlserver && !p.wait && CompleteCycle(deadlock)) {
      others.emplace_back(std::move(key), std::move(m));
      continue;
    }
    members.push_back(std::move(m));
    keys.push_back(std::move(key));
  }
  // An incomplete report may name no process, or processes without their
  // statements: the victim's STATEMENT and the row its CONTEXT names tell
  // unrelated ones apart (else every such deadlock would be one signature).
  std::string victim_key;
  if (!deadlock.complete) {
    const std::string shape = deadlock.statement.empty() ? "" : StatementShape(deadlock.statement, false);
    std::string where;
    for (const ContextFrame& f : deadlock.context)
      if (f.kind == ContextFrame::Kind::kRowWait) {
        where = f.action + " " + f.relation;
        break;
      }
    victim_key = shape + " | " + where;
    bool named = false;
    for (const SignatureMember& m : members) named = named || (!m.shape.empty() && m.shape != "sql:");
    if (!named && !shape.empty()) {
      SignatureMember m;
      m.shape = shape;
      m.wait = "?";
      m.statement = ReadableSql(deadlock.statement);
      members.push_back(std::move(m));
      keys.push_back(victim_key);
    }
  }
  DeadlockSignature sig;
  const size_t n = members.size();
  const size_t start = n ? SmallestRotation(keys) : 0;
  std::string canonical = deadlock.complete ? "cycle" : "incomplete";
  for (size_t k = 0; k < n; ++k) {
    sig.members.push_back(members[(start + k) % n]);
    canonical += "\n" + keys[(start + k) % n];
  }
  std::stable_sort(others.begin(), others.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [key, m] : others) {
    canonical += "\nalso " + key;
    sig.members.push_back(std::move(m));
  }
  if (!victim_key.empty()) canonical += "\nvictim " + victim_key;
  sig.id = Fnv1a64Hex(canonical);
  return sig;
}

}  // namespace lockgraph
