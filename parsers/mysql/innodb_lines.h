// Recognisers for the lines of an InnoDB deadlock report (LATEST DETECTED
// DEADLOCK, or the same text in an error log), MySQL 5.0 to 8.4 and MariaDB
// 10/11: one Read* function per line kind, each a pure function of the line
// (reference sqlserver-mysql.md B4, B5, B9; docs/mysql.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

/// `*** (n) TRANSACTION:` and its kin; `number` is 0 when un-numbered.
struct InnodbHeader {
  enum class Kind { kTransaction, kHolds, kWaiting, kConflicting };
  Kind kind = Kind::kTransaction;
  int number = 0;
  /// The trx id of `WAITING FOR THIS LOCK TO BE GRANTED, WHICH CONFLICTS
  /// WITH THE LOCK HELD BY TRANSACTION <id>:` (AliSQL / Alibaba Cloud RDS);
  /// empty otherwise.
  std::string conflicts_with;
};

/// Reads a `*** ...:` section header; nothing for any other line.
std::optional<InnodbHeader> ReadInnodbHeader(std::string_view line);

/// Reads `*** WE ROLL BACK TRANSACTION (n)`: n (MariaDB may print 0).
std::optional<int> ReadInnodbVictim(std::string_view line);

/// Reads `*** WE ROLL BACK TRANSACTION <trx id>` (AliSQL names the victim
/// by its trx id): the id as printed.
std::optional<std::string> ReadInnodbVictimTrxId(std::string_view line);

/// The timestamp line before the first `***`: `YYMMDD HH:MM:SS` or
/// `YYYY-MM-DD HH:MM:SS`, optionally a thread id token, and any glued-on
/// text (the TOO DEEP message).
struct InnodbTimestamp {
  std::string time;    // "2026-12-03 13:07:01", "111212 22:52:42"
  std::string thread;  // "0x7fa10e6f66c0" (opaque), or empty
  std::string rest;    // glued-on text, trimmed
};
std::optional<InnodbTimestamp> ReadInnodbTimestamp(std::string_view line);

/// True for the TOO DEEP message (alone or glued to a timestamp).
bool IsTooDeepMessage(std::string_view text);

/// `TRANSACTION <id>, ACTIVE <n> sec <state>`.
struct InnodbTrxLine {
  std::string trx_id;  // decimal as printed; hex as printed; two-part "0 1234" folded to decimal
  std::string active;  // "ACTIVE 1 sec" part without the word ACTIVE: "1 sec"
  std::string state;   // "starting index read"; 5.0's ", process no 3, OS thread id 7 ..." and
                       // ", thread declared inside InnoDB 500" kept as printed
};
std::optional<InnodbTrxLine> ReadInnodbTrxLine(std::string_view line);

/// `MySQL thread id 7, OS thread handle 0x.., query id 24 127.0.0.1 root Updating`.
struct InnodbThreadLine {
  int64_t thread_id = 0;
  std::string os_thread_handle;
  std::string query_id;
  std::string host;    // host name or address (the first of them)
  std::string user;
  std::string state;   // "Updating"; what follows the user
};
std::optional<InnodbThreadLine> ReadInnodbThreadLine(std::string_view line);

/// `mysql tables in use 1, locked 1`.
bool ReadInnodbTablesLine(std::string_view line, std::string* in_use, std::string* locked);

/// `[LOCK WAIT ]3 lock struct(s), heap size 1128, 2 row lock(s)[, undo log entries 1]`.
struct InnodbLockStructs {
  bool lock_wait = false;
  std::string lock_structs, heap_size, row_locks, undo_entries;  // empty when not printed
};
std::optional<InnodbLockStructs> ReadInnodbLockStructs(std::string_view line);

/// A `RECORD LOCKS ...` or `TABLE LOCK ...` line.
struct InnodbLockLine {
  bool record = true;
  std::string database, table;  // unquoted; database empty when not printed
  std::string index;            // record locks, unquoted
  std::string space, page;      // record locks
  std::string trx_id;
  std::string mode;             // performance_schema.data_locks.LOCK_MODE: "X,GAP"
  bool waiting = false;
  std::string text;             // the line as logged
};
std::optional<InnodbLockLine> ReadInnodbLockLine(std::string_view line);

/// `Record lock, heap no 3 PHYSICAL RECORD: ...` (or a bare `Record lock,
/// heap no 3`): the heap number. The rest (row bytes) is never kept.
std::optional<int64_t> ReadInnodbRecordHeap(std::string_view line);

/// True for a field of a record dump (` 0: len 4; hex 80000001; asc ...;;`,
/// ` 5: SQL NULL;`): row data, customers' data included, never kept nor printed.
bool IsInnodbRecordField(std::string_view line);

/// The mode words of a lock line (`lock_mode X locks gap before rec insert
/// intention`) as data_locks names them (`X,GAP,INSERT_INTENTION`).
std::string InnodbModeName(std::string_view base, bool gap, bool rec_not_gap, bool insert_intention);

/// `db`.`tbl`, "db"."tbl", db/tbl, `tbl`: database and table without quotes.
void SplitInnodbTableName(std::string_view name, std::string* database, std::string* table);

}  // namespace lockgraph
