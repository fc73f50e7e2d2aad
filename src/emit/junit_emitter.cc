// --format junit: JUnit XML for CI test reports. One test case per deadlock
// signature (failing when it fails the run: always for analyze, for check
// when it is new and the deadlock limit is broken), one per lock-wait key
// over check's --max-lock-wait, one per lock cycle of a snapshot (failing
// when the deadlock limit is broken), one per --fail-on rule, one skipped case per
// baseline entry no longer seen; "no deadlocks" passes when there is nothing
// else. Failing cases carry the report. The counts are made first, then the
// cases are written one at a time (junit_writer.h): the failures' texts
// (every failing finding of a rule, every wait of a key) are read back or
// made piece by piece, never held whole.
#include <functional>
#include <iostream>
#include <map>
#include <string_view>
#include <vector>

#include "gate/baseline.h"
#include "emit/ci_text.h"
#include "emit/emitter.h"
#include "emit/junit_writer.h"
#include "emit/text_safety.h"
#include "io/text_spool.h"

namespace lockgraph {
namespace {

void SetFile(pugi::xml_node tc, const SourceSpan& s) {
  if (s.file.empty()) return;
  tc.append_attribute("file") = PrintableText(s.file).c_str();
  tc.append_attribute("line") = static_cast<unsigned long long>(s.first_line);
}

// One piece of text.
JunitWriter::Pieces Whole(std::string text) {
  return [text = std::move(text)](const std::function<void(std::string_view)>& put) { put(text); };
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
    const std::vector<DeadlockGroup> groups = GroupsByCause(report);
    std::map<std::string, std::vector<const LongWait*>> by_key;
    if (check_) {
      for (const LongWait& w : check_->long_waits) by_key[w.key].push_back(&w);
      CollectFailing(report);
    }
    JunitCounts counts = Count(groups, by_key);
    const bool none = counts.tests == 0;
    if (none) counts.tests = 1;  // "no deadlocks"
    JunitWriter junit(out, counts);
    for (const DeadlockGroup& g : groups) {
      SetFile(junit.Case("lockgraph.deadlocks", GroupTitle(g)), g.first_source);
      if (GroupFails(check_, g)) junit.Fail("deadlock", GroupTitle(g), Whole(GroupText(report, g)));
      else junit.Pass();
    }
    if (check_) WriteCheckCases(by_key, &junit);
    if (none) {
      junit.Case("lockgraph.deadlocks", "no deadlocks");
      junit.Pass();
    }
    junit.Finish();
  }

 private:
  JunitCounts Count(const std::vector<DeadlockGroup>& groups,
                    const std::map<std::string, std::vector<const LongWait*>>& by_key) {
    JunitCounts c;
    for (const DeadlockGroup& g : groups) ++c.tests, c.failures += GroupFails(check_, g);
    if (check_) {
      const CheckResult& check = *check_;
      c.tests += int(check.cycles.size());
      if (check.deadlocks_failed) c.failures += int(check.cycles.size());
      for (const auto& [key, waits] : by_key) ++c.tests, c.failures += !waits.front()->known;
      for (const std::string& rule : check.fail_on)
        ++c.tests, c.failures += !failing_[rule].pieces.empty();
      c.tests += int(check.stale.size());
      c.skipped += int(check.stale.size());
    }
    return c;
  }

  // Lock cycles, lock waits over the limit (one case per key), --fail-on
  // rules, stale baseline entries.
  void WriteCheckCases(const std::map<std::string, std::vector<const LongWait*>>& by_key,
                       JunitWriter* junit) {
    const CheckResult& check = *check_;
    for (size_t i : check.cycles) {
      const Event ev = check.event(i);
      SetFile(junit->Case("lockgraph.deadlocks", CycleTitle(ev)), ev.source);
      if (check.deadlocks_failed) junit->Fail("lock-cycle", CycleTitle(ev), Whole(CycleText(ev)));
      else junit->Pass();
    }
    for (const auto& [key, waits] : by_key) {
      const Event ev = check.event(waits.front()->event);
      SetFile(junit->Case("lockgraph.lock_waits", "lock wait " + key + ": " + WaitWhat(ev)),
              ev.source);
      if (waits.front()->known) {
        junit->Pass();
        continue;
      }
      // Named again: clang 14 (the fuzz build) cannot capture a structured
      // binding in a lambda.
      const std::vector<const LongWait*>& of_key = waits;
      junit->Fail("lock-wait", WaitTitle(ev) + " (limit " + check.max_lock_wait + ")",
                  [&](const std::function<void(std::string_view)>& put) {
                    for (const LongWait* w : of_key) put(WaitText(check.event(w->event)) + "\n");
                  });
    }
    for (const std::string& rule : check.fail_on) WriteRuleCase(rule, junit);
    for (const std::string& stale : check.stale) {
      junit->Case("lockgraph.baseline", "baseline " + stale);
      junit->Skip("no longer seen in this run");
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

  void WriteRuleCase(const std::string& rule, JunitWriter* junit) {
    const FailingText& failing = failing_[rule];
    junit->Case("lockgraph.rules", rule + " (--fail-on)");
    if (failing.pieces.empty()) return junit->Pass();
    junit->Fail("finding", failing.first, [&](const std::function<void(std::string_view)>& put) {
      std::string buffer;
      std::string_view text;
      for (const TextSpool::Ref& ref : failing.pieces) {
        if (!texts_.Read(ref, &buffer, &text)) {
          std::cerr << "lockgraph: cannot read back the findings kept in a temporary file\n";
          return;
        }
        put(text);
      }
    });
  }

  void AddFailing(const Report& report, const Event* ev, const Finding& f) {
    if (!FindingFails(check_, report, ev, f)) return;
    FailingText& failing = failing_[f.rule_id];
    if (failing.first.empty()) failing.first = FindingTitle(f);
    failing.pieces.push_back(texts_.Add(
        (ev ? SourceText(ev->source) + ": " : std::string()) + FindingText(f) + "\n\n"));
  }

  struct FailingText {
    std::string first;                   // the title of the first
    std::vector<TextSpool::Ref> pieces;  // each finding's text, in texts_
  };
  std::map<std::string, FailingText> failing_;  // by rule ID
  TextSpool texts_{1 << 20};
  bool checked_events_ = false;  // OnCheckedEvent saw the events: report.events are examples
};

}  // namespace

std::unique_ptr<Emitter> MakeJunitEmitter() { return std::make_unique<JunitEmitter>(); }

}  // namespace lockgraph
