// See event_facts.h.
#include "analysis/event_facts.h"

#include <map>

namespace lockgraph {
namespace {

const ContextFrame* FirstFrame(const std::vector<ContextFrame>& context, ContextFrame::Kind kind) {
  for (const ContextFrame& f : context)
    if (f.kind == kind) return &f;
  return nullptr;
}

bool WaitsForOwnRows(const StatementFacts& s) {
  return s.verb == "update" || s.verb == "delete" || (s.verb == "select" && !s.row_lock.empty());
}

// Statements whose relation lock waits are on their own target table.
bool LocksOwnTable(const StatementFacts& s) {
  return WaitsForOwnRows(s) || s.verb == "insert" || s.verb == "lock" || s.verb == "select" ||
         s.ddl;
}

// The key a statement waits for, when it names exactly one row.
std::optional<KeyLiteral> WantedKey(const StatementFacts& s) {
  if (s.keys.empty() || !WaitsForOwnRows(s)) return std::nullopt;
  for (size_t i = 1; i < s.keys.size(); ++i)
    if (s.keys[i].column == s.keys[0].column) return std::nullopt;  // IN (...): which one?
  return s.keys[0];
}

ProcessFacts ReadProcess(const Participant& p, const Deadlock& d, const ContextFrame* spi) {
  ProcessFacts f;
  f.participant = &p;
  for (const WaitEdge& e : d.edges)
    if (e.waiter == p.id) f.wait = &e;
  f.clipped = p.query_clipped;
  const bool victim = p.id == d.victim;
  f.query = (victim && p.query_clipped && !d.statement.empty()) ? d.statement : p.query;
  // The victim's CONTEXT names the statement that waits inside a function
  // or a foreign-key check; the DETAIL only has the top-level query.
  f.statement = ReadStatement(victim && spi ? std::string_view(spi->statement) : f.query);
  // The shape comes from the text as logged, so that it does not depend on
  // which participant happened to be the victim.
  f.shape = StatementShape(p.query, p.query_clipped);
  f.wants = WantedKey(f.statement);
  return f;
}

// Names the table each process waits on. Lock tags carry OIDs: tie each
// OID to the target table of a statement that waits on it, which is safer
// than a name bound elsewhere in the log from a tuple position alone.
void NameWaitTables(const Deadlock& d, DeadlockFacts* facts) {
  std::map<std::string, std::string> names;  // relation OID -> table
  for (const ProcessFacts& p : facts->processes) {
    if (!p.wait) continue;
    std::string oid(p.wait->lock.Field("relation"));
    if (!oid.empty() && !p.statement.table.empty() && LocksOwnTable(p.statement))
      names.emplace(oid, p.statement.table);
  }
  // Statement tables first, for every participant alike: the victim's CONTEXT
  // names a partition or a view's base table where the others' statements
  // name the table they were written against.
  for (ProcessFacts& p : facts->processes) {
    if (!p.wait) continue;
    std::string oid(p.wait->lock.Field("relation"));
    if (!p.statement.table.empty() &&
        (WaitsForOwnRows(p.statement) || (!oid.empty() && LocksOwnTable(p.statement)))) {
      p.wait_table = p.statement.table;
    } else if (!oid.empty()) {
      auto it = names.find(oid);
      p.wait_table = it == names.end() ? LockRelation(p.wait->lock) : it->second;
    } else if (p.wait->lock.type == "transactionid" && p.participant->id == d.victim &&
               facts->row_wait) {
      p.wait_table = facts->row_wait->relation;
    }
  }
}

// A process that blocks a transaction-lock waiter holds the row that waiter wants.
void DeriveHeldRows(DeadlockFacts* facts) {
  for (const ProcessFacts& p : facts->processes) {
    if (!p.wait || p.wait->lock.type != "transactionid" || !p.wants || p.wait_table.empty())
      continue;
    for (ProcessFacts& q : facts->processes)
      if (q.participant->id == p.wait->blocker && !q.holds) q.holds = p.wants;
  }
}

// T-SQL delimited identifiers ([dbo].[t1]) as plain ones, so that the
// statement's table and shape do not depend on the brackets the report
// happens to print.
std::string WithoutBrackets(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  bool quoted = false;
  for (size_t i = 0; i < sql.size(); ++i) {
    char c = sql[i];
    if (c == '\'') quoted = !quoted;
    if (!quoted && c == '[') {
      size_t end = sql.find(']', i + 1);
      if (end != std::string_view::npos && sql.find('\n', i) > end) {
        out += sql.substr(i + 1, end - i - 1);
        i = end;
        continue;
      }
    }
    out += c;
  }
  return out;
}

// The numbered parameters of auto-parameterized statements (@1, @2) as $1,
// $2, which the lexer reads as parameters and the normalizer writes "?".
// @name variables stay as written.
std::string NumberedParams(std::string_view sql) {
  std::string out(sql);
  bool quoted = false;
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '\'') quoted = !quoted;
    if (!quoted && out[i] == '@' && out[i + 1] >= '0' && out[i + 1] <= '9' &&
        (i == 0 || out[i - 1] != '@'))
      out[i] = '$';
  }
  return out;
}

// A SQL Server process: its statement is the innermost frame the report
// gives text for (a procedure's statement, or the ad hoc batch's), else the
// input buffer. The waited-on table is the resource's objectname.
ProcessFacts ReadSqlServerProcess(const Participant& p, const Deadlock& d) {
  ProcessFacts f;
  f.participant = &p;
  for (const WaitEdge& e : d.edges)
    if (e.waiter == p.id) f.wait = &e;
  for (const ContextFrame& frame : p.frames)
    if (!frame.statement.empty() && frame.statement != "unknown") {
      f.frame = &frame;
      break;
    }
  f.query = WithoutBrackets(f.frame ? f.frame->statement : p.query);
  const std::string lexed = NumberedParams(f.query);
  f.statement = ReadStatement(lexed);
  f.shape = StatementShape(lexed, false);
  if (f.wait) {
    std::string_view object = f.wait->lock.Field("objectname");
    f.wait_table = std::string(object.substr(object.rfind('.') + 1));
  }
  return f;
}

}  // namespace

const ProcessFacts* DeadlockFacts::Find(const std::string& id) const {
  for (const ProcessFacts& p : processes)
    if (p.participant->id == id) return &p;
  return nullptr;
}

std::string LockRelation(const LockTarget& lock) {
  std::string_view rel = lock.Field("relation");
  if (rel.empty()) return "";
  if (!lock.relation_name.empty()) return lock.relation_name;
  return "relation " + std::string(rel);
}

EventFacts ReadEventFacts(const Event& event) {
  EventFacts out;
  if (event.lock_wait) out.wait = ReadStatement(event.lock_wait->statement);
  if (!event.deadlock) return out;
  const Deadlock& d = *event.deadlock;
  DeadlockFacts facts;
  facts.engine = event.engine;
  if (event.engine == "sqlserver") {
    for (const Participant& p : d.processes) facts.processes.push_back(ReadSqlServerProcess(p, d));
    out.deadlock = std::move(facts);
    return out;
  }
  facts.row_wait = FirstFrame(d.context, ContextFrame::Kind::kRowWait);
  facts.function = FirstFrame(d.context, ContextFrame::Kind::kFunction);
  facts.sql_statement = FirstFrame(d.context, ContextFrame::Kind::kSqlStatement);
  for (const Participant& p : d.processes)
    facts.processes.push_back(ReadProcess(p, d, facts.sql_statement));
  facts.row_cycle = !d.edges.empty();
  for (const WaitEdge& e : d.edges)
    if (e.lock.type != "transactionid" && e.lock.type != "tuple") facts.row_cycle = false;
  NameWaitTables(d, &facts);
  DeriveHeldRows(&facts);
  out.deadlock = std::move(facts);
  return out;
}

}  // namespace lockgraph
