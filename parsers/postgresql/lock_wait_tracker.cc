// See lock_wait_tracker.h.
#include "parsers/postgresql/lock_wait_tracker.h"

#include <algorithm>

#include "parsers/postgresql/catalog_match.h"
#include "parsers/postgresql/lock_tag.h"

namespace lockgraph {
namespace {

WaitReport MakeReport(const LockWaitMessage& msg, const LogRecord& record) {
  WaitReport r;
  r.kind = msg.kind;
  r.time = record.time;
  r.after_ms = msg.after_ms;
  r.line = record.source.first_line;
  return r;
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

}  // namespace

std::optional<WaitOutcome> OutcomeOfRecord(const LogRecord& record) {
  const std::string& state = record.sqlstate;
  // A localized server writes these translated: read them in English.
  const std::string msg = CanonicalPgMessage(record.message);
  if (state == "40P01" || msg == "deadlock detected") return WaitOutcome::kDeadlock;
  if (state == "55P03" || Contains(msg, "due to lock timeout")) {
    if (Contains(msg, "could not obtain")) return WaitOutcome::kFailed;
    return WaitOutcome::kTimeout;
  }
  if (Contains(msg, "due to statement timeout")) return WaitOutcome::kTimeout;
  if (state == "57014" || state == "57P01" || Contains(msg, "due to user request") ||
      Contains(msg, "terminating connection"))
    return WaitOutcome::kCancelled;
  return std::nullopt;
}

void LockWaitTracker::OnReport(const LockWaitMessage& msg, const LogRecord& record) {
  auto it = open_.find(msg.pid);
  if (it != open_.end()) {
    LockWait& w = *it->second.event.lock_wait;
    if (w.mode != msg.mode || w.lock.text != msg.tag) {
      Close(msg.pid, WaitOutcome::kUnknown, nullptr);  // moved on silently
      it = open_.end();
    }
  }
  if (it == open_.end()) {
    Start(msg, record);
    it = open_.find(msg.pid);
  }
  Event& ev = it->second.event;
  LockWait& w = *ev.lock_wait;
  w.reports.push_back(MakeReport(msg, record));
  ev.source.last_line = std::max(ev.source.last_line, record.source.last_line);
  if (msg.after_ms && (!w.waited_ms || *msg.after_ms > *w.waited_ms))
    w.waited_ms = msg.after_ms;
  if (auto holders = ParseHolderDetail(record.detail)) {
    w.holders = holders->holders;
    w.queue = holders->queue;
  }
  if (w.context.empty() && !record.context.empty()) w.context = ParseContext(record.context);
  if (w.statement.empty()) w.statement = record.statement;
  if (w.chain.empty() && !w.holders.empty()) {
    w.chain = ChainFrom(msg.pid, w.holders);
    const auto& c = w.chain;
    w.chain_is_cycle = std::find(c.begin(), c.end() - 1, c.back()) != c.end() - 1;
  }

  if (msg.kind == "acquired") Close(msg.pid, WaitOutcome::kAcquired, &record);
  else if (msg.kind == "failed" || msg.kind == "could_not_obtain")
    Close(msg.pid, WaitOutcome::kFailed, &record);
  // "detected deadlock while waiting" is followed by the ERROR, which
  // closes the wait with outcome deadlock and the ERROR's line.
}

void LockWaitTracker::Start(const LockWaitMessage& msg, const LogRecord& record) {
  Event ev;
  ev.type = EventType::kLockWait;
  ev.time = record.time;
  ev.pid = msg.pid;
  ev.source = record.source;
  ev.session = record.session;
  LockWait w;
  w.waiter = std::to_string(msg.pid);
  w.pid = msg.pid;
  w.mode = msg.mode;
  w.lock = ParsePgLockTag(msg.tag);
  w.start_time = record.time;
  w.session = record.session;
  ev.lock_wait = std::move(w);
  open_[msg.pid] = Open{std::move(ev)};
}

void LockWaitTracker::OnOtherRecord(const LogRecord& record) {
  if (!record.pid) return;
  auto it = open_.find(*record.pid);
  if (it == open_.end()) return;
  if (auto outcome = OutcomeOfRecord(record)) Close(*record.pid, *outcome, &record);
}

void LockWaitTracker::Close(int64_t pid, WaitOutcome outcome, const LogRecord* ender) {
  auto it = open_.find(pid);
  if (it == open_.end()) return;
  Event ev = std::move(it->second.event);
  open_.erase(it);
  LockWait& w = *ev.lock_wait;
  w.outcome = outcome;
  if (ender) {
    w.end_time = ender->time;
    ev.source.last_line = std::max(ev.source.last_line, ender->source.last_line);
  }
  emit_(std::move(ev));
}

std::vector<int64_t> LockWaitTracker::ChainFrom(int64_t pid,
                                                const std::vector<int64_t>& holders) const {
  // Follows the first holder of each open wait; stops at a backend that is
  // not waiting (the root blocker) or at one already seen (a cycle, kept
  // as a repeated last member).
  std::vector<int64_t> chain{pid};
  int64_t next = holders.front();
  for (;;) {
    bool seen = std::find(chain.begin(), chain.end(), next) != chain.end();
    chain.push_back(next);
    if (seen) break;
    auto it = open_.find(next);
    if (it == open_.end() || it->second.event.lock_wait->holders.empty()) break;
    next = it->second.event.lock_wait->holders.front();
  }
  return chain;
}

void LockWaitTracker::Finish() {
  while (!open_.empty()) Close(open_.begin()->first, WaitOutcome::kUnknown, nullptr);
}

}  // namespace lockgraph
