// The PostgreSQL server messages lockgraph reads, in English and in every
// translation it knows, kept as data (catalog_data.cc, generated from the
// servers' own .po/.mo catalogues by scripts/make-pg-catalog.py) with the
// source of each row. Matching them: catalog_match.h. Doc: docs/postgresql.md
// "Localized servers"; reference: postgresql-logs.md §8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lockgraph {

/// One translatable server text (its English msgid is in kPgMessages).
enum class PgText : uint8_t {
  kDeadlockDetected, kDeadlockEdge, kDeadlockQuery,
  kWaitAvoided, kWaitDetected, kWaitStill, kWaitAcquired, kWaitFailed,
  kTagRelation, kTagExtend, kTagFrozenIds, kTagPage, kTagTuple, kTagTransaction,
  kTagVirtualTransaction, kTagSpeculativeToken, kTagObject, kTagUserLock, kTagAdvisory,
  kTagApplyTransaction, kTagUnrecognized,
  kAtCharacter,
  kCancelLockTimeout, kCancelStatementTimeout, kCancelUserRequest, kCancelAutovacuum,
  kTerminateAdmin, kNoWaitRow, kNoWaitRelation,
  kCtxUpdating, kCtxDeleting, kCtxLocking, kCtxLockingUpdated, kCtxInsertingIndex,
  kCtxCheckingUniqueness, kCtxRechecking, kCtxCheckingExclusion,
  kCtxSqlStatement, kCtxSqlExpression, kCtxPlpgsqlAssignment, kCtxSqlFunction,
  kCtxPlpgsqlLineAt, kCtxPlpgsqlLine, kPlpgsqlSqlStatement,
  kLabelDebug, kLabelLog, kLabelInfo, kLabelNotice, kLabelWarning, kLabelError,
  kLabelFatal, kLabelPanic,
  kLabelDetail, kLabelHint, kLabelQuery, kLabelContext, kLabelLocation,
  kLabelStatement, kLabelBacktrace,
  kCount
};

/// The English msgid of a text, as the server source writes it.
struct PgMessageText {
  PgText id;
  const char* msgid;
};

/// One msgstr of one language. `source` names the catalogue (package
/// version or repository path and commit); `note` says what differs.
struct PgTranslation {
  PgText id;
  const char* lang;    // gettext language: "de", "pt_BR", "zh_CN", ...
  const char* msgstr;  // exactly as in the catalogue (printf template)
  const char* source;
  const char* note;
};

extern const PgMessageText kPgMessages[];
extern const size_t kPgMessageCount;
extern const PgTranslation kPgTranslations[];
extern const size_t kPgTranslationCount;

/// One text of `id` in one language; lang "en" is the msgid.
struct PgTextVariant {
  std::string_view lang;
  std::string_view text;
};

/// Every known text of `id`: English first, then the translations in table
/// order, without duplicates (a msgstr equal to the msgid is not repeated).
/// Built once; thread-safe.
const std::vector<PgTextVariant>& PgTextVariants(PgText id);

/// The English msgid of `id`.
std::string_view PgEnglish(PgText id);

}  // namespace lockgraph
