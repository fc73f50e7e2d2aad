// The SQL Server rules, one file each (rules/sqlserver/msNNN_*.cc), listed
// by RegisterBuiltinRules() in rules/registry.cc. Pages: docs/rules/MSNNN.md.
#pragma once

#include <memory>

#include "rules/rule.h"

namespace lockgraph {

std::unique_ptr<Rule> MakeMs001KeyLookupDeadlock(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMs002ConversionDeadlock(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMs003SerializableRangeLocks(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMs004ReaderWriterDeadlock(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMs005ParallelismDeadlock(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMs006LockEscalation(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMs007ApplicationLockOrder(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMs008DeadlockInProcedure(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMs009ObjectOrderInversion(const RuleSettings& settings);

}  // namespace lockgraph
