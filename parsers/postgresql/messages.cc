// See messages.h. Every pattern here is a format string of the server,
// quoted in shared/docs/reference/postgresql-logs.md §3.1, §3.2, §3.5.
#include "parsers/postgresql/messages.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>

#include "parsers/postgresql/catalog_match.h"
#include "parsers/postgresql/message_scan.h"
#include "parsers/postgresql/message_text.h"
#include "parsers/postgresql/cursor_position.h"
#include "parsers/postgresql/lock_tag.h"

namespace lockgraph {
namespace {

using message_text::Piece;
using message_text::SplitLines;
using message_text::Str;
using message_text::ToInt;

// When an edge line is missing (edge i's blocker is not the next edge's
// waiter), the server still wrote the query line of that blocker, right
// after the query of edge i's waiter: it is expected there, so that its line
// is not read as the end of the previous query. No edge is made up for it.
void AddUnlinkedBlockers(DeadlockDetail* out) {
  std::vector<Participant> processes;
  const size_t n = out->edges.size();
  for (size_t i = 0; i < n; ++i) {
    processes.push_back(out->processes[i]);
    const std::string& blocker = out->edges[i].blocker;
    if (blocker == out->edges[(i + 1) % n].waiter) continue;
    bool known = false;
    for (const WaitEdge& e : out->edges) known = known || e.waiter == blocker;
    for (const Participant& p : processes) known = known || p.id == blocker;
    if (known) continue;
    Participant p;
    p.id = blocker;
    p.pid = ToInt(p.id);
    processes.push_back(std::move(p));
  }
  out->processes = std::move(processes);
}

// The text before the query of "Process %d: %s" in every known language,
// for process `id`, English first ("Process 4178: ", "Processus 4178 : ").
// A partially translated server may translate these lines and not the edges
// (or the reverse), so every language is tried.
std::vector<std::string> QueryHeads(const std::string& id) {
  std::vector<std::string> heads;
  for (const PgTextVariant& v : PgTextVariants(PgText::kDeadlockQuery)) {
    std::string_view t = v.text;
    size_t query = t.find("%s");
    if (query == std::string_view::npos) query = t.find("%2$s");
    if (query == std::string_view::npos || t.find('%', query + 1) != std::string_view::npos)
      continue;  // the query is not the last thing on the line
    std::string head(t.substr(0, query));
    for (std::string_view pid : {"%1$d", "%d"}) {
      size_t at = head.find(pid);
      if (at != std::string::npos) head.replace(at, pid.size(), id);
    }
    heads.push_back(std::move(head));
  }
  return heads;
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Where the query entry of `id` starts at rest[pos]: the length of its head
// (0 when there is none). A head without its trailing space is accepted
// when a newline or the end follows (a query that starts with a newline).
size_t MatchQueryHead(std::string_view rest, size_t pos, const std::string& id) {
  for (const std::string& head : QueryHeads(id)) {
    if (rest.substr(pos, head.size()) == head) return head.size();
    std::string_view bare = TrimRight(head);
    if (rest.substr(pos, bare.size()) == bare &&
        (pos + bare.size() == rest.size() || rest[pos + bare.size()] == '\n'))
      return bare.size();
  }
  return 0;
}

// The earliest "\nProcess <id>:" (in any language) at or after `from`.
size_t FindQueryHead(std::string_view rest, size_t from, const std::string& id) {
  size_t best = std::string_view::npos;
  for (const std::string& head : QueryHeads(id)) {
    std::string needle = "\n" + std::string(TrimRight(head));
    size_t found = rest.find(needle, from);
    if (found < best) best = found;
  }
  return best;
}

bool IsWaiter(const DeadlockDetail& d, const std::string& id) {
  for (const WaitEdge& e : d.edges)
    if (e.waiter == id) return true;
  return false;
}

// Cuts the query entries: entry i runs from "Process <pid_i>: " up to the
// "\nProcess <pid_i+1>: " that follows it.
void ReadQueries(std::string_view rest, DeadlockDetail* out) {
  size_t pos = 0;
  for (size_t i = 0; i < out->processes.size(); ++i) {
    Participant& p = out->processes[i];
    size_t head = MatchQueryHead(rest, pos, p.id);
    if (head == 0) {
      if (!IsWaiter(*out, p.id)) {
        out->processes.erase(out->processes.begin() + i--);  // expected, not there
        continue;
      }
      out->problems.push_back("query line of process " + p.id + " missing");
      return;
    }
    size_t start = pos + head;
    size_t end = rest.size();
    if (i + 1 < out->processes.size()) {
      size_t found = FindQueryHead(rest, start, out->processes[i + 1].id);
      if (found != std::string_view::npos) end = found;
    }
    p.query = std::string(rest.substr(start, end - start));
    p.query_clipped = LooksClipped(p.query);
    pos = std::min(rest.size(), end + 1);
  }
}

// One "Process P waits for M on T; blocked by process B." line, English
// first, then the catalogue's translations of it.
bool ReadEdge(std::string_view line, WaitEdge* e) {
  static const RE2 kEdge(
      R"(Process (\d+) waits for (\S+) on (.+); blocked by process (\d+)\.)");
  if (EdgeScan scan; ScanEdge(line, &scan)) {
    e->waiter = std::string(scan.waiter);
    e->blocker = std::string(scan.blocker);
    e->mode = std::string(scan.mode);
    e->lock = ParsePgLockTag(scan.tag);
    return true;
  }
  re2::StringPiece waiter, mode, tag, blocker;
  if (RE2::FullMatch(Piece(line), kEdge, &waiter, &mode, &tag, &blocker)) {
    e->waiter = Str(waiter);
    e->blocker = Str(blocker);
    e->mode = Str(mode);
    e->lock = ParsePgLockTag(std::string_view(tag.data(), tag.size()));
    return true;
  }
  PgTextMatch m;
  if (!MatchPgText(PgText::kDeadlockEdge, line, &m)) return false;
  e->waiter = std::string(m.args[0]);
  e->mode = std::string(m.args[1]);
  e->lock = ParsePgLockTag(m.args[2]);
  e->blocker = std::string(m.args[3]);
  return true;
}

}  // namespace

DeadlockDetail ParseDeadlockDetail(std::string_view detail, const DeadlockDetailOptions& options) {
  DeadlockDetail out;
  std::vector<std::string_view> lines = SplitLines(detail);
  size_t i = 0;
  for (; i < lines.size(); ++i) {
    WaitEdge e;
    if (!ReadEdge(lines[i], &e)) break;
    Participant p;
    p.id = e.waiter;
    out.edges.push_back(std::move(e));
    p.pid = ToInt(p.id);
    out.processes.push_back(std::move(p));
  }
  if (out.edges.empty()) {
    out.problems.push_back("no \"Process P waits for\" line in DETAIL");
    return out;
  }
  if (!options.queries_follow) {
    AddUnlinkedBlockers(&out);
    return out;
  }
  if (i >= lines.size()) {
    out.problems.push_back("no query lines after the edges");
    return out;
  }
  AddUnlinkedBlockers(&out);
  size_t offset = lines[i].data() - detail.data();
  ReadQueries(detail.substr(offset), &out);
  return out;
}

bool OrderCycleFromVictim(std::string_view victim, std::vector<WaitEdge>* edges,
                          std::vector<Participant>* processes,
                          std::vector<std::string>* problems) {
  const size_t n = edges->size();
  bool closed = n > 0;
  for (size_t i = 0; i < n; ++i) {
    const WaitEdge& e = (*edges)[i];
    const WaitEdge& next = (*edges)[(i + 1) % n];
    if (e.blocker != next.waiter) {
      closed = false;
      problems->push_back("edge " + std::to_string(i + 1) + " (" + e.waiter +
                          " -> " + e.blocker + ") is not followed by an edge of " +
                          e.blocker + ": the cycle is incomplete");
    }
  }
  auto at = std::find_if(edges->begin(), edges->end(),
                         [&](const WaitEdge& e) { return e.waiter == victim; });
  if (at == edges->end()) {
    if (!victim.empty())
      problems->push_back("victim " + std::string(victim) + " has no edge in the report");
    return closed;
  }
  size_t shift = at - edges->begin();
  std::rotate(edges->begin(), edges->begin() + shift, edges->end());
  // Processes follow the edges' waiters, with a blocker whose edge is missing
  // after its waiter: the victim's entry goes first either way.
  auto p = std::find_if(processes->begin(), processes->end(),
                        [&](const Participant& x) { return x.id == victim; });
  if (p != processes->end()) std::rotate(processes->begin(), p, processes->end());
  return closed;
}

namespace {

// A translated log_lock_waits message (the English ones are read by the
// regexes of ParseLockWaitMessage). Only tried when the message starts like
// one of the translations, so English logs pay a few prefix compares.
std::optional<LockWaitMessage> ParseTranslatedLockWait(std::string_view message) {
  static constexpr struct {
    PgText id;
    const char* kind;
  } kKinds[] = {{PgText::kWaitStill, "still_waiting"},
                {PgText::kWaitAcquired, "acquired"},
                {PgText::kWaitAvoided, "avoided_deadlock"},
                {PgText::kWaitDetected, "detected_deadlock"},
                {PgText::kWaitFailed, "failed"}};
  static const PgPrefixSet kPrefixes({PgText::kWaitStill, PgText::kWaitAcquired,
                                      PgText::kWaitAvoided, PgText::kWaitDetected,
                                      PgText::kWaitFailed});
  if (!kPrefixes.MayMatch(message)) return std::nullopt;
  std::string_view text = StripCursorPosition(message);
  PgTextMatch m;
  for (const auto& k : kKinds) {
    if (!MatchPgText(k.id, text, &m)) continue;
    LockWaitMessage out;
    out.kind = k.kind;
    out.pid = ToInt(m.args[0]);
    out.mode = std::string(m.args[1]);
    out.tag = std::string(m.args[2]);
    out.after_ms = double(ToInt(m.args[3])) + double(ToInt(m.args[4])) / 1000.0;
    return out;
  }
  return std::nullopt;
}

}  // namespace

std::optional<TimedWaitParts> MatchTimedWait(std::string_view message) {
  // The head leaves no choice open (\S+ must stop at the space before
  // "on", and each verb is its own words), so its groups come without
  // going back; the tail is found by the DFA. One match of the whole ran
  // RE2's backtracker over the message: 18,000 instructions.
  static const RE2 kHead(
      R"(process (\d+) (still waiting for|acquired|avoided deadlock for|)"
      R"(detected deadlock while waiting for|failed to acquire) (\S+) on )");
  static const RE2 kTail(
      R"((?: by rearranging queue order)? after (\d+)\.(\d+) ms(?: at character \d+)?$)");
  if (TimedWaitScan scan; ScanTimedWait(message, &scan)) {
    if (scan.tag.find('\n') != std::string_view::npos) return {};  // '.' matches no '\n'
    return TimedWaitParts{scan.pid, scan.verb, scan.mode, scan.tag, scan.ms, scan.frac};
  }
  re2::StringPiece head[4], tail[3];
  if (!kHead.Match(Piece(message), 0, message.size(), RE2::ANCHOR_START, head, 4)) return {};
  const size_t from = head[0].size();
  if (from >= message.size() ||
      !kTail.Match(Piece(message), from + 1, message.size(), RE2::UNANCHORED, tail, 3))
    return {};
  TimedWaitParts parts;
  parts.tag = message.substr(from, size_t(tail[0].data() - message.data()) - from);
  if (parts.tag.find('\n') != std::string_view::npos) return {};  // '.' matches no '\n'
  auto view = [](const re2::StringPiece& p) { return std::string_view(p.data(), p.size()); };
  parts.pid = view(head[1]);
  parts.verb = view(head[2]);
  parts.mode = view(head[3]);
  parts.ms = view(tail[1]);
  parts.frac = view(tail[2]);
  return parts;
}

std::optional<LockWaitMessage> ParseLockWaitMessage(std::string_view message) {
  static const RE2 kNoWait(R"(process (\d+) could not obtain (\S+) on (.+))");
  re2::StringPiece pid, verb, mode, tag, ms, frac;
  LockWaitMessage out;
  // Both patterns start with "process ": every other message (most that
  // reach here are errors) skips the two matches.
  if (!message.starts_with("process ")) return ParseTranslatedLockWait(message);
  if (std::optional<TimedWaitParts> parts = MatchTimedWait(message)) {
    pid = Piece(parts->pid);
    verb = Piece(parts->verb);
    mode = Piece(parts->mode);
    tag = Piece(parts->tag);
    ms = Piece(parts->ms);
    frac = Piece(parts->frac);
    std::string_view v(verb.data(), verb.size());
    out.kind = v == "still waiting for"     ? "still_waiting"
               : v == "acquired"            ? "acquired"
               : v == "avoided deadlock for" ? "avoided_deadlock"
               : v == "failed to acquire"   ? "failed"
                                            : "detected_deadlock";
    out.after_ms = double(ToInt({ms.data(), ms.size()})) +
                   double(ToInt({frac.data(), frac.size()})) / 1000.0;
  } else if (RE2::FullMatch(Piece(message), kNoWait, &pid, &mode, &tag)) {
    out.kind = "could_not_obtain";
  } else {
    return ParseTranslatedLockWait(message);
  }
  out.pid = ToInt({pid.data(), pid.size()});
  out.mode = Str(mode);
  out.tag = Str(tag);
  return out;
}

std::optional<HolderList> ParseHolderDetail(std::string_view detail) {
  static const RE2 kHolders(
      R"(Process(?:es)? holding the lock: ([\d, ]*)[.,] Wait queue: ([\d, ]*)\.)");
  re2::StringPiece holders, queue;
  std::string_view first = detail.substr(0, detail.find('\n'));
  if (HoldersScan scan; ScanHolders(first, &scan)) {
    holders = Piece(scan.holders);
    queue = Piece(scan.queue);
  } else if (!RE2::FullMatch(Piece(first), kHolders, &holders, &queue)) {
    return std::nullopt;
  }
  auto split = [](re2::StringPiece s) {
    std::vector<int64_t> pids;
    std::string_view v(s.data(), s.size());
    size_t pos = 0;
    while (pos < v.size()) {
      size_t comma = v.find(',', pos);
      if (comma == std::string_view::npos) comma = v.size();
      std::string_view item = v.substr(pos, comma - pos);
      while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
      if (!item.empty()) pids.push_back(ToInt(item));
      pos = comma + 1;
    }
    return pids;
  };
  return HolderList{split(holders), split(queue)};
}

bool LooksClipped(std::string_view query) {
  // pgstat clips at track_activity_query_size - 1 bytes (default 1024),
  // backing off up to 3 bytes to a UTF-8 character boundary.
  return query.size() >= 1020 && query.size() <= 1023;
}

}  // namespace lockgraph
