// The PostgreSQL rules, one file each (rules/postgresql/pgNNN_*.cc), listed
// by RegisterBuiltinRules() in rules/registry.cc. Pages: docs/rules/PGNNN.md.
#pragma once

#include <memory>

#include "rules/rule.h"

namespace lockgraph {

std::unique_ptr<Rule> MakePg001InconsistentRowLockOrder(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg002NumericKeysInTextOrder(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg003TableOrderInversion(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg004LockUpgrade(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg005ForeignKeyParentChild(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg006DdlVsDml(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg007AdvisoryLockOrder(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg008DeadlockInFunction(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg009RetryStorm(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg010LongLockWait(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg011MissingEvidence(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg012DeadlockAtCommit(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg013UnbrokenLockCycle(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg014IdleInTransactionBlocker(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg015IdleSessionAdvisoryLock(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg016RerunDuplicateKey(const RuleSettings& settings);
std::unique_ptr<Rule> MakePg017QueueWithoutSkipLocked(const RuleSettings& settings);

}  // namespace lockgraph
