// `--format prometheus`: the run's counters once, in the Prometheus text
// format, for node_exporter's textfile collector. The same metrics as
// `watch`/`follow --metrics-listen` serve (docs/metrics.md).
#include <sstream>

#include "emit/emitter.h"
#include "metrics/exposition.h"
#include "metrics/observer.h"

namespace lockgraph {
namespace {

class PrometheusEmitter : public Emitter {
 public:
  std::string Name() const override { return "prometheus"; }
  std::string Description() const override {
    return "Prometheus text format: deadlocks, lock waits, findings, log lines (textfile collector)";
  }
  void Write(const Report& report, std::ostream& out) override {
    MetricRegistry registry;
    MetricsObserver observer(registry, MetricsOptions{});
    for (const Event& ev : report.events) observer.OnEvent(ev);
    for (const Finding& f : report.findings) observer.OnFinding(f);
    observer.AddLineCounts(report.summary.lines);
    WriteExposition(registry.Families(), out);
  }
};

}  // namespace

std::unique_ptr<Emitter> MakePrometheusEmitter() { return std::make_unique<PrometheusEmitter>(); }

}  // namespace lockgraph
