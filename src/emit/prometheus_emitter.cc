// `--format prometheus`: the run's counters once, in the Prometheus text
// format, for node_exporter's textfile collector. The same metrics as
// `watch`/`follow --metrics-listen` serve (docs/metrics.md).
//
// Under `analyze` what each event counts for (EventMetrics) is taken when it
// is made and kept in an EventSpool, not the event; at Write it is counted in
// log order, as the collected events were: the first causes and label values
// seen keep their own labels, and the histogram's sum adds in the same order.
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "emit/emitter.h"
#include "emit/event_spool.h"
#include "emit/hole_text.h"
#include "metrics/exposition.h"
#include "metrics/observer.h"
#include "text/number.h"

namespace lockgraph {
namespace {

// EventMetrics as text: kind, database, signature, cause, mode, outcome,
// waited (empty: unknown; else the double's bytes), then rule and severity
// of each finding.
std::string Pack(const EventMetrics& m) {
  std::vector<std::string> f = {std::to_string(int(m.kind)), m.database, m.signature, m.cause,
                                m.mode, m.outcome, std::string()};
  if (m.waited_ms) f.back().assign(reinterpret_cast<const char*>(&*m.waited_ms), sizeof(double));
  for (const EventMetrics::Found& found : m.findings) {
    f.push_back(found.rule_id);
    f.push_back(std::to_string(int(found.severity)));
  }
  return PackFields(std::vector<std::string_view>(f.begin(), f.end()));
}

bool Unpack(std::string_view packed, EventMetrics* m) {
  std::vector<std::string_view> f = UnpackFields(packed);
  if (f.size() < 7 || (f.size() - 7) % 2 != 0) return false;
  m->kind = EventMetrics::Kind(ParseNumber<int>(f[0]).value_or(0));
  m->database = f[1];
  m->signature = f[2];
  m->cause = f[3];
  m->mode = f[4];
  m->outcome = f[5];
  if (f[6].size() == sizeof(double)) {
    double ms;
    f[6].copy(reinterpret_cast<char*>(&ms), sizeof ms);
    m->waited_ms = ms;
  }
  for (size_t i = 7; i + 1 < f.size(); i += 2)
    m->findings.push_back({std::string(f[i]), Severity(ParseNumber<int>(f[i + 1]).value_or(0))});
  return true;
}

class PrometheusEmitter : public Emitter {
 public:
  std::string Name() const override { return "prometheus"; }
  std::string Description() const override {
    return "Prometheus text format: deadlocks, lock waits, findings, log lines (textfile collector)";
  }
  bool KeepsOwnEvents() const override { return true; }
  void OnInputStart(size_t input) override { input_ = uint32_t(input); }
  void OnEvent(const Event& ev, std::ostream&) override {
    EventMetrics m = EventMetrics::Of(ev);
    if (m.kind != EventMetrics::Kind::kOther || !m.findings.empty())  // else it counts for nothing
      spool_.Add(input_, ev.source.first_line, Pack(m));
  }

  void Write(const Report& report, std::ostream& out) override {
    MetricRegistry registry;
    MetricsObserver observer(registry, MetricsOptions{});
    // What each event counts for comes from the spool when OnEvent filled
    // it (`analyze`), else from the report (callers that collect events).
    if (spool_.size() == 0) {
      for (const Event& ev : report.events) observer.OnEvent(ev);
    } else {
      bool intact = true;
      const bool read = spool_.ForEachSorted([&](std::string_view packed) {
        EventMetrics m;
        if (Unpack(packed, &m)) observer.OnEvent(m);
        else intact = false;
      });
      if (!read) std::cerr << "lockgraph: cannot read back the events kept in a temporary file\n";
      if (!intact) std::cerr << "lockgraph: internal error: an event's metrics could not be read back\n";
    }
    for (const Finding& f : report.findings) observer.OnFinding(f);
    observer.AddLineCounts(report.summary.lines);
    WriteExposition(registry.Families(), out);
  }

 private:
  EventSpool spool_;
  uint32_t input_ = 0;
};

}  // namespace

std::unique_ptr<Emitter> MakePrometheusEmitter() { return std::make_unique<PrometheusEmitter>(); }

}  // namespace lockgraph
