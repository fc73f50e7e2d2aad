// Baselines: the deadlock signatures, long-wait keys and run-level finding
// keys a team has reviewed and accepts for now, in a sorted, diffable JSON
// file (docs/ci.md#baselines). `lockgraph baseline` writes one from logs;
// `lockgraph check --baseline` fails only on what is not in it.
#pragma once

#include <string>
#include <vector>

#include "analysis/report.h"

namespace lockgraph {

/// 2 adds `causes` (issue 16); files of version 1 are still read (no causes).
inline constexpr int kBaselineVersion = 2;

struct Baseline {
  struct Entry {
    std::string key;   // a deadlock signature, a wait key or a finding key
    std::string what;  // for the reviewer: the statements, the lock, the rule
  };
  std::vector<Entry> deadlocks;   // sorted by key
  std::vector<Entry> lock_waits;  // sorted by key
  std::vector<Entry> findings;    // run-level findings, sorted by key
  /// Deadlock causes (rule and statements), sorted by key: for the reviewer,
  /// who accepts shapes by signature above. Empty in a version 1 file.
  std::vector<Entry> causes;

  bool HasDeadlock(const std::string& key) const;
  bool HasLockWait(const std::string& key) const;
  bool HasFinding(const std::string& key) const;
  bool HasCause(const std::string& key) const;
};

/// A lock wait's key: FNV-1a 64 of its mode, lock type, relation and
/// statement shape; pids, xids, keys, literals and times do not count.
std::string WaitKey(const Event& event);

/// WaitKey's text around the relation, for a key finished later (an emitter
/// that renders a wait before the input's relation names are all known):
/// WaitKey(event) == Fnv1a64Hex(head + relation + tail), the relation being
/// its name or, when unnamed, its OID.
struct WaitKeyText {
  std::string head, tail;
};
WaitKeyText WaitKeyParts(const Event& event);

/// What a baseline entry of a wait shows the reviewer: "ShareLock on
/// transactionid: update accounts set ... = ?".
std::string WaitDescription(const Event& event);

/// WaitDescription's text around the relation: WaitDescription(event) ==
/// head + " of " + relation + tail, or head + tail when the lock has none.
WaitKeyText WaitDescriptionParts(const Event& event);

/// A run-level finding's key: its rule and the signatures it names (PG009),
/// else its rule alone (PG011 is about the server's settings).
std::string FindingKey(const Finding& finding);

/// Every deadlock group; the lock waits of at least `min_wait_ms` among the
/// report's events; the run-level findings.
Baseline MakeBaseline(const Report& report, double min_wait_ms);

/// The same with `lock_waits` given (BaselineWaits::Entries: the report
/// need not keep its events).
Baseline MakeBaseline(const Report& report, std::vector<Baseline::Entry> lock_waits);

/// The file: {"lockgraph_baseline": 2, "deadlocks": [...], "lock_waits":
/// [...], "findings": [...], "causes": [...]}, two-space indent, one entry
/// per key.
std::string BaselineToJson(const Baseline& baseline);

/// Reads a baseline file; false and *error (naming the file) when it cannot
/// be read, is not JSON, or has a version other than 1 or 2.
bool LoadBaseline(const std::string& path, Baseline* baseline, std::string* error);

}  // namespace lockgraph
