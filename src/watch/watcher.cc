// See watcher.h. Servers are polled one after the other in each round; a
// poll is bounded by the session's statement_timeout, a connection attempt
// by connect_timeout, so one slow server delays a round, never stops it.
#include "watch/watcher.h"

#include <csignal>
#include <chrono>
#include <thread>

#include "analysis/event_time.h"
#include "analysis/redact.h"
#include "emit/emitter.h"
#include "emit/event_json.h"
#include "emit/snapshot_text.h"
#include "rules/rule_engine.h"
#include "watch/wait_tracker.h"

namespace lockgraph {
namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop = 0;
extern "C" void OnStopSignal(int) { g_stop = 1; }

struct Server {
  std::unique_ptr<SnapshotSource> source;
  WaitTracker tracker;
  bool ever_ok = false;
  bool failed = false;            // the last attempt failed
  std::string error;              // of the last attempt
  double backoff_ms = 0;
  Clock::time_point next_try{};
  PgSnapshotAnalysis analysis;    // of the last successful poll
  bool printed_failed = false;    // what the last printed picture showed
  bool said_hidden = false;       // the role's missing rights were reported
  uint64_t failed_in_row = 0;     // failed polls since the last good one
};

struct Round {
  bool changed = false;         // worth printing for piped text, json, dot
  std::vector<Event> ndjson;    // the changes
};

double MsSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// Servers' times carry their zone (sampled_at, InnoDB's excepted): read
/// as written, else as UTC (analysis/event_time.h).
const TimeResolver& Times() {
  static std::string error;
  static const std::unique_ptr<TimeResolver> resolver = TimeResolver::Make("", &error);
  return *resolver;
}

class Watcher {
 public:
  Watcher(std::vector<std::unique_ptr<SnapshotSource>> sources, const WatchOptions& options,
          std::ostream& out, std::ostream& err)
      : options_(options), out_(out), err_(err), text_(options.color) {
    for (auto& s : sources) {
      servers_.emplace_back();
      servers_.back().source = std::move(s);
    }
    if (options_.format != "text" && options_.format != "ndjson")
      for (auto& e : RegisterBuiltinEmitters())
        if (e->Name() == options_.format) emitter_ = std::move(e);
  }

  int Run() {
    const Clock::time_point start = Clock::now();
    bool all_ok = true;
    for (uint64_t round = 0;; ++round) {
      const Clock::time_point round_start = Clock::now();
      Round r;
      for (Server& s : servers_) all_ok = PollOne(s, &r) && all_ok;
      Print(r, round == 0);
      if (options_.once || g_stop || refused_) break;
      if (!SleepUntil(round_start, start)) break;
    }
    FlushHeld();
    if (options_.format == "ndjson") WriteNdjsonSummary();
    if (refused_) return 2;
    for (const Server& s : servers_)
      if (!s.ever_ok) return 2;
    return options_.once && !all_ok ? 2 : 0;
  }

 private:
  // False when the poll was due and failed.
  bool PollOne(Server& s, Round* r) {
    if (Clock::now() < s.next_try) return true;  // down; waiting to reconnect
    SnapshotSource::Result res = s.source->Poll();
    ++polls_;
    if (res.status != SnapshotSource::Result::Status::kOk) return Failed(s, res, r);
    if (!res.error.empty()) err_ << "lockgraph watch: " << s.source->label() << ": " << res.error << '\n';
    if (s.failed)  // the failure was reported; say that it is over
      err_ << "lockgraph watch: " << s.source->label() << ": polling again after "
           << s.failed_in_row << " failed poll(s)\n";
    s.failed_in_row = 0;
    if (res.hidden_queries > 0 && !s.said_hidden) {
      s.said_hidden = true;  // once per server: it is the role, not the poll
      err_ << "lockgraph watch: " << s.source->label() << ": the queries of "
           << res.hidden_queries << " backend(s) are hidden from this role (grant it "
           << "pg_read_all_stats to see them); waits, chains and cycles are complete\n";
    }
    r->changed = r->changed || s.failed;
    s.ever_ok = true;
    s.failed = false;
    s.backoff_ms = 0;
    s.analysis = res.analysis ? std::move(*res.analysis) : AnalyzePgSnapshot(res.snapshot);
    // The snapshot rules (an unbroken cycle, an idle-in-transaction root,
    // a DDL queue, a long wait) on this poll's events: one engine a poll,
    // so that nothing accumulates over a watch of days.
    RuleEngine rules(RuleSelection{});
    for (Event& ev : s.analysis.events) rules.OnEvent(&ev);
    std::vector<Event> changes = s.tracker.Update(s.analysis.backends, s.analysis.edges, s.analysis.events);
    // Deadlocks the server broke since the last poll: in this poll's picture
    // and its changes, with the engine's rules' findings.
    for (Event& ev : res.deadlocks) {
      rules.OnEvent(&ev);
      r->changed = true;
      changes.push_back(ev);
      s.analysis.events.push_back(std::move(ev));
    }
    if (options_.redact) {  // after the tracker: it keys waits by the real queries
      for (Event& ev : s.analysis.events) RedactEvent(&ev);
      for (Event& ev : changes) RedactEvent(&ev);
    }
    // time_iso beside each server's own time (its snapshot's sampled_at).
    for (Event& ev : s.analysis.events) Times().Apply(&ev);
    for (Event& ev : changes) Times().Apply(&ev);
    r->changed = r->changed || s.tracker.shape_changed();
    if (options_.metrics) {
      options_.metrics->OnPoll(s.source->label(), s.analysis.backends, s.analysis.events);
      for (const Event& ev : changes) options_.metrics->OnEvent(ev);
    }
    for (Event& ev : changes) r->ndjson.push_back(std::move(ev));
    return true;
  }

  // A stopping watch: the wait_ended events the trackers still hold for
  // processes missing from the last poll (WaitTracker::Finish).
  void FlushHeld() {
    for (Server& s : servers_)
      for (Event& ev : s.tracker.Finish()) {
        if (options_.redact) RedactEvent(&ev);
        Times().Apply(&ev);
        if (options_.metrics) options_.metrics->OnEvent(ev);
        if (options_.format == "ndjson") out_ << DumpJson(EventToJson(ev), -1) << '\n';
      }
    out_.flush();
  }

  bool Failed(Server& s, const SnapshotSource::Result& res, Round* r) {
    ++failures_;
    ++s.failed_in_row;
    if (options_.metrics) options_.metrics->OnPollFailed(s.source->label());
    r->changed = r->changed || !s.failed;
    s.failed = true;
    s.error = res.error;
    std::string msg = "lockgraph watch: " + s.source->label() + ": " + res.error;
    if (res.status == SnapshotSource::Result::Status::kLoginRefused) {
      refused_ = true;  // the same login would be refused again: stop, exit 2
      msg += IsMysqlUri(s.source->label())
                 ? "; not retried: check the user, the password, the host the account may log in "
                   "from and the database name"
                 : "; not retried: check the user, the password, pg_hba.conf and the database name";
    } else if (res.status != SnapshotSource::Result::Status::kQueryFailed && !options_.once) {
      s.backoff_ms = std::min(options_.max_backoff_ms, s.backoff_ms == 0 ? 1000 : s.backoff_ms * 2);
      s.next_try = Clock::now() + std::chrono::milliseconds(int64_t(s.backoff_ms));
      msg += "; retrying in " + SnapshotText::Duration(s.backoff_ms);
    }
    err_ << msg << '\n';
    err_.flush();
    return false;
  }

  // Sleeps to the next round; false when the duration is over or a signal came.
  bool SleepUntil(Clock::time_point round_start, Clock::time_point start) {
    auto next = round_start + std::chrono::milliseconds(int64_t(options_.interval_ms));
    while (Clock::now() < next && !g_stop) {
      if (options_.duration_ms && MsSince(start) >= *options_.duration_ms) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return !g_stop && !(options_.duration_ms && MsSince(start) >= *options_.duration_ms);
  }

  void Print(const Round& r, bool first) {
    if (options_.format == "ndjson") {
      for (const Event& ev : r.ndjson) out_ << DumpJson(EventToJson(ev), -1) << '\n';
    } else if (options_.format == "text" && options_.refresh) {
      PrintScreen();
    } else if (first || r.changed) {
      if (options_.format == "json") PrintJson();
      else if (emitter_) PrintWithEmitter();
      else PrintText();
    }
    out_.flush();
  }

  void PrintText() {
    text_ = SnapshotText(options_.color);  // each picture numbers from 1
    for (const Server& s : servers_) {
      if (s.failed) out_ << "server " << s.source->label() << ": " << s.error << "\n\n";
      else if (s.ever_ok)
        for (const Event& ev : s.analysis.events)
          if (!text_.Write(ev, out_) && ev.deadlock) text_.WriteDeadlock(ev, out_);
    }
  }

  void PrintScreen() {
    out_ << "\x1b[H\x1b[2J";  // home, clear: the terminal shows this poll only
    out_ << "lockgraph watch: " << servers_.size() << (servers_.size() == 1 ? " server" : " servers")
         << ", every " << SnapshotText::Duration(options_.interval_ms) << " (Ctrl-C stops)\n\n";
    PrintText();
  }

  void PrintJson() {
    nlohmann::ordered_json doc;
    doc["schema_version"] = kSchemaVersion;
    doc["tool"] = {{"name", "lockgraph"}, {"version", LOCKGRAPH_VERSION}};
    nlohmann::ordered_json servers = nlohmann::ordered_json::array();
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    for (const Server& s : servers_) {
      nlohmann::ordered_json sj = {{"server", s.source->label()}, {"ok", !s.failed && s.ever_ok}};
      if (s.failed) sj["error"] = s.error;
      servers.push_back(std::move(sj));
      if (!s.failed && s.ever_ok)
        for (const Event& ev : s.analysis.events) events.push_back(EventToJson(ev));
    }
    doc["servers"] = std::move(servers);
    doc["events"] = std::move(events);
    out_ << DumpJson(doc, 2) << '\n';
  }

  void PrintWithEmitter() {
    Report report;
    for (const Server& s : servers_)
      if (!s.failed && s.ever_ok)
        report.events.insert(report.events.end(), s.analysis.events.begin(), s.analysis.events.end());
    emitter_->Write(report, out_);
  }

  void WriteNdjsonSummary() {
    nlohmann::ordered_json j = {{"type", "summary"}, {"servers", servers_.size()},
                                {"polls", polls_}, {"failed_polls", failures_}};
    out_ << DumpJson(j, -1) << '\n';
  }

  WatchOptions options_;
  std::ostream& out_;
  std::ostream& err_;
  std::vector<Server> servers_;
  std::unique_ptr<Emitter> emitter_;  // dot
  SnapshotText text_;
  uint64_t polls_ = 0, failures_ = 0;
  bool refused_ = false;  // a server refused the login: watch stops
};

}  // namespace

int RunWatch(std::vector<std::unique_ptr<SnapshotSource>> sources, const WatchOptions& options,
             std::ostream& out, std::ostream& err) {
  g_stop = 0;
  struct sigaction sa = {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  struct sigaction old_int, old_term;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  int code = Watcher(std::move(sources), options, out, err).Run();
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return code;
}

}  // namespace lockgraph
