// --format text (default): deadlocks grouped by signature (largest group
// first, each shown by its first deadlock in full), then one block per lock
// wait in log order, each with the rules' findings under it, then the
// run-level findings and a summary. Control characters from the log are
// shown escaped so that a hostile query cannot drive the terminal.
// Keeps no events: each is rendered when it is made, without its number,
// into an EventSpool (1 MiB, then an unlinked temporary file); Write numbers
// them in log order and groups the deadlocks, from small per-event keys, so
// memory stays flat on logs of any size (docs/performance.md#memory).
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "emit/cause_text.h"
#include "emit/check_report.h"
#include "emit/deadlock_text.h"
#include "emit/emitter.h"
#include "emit/event_spool.h"
#include "emit/snapshot_text.h"
#include "emit/text_findings.h"
#include "emit/text_safety.h"
#include "emit/time_text.h"
#include "text/milliseconds.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

// One-line fields (names, ids, labels): a newline in them is shown as \n,
// so that no field can start a line of its own that looks like output.
std::string Clean(std::string_view s) { return OneLineText(s); }

// "error: FILE:LINE: message: text", every part on one line.
std::string DiagnosticText(const Diagnostic& d) {
  std::string s = d.severity == Diagnostic::Severity::kError     ? "error: "
                  : d.severity == Diagnostic::Severity::kWarning ? "warning: "
                                                                 : "note: ";
  s += Clean(d.file);
  if (d.line) s += ":" + std::to_string(d.line);
  s += ": " + Clean(d.message);
  if (!d.text.empty()) s += ": " + Clean(d.text);
  return s;
}


// What a kept block of the body (lock waits and snapshots, in log order)
// starts with, before the number Write gives it: its first byte.
enum BodyTag : char { kWaitTag = 'w', kChainTag = 'c', kCycleTag = 'y', kPlainTag = 'p' };

class TextEmitter : public Emitter {
 public:
  std::string Name() const override { return "text"; }
  std::string Description() const override { return "human-readable report (default)"; }
  bool KeepsOwnEvents() const override { return true; }
  void OnInputStart(size_t input) override { input_ = uint32_t(input); }
  void OnEvent(const Event& ev, std::ostream&) override {
    streamed_ = true;
    Keep(ev, input_, ev.source.first_line);
  }

  void Write(const Report& report, std::ostream& out) override {
    // Events come from OnEvent (`analyze`), else from the report (callers
    // that collect them, already in log order): never both.
    if (!streamed_)
      for (size_t i = 0; i < report.events.size(); ++i) Keep(report.events[i], 0, i);
    WriteCausesText(report, options_.color, out);
    WriteDeadlockGroups(GroupsByCause(report), out);
    WriteBody(out);
    if (!report.findings.empty()) {
      WriteFindingsText(report.findings, "", "findings about the whole run", options_.color, out);
      out << '\n';
    }
    WriteSummary(report, out);
    if (check_) WriteCheckText(*check_, out);
  }

 private:
  // Renders what the report needs of `ev`, numbers left out, and counts it
  // for the summary. `input` and `line` place it in log order.
  void Keep(const Event& ev, uint32_t input, uint64_t line) {
    findings_.Add(ev.findings);
    std::ostringstream text;
    if (ev.deadlock) {
      text << "  " << DisplayTime(ev) << "  " << Where(ev) << "  victim " << Clean(ev.deadlock->victim)
           << '\n';
      deadlock_also_length_.push_back(uint32_t(text.tellp()));
      WriteDeadlock(ev, text);
      auto [it, added] = signatures_.try_emplace(ev.signature, uint32_t(signatures_.size()));
      deadlock_signature_.push_back(it->second);
      if (!deadlocks_.Add(input, line, text.str())) spool_failed_ = true;
      return;
    }
    if (ev.lock_wait) {
      CountWait(*ev.lock_wait);
      text << char(kWaitTag);
      WriteLockWait(ev, text);
    } else if (!KeepSnapshot(ev, text)) {
      return;
    }
    if (!body_.Add(input, line, text.str())) spool_failed_ = true;
  }

  // A snapshot, chain or cycle block without the number of its chain or
  // cycle: SnapshotText numbers from 1, so its first label is cut off.
  bool KeepSnapshot(const Event& ev, std::ostringstream& text) const {
    std::ostringstream block;
    SnapshotText snapshot(options_.color);
    if (!snapshot.Write(ev, block)) return false;
    std::string s = block.str();
    BodyTag tag = kPlainTag;
    std::string label;
    if (!ev.snapshot && ev.chain) tag = kChainTag, label = BodyLabel(kChainTag, 1);
    else if (!ev.snapshot && ev.cycle) tag = kCycleTag, label = BodyLabel(kCycleTag, 1);
    if (s.compare(0, label.size(), label) != 0) tag = kPlainTag, label.clear();  // never so
    text << char(tag) << std::string_view(s).substr(label.size());
    return true;
  }

  std::string BodyLabel(BodyTag tag, int no) const {
    switch (tag) {
      case kWaitTag: return Paint("1;33", "lock wait " + std::to_string(no));
      case kChainTag: return Paint("1;33", "chain " + std::to_string(no));
      case kCycleTag: return Paint("1;31", "cycle " + std::to_string(no));
      case kPlainTag: break;
    }
    return "";
  }

  void CountWait(const LockWait& w) {
    ++outcomes_[WaitOutcomeName(w.outcome)];
    if (w.waited_ms && *w.waited_ms > longest_wait_) longest_wait_ = *w.waited_ms;
  }

  // Lock waits and snapshot blocks in log order, each numbered in its kind.
  void WriteBody(std::ostream& out) {
    int numbers[128] = {0};
    bool ok = body_.ForEachSorted([&](std::string_view text) {
      BodyTag tag = BodyTag(text.front());
      out << BodyLabel(tag, ++numbers[uint8_t(tag) & 127]) << text.substr(1);
    });
    if (!ok || spool_failed_) ReadError();
  }

  static void ReadError() {
    std::cerr << "lockgraph: cannot read back the events kept in a temporary file\n";
  }

  std::string Paint(const char* code, const std::string& s) const {
    if (!options_.color) return s;
    return std::string("\x1b[") + code + "m" + s + "\x1b[0m";
  }

  static std::string Where(const Event& ev) {
    std::string s = Clean(ev.source.file) + ":" + std::to_string(ev.source.first_line);
    if (ev.source.last_line > ev.source.first_line) s += "-" + std::to_string(ev.source.last_line);
    if (!ev.server.empty()) s += "  server " + Clean(ev.server);  // several servers' logs
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
  void WriteDeadlockGroups(const std::vector<DeadlockGroup>& groups, std::ostream& out) {
    const std::vector<uint32_t> order = deadlocks_.SortedOrder();
    std::vector<uint32_t> number(order.size());
    std::vector<std::vector<uint32_t>> members(signatures_.size());  // per signature, in log order
    for (size_t k = 0; k < order.size(); ++k) {
      number[order[k]] = uint32_t(k + 1);
      members[deadlock_signature_[order[k]]].push_back(order[k]);
    }
    int group_no = 0;
    std::string text;
    for (const DeadlockGroup& g : groups) {
      auto it = signatures_.find(g.signature);
      if (it == signatures_.end() || members[it->second].empty()) continue;
      std::vector<uint32_t>& m = members[it->second];
      if (m.size() > 1) WriteGroupHeader(g, ++group_no, options_.color, out);
      WriteKeptDeadlock(m.front(), number[m.front()], out);
      for (size_t i = 1; i < m.size() && i <= kOthersListed; ++i) {
        if (!deadlocks_.Read(m[i], &text)) ReadError();
        out << "  also deadlock " << number[m[i]]
            << std::string_view(text).substr(0, deadlock_also_length_[m[i]]);
      }
      if (m.size() > kOthersListed + 1) out << "  ... and " << m.size() - kOthersListed - 1 << " more\n";
      if (m.size() > 1) out << '\n';
      std::vector<uint32_t>().swap(m);  // written: not among the rest
    }
    for (uint32_t i : order)
      if (!members[deadlock_signature_[i]].empty()) WriteKeptDeadlock(i, number[i], out);
  }

  void WriteKeptDeadlock(uint32_t index, uint32_t no, std::ostream& out) {
    std::string text;
    if (!deadlocks_.Read(index, &text)) ReadError();
    out << Paint("1;31", "deadlock " + std::to_string(no))
        << std::string_view(text).substr(deadlock_also_length_[index]);
  }

  static constexpr size_t kOthersListed = 10;

  // "relation names: 16411 accounts, 16420 orders": the OIDs the log's own
  // records named, for the events shown before the name was learned.
  static void WriteRelationNames(const std::vector<RelationName>& names, std::ostream& out) {
    if (names.empty()) return;
    constexpr size_t kListed = 20;
    out << "relation names:";
    for (size_t i = 0; i < names.size() && i < kListed; ++i)
      out << (i ? ", " : " ") << names[i].relation << " " << Clean(names[i].name);
    if (names.size() > kListed) out << " and " << names.size() - kListed << " more (--format json lists them)";
    out << '\n';
  }

  // A deadlock's block but its label ("deadlock 3").
  void WriteDeadlock(const Event& ev, std::ostream& out) const {
    const Deadlock& d = *ev.deadlock;
    out << "  " << DisplayTime(ev) << "  " << Where(ev) << SourceKindNote(ev.source)
        << (ev.truncated ? "  [truncated]" : "") << '\n';
    std::string who = Who(ev.session);
    out << "  victim" << (d.victims.size() > 1 ? "s: " : ": ") << VictimsText(d)
        << (who.empty() ? "" : " (" + who + ")") << '\n';
    out << "  cycle of " << d.edges.size() << (d.edges.size() == 1 ? " process" : " processes")
        << (d.complete ? "" : " (INCOMPLETE)") << ":\n";
    for (const WaitEdge& e : d.edges) {
      out << "    " << Clean(e.waiter) << " waits for " << Paint("33", Clean(e.mode)) << " on "
          << Clean(e.lock.Label()) << ", blocked by " << Clean(e.blocker) << EdgeSuffix(e) << '\n';
      // InnoDB record dumps, only there with --show-records (row data).
      for (size_t nl = e.lock.text.find('\n'); nl != std::string::npos;) {
        size_t next = e.lock.text.find('\n', nl + 1);
        out << "      | " << Clean(e.lock.text.substr(nl + 1, next == std::string::npos ? next : next - nl - 1)) << '\n';
        nl = next;
      }
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

  // A lock wait's block but its label ("lock wait 3").
  void WriteLockWait(const Event& ev, std::ostream& out) const {
    const LockWait& w = *ev.lock_wait;
    out << "  " << DisplayTime(ev) << "  " << Where(ev) << '\n';
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
    out << Paint("1", "summary") << ": " << s.deadlocks << (s.deadlocks == 1 ? " deadlock" : " deadlocks");
    if (s.deadlocks_incomplete) out << " (" << s.deadlocks_incomplete << " incomplete)";
    out << ", " << s.lock_waits << (s.lock_waits == 1 ? " lock wait" : " lock waits");
    if (!outcomes_.empty()) {
      out << " (";
      bool first = true;
      for (const auto& [name, n] : outcomes_) {
        out << (first ? "" : ", ") << n << " " << name;
        first = false;
      }
      out << "; longest " << Ms(longest_wait_) << ")";
    }
    out << '\n';
    if (s.repeated_deadlocks || s.repeated_lock_waits)
      out << "repeated: " << s.repeated_deadlocks << " deadlocks and " << s.repeated_lock_waits
          << " lock waits were given again by another input (counted once)\n";
    WriteRelationNames(s.relation_names, out);
    if (s.outside_window || s.outside_window_no_time)
      out << "left out by --since/--until: " << Plural(s.outside_window, "event", "events")
          << " outside the window, " << Plural(s.outside_window_no_time, "event", "events")
          << " with no time that could be read\n";
    if (s.snapshots)
      out << "snapshots: " << s.snapshots << " (" << s.chains
          << (s.chains == 1 ? " blocking tree, " : " blocking trees, ") << s.cycles
          << (s.cycles == 1 ? " cycle)" : " cycles)") << '\n';
    FindingCounts counts = findings_;  // the events', then the run's
    counts.Add(report.findings);
    counts.Write(out);
    out << "lines: " << s.lines.total << " read, " << s.lines.parsed << " parsed, ";
    if (s.lines.skipped) out << s.lines.skipped << " skipped, ";
    out << s.lines.unparsed << " not understood";
    if (s.lines.unattached)
      out << " (" << s.lines.unattached << " of them continuation lines with no message to attach to)";
    if (s.lines.unparsed && report.unparsed.empty()) out << " (--show-unparsed lists them)";
    out << '\n';
    for (const InputInfo& in : report.inputs) {
      out << "input: " << Clean(in.file) << " (" << in.format;
      if (!in.framing.empty()) out << " in " << Clean(in.framing) << " frames";
      if (in.format == "stderr") out << ", log_line_prefix '" << Clean(in.detected) << "'";
      out << (in.gzip ? ", gzip" : "") << ")\n";
    }
    for (const FailedInput& f : report.failed_inputs)
      out << "input: " << Clean(f.file) << " could not be read: " << Clean(f.error) << '\n';
    for (const Diagnostic& d : report.diagnostics) out << DiagnosticText(d) << '\n';
    for (const UnparsedLine& u : report.unparsed)
      out << "not understood: " << Clean(u.file) << ":" << u.line << ": " << Clean(u.text) << '\n';
  }

  uint32_t input_ = 0;
  bool streamed_ = false;     // OnEvent was called: report.events are not read
  bool spool_failed_ = false;
  // Deadlocks: "  <time>  <where>  victim <v>\n" (the line of an "also
  // deadlock"), then the full block, both without the number.
  EventSpool deadlocks_;
  std::vector<uint32_t> deadlock_also_length_;  // per deadlock kept
  std::vector<uint32_t> deadlock_signature_;    // per deadlock kept: into signatures_
  std::unordered_map<std::string, uint32_t> signatures_;
  EventSpool body_;  // lock waits and snapshot blocks: a BodyTag, then the block
  std::map<std::string, int> outcomes_;  // lock waits by outcome name
  double longest_wait_ = 0;
  FindingCounts findings_;
};

}  // namespace

std::unique_ptr<Emitter> MakeTextEmitter() { return std::make_unique<TextEmitter>(); }

}  // namespace lockgraph
