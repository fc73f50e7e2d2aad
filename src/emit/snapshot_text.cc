// See snapshot_text.h. Blocking trees are drawn root first, each waiter
// indented under what it waits for; an idle-in-transaction root blocker is
// flagged "(!)" (and red with colour): it holds its locks while its client
// does nothing, the most common cause of a pile-up.
#include "emit/snapshot_text.h"

#include <cmath>
#include <cstdio>

#include "emit/text_findings.h"
#include "emit/text_safety.h"
#include "emit/time_text.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

// One-line fields (names, ids, labels): a newline in them is shown as \n,
// so that no field can start a line of its own that looks like output.
std::string Clean(std::string_view s) { return OneLineText(s); }


std::string Where(const Event& ev) {
  if (!ev.server.empty() && ev.source.file.empty()) return "server " + Clean(ev.server);
  std::string s = Clean(ev.source.file) + ":" + std::to_string(ev.source.first_line);
  if (ev.source.last_line > ev.source.first_line) s += "-" + std::to_string(ev.source.last_line);
  if (!ev.server.empty()) s += "  server " + Clean(ev.server);  // several servers' snapshots
  return s;
}

std::string Who(const SessionInfo& s) {
  std::string who;
  if (!s.user.empty() || !s.database.empty()) who = s.user + "@" + s.database;
  if (!s.application.empty()) who += (who.empty() ? "" : ", ") + std::string("app ") + s.application;
  if (!s.host.empty()) who += (who.empty() ? "" : ", ") + std::string("from ") + s.host;
  return Clean(who);
}

// A plain pg_locks dump has no time.
std::string Time(const Event& ev) { return ev.time.empty() ? "(no time)" : DisplayTime(ev); }


}  // namespace

std::string SnapshotText::Duration(double ms) {
  char buf[48];
  if (ms < 1000) std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else if (ms < 60000) std::snprintf(buf, sizeof buf, "%.1f s", ms / 1000);
  else if (ms < 3600000)
    std::snprintf(buf, sizeof buf, "%d min %02d s", int(ms / 60000), int(ms / 1000) % 60);
  else  // in doubles: a forged xact_start can be ages ago (int overflowed: fuzz_pglocks_csv)
    std::snprintf(buf, sizeof buf, "%.0f h %02.0f min", std::floor(ms / 3600000),
                  std::fmod(std::floor(ms / 60000), 60));
  return buf;
}

bool SnapshotText::IdleInTransaction(const Backend& b) {
  return b.state.rfind("idle in transaction", 0) == 0;
}

std::string SnapshotText::Paint(const char* code, const std::string& s) const {
  if (!color_) return s;
  return std::string("\x1b[") + code + "m" + s + "\x1b[0m";
}

bool SnapshotText::Write(const Event& ev, std::ostream& out) {
  if (ev.type == EventType::kChainEnded || ev.type == EventType::kCycleEnded) WriteEnded(ev, out);
  else if (ev.snapshot) WriteSnapshot(ev, out);
  else if (ev.chain && !ev.chain->members.empty()) WriteChain(ev, out);
  else if (ev.cycle && !ev.cycle->members.empty()) WriteCycle(ev, out);
  else if (ev.wait_change) WriteWaitChange(ev, out);
  else return false;
  return true;
}

void SnapshotText::WriteSnapshot(const Event& ev, std::ostream& out) const {
  const SnapshotInfo& s = *ev.snapshot;
  out << Paint("1", "snapshot") << "  " << Time(ev) << "  " << Where(ev);
  if (s.poll_ms) out << "  (poll " << Duration(*s.poll_ms) << ")";
  out << "\n  " << Plural(s.locks, "lock", "locks") << ", "
      << Plural(s.backends, "process", "processes") << ", " << s.waiting << " waiting: "
      << Plural(s.chains, "blocking tree", "blocking trees") << ", "
      << Plural(s.cycles, "cycle", "cycles")
      << (s.blocking == "pg_blocking_pids" ? " (blockers from pg_blocking_pids)\n"
          : ev.engine == "mysql"           ? " (blockers from " + Clean(s.blocking) + ")\n"
              : " (blockers derived from the conflict matrix: a plain pg_locks dump)\n");
  out << '\n';
}

std::string SnapshotText::RootLine(const Backend& root) const {
  std::string line = "root blocker " + Clean(root.id);
  std::string who = Who(root.session);
  if (!who.empty()) line += " (" + who + ")";
  std::string state = root.state.empty() ? "" : Clean(root.state);
  if (root.state_age_ms && !state.empty()) state += " for " + Duration(*root.state_age_ms);
  if (IdleInTransaction(root)) state = Paint("1;31", "(!) " + state);
  if (!state.empty()) line += ": " + state;
  if (root.xact_age_ms) line += ", transaction open " + Duration(*root.xact_age_ms);
  if (root.xid) line += ", xid " + std::to_string(*root.xid);
  if (!root.wait_mode.empty())
    line += ", itself waiting for " + Clean(root.wait_mode) + " on " + Clean(root.wait_lock.Label()) +
            " (no blocker known)";
  return line;
}

std::string SnapshotText::WaitLine(const Backend& w, const std::vector<WaitEdge>& edges) const {
  std::string line = Clean(w.id) + " waits";
  if (w.wait_age_ms) line += " " + Duration(*w.wait_age_ms);
  const WaitEdge* first = nullptr;
  std::string blockers;
  for (const WaitEdge& e : edges) {
    if (e.waiter != w.id) continue;
    if (!first) first = &e;
    blockers += (blockers.empty() ? "" : ", ") + Clean(e.blocker) + " (" +
                EdgeBasisName(e.basis) + (e.derived ? ", derived" : "") + ")";
  }
  std::string mode = first ? first->mode : w.wait_mode;
  std::string label = first ? first->lock.Label() : w.wait_lock.Label();
  line += " for " + Paint("33", Clean(mode)) + " on " + Clean(label);
  if (!blockers.empty()) line += ", blocked by " + blockers;
  return line;
}

void SnapshotText::WriteChain(const Event& ev, std::ostream& out) {
  const BlockingTree& t = *ev.chain;
  out << Paint("1;33", "chain " + std::to_string(++chain_no_)) << "  " << Time(ev) << "  "
      << Where(ev) << "  (" << Plural(t.members.size() - 1, "waiter", "waiters") << ")\n";
  const Backend& root = t.members.front().backend;
  out << "  " << RootLine(root) << '\n';
  if (!root.query.empty())
    out << "    " << (IdleInTransaction(root) ? "last query: " : "query: ")
        << IndentedText(root.query, "      ") << '\n';
  std::string holds;
  for (const HeldLock& h : root.holds)
    holds += (holds.empty() ? "" : "; ") + Clean(h.mode) + " on " + Clean(h.lock.Label());
  if (!holds.empty()) out << "    holds: " << holds << '\n';
  for (size_t i = 1; i < t.members.size(); ++i) {
    const Backend& w = t.members[i].backend;
    const std::string indent(2 * t.members[i].depth, ' ');
    out << indent << WaitLine(w, t.edges) << '\n';
    if (!w.query.empty()) out << indent << "  query: " << IndentedText(w.query, indent + "    ") << '\n';
  }
  WriteFindingsText(ev.findings, "  ", "findings", color_, out);
  out << '\n';
}

void SnapshotText::WriteDeadlock(const Event& ev, std::ostream& out) const {
  const Deadlock& d = *ev.deadlock;
  out << Paint("1;31", "deadlock") << "  " << Time(ev) << "  " << Where(ev);
  if (d.before_watch) out << "  (reported before the watch began)";
  out << "\n  " << Plural(d.processes.size(), "transaction", "transactions") << ", victim "
      << (d.victim.empty() ? "not reported" : Clean(d.victim))
      << (d.complete ? "" : " (report incomplete)") << '\n';
  for (const WaitEdge& e : d.edges)
    out << "    " << Clean(e.waiter) << " waits for " << Paint("33", Clean(e.mode)) << " on "
        << Clean(e.lock.Label()) << ", blocked by " << Clean(e.blocker)
        << (e.blocker_mode.empty() ? "" : " holding " + Clean(e.blocker_mode)) << '\n';
  for (const Participant& p : d.processes) {
    std::string head = "    " + Clean(p.id) + ": ";
    out << head << (p.query.empty() ? "(no query in the report)"
                                     : IndentedText(p.query, std::string(head.size(), ' ')))
        << '\n';
  }
  for (const std::string& problem : d.problems) out << "  problem: " << Clean(problem) << '\n';
  WriteFindingsText(ev.findings, "  ", "findings", color_, out);
  out << '\n';
}

void SnapshotText::WriteCycle(const Event& ev, std::ostream& out) {
  const WaitCycle& c = *ev.cycle;
  out << Paint("1;31", "cycle " + std::to_string(++cycle_no_)) << "  " << Time(ev) << "  "
      << Where(ev) << '\n';
  out << "  " << Plural(c.members.size(), "process waits", "processes wait")
      << " in a circle (not broken by the server yet):\n";
  std::string ring;
  for (const Backend& b : c.members) {
    out << "    " << WaitLine(b, c.edges) << '\n';
    ring += Clean(b.id) + " -> ";
  }
  out << "    " << ring << Clean(c.members.front().id) << '\n';
  out << "  processes:\n";
  for (const Backend& b : c.members) {
    std::string who = Who(b.session);
    std::string head = "    " + Clean(b.id) + (who.empty() ? "" : " (" + who + ")") + ": ";
    out << head << (b.query.empty() ? "(query not in the snapshot)"
                                     : IndentedText(b.query, std::string(head.size(), ' ')))
        << '\n';
  }
  auto list = [](const std::vector<std::string>& ids) {
    std::string s;
    for (const std::string& id : ids) s += (s.empty() ? "" : ", ") + Clean(id);
    return s;
  };
  if (!c.also_deadlocked.empty()) out << "  also in the knot: " << list(c.also_deadlocked) << '\n';
  if (!c.waiting_behind.empty()) out << "  waiting behind it: " << list(c.waiting_behind) << '\n';
  WriteFindingsText(ev.findings, "  ", "findings", color_, out);
  out << '\n';
}

void SnapshotText::WriteEnded(const Event& ev, std::ostream& out) const {
  const bool chain = ev.type == EventType::kChainEnded;
  out << (chain ? "chain ended" : "cycle ended") << "  " << Time(ev) << "  " << Where(ev) << ": ";
  if (chain && ev.chain && !ev.chain->members.empty()) {
    out << "root blocker " << Clean(ev.chain->members.front().backend.id) << " no longer blocks "
        << Plural(ev.chain->members.size() - 1, "waiter", "waiters");
  } else if (ev.cycle && !ev.cycle->members.empty()) {
    for (const Backend& b : ev.cycle->members) out << Clean(b.id) << " -> ";
    out << Clean(ev.cycle->members.front().id) << " no longer wait in a circle";
  }
  out << '\n';
}

void SnapshotText::WriteWaitChange(const Event& ev, std::ostream& out) const {
  const WaitChange& w = *ev.wait_change;
  const bool started = ev.type == EventType::kWaitStarted;
  const bool changed = ev.type == EventType::kWaitChanged;
  out << (started ? "wait started" : changed ? "wait changed" : "wait ended") << "  " << Time(ev)
      << "  " << Where(ev) << ": " << Clean(w.waiter.id)
      << (started ? " waits" : changed ? " still waits" : " waited");
  if (changed && w.waited_ms) out << " (" << Duration(*w.waited_ms) << " so far)";
  else if (!started && w.waited_ms) out << " at most " << Duration(*w.waited_ms);
  out << " for " << Clean(w.waiter.wait_mode) << " on " << Clean(w.waiter.wait_lock.Label());
  if (changed)
    out << " (was " << Clean(w.previous_mode) << " on " << Clean(w.previous_lock.Label()) << ")";
  std::string by;
  for (const std::string& b : w.blocked_by) by += (by.empty() ? "" : ", ") + Clean(b);
  if (!by.empty()) out << ", blocked by " << by;
  out << '\n';
}

}  // namespace lockgraph
