// See messages.h. Every pattern here is a format string of the server,
// quoted in shared/docs/reference/postgresql-logs.md §3.1, §3.2, §3.5.
#include "parsers/postgresql/messages.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>

#include "parsers/postgresql/lock_tag.h"

namespace lockgraph {
namespace {

re2::StringPiece Piece(std::string_view s) { return {s.data(), s.size()}; }
std::string Str(const re2::StringPiece& p) { return std::string(p.data(), p.size()); }

int64_t ToInt(std::string_view s) {
  int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

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
    std::string head = "Process " + p.id + ": ";
    if (rest.substr(pos, head.size()) != head) {
      // "Process 4178:" followed by a query that starts with a newline.
      std::string bare = "Process " + p.id + ":";
      if (rest.substr(pos, bare.size()) == bare &&
          (pos + bare.size() == rest.size() || rest[pos + bare.size()] == '\n')) {
        head = bare;
      } else if (!IsWaiter(*out, p.id)) {
        out->processes.erase(out->processes.begin() + i--);  // expected, not there
        continue;
      } else {
        out->problems.push_back("query line of process " + p.id + " missing");
        return;
      }
    }
    size_t start = pos + head.size();
    size_t end = rest.size();
    if (i + 1 < out->processes.size()) {
      std::string next = "\nProcess " + out->processes[i + 1].id + ":";
      size_t found = rest.find(next, start);
      if (found != std::string_view::npos) end = found;
    }
    p.query = std::string(rest.substr(start, end - start));
    p.query_clipped = LooksClipped(p.query);
    pos = std::min(rest.size(), end + 1);
  }
}

}  // namespace

DeadlockDetail ParseDeadlockDetail(std::string_view detail, const DeadlockDetailOptions& options) {
  static const RE2 kEdge(
      R"(Process (\d+) waits for (\S+) on (.+); blocked by process (\d+)\.)");
  DeadlockDetail out;
  std::vector<std::string_view> lines = SplitLines(detail);
  size_t i = 0;
  for (; i < lines.size(); ++i) {
    re2::StringPiece waiter, mode, tag, blocker;
    if (!RE2::FullMatch(Piece(lines[i]), kEdge, &waiter, &mode, &tag, &blocker))
      break;
    WaitEdge e;
    e.waiter = Str(waiter);
    e.blocker = Str(blocker);
    e.mode = Str(mode);
    e.lock = ParsePgLockTag(std::string_view(tag.data(), tag.size()));
    out.edges.push_back(std::move(e));
    Participant p;
    p.id = Str(waiter);
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

std::optional<LockWaitMessage> ParseLockWaitMessage(std::string_view message) {
  static const RE2 kTimed(
      R"(process (\d+) (still waiting for|acquired|avoided deadlock for|)"
      R"(detected deadlock while waiting for|failed to acquire) (\S+) on (.+?))"
      R"((?: by rearranging queue order)? after (\d+)\.(\d+) ms(?: at character \d+)?)");
  static const RE2 kNoWait(R"(process (\d+) could not obtain (\S+) on (.+))");
  re2::StringPiece pid, verb, mode, tag, ms, frac;
  LockWaitMessage out;
  if (RE2::FullMatch(Piece(message), kTimed, &pid, &verb, &mode, &tag, &ms, &frac)) {
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
    return std::nullopt;
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
  if (!RE2::FullMatch(Piece(first), kHolders, &holders, &queue)) return std::nullopt;
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

std::vector<ContextFrame> ParseContext(std::string_view context) {
  static const RE2 kRowWait(
      R"re(while (updating|deleting|locking|rechecking updated|inserting index|)re"
      R"re(checking uniqueness of|checking exclusion constraint on) tuple )re"
      R"re((\(\d+,\d+\)) in relation "(.*)")re");
  static const RE2 kLockUpdated(
      R"re(while locking updated version (\(\d+,\d+\)) of tuple in relation "(.*)")re");
  static const RE2 kPlpgsql(R"re(PL/pgSQL function (.+?) line (\d+) (?:at )?(.*))re");
  static const RE2 kSqlFunction(R"re(SQL function "(.*)" statement (\d+))re");
  static const RE2 kSpi(R"re((?s)(?:SQL statement|SQL expression|PL/pgSQL expression|)re"
                        R"re(PL/pgSQL assignment) "(.*)")re");
  std::vector<ContextFrame> frames;
  if (context.empty()) return frames;
  std::vector<std::string_view> lines = SplitLines(context);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    // A multi-line SPI statement: its quoted text spans the next lines.
    if (line.find(" \"") != std::string_view::npos && line.back() != '"') {
      size_t j = i;
      while (j + 1 < lines.size() && (lines[j].empty() || lines[j].back() != '"')) ++j;
      if (j > i) {
        line = std::string_view(line.data(), lines[j].data() + lines[j].size() - line.data());
        i = j;
      }
    }
    ContextFrame f;
    f.text = std::string(line);
    re2::StringPiece a, b, c;
    re2::StringPiece in = Piece(line);
    if (RE2::FullMatch(in, kRowWait, &a, &b, &c)) {
      f.kind = ContextFrame::Kind::kRowWait;
      f.action = Str(a);
      f.tuple = Str(b);
      f.relation = Str(c);
    } else if (RE2::FullMatch(in, kLockUpdated, &b, &c)) {
      f.kind = ContextFrame::Kind::kRowWait;
      f.action = "locking updated version";
      f.tuple = Str(b);
      f.relation = Str(c);
    } else if (RE2::FullMatch(in, kPlpgsql, &a, &b, &c)) {
      f.kind = ContextFrame::Kind::kFunction;
      f.function = Str(a);
      f.line = int(ToInt({b.data(), b.size()}));
      f.statement = Str(c);
    } else if (RE2::FullMatch(in, kSqlFunction, &a, &b)) {
      f.kind = ContextFrame::Kind::kFunction;
      f.function = Str(a);
      f.line = int(ToInt({b.data(), b.size()}));
      f.statement = "SQL function statement";
    } else if (RE2::FullMatch(in, kSpi, &a)) {
      f.kind = ContextFrame::Kind::kSqlStatement;
      f.statement = Str(a);
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

bool LooksClipped(std::string_view query) {
  // pgstat clips at track_activity_query_size - 1 bytes (default 1024),
  // backing off up to 3 bytes to a UTF-8 character boundary.
  return query.size() >= 1020 && query.size() <= 1023;
}

}  // namespace lockgraph
