// --format text (default): deadlocks grouped by signature (largest group
// first, each shown by its first deadlock in full), then one block per lock
// wait in log order, each with the rules' findings under it, then the
// run-level findings and a summary. Control characters from the log are
// shown escaped so that a hostile query cannot drive the terminal.
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "emit/check_report.h"
#include "emit/deadlock_text.h"
#include "emit/emitter.h"
#include "emit/snapshot_text.h"
#include "emit/text_findings.h"
#include "emit/text_safety.h"

namespace lockgraph {
namespace {

// One-line fields (names, ids, labels): a newline in them is shown as \n,
// so that no field can start a line of its own that looks like output.
std::string Clean(std::string_view s) { return OneLineText(s); }


std::string Ms(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  return buf;
}

class TextEmitter : public Emitter {
 public:
  std::string Name() const override { return "text"; }
  std::string Description() const override { return "human-readable report (default)"; }

  void Write(const Report& report, std::ostream& out) override {
    WriteDeadlockGroups(report, out);
    int wait_no = 0;
    SnapshotText snapshots(options_.color);
    for (const Event& ev : report.events) {
      if (ev.lock_wait) WriteLockWait(ev, ++wait_no, out);
      snapshots.Write(ev, out);
    }
    if (!report.findings.empty()) {
      WriteFindingsText(report.findings, "", "findings about the whole run", options_.color, out);
      out << '\n';
    }
    WriteSummary(report, out);
    if (report.check) WriteCheckText(report, out);
  }

 private:
  std::string Paint(const char* code, const std::string& s) const {
    if (!options_.color) return s;
    return std::string("\x1b[") + code + "m" + s + "\x1b[0m";
  }

  static std::string Where(const Event& ev) {
    std::string s = ev.source.file + ":" + std::to_string(ev.source.first_line);
    if (ev.source.last_line > ev.source.first_line) s += "-" + std::to_string(ev.source.last_line);
    return s;
  }

  static std::string Who(const SessionInfo& s) {
    std::string who;
    if (!s.user.empty() || !s.database.empty())
      who = s.user + (s.database.empty() ? "" : "@" + s.database);
    if (!s.application.empty()) who += (who.empty() ? "" : ", ") + std::string("app ") + s.application;
    if (!s.host.empty()) who += (who.empty() ? "" : ", ") + std::string("from ") + s.host;
    return Clean(who);
  }

  // Deadlocks by group, largest first (report.groups), each group as its
  // first deadlock in full and a line per other one; deadlocks are numbered
  // in log order. Deadlocks of no known group follow in log order.
  void WriteDeadlockGroups(const Report& report, std::ostream& out) const {
    std::map<std::string, std::vector<std::pair<int, const Event*>>> members;
    int no = 0;
    for (const Event& ev : report.events)
      if (ev.deadlock) members[ev.signature].push_back({++no, &ev});
    int group_no = 0;
    for (const DeadlockGroup& g : report.groups) {
      auto it = members.find(g.signature);
      if (it == members.end()) continue;
      const auto& m = it->second;
      if (m.size() > 1) WriteGroupHeader(g, ++group_no, options_.color, out);
      WriteDeadlock(*m.front().second, m.front().first, out);
      for (size_t i = 1; i < m.size() && i <= kOthersListed; ++i) {
        const Event& ev = *m[i].second;
        out << "  also deadlock " << m[i].first << "  " << Clean(ev.time) << "  " << Where(ev)
            << "  victim " << Clean(ev.deadlock->victim) << '\n';
      }
      if (m.size() > kOthersListed + 1) out << "  ... and " << m.size() - kOthersListed - 1 << " more\n";
      if (m.size() > 1) out << '\n';
      members.erase(it);
    }
    std::vector<std::pair<int, const Event*>> rest;
    for (const auto& [sig, m] : members) rest.insert(rest.end(), m.begin(), m.end());
    std::sort(rest.begin(), rest.end());
    for (const auto& [n, ev] : rest) WriteDeadlock(*ev, n, out);
  }

  static constexpr size_t kOthersListed = 10;

  void WriteDeadlock(const Event& ev, int no, std::ostream& out) const {
    const Deadlock& d = *ev.deadlock;
    out << Paint("1;31", "deadlock " + std::to_string(no)) << "  " << Clean(ev.time) << "  "
        << Where(ev) << (ev.truncated ? "  [truncated]" : "") << '\n';
    std::string who = Who(ev.session);
    out << "  victim" << (d.victims.size() > 1 ? "s: " : ": ") << VictimsText(d)
        << (who.empty() ? "" : " (" + who + ")") << '\n';
    out << "  cycle of " << d.edges.size() << (d.edges.size() == 1 ? " process" : " processes")
        << (d.complete ? "" : " (INCOMPLETE)") << ":\n";
    for (const WaitEdge& e : d.edges) {
      out << "    " << Clean(e.waiter) << " waits for " << Paint("33", Clean(e.mode)) << " on "
          << Clean(e.lock.Label()) << ", blocked by " << Clean(e.blocker) << EdgeSuffix(e) << '\n';
    }
    if (d.complete && !d.edges.empty()) {
      std::string cycle;
      for (const WaitEdge& e : d.edges) cycle += Clean(e.waiter) + " -> ";
      out << "    " << cycle << Clean(d.edges.front().waiter) << '\n';
    }
    for (const std::string& p : d.problems) out << "  " << Paint("35", "problem: ") << Clean(p) << '\n';
    out << "  processes:\n";
    for (const Participant& p : d.processes) {
      std::string head = "    " + Clean(p.id) + (IsVictim(d, p.id) ? " (victim)" : "") + ": ";
      out << head << IndentedText(p.query, std::string(head.size(), ' '))
          << (p.query_clipped ? "  [clipped]" : "") << '\n';
      WriteProcessDetail(p, "      ", out);
    }
    WriteDeadlockExtras(d, out);
    for (const ContextFrame& f : d.context) out << "  context: " << IndentedText(f.text, "           ") << '\n';
    if (!d.statement.empty() && (d.processes.empty() || d.statement != d.processes.front().query))
      out << "  statement: " << IndentedText(d.statement, "             ") << '\n';
    if (!ev.signature.empty()) out << "  signature: " << ev.signature << '\n';
    WriteFindingsText(ev.findings, "  ", "findings", options_.color, out);
    out << '\n';
  }

  void WriteLockWait(const Event& ev, int no, std::ostream& out) const {
    const LockWait& w = *ev.lock_wait;
    out << Paint("1;33", "lock wait " + std::to_string(no)) << "  " << Clean(w.start_time) << "  "
        << Where(ev) << '\n';
    out << "  " << Clean(w.waiter) << " waited " << (w.waited_ms ? Ms(*w.waited_ms) : "?")
        << " for " << Clean(w.mode) << " on " << Clean(w.lock.Label()) << " -> "
        << WaitOutcomeName(w.outcome) << '\n';
    if (!w.chain.empty()) {
      std::string chain;
      for (size_t i = 0; i < w.chain.size(); ++i) chain += (i ? " -> " : "") + std::to_string(w.chain[i]);
      out << "  chain: " << chain
          << (w.chain_is_cycle ? std::string(" (a cycle)")
                               : " (root blocker " + std::to_string(w.chain.back()) + ")")
          << '\n';
    }
    if (w.queue.size() > 1) {
      std::string q;
      for (int64_t p : w.queue) q += (q.empty() ? "" : ", ") + std::to_string(p);
      out << "  queue: " << q << '\n';
    }
    if (!w.statement.empty()) out << "  statement: " << IndentedText(w.statement, "             ") << '\n';
    WriteFindingsText(ev.findings, "  ", "findings", options_.color, out);
    out << '\n';
  }

  void WriteSummary(const Report& report, std::ostream& out) const {
    const Summary& s = report.summary;
    std::map<std::string, int> outcomes;
    double longest = 0;
    for (const Event& ev : report.events)
      if (ev.lock_wait) {
        ++outcomes[WaitOutcomeName(ev.lock_wait->outcome)];
        if (ev.lock_wait->waited_ms && *ev.lock_wait->waited_ms > longest) longest = *ev.lock_wait->waited_ms;
      }
    out << Paint("1", "summary") << ": " << s.deadlocks << (s.deadlocks == 1 ? " deadlock" : " deadlocks");
    if (s.deadlocks_incomplete) out << " (" << s.deadlocks_incomplete << " incomplete)";
    out << ", " << s.lock_waits << (s.lock_waits == 1 ? " lock wait" : " lock waits");
    if (!outcomes.empty()) {
      out << " (";
      bool first = true;
      for (const auto& [name, n] : outcomes) {
        out << (first ? "" : ", ") << n << " " << name;
        first = false;
      }
      out << "; longest " << Ms(longest) << ")";
    }
    out << '\n';
    if (s.snapshots)
      out << "snapshots: " << s.snapshots << " (" << s.chains
          << (s.chains == 1 ? " blocking tree, " : " blocking trees, ") << s.cycles
          << (s.cycles == 1 ? " cycle)" : " cycles)") << '\n';
    WriteFindingCounts(report, out);
    out << "lines: " << s.lines.total << " read, " << s.lines.parsed << " parsed, "
        << s.lines.unparsed << " not understood";
    if (s.lines.unparsed && report.unparsed.empty()) out << " (--show-unparsed lists them)";
    out << '\n';
    for (const InputInfo& in : report.inputs) {
      out << "input: " << Clean(in.file) << " (" << in.format;
      if (in.format == "stderr") out << ", log_line_prefix '" << Clean(in.detected) << "'";
      out << (in.gzip ? ", gzip" : "") << ")\n";
    }
    for (const UnparsedLine& u : report.unparsed)
      out << "not understood: " << Clean(u.file) << ":" << u.line << ": " << Clean(u.text) << '\n';
  }
};

}  // namespace

std::unique_ptr<Emitter> MakeTextEmitter() { return std::make_unique<TextEmitter>(); }

}  // namespace lockgraph
