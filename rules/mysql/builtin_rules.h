// The MySQL / MariaDB InnoDB rules, one file each (rules/mysql/myNNN_*.cc),
// listed by RegisterBuiltinRules() in rules/registry.cc. Pages:
// docs/rules/MYNNN.md.
#pragma once

#include <memory>

#include "rules/rule.h"

namespace lockgraph {

std::unique_ptr<Rule> MakeMy001GapInsertIntention(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMy002DuplicateKeyInsert(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMy003SharedLockUpgrade(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMy004SecondaryIndexOrder(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMy005ForeignKeyParentLock(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMy006AutoIncLock(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMy007OppositeRowOrder(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMy008RepeatableReadGapLocks(const RuleSettings& settings);
std::unique_ptr<Rule> MakeMy009IdleInTransactionBlocker(const RuleSettings& settings);

/// Every MySQL rule, in ID order (one line in RegisterBuiltinRules()).
inline void AddMysqlRules(const RuleSettings& s, std::vector<std::unique_ptr<Rule>>* rules) {
  rules->push_back(MakeMy001GapInsertIntention(s));
  rules->push_back(MakeMy002DuplicateKeyInsert(s));
  rules->push_back(MakeMy003SharedLockUpgrade(s));
  rules->push_back(MakeMy004SecondaryIndexOrder(s));
  rules->push_back(MakeMy005ForeignKeyParentLock(s));
  rules->push_back(MakeMy006AutoIncLock(s));
  rules->push_back(MakeMy007OppositeRowOrder(s));
  rules->push_back(MakeMy008RepeatableReadGapLocks(s));
  rules->push_back(MakeMy009IdleInTransactionBlocker(s));
}

}  // namespace lockgraph
