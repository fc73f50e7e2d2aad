// See innodb_section.h.
#include "parsers/mysql/innodb_section.h"

namespace lockgraph {
namespace {

bool Blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

}  // namespace

std::vector<InnodbLock>& InnodbSection::Locks() {
  InnodbTrx& t = report_.trxs[trx_];
  if (list_ == InnodbHeader::Kind::kHolds) return t.holds;
  if (list_ == InnodbHeader::Kind::kConflicting) return t.conflicting;
  return t.waiting;
}

void InnodbSection::Header(const InnodbHeader& h, uint64_t line_no) {
  started_ = true;
  in_query_ = false;
  if (h.kind == InnodbHeader::Kind::kTransaction) {
    InnodbTrx t;
    t.number = h.number;
    t.line_no = line_no;
    report_.trxs.push_back(std::move(t));
    trx_ = report_.trxs.size() - 1;
    part_ = Part::kTrx;
    return;
  }
  // `(n) HOLDS` names its transaction; un-numbered sections (MariaDB, TOO
  // DEEP) belong to the last one printed.
  size_t found = report_.trxs.size();
  for (size_t i = 0; i < report_.trxs.size(); ++i)
    if (h.number != 0 && report_.trxs[i].number == h.number) found = i;
  if (found == report_.trxs.size()) {
    if (h.number != 0 || report_.trxs.empty()) {
      InnodbTrx t;  // a section for a transaction not printed: keep its locks
      t.number = h.number;
      t.line_no = line_no;
      report_.trxs.push_back(std::move(t));
    }
    found = report_.trxs.size() - 1;
  }
  trx_ = found;
  list_ = h.kind;
  part_ = Part::kLocks;
  if (h.kind == InnodbHeader::Kind::kWaiting && !h.conflicts_with.empty())
    report_.trxs[trx_].waits_for_trx = h.conflicts_with;
}

InnodbSection::Outcome InnodbSection::AddTrxLine(std::string_view text) {
  InnodbTrx& t = report_.trxs[trx_];
  if (in_query_) {
    // A record dump where SQL text is expected (its lock header was not
    // read): row data, never kept in the query.
    if (IsInnodbRecordField(text)) return Outcome::kTaken;
    // Empty lines before the SQL text (pastes with filler lines) are not SQL.
    if (t.query.empty() && Blank(text)) return Outcome::kTaken;
    t.query += (t.query.empty() ? "" : "\n") + std::string(text);
    return Outcome::kTaken;
  }
  if (Blank(text)) return Outcome::kTaken;
  if (auto trx = ReadInnodbTrxLine(text); trx && !t.trx) {
    t.trx = std::move(trx);
  } else if (ReadInnodbTablesLine(text, &t.tables_in_use, &t.tables_locked)) {
  } else if (auto s = ReadInnodbLockStructs(text)) {
    t.structs = std::move(s);
  } else if (auto th = ReadInnodbThreadLine(text)) {
    t.thread = std::move(th);
    in_query_ = true;
  } else {
    return Outcome::kNotUnderstood;
  }
  return Outcome::kTaken;
}

InnodbSection::Outcome InnodbSection::AddLockLine(std::string_view text, uint64_t line_no) {
  if (Blank(text)) return Outcome::kTaken;
  std::vector<InnodbLock>& locks = Locks();
  if (auto l = ReadInnodbLockLine(text)) {
    locks.push_back({std::move(*l), {}, line_no, {}});
    return Outcome::kTaken;
  }
  if (locks.empty()) return Outcome::kNotUnderstood;
  if (show_records_) locks.back().records.emplace_back(text);  // asked for: kept as printed
  if (auto heap = ReadInnodbRecordHeap(text)) {
    locks.back().heaps.push_back(*heap);
    return Outcome::kTaken;
  }
  // A field of a record dump (` 0: len 4; hex 80000001; asc     ;;`), or a
  // piece of one cut by a newline byte in the row: row data, kept only
  // with --show-records.
  return Outcome::kTaken;
}

InnodbSection::Outcome InnodbSection::Add(std::string_view text, uint64_t line_no) {
  report_.last_line = line_no;
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (auto h = ReadInnodbHeader(text)) {
    Header(*h, line_no);
    return Outcome::kTaken;
  }
  if (auto v = ReadInnodbVictim(text)) {
    report_.victim = *v;
    return Outcome::kEnd;
  }
  if (auto id = ReadInnodbVictimTrxId(text)) {
    report_.victim_trx_id = *id;
    return Outcome::kEnd;
  }
  if (!started_) {
    if (Blank(text)) return Outcome::kTaken;
    if (auto ts = ReadInnodbTimestamp(text); ts && report_.report_time.empty()) {
      report_.report_time = ts->time;
      report_.thread = ts->thread;
      if (report_.time.empty()) report_.time = ts->time;
      report_.too_deep = !ts->rest.empty();
      return Outcome::kTaken;
    }
    if (IsTooDeepMessage(text)) {
      report_.too_deep = true;
      return Outcome::kTaken;
    }
    return Outcome::kNotUnderstood;
  }
  if (part_ == Part::kTrx) {
    // The SQL text ends at the next `***` line; a lock line right after the
    // thread line (no SQL printed) starts no section, so it stays text.
    return AddTrxLine(text);
  }
  return AddLockLine(text, line_no);
}

}  // namespace lockgraph
