// See innodb_lines.h. The patterns follow reference B9: the shortest text up
// to ` of table ` is the index, up to ` trx id ` the table.
#include "parsers/mysql/innodb_lines.h"

#include <re2/re2.h>

#include "text/number.h"

namespace lockgraph {
namespace {

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// A two-part id ("0 1234": high and low 32-bit halves, 5.0/5.1) as one
// decimal number; any other id as printed.
std::string FoldTrxId(const std::string& id) {
  size_t space = id.find(' ');
  if (space == std::string::npos) return id;
  uint64_t high = 0, low = 0;
  for (char c : id.substr(0, space)) high = high * 10 + uint64_t(c - '0');
  for (char c : id.substr(space + 1)) low = low * 10 + uint64_t(c - '0');
  return std::to_string((high << 32) + low);
}

std::string Unquote(std::string_view s) {
  s = Trim(s);
  if (s.size() >= 2 && (s.front() == '`' || s.front() == '"') && s.back() == s.front()) {
    char q = s.front();
    std::string out;
    std::string_view inner = s.substr(1, s.size() - 2);
    for (size_t i = 0; i < inner.size(); ++i) {
      out += inner[i];
      if (inner[i] == q && i + 1 < inner.size() && inner[i + 1] == q) ++i;  // doubled quote
    }
    return out;
  }
  return std::string(s);
}

bool LooksLikeAddress(std::string_view t) {
  if (t.empty()) return false;
  bool digit = false;
  for (char c : t) {
    if (c >= '0' && c <= '9') digit = true;
    else if (c != '.' && c != ':' && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F'))
      return false;
  }
  return digit || t.find(':') != std::string_view::npos;
}

}  // namespace

std::optional<InnodbHeader> ReadInnodbHeader(std::string_view line) {
  // The regex's first words, asked first: format sniffing tries every line
  // of every input, and then the regex is not even compiled.
  if (Trim(line).substr(0, 3) != "***") return std::nullopt;
  static const RE2 re(
      R"(\*\*\* +(?:\((\d+)\) )?(TRANSACTION|HOLDS THE LOCK(?:\(S\))?|WAITING FOR THIS LOCK TO BE GRANTED|CONFLICTING WITH)(?:, WHICH CONFLICTS WITH THE LOCK HELD BY TRANSACTION ([0-9A-Fa-f]+))?:\s*)");
  std::string number, what, conflicts_with;
  if (!RE2::FullMatch(Piece(Trim(line)), re, &number, &what, &conflicts_with)) return std::nullopt;
  InnodbHeader h;
  h.conflicts_with = conflicts_with;
  h.number = number.empty() ? 0 : std::stoi(number.substr(0, 6));
  if (what == "TRANSACTION") h.kind = InnodbHeader::Kind::kTransaction;
  else if (what[0] == 'H') h.kind = InnodbHeader::Kind::kHolds;
  else if (what[0] == 'W') h.kind = InnodbHeader::Kind::kWaiting;
  else h.kind = InnodbHeader::Kind::kConflicting;
  return h;
}

std::optional<int> ReadInnodbVictim(std::string_view line) {
  static const RE2 re(R"(\*\*\* WE ROLL BACK TRANSACTION \((\d{1,6})\)\s*)");
  int n = 0;
  if (!RE2::FullMatch(Piece(Trim(line)), re, &n)) return std::nullopt;
  return n;
}

std::optional<std::string> ReadInnodbVictimTrxId(std::string_view line) {
  static const RE2 re(R"(\*\*\* WE ROLL BACK TRANSACTION ([0-9A-Fa-f]+)\s*)");
  std::string id;
  if (!RE2::FullMatch(Piece(Trim(line)), re, &id)) return std::nullopt;
  return id;
}

bool IsTooDeepMessage(std::string_view text) {
  return Trim(text).rfind("TOO DEEP OR LONG SEARCH IN THE LOCK TABLE", 0) == 0;
}

std::optional<InnodbTimestamp> ReadInnodbTimestamp(std::string_view line) {
  static const RE2 re(
      R"((\d{6} [ \d]\d:\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?: ([0-9A-Fa-fx]+))?(.*))");
  InnodbTimestamp t;
  std::string rest;
  // Trimmed: a section pasted with every line indented.
  if (!RE2::FullMatch(Piece(Trim(line)), re, &t.time, &t.thread, &rest)) return std::nullopt;
  t.rest = std::string(Trim(rest));
  if (!t.rest.empty() && !IsTooDeepMessage(t.rest)) return std::nullopt;
  return t;
}

std::optional<InnodbTrxLine> ReadInnodbTrxLine(std::string_view line) {
  static const RE2 re(
      R"(TRANSACTION (\d+ \d+|[0-9A-Fa-f]+)(?:, .*?)?, ACTIVE ((?:\(PREPARED\) )?\d+ sec)(.*))");
  InnodbTrxLine t;
  std::string id, state;
  if (!RE2::FullMatch(Piece(Trim(line)), re, &id, &t.active, &state)) return std::nullopt;
  t.trx_id = FoldTrxId(id);
  t.state = std::string(Trim(state));
  return t;
}

std::optional<InnodbThreadLine> ReadInnodbThreadLine(std::string_view line) {
  static const RE2 re(
      R"((?:MySQL|MariaDB) thread id (\d+),(?: OS thread handle ([^,]+),)? query id (\d+)(?: (.*))?)");
  InnodbThreadLine t;
  std::string id, rest;
  if (!RE2::FullMatch(Piece(Trim(line)), re, &id, &t.os_thread_handle, &t.query_id, &rest))
    return std::nullopt;
  std::optional<int64_t> thread = ParseNumber<int64_t>(id);
  if (!thread) return std::nullopt;
  t.thread_id = *thread;
  // Host, address, user and state, unquoted and separated by spaces (B4):
  // host first; an address right after a name is the same client's.
  std::vector<std::string_view> words;
  std::string_view r = Trim(rest);
  while (!r.empty()) {
    size_t sp = r.find(' ');
    words.push_back(r.substr(0, sp));
    r = sp == std::string_view::npos ? std::string_view() : Trim(r.substr(sp + 1));
  }
  size_t i = 0;
  if (words.size() >= 2 && words[0] == "system" && words[1] == "user") {
    t.user = "system user";
    i = 2;
  } else if (words.size() >= 2) {
    t.host = std::string(words[0]);
    i = 1;
    if (words.size() >= 3 && !LooksLikeAddress(words[0]) && LooksLikeAddress(words[1])) i = 2;
    t.user = std::string(words[i++]);
  } else if (words.size() == 1) {
    t.host = std::string(words[0]);
    i = 1;
  }
  for (; i < words.size(); ++i) t.state += (t.state.empty() ? "" : " ") + std::string(words[i]);
  return t;
}

bool ReadInnodbTablesLine(std::string_view line, std::string* in_use, std::string* locked) {
  static const RE2 re(R"(mysql tables in use (\d+), locked (\d+))");
  return RE2::FullMatch(Piece(Trim(line)), re, in_use, locked);
}

std::optional<InnodbLockStructs> ReadInnodbLockStructs(std::string_view line) {
  static const RE2 re(
      R"((LOCK WAIT )?(\d+) lock struct\(s\), heap size (\d+)(?:, (\d+) row lock\(s\))?(?:, undo log entries (\d+))?)");
  InnodbLockStructs s;
  std::string wait;
  if (!RE2::FullMatch(Piece(Trim(line)), re, &wait, &s.lock_structs, &s.heap_size, &s.row_locks,
                      &s.undo_entries))
    return std::nullopt;
  s.lock_wait = !wait.empty();
  return s;
}

std::string InnodbModeName(std::string_view base, bool gap, bool rec_not_gap, bool insert_intention) {
  std::string mode(base == "AUTO-INC" ? "AUTO_INC" : base);
  if (gap) mode += ",GAP";
  if (rec_not_gap) mode += ",REC_NOT_GAP";
  if (insert_intention) mode += ",INSERT_INTENTION";
  return mode;
}

void SplitInnodbTableName(std::string_view name, std::string* database, std::string* table) {
  name = Trim(name);
  if (size_t c = name.find(" /*"); c != std::string_view::npos) name = Trim(name.substr(0, c));
  for (std::string_view sep : {"`.`", "\".\""}) {
    if (size_t p = name.find(sep); p != std::string_view::npos) {
      *database = Unquote(name.substr(0, p + 1));
      *table = Unquote(name.substr(p + 2));
      return;
    }
  }
  // 5.0 and 5.1 print InnoDB's internal name db/tbl, bare or as one quoted
  // identifier (`test/ad_data`); later versions print `db`.`tbl` (above), so
  // a slash in one identifier is that separator.
  std::string whole = Unquote(name);
  if (size_t p = whole.find('/'); p != std::string::npos && p > 0 && p + 1 < whole.size()) {
    *database = whole.substr(0, p);
    *table = whole.substr(p + 1);
    return;
  }
  database->clear();
  *table = std::move(whole);
}

std::optional<InnodbLockLine> ReadInnodbLockLine(std::string_view line) {
  // The regexes' first words, asked first (as in ReadInnodbHeader).
  const std::string_view first = Trim(line);
  if (first.substr(0, 13) != "RECORD LOCKS " && first.substr(0, 11) != "TABLE LOCK ")
    return std::nullopt;
  static const RE2 rec(
      R"(RECORD LOCKS space id (\d+) page no (\d+) n bits \d+ index ?(.+?) of table (.+?) +trx +id (\d+ \d+|[0-9A-Fa-f]+)(?:,? .*?)? lock[ _]mode (S|X)( locks gap before rec)?( locks rec but not gap)?( insert intention)?( waiting)?)");
  static const RE2 tab(
      R"(TABLE LOCK table (.+?) +trx +id (\d+ \d+|[0-9A-Fa-f]+)(?:,? .*?)? lock mode (IS|IX|S|X|AUTO-INC)( waiting)?)");
  std::string_view t = Trim(line);
  if (t.empty()) return std::nullopt;
  InnodbLockLine l;
  std::string index, table, trx, base, gap, not_gap, ii, waiting;
  if (RE2::FullMatch(Piece(t), rec, &l.space, &l.page, &index, &table, &trx, &base, &gap, &not_gap,
                     &ii, &waiting)) {
    l.index = Unquote(index);
    l.mode = InnodbModeName(base, !gap.empty(), !not_gap.empty(), !ii.empty());
  } else if (RE2::FullMatch(Piece(t), tab, &table, &trx, &base, &waiting)) {
    l.record = false;
    l.mode = InnodbModeName(base, false, false, false);
  } else {
    return std::nullopt;
  }
  SplitInnodbTableName(table, &l.database, &l.table);
  l.trx_id = FoldTrxId(trx);
  l.waiting = !waiting.empty();
  l.text = std::string(t);
  return l;
}

bool IsInnodbRecordField(std::string_view line) {
  static const RE2 re(R"(\d{1,4}: (?:len \d+; hex |SQL NULL).*)");
  return RE2::FullMatch(Piece(Trim(line)), re);
}

std::optional<int64_t> ReadInnodbRecordHeap(std::string_view line) {
  static const RE2 re(R"(Record lock, heap no (\d{1,9})(?:\s.*)?)");
  int64_t heap = 0;
  if (!RE2::FullMatch(Piece(Trim(line)), re, &heap)) return std::nullopt;
  return heap;
}

}  // namespace lockgraph
