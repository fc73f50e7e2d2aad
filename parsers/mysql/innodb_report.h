// One InnoDB deadlock report as read (InnodbSection gathers it line by
// line), and its turn into a deadlock Event of engine "mysql": transactions
// as processes named by their connection id, lock modes as
// performance_schema.data_locks names them, and wait-for edges that the
// report names (HOLDS, CONFLICTING WITH) or that InnoDB's printing order
// implies (derived). docs/mysql.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/event.h"
#include "parsers/mysql/innodb_lines.h"

namespace lockgraph {

/// A lock line with the heap numbers of the records listed under it.
struct InnodbLock {
  InnodbLockLine line;
  std::vector<int64_t> heaps;
  uint64_t line_no = 0;
  /// The record lines under it (heap lines and dump fields), only with
  /// --show-records: row data.
  std::vector<std::string> records;
};

/// One `*** (n) TRANSACTION:` block and the lock sections that follow it.
struct InnodbTrx {
  int number = 0;  // 0: un-numbered (TOO DEEP)
  uint64_t line_no = 0;
  std::optional<InnodbTrxLine> trx;
  std::optional<InnodbThreadLine> thread;
  std::string tables_in_use, tables_locked;
  std::optional<InnodbLockStructs> structs;
  std::string query;  // the SQL text lines, joined by '\n'
  std::vector<InnodbLock> holds, waiting, conflicting;
  std::string waits_for_trx;  // AliSQL: the trx id its WAITING header names
};

struct InnodbReport {
  std::string file;
  uint64_t first_line = 0, last_line = 0;
  /// "LATEST DETECTED DEADLOCK" (status output) or "Transactions deadlock
  /// detected" (error log): goes to Deadlock::message.
  std::string form;
  std::string time;         // the error-log entry's time, else the report's timestamp line
  std::string report_time;  // the report's own timestamp line, when printed
  std::string thread;       // the token after it (opaque)
  bool too_deep = false;    // TOO DEEP OR LONG SEARCH ...: no cycle, no victim line
  std::optional<int> victim;  // n of WE ROLL BACK TRANSACTION (n)
  std::string victim_trx_id;  // AliSQL: WE ROLL BACK TRANSACTION <trx id>
  bool cut = false;         // the input (or the section) ended before the report did
  std::vector<InnodbTrx> trxs;
  std::vector<std::string> problems;  // lines the reader could not place
};

/// Never fails: what the report lacks is a problem of the deadlock
/// (complete = false); nothing is invented.
Event BuildInnodbDeadlock(const InnodbReport& report);

}  // namespace lockgraph
