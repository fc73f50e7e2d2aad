// The explicit list of rules, in ID order. A new rule is one file plus one
// line here (no static self-registration).
#include "rules/postgresql/builtin_rules.h"
#include "rules/mysql/builtin_rules.h"
#include "rules/sqlserver/builtin_rules.h"

namespace lockgraph {

std::vector<std::unique_ptr<Rule>> RegisterBuiltinRules(const RuleSettings& settings) {
  std::vector<std::unique_ptr<Rule>> rules;
  rules.push_back(MakePg001InconsistentRowLockOrder(settings));
  rules.push_back(MakePg002NumericKeysInTextOrder(settings));
  rules.push_back(MakePg003TableOrderInversion(settings));
  rules.push_back(MakePg004LockUpgrade(settings));
  rules.push_back(MakePg005ForeignKeyParentChild(settings));
  rules.push_back(MakePg006DdlVsDml(settings));
  rules.push_back(MakePg007AdvisoryLockOrder(settings));
  rules.push_back(MakePg008DeadlockInFunction(settings));
  rules.push_back(MakePg009RetryStorm(settings));
  rules.push_back(MakePg010LongLockWait(settings));
  rules.push_back(MakePg011MissingEvidence(settings));
  rules.push_back(MakePg012DeadlockAtCommit(settings));
  rules.push_back(MakePg013UnbrokenLockCycle(settings));
  rules.push_back(MakePg014IdleInTransactionBlocker(settings));
  rules.push_back(MakePg015IdleSessionAdvisoryLock(settings));
  rules.push_back(MakePg016RerunDuplicateKey(settings));
  rules.push_back(MakePg017QueueWithoutSkipLocked(settings));
  rules.push_back(MakeMs001KeyLookupDeadlock(settings));
  rules.push_back(MakeMs002ConversionDeadlock(settings));
  rules.push_back(MakeMs003SerializableRangeLocks(settings));
  rules.push_back(MakeMs004ReaderWriterDeadlock(settings));
  rules.push_back(MakeMs005ParallelismDeadlock(settings));
  rules.push_back(MakeMs006LockEscalation(settings));
  rules.push_back(MakeMs007ApplicationLockOrder(settings));
  rules.push_back(MakeMs008DeadlockInProcedure(settings));
  rules.push_back(MakeMs009ObjectOrderInversion(settings));
  AddMysqlRules(settings, &rules);
  return rules;
}

}  // namespace lockgraph
