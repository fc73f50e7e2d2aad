// Localized servers (lc_messages other than English): the real runs of
// samples/postgresql/localized/ (scripts/make-localized-samples.sh) give the
// same events as the English run of the same scenarios, in stderr, csvlog,
// jsonlog and syslog. Single templates: test_localized_templates.cc.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "support.h"

namespace lockgraph {
namespace {

const char* const kLanguages[] = {"de", "es", "fr", "it", "ja", "ka",
                                  "ko", "ru", "sv", "uk", "zh_CN"};
const char* const kStructured[] = {"de", "fr", "ja", "ru", "zh_CN"};
constexpr const char* kPrefix = "%m [%p] %q%u@%d/%a ";

std::string SamplePath(const std::string& name) {
  return std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/localized/" + name;
}

// Pids, xids, ctids and OIDs differ between runs: each value is replaced by
// its order of first appearance among the values of its kind ("pid#0",
// "transactionid#2"), so two runs compare equal when the same processes wait
// for the same locks in the same pattern.
class Canon {
 public:
  std::string Value(const std::string& kind, const std::string& value) {
    auto& seen = seen_[kind];
    auto it = seen.find(value);
    if (it == seen.end()) it = seen.emplace(value, seen.size()).first;
    return kind + "#" + std::to_string(it->second);
  }
  std::string Pid(const std::string& pid) { return Value("pid", pid); }
  std::string Lock(const LockTarget& t) {
    std::string out = t.type + "{";
    for (const LockField& f : t.fields) out += f.name + "=" + Value(f.name, f.value) + ",";
    return out + "}" + (t.relation_name.empty() ? "" : " " + t.relation_name);
  }

 private:
  std::map<std::string, std::map<std::string, size_t>> seen_;
};

struct Run {
  std::vector<std::string> events;  // normalized, in log order
  std::vector<std::string> signatures;  // of the deadlocks (stable across runs)
  std::vector<double> waited_ms;    // of every lock wait report
  size_t deadlocks = 0, waits = 0, problems = 0;
};

Run Normalize(const Report& r) {
  Run run;
  Canon canon;
  for (const Event& ev : r.events) {
    if (ev.deadlock) {
      const Deadlock& d = *ev.deadlock;
      ++run.deadlocks;
      run.problems += d.problems.size();
      run.signatures.push_back(ev.signature);
      std::string s = "deadlock victim " + canon.Pid(d.victim) +
                      (d.complete ? " complete:" : " incomplete:");
      for (const WaitEdge& e : d.edges)
        s += " " + canon.Pid(e.waiter) + " -" + e.mode + "/" + canon.Lock(e.lock) + "-> " +
             canon.Pid(e.blocker) + ";";
      s += " queries:";
      for (const Participant& p : d.processes) s += " " + canon.Pid(p.id) + "=" + p.query + ";";
      s += " statement: " + d.statement + " context:";
      for (const ContextFrame& f : d.context) s += " " + f.action + " " + f.relation + ";";
      run.events.push_back(s);
    } else if (ev.lock_wait) {
      const LockWait& w = *ev.lock_wait;
      ++run.waits;
      std::string s = "wait " + canon.Pid(w.waiter) + " " + w.mode + " " + canon.Lock(w.lock) +
                      " " + WaitOutcomeName(w.outcome) + " reports:";
      for (const WaitReport& rep : w.reports) {
        s += " " + rep.kind;
        if (rep.after_ms) run.waited_ms.push_back(*rep.after_ms);
      }
      s += " holders:";
      for (int64_t h : w.holders) s += " " + canon.Pid(std::to_string(h));
      s += " statement: " + w.statement + " context:";
      for (const ContextFrame& f : w.context) s += " " + f.action + " " + f.relation + ";";
      run.events.push_back(s);
    }
  }
  return run;
}

Run AnalyzeSample(const std::string& name, const std::string& format = "") {
  return Normalize(test::AnalyzeText(test::ReadFile(SamplePath(name)), format));
}

// "1000.123" as the server wrote it: a decimal point or (de) a comma.
bool LogHasMs(const std::string& log, double ms) {
  char point[32], comma[32];
  std::snprintf(point, sizeof point, "%.3f", ms);
  std::snprintf(comma, sizeof comma, "%.3f", ms);
  for (char* c = comma; *c; ++c)
    if (*c == '.') *c = ',';
  return log.find(point) != std::string::npos || log.find(comma) != std::string::npos;
}

// The stderr sample as rsyslog writes what the server sends to syslog:
// "[seq-1]" on a record's first line, "[seq-N] #011..." on its TAB lines.
std::string AsSyslog(const std::string& stderr_log) {
  static const std::regex kLine(R"(^\d{4}-\d\d-\d\d (\d\d:\d\d:\d\d)\.\d+ UTC \[(\d+)\] )");
  std::string out, pid, time;
  int seq = 0, chunk = 0;
  size_t pos = 0;
  while (pos < stderr_log.size()) {
    size_t nl = stderr_log.find('\n', pos);
    if (nl == std::string::npos) nl = stderr_log.size();
    std::string line = stderr_log.substr(pos, nl - pos);
    pos = nl + 1;
    std::smatch m;
    if (std::regex_search(line, m, kLine)) {
      time = m[1];
      pid = m[2];
      chunk = 1;
      ++seq;
    } else if (!line.empty() && line[0] == '\t') {
      ++chunk;
      line = "#011" + line.substr(1);
    }
    out += "Dec  3 " + time + " lab postgres[" + pid + "]: [" + std::to_string(seq) + "-" +
           std::to_string(chunk) + "] " + line + "\n";
  }
  return out;
}

TEST_CASE("localized stderr samples: the same events as the English run", "[i18n]") {
  const Run en = AnalyzeSample("en.log");
  // The scenarios of the script: 3 deadlocks, and lock waits that end
  // acquired, in a deadlock and in a lock timeout.
  REQUIRE(en.deadlocks == 3);
  REQUIRE(en.waits >= 8);
  CHECK(en.problems == 0);
  for (const std::string& sig : en.signatures) CHECK(sig.size() == 16);
  for (const char* lang : kLanguages) {
    INFO("language " << lang);
    const std::string log = test::ReadFile(SamplePath(std::string(lang) + ".log"));
    const Run run = Normalize(test::AnalyzeText(log));
    CHECK(run.deadlocks == en.deadlocks);
    CHECK(run.waits == en.waits);
    CHECK(run.problems == 0);
    CHECK(run.signatures == en.signatures);  // baselines work across languages
    REQUIRE(run.events.size() == en.events.size());
    for (size_t i = 0; i < en.events.size(); ++i) CHECK(run.events[i] == en.events[i]);
    // Every time read from a report is one the server printed.
    CHECK(run.waited_ms.size() == en.waited_ms.size());
    for (double ms : run.waited_ms) {
      INFO(ms);
      CHECK(LogHasMs(log, ms));
    }
  }
}

TEST_CASE("localized csvlog, jsonlog and syslog: the same events as stderr", "[i18n]") {
  for (const char* lang : kStructured) {
    INFO("language " << lang);
    const std::string name(lang);
    const Run text = AnalyzeSample(name + ".log");
    REQUIRE(text.deadlocks == 3);
    CHECK(AnalyzeSample(name + ".csv").events == text.events);
    CHECK(AnalyzeSample(name + ".json").events == text.events);
    const std::string syslog = AsSyslog(test::ReadFile(SamplePath(name + ".log")));
    CHECK(Normalize(test::AnalyzeText(syslog, "syslog", kPrefix, true)).events == text.events);
  }
}

TEST_CASE("one log, several languages (lc_messages set per session)", "[i18n]") {
  // lc_messages is PGC_SUSET: sessions of one server may differ. The runs
  // used distinct pids, so their logs put together are one server's log.
  const Run en = AnalyzeSample("en.log");
  std::string mixed;
  for (const char* lang : {"en", "de", "ja", "ka", "zh_CN"})
    mixed += test::ReadFile(SamplePath(std::string(lang) + ".log"));
  const Run run = Normalize(test::AnalyzeText(mixed));
  CHECK(run.deadlocks == 5 * en.deadlocks);
  CHECK(run.waits == 5 * en.waits);
  CHECK(run.problems == 0);
}

TEST_CASE("localized samples: raw values are read from the translated text", "[i18n]") {
  // de prints the tuple tag with a space and the time with a comma; the
  // fields must be the numbers of the text, not just consistent.
  Report r = test::AnalyzeText(test::ReadFile(SamplePath("de.log")));
  bool tuple_seen = false;
  for (const Event& ev : r.events) {
    if (!ev.deadlock) continue;
    for (const WaitEdge& e : ev.deadlock->edges) {
      if (e.lock.type != "tuple") continue;
      tuple_seen = true;
      const std::string expected = "Tupel (" + std::string(e.lock.Field("page")) + ", " +
                                   std::string(e.lock.Field("tuple")) + ") von Relation " +
                                   std::string(e.lock.Field("relation")) + " von Datenbank " +
                                   std::string(e.lock.Field("database"));
      CHECK(e.lock.text == expected);
      CHECK(e.mode == "ExclusiveLock");
    }
  }
  CHECK(tuple_seen);
}

}  // namespace
}  // namespace lockgraph
