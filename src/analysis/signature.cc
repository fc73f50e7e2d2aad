// See signature.h.
#include "analysis/signature.h"

#include <cstdio>

namespace lockgraph {
namespace {

// What a process contributes: the shape of its statement, what it waits for
// and on which relation. Never a pid, an xid, a tuple position or a key.
SignatureMember Member(const ProcessFacts& p) {
  SignatureMember m;
  m.shape = p.shape;
  const Participant& who = *p.participant;
  m.statement = NormalizeSql(who.query, who.query_clipped ? 48 : 4096);
  if (!p.wait) {
    m.wait = "?";
    return m;
  }
  m.wait = p.wait->mode + " " + p.wait->lock.type;
  std::string_view rel = p.wait->lock.Field("relation");
  if (!rel.empty()) m.wait += " " + std::string(rel);  // the OID: stable, never a guess
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
  for (const ProcessFacts& p : facts.processes) {
    members.push_back(Member(p));
    keys.push_back(members.back().shape + " | " + members.back().wait);
  }
  DeadlockSignature sig;
  const size_t n = members.size();
  const size_t start = n ? SmallestRotation(keys) : 0;
  std::string canonical = deadlock.complete ? "cycle" : "incomplete";
  for (size_t k = 0; k < n; ++k) {
    sig.members.push_back(members[(start + k) % n]);
    canonical += "\n" + keys[(start + k) % n];
  }
  sig.id = Fnv1a64Hex(canonical);
  return sig;
}

}  // namespace lockgraph
