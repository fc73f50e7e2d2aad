// --format junit: JUnit XML for CI test reports. One test case per deadlock
// signature (failing when it fails the run: always for analyze, for check
// when it is new and the deadlock limit is broken), one per lock-wait key
// over check's --max-lock-wait, one per lock cycle of a snapshot (failing
// when the deadlock limit is broken), one per --fail-on rule, one skipped case per
// baseline entry no longer seen; "no deadlocks" passes when there is nothing
// else. Failing cases carry the report. Written with pugixml (escaping by
// the library); text goes through PrintableText first because XML 1.0 has
// no way to write NUL or most control characters, nor invalid UTF-8.
#include <pugixml.hpp>

#include <map>
#include <sstream>

#include "gate/baseline.h"
#include "emit/ci_text.h"
#include "emit/emitter.h"
#include "emit/text_safety.h"

namespace lockgraph {
namespace {

struct Counts {
  int tests = 0, failures = 0, skipped = 0;
};

std::string Safe(std::string_view s) { return PrintableText(s); }

pugi::xml_node AddCase(pugi::xml_node suite, const std::string& classname,
                       const std::string& name, Counts* counts) {
  pugi::xml_node tc = suite.append_child("testcase");
  tc.append_attribute("classname") = Safe(classname).c_str();
  tc.append_attribute("name") = Safe(name).c_str();
  ++counts->tests;
  return tc;
}

void Fail(pugi::xml_node tc, const std::string& type, const std::string& message,
          const std::string& text, Counts* counts) {
  pugi::xml_node f = tc.append_child("failure");
  f.append_attribute("type") = type.c_str();
  f.append_attribute("message") = Safe(message).c_str();
  f.append_child(pugi::node_pcdata).set_value(Safe(text).c_str());
  ++counts->failures;
}

void SetFile(pugi::xml_node tc, const SourceSpan& s) {
  if (s.file.empty()) return;
  tc.append_attribute("file") = Safe(s.file).c_str();
  tc.append_attribute("line") = static_cast<unsigned long long>(s.first_line);
}

class JunitEmitter : public Emitter {
 public:
  std::string Name() const override { return "junit"; }
  std::string Description() const override {
    return "JUnit XML, one test case per deadlock signature (redacted unless --no-redact)";
  }
  bool RedactsByDefault() const override { return true; }
  EventNeeds NeedsEvents() const override { return EventNeeds::kExamples; }
  void OnCheckedEvent(const Event& ev, const Report& report, std::ostream&) override {
    checked_events_ = true;
    for (const Finding& f : ev.findings) AddFailing(report, &ev, f);
  }

  void Write(const Report& report, std::ostream& out) override {
    pugi::xml_document doc;
    pugi::xml_node decl = doc.append_child(pugi::node_declaration);
    decl.append_attribute("version") = "1.0";
    decl.append_attribute("encoding") = "UTF-8";
    pugi::xml_node suites = doc.append_child("testsuites");
    pugi::xml_node suite = suites.append_child("testsuite");
    Counts c;
    for (const DeadlockGroup& g : GroupsByCause(report)) {
      pugi::xml_node tc = AddCase(suite, "lockgraph.deadlocks", GroupTitle(g), &c);
      SetFile(tc, g.first_source);
      if (GroupFails(check_, g))
        Fail(tc, "deadlock", GroupTitle(g), GroupText(report, g), &c);
    }
    if (check_) AddCheckCases(report, suite, &c);
    if (c.tests == 0) AddCase(suite, "lockgraph.deadlocks", "no deadlocks", &c);
    for (pugi::xml_node n : {suites, suite}) {
      n.append_attribute("name") = n == suites ? "lockgraph" : "lockgraph check";
      n.append_attribute("tests") = c.tests;
      n.append_attribute("failures") = c.failures;
      n.append_attribute("errors") = 0;
      n.append_attribute("skipped") = c.skipped;
    }
    doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  }

 private:
  // Lock waits over the limit, one case per key; --fail-on rules; stale
  // baseline entries.
  void AddCheckCases(const Report& report, pugi::xml_node suite, Counts* c) {
    const CheckResult& check = *check_;
    for (size_t i : check.cycles) {
      const Event ev = check.event(i);
      pugi::xml_node tc = AddCase(suite, "lockgraph.deadlocks", CycleTitle(ev), c);
      SetFile(tc, ev.source);
      if (check.deadlocks_failed) Fail(tc, "lock-cycle", CycleTitle(ev), CycleText(ev), c);
    }
    std::map<std::string, std::vector<const LongWait*>> by_key;
    for (const LongWait& w : check.long_waits) by_key[w.key].push_back(&w);
    for (const auto& [key, waits] : by_key) {
      const Event ev = check.event(waits.front()->event);
      pugi::xml_node tc = AddCase(suite, "lockgraph.lock_waits",
                                  "lock wait " + key + ": " + WaitWhat(ev), c);
      SetFile(tc, ev.source);
      if (waits.front()->known) continue;
      std::string text;
      for (const LongWait* w : waits) text += WaitText(check.event(w->event)) + "\n";
      Fail(tc, "lock-wait", WaitTitle(ev) + " (limit " + check.max_lock_wait + ")", text, c);
    }
    CollectFailing(report);
    for (const std::string& rule : check.fail_on) AddRuleCase(rule, suite, c);
    for (const std::string& stale : check.stale) {
      pugi::xml_node tc = AddCase(suite, "lockgraph.baseline", "baseline " + stale, c);
      tc.append_child("skipped").append_attribute("message") = "no longer seen in this run";
      ++c->skipped;
    }
  }

  // The failing findings of the --fail-on rules: the events' (as they came
  // through OnCheckedEvent, else from the report), then the run's.
  void CollectFailing(const Report& report) {
    if (!checked_events_)
      for (const Event& ev : report.events)
        for (const Finding& f : ev.findings) AddFailing(report, &ev, f);
    for (const Finding& f : report.findings) AddFailing(report, nullptr, f);
  }

  void AddRuleCase(const std::string& rule, pugi::xml_node suite, Counts* c) {
    const FailingText& failing = failing_[rule];
    pugi::xml_node tc = AddCase(suite, "lockgraph.rules", rule + " (--fail-on)", c);
    if (!failing.text.empty()) Fail(tc, "finding", failing.first, failing.text, c);
  }

  void AddFailing(const Report& report, const Event* ev, const Finding& f) {
    if (!FindingFails(check_, report, ev, f)) return;
    FailingText& failing = failing_[f.rule_id];
    if (failing.first.empty()) failing.first = FindingTitle(f);
    failing.text += (ev ? SourceText(ev->source) + ": " : std::string()) + FindingText(f) + "\n\n";
  }

  struct FailingText {
    std::string first;  // the title of the first
    std::string text;
  };
  std::map<std::string, FailingText> failing_;  // by rule ID
  bool checked_events_ = false;  // OnCheckedEvent saw the events: report.events are examples
};

}  // namespace

std::unique_ptr<Emitter> MakeJunitEmitter() { return std::make_unique<JunitEmitter>(); }

}  // namespace lockgraph
