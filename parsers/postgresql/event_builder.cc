// See event_builder.h. Deadlock reports: reference §3.1; lock waits: §3.2.
#include "parsers/postgresql/event_builder.h"

#include "graph/wait_for_graph.h"
#include "parsers/postgresql/catalog_match.h"
#include "parsers/postgresql/cursor_position.h"
#include "parsers/postgresql/lock_wait_tracker.h"
#include "parsers/postgresql/messages.h"
#include "parsers/postgresql/relation_names.h"
#include "text/number.h"

namespace lockgraph {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool Contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// "deadlock detected" in English and in every translation of the server
// catalogues (catalog_data.cc).
bool IsDeadlockMessage(std::string_view m) {
  if (m == "deadlock detected") return true;
  static const PgPrefixSet kPrefixes({PgText::kDeadlockDetected});
  return kPrefixes.MayMatch(m) && MatchPgText(PgText::kDeadlockDetected, m);
}

/// An event of `type` with what every event takes from its record: time,
/// pid, source span, session, whether it was cut.
Event EventOfRecord(EventType type, const LogRecord& r) {
  Event ev;
  ev.type = type;
  ev.time = r.time;
  ev.pid = r.pid;
  ev.source = r.source;
  ev.session = r.session;
  ev.truncated = r.truncated;
  return ev;
}

Event MakeDeadlock(const LogRecord& r) {
  Event ev = EventOfRecord(EventType::kDeadlock, r);
  Deadlock d;
  d.victim = r.pid ? std::to_string(*r.pid) : "";
  if (r.primary_missing) {
    d.complete = false;
    d.problems.push_back(
        "the \"ERROR:  deadlock detected\" line is missing: the input begins at the "
        "report's DETAIL (grep output or an excerpt)");
  }
  d.message = r.message;
  d.sqlstate = r.sqlstate.empty() ? "40P01" : r.sqlstate;
  d.hint = r.hint;
  d.statement = r.statement;
  d.context = ParseContext(r.context);
  if (r.detail.empty()) {
    d.complete = false;
    d.problems.push_back(
        "no DETAIL: the cycle was not logged (log_error_verbosity = terse, or "
        "the record was cut)");
  } else {
    DeadlockDetail detail = ParseDeadlockDetail(r.detail);
    d.edges = std::move(detail.edges);
    d.processes = std::move(detail.processes);
    d.problems.insert(d.problems.end(), detail.problems.begin(), detail.problems.end());
    // No %p in the prefix: DeadLockReport() lists the detecting backend's
    // own wait first, and the detecting backend is the one cancelled.
    if (d.victim.empty() && !d.edges.empty()) d.victim = d.edges.front().waiter;
    if (!OrderCycleFromVictim(d.victim, &d.edges, &d.processes, &d.problems))
      d.complete = false;
    if (d.complete && !CycleMatchesGraph(d)) {
      d.complete = false;
      d.problems.push_back("the wait-for graph of these edges has another cycle through the victim");
    }
    if (!d.problems.empty()) d.complete = false;
  }
  if (r.truncated) {
    d.complete = false;
    d.problems.push_back("the record is cut (end of input)");
  }
  // The victim is the only participant whose session the record describes.
  for (Participant& p : d.processes)
    if (p.id == d.victim) p.session = r.session;
  if (!ev.pid && !d.victim.empty()) ev.pid = ParseNumber<int64_t>(d.victim);
  ev.deadlock = std::move(d);
  return ev;
}

constexpr std::string_view kUniqueViolation = "duplicate key value violates unique constraint";

// SQLSTATE 23505 in English (csvlog and jsonlog also carry the code; a
// translated stderr log without %e is not read: docs/rules/PG016.md).
bool IsUniqueViolation(const LogRecord& r) {
  return StartsWith(r.message, kUniqueViolation) &&
         (r.sqlstate.empty() || r.sqlstate == "23505");
}

// `duplicate key value violates unique constraint "c"`, DETAIL `Key (a, b)=(1, 2)
// already exists.`: the constraint and the key, for PG016.
Event MakeUniqueViolation(const LogRecord& r) {
  Event ev = EventOfRecord(EventType::kUniqueViolation, r);
  UniqueViolation u;
  std::string_view rest = std::string_view(r.message).substr(kUniqueViolation.size());
  if (rest.size() >= 3 && rest[0] == ' ' && rest[1] == '"' && rest.back() == '"')
    u.constraint = std::string(rest.substr(2, rest.size() - 3));
  std::string_view detail = std::string_view(r.detail).substr(0, r.detail.find('\n'));
  constexpr std::string_view kKey = "Key ", kExists = " already exists.";
  if (StartsWith(detail, kKey) && detail.size() > kKey.size() + kExists.size() &&
      detail.substr(detail.size() - kExists.size()) == kExists)
    u.key = std::string(detail.substr(kKey.size(), detail.size() - kKey.size() - kExists.size()));
  u.statement = r.statement;
  ev.unique_violation = std::move(u);
  return ev;
}

}  // namespace

PgEventBuilder::PgEventBuilder(ParseSink& sink)
    : sink_(&sink),
      names_(std::make_unique<RelationNames>()),
      waits_(std::make_unique<LockWaitTracker>([this](Event&& ev) {
        Emit(std::move(ev));
      })) {}

PgEventBuilder::~PgEventBuilder() = default;

bool PgEventBuilder::IsInterestingOther(std::string_view m) {
  // Prefix tests only: this runs on every record of a log, and every
  // message that matters starts in one of these ways (reference §3). The
  // first byte picks the few English prefixes to try; most records of a
  // busy log are log_min_duration_statement's, which IsInteresting()
  // answers inline.
  switch (m.empty() ? '\0' : m[0]) {
    case 'd':
      if (m.starts_with("deadlock detected") || m.starts_with(kUniqueViolation)) return true;
      break;
    case 'p':
      if (m.starts_with("process ") &&
          (Contains(m, " waiting for ") || Contains(m, " acquired ") ||
           Contains(m, " avoided deadlock") || Contains(m, " failed to acquire ") ||
           Contains(m, " could not obtain ")))
        return true;
      break;
    case 'c':
      if (m.starts_with("canceling statement due to") || m.starts_with("could not obtain lock"))
        return true;
      break;
    case 't':
      if (m.starts_with("terminating connection")) return true;
      break;
  }
  // A localized server (catalog.h): the same messages, translated. One
  // table lookup on the first byte rules out almost every other message.
  static const PgPrefixSet kTranslated(
      {PgText::kDeadlockDetected, PgText::kWaitStill, PgText::kWaitAcquired,
       PgText::kWaitAvoided, PgText::kWaitDetected, PgText::kWaitFailed,
       PgText::kCancelLockTimeout, PgText::kCancelStatementTimeout,
       PgText::kCancelUserRequest, PgText::kTerminateAdmin, PgText::kNoWaitRow,
       PgText::kNoWaitRelation});
  return kTranslated.MayMatch(m);
}

bool PgEventBuilder::IsOrphanDetail(std::string_view detail) {
  static const PgPrefixSet kPrefixes({PgText::kDeadlockEdge});
  // This runs on every DETAIL of a log (a statement's parameters, a key):
  // one byte rules out most of them before the first line is cut.
  if (detail.empty() || (detail[0] != 'P' && !kPrefixes.MayStartWith(detail[0]))) return false;
  const std::string_view first = detail.substr(0, detail.find('\n'));
  if (StartsWith(first, "Process ")) return Contains(first, " waits for ");
  return kPrefixes.MayMatch(first) && MatchPgText(PgText::kDeadlockEdge, first);
}

void PgEventBuilder::Emit(Event&& ev) {
  std::vector<const LockTarget*> locks;
  std::vector<ContextFrame> none;
  const std::vector<ContextFrame>* context = &none;
  if (ev.deadlock) {
    for (const WaitEdge& e : ev.deadlock->edges) locks.push_back(&e.lock);
    context = &ev.deadlock->context;
  } else if (ev.lock_wait) {
    locks.push_back(&ev.lock_wait->lock);
    context = &ev.lock_wait->context;
  }
  names_->Learn(locks, *context);
  names_->ResolveEvent(&ev);
  sink_->OnEvent(std::move(ev));
}

void PgEventBuilder::OnRecord(LogRecord&& record) {
  // stderr and syslog write "deadlock detected at character 8" when the
  // wait began while the statement was parsed; csvlog and jsonlog keep the
  // position apart. Every reader gives the same message from here on.
  record.message.resize(StripCursorPosition(record.message).size());
  if (auto wait = ParseLockWaitMessage(record.message)) {
    if (!record.pid) record.pid = wait->pid;
    waits_->OnReport(*wait, record);
    return;
  }
  if (record.primary_missing) {
    if (IsOrphanDetail(record.detail)) Emit(MakeDeadlock(record));
    return;
  }
  // Only messages that end waits (errors, cancels) say anything about
  // them; the others are not even assembled on the fast path.
  if (!IsInteresting(record.message)) return;
  // A unique violation ends no wait (the backend logged "acquired" first):
  // it goes to the rules alone (PG016).
  if (IsUniqueViolation(record)) {
    sink_->OnEvent(MakeUniqueViolation(record));
    return;
  }
  if (!IsDeadlockMessage(record.message) &&
      !(record.sqlstate == "40P01" && Contains(record.detail, " waits for "))) {
    waits_->OnOtherRecord(record);
    return;
  }
  Event deadlock = MakeDeadlock(record);
  if (!record.pid) record.pid = deadlock.pid;  // no %p: the victim's wait ends here
  waits_->OnOtherRecord(record);
  Emit(std::move(deadlock));
}

void PgEventBuilder::Finish() { waits_->Finish(); }

}  // namespace lockgraph
