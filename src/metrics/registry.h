// Prometheus metrics held in memory: counters, gauges and histograms, each
// a family of series told apart by label values. Written by the metrics
// observer, read by the exposition writer and the /metrics server.
// docs/metrics.md.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace lockgraph {

enum class MetricType { kCounter, kGauge, kHistogram };

/// "counter", "gauge", "histogram": the word of a `# TYPE` line.
const char* MetricTypeName(MetricType t);

/// One series: a counter's or gauge's value, or a histogram's buckets.
struct MetricSeries {
  double value = 0;                   // counter, gauge
  std::vector<uint64_t> bucket_counts;  // histogram: per bucket, not cumulative
  double sum = 0;                     // histogram
  uint64_t count = 0;                 // histogram
};

/// A metric family as declared, with its series keyed by label values (in
/// the order of `label_names`), sorted.
struct MetricFamily {
  std::string name;
  std::string help;
  MetricType type = MetricType::kCounter;
  std::vector<std::string> label_names;
  std::vector<double> buckets;  // histogram: upper bounds, ascending, +Inf implied
  std::map<std::vector<std::string>, MetricSeries> series;
};

/// Thread-safe: every member may be called from any thread. Not copyable.
/// Updates of an undeclared family, or with the wrong number of label
/// values, are ignored (a programming error the unit tests catch by value).
class MetricRegistry {
 public:
  MetricRegistry() = default;
  MetricRegistry(const MetricRegistry&) = delete;
  MetricRegistry& operator=(const MetricRegistry&) = delete;

  /// Declares a family. False when the name is taken or is not a valid
  /// metric name, a label name is not valid, a counter's name does not end
  /// in `_total`, or a histogram's buckets are not ascending.
  bool Declare(const std::string& name, MetricType type, const std::string& help,
               std::vector<std::string> label_names = {}, std::vector<double> buckets = {});

  /// Counter: adds `delta` (>= 0; negative deltas are ignored).
  void Add(const std::string& name, const std::vector<std::string>& labels, double delta = 1);
  /// Gauge: sets the value.
  void Set(const std::string& name, const std::vector<std::string>& labels, double value);
  struct GaugeValue {
    std::string name;
    std::vector<std::string> labels;
    double value = 0;
  };
  /// Gauges: sets every value at once, so that no scrape sees half of them
  /// from one poll and half from the one before.
  void SetAll(const std::vector<GaugeValue>& values);
  /// Histogram: counts one observation.
  void Observe(const std::string& name, const std::vector<std::string>& labels, double value);
  /// Drops one series (a gauge of a server that is down). No-op when absent.
  void Remove(const std::string& name, const std::vector<std::string>& labels);

  /// A copy of every family, in declaration order.
  std::vector<MetricFamily> Families() const;

 private:
  MetricFamily* Find(const std::string& name, MetricType type, size_t labels);

  mutable std::mutex mutex_;
  std::vector<MetricFamily> families_;
};

/// True for a valid metric name ([a-zA-Z_:][a-zA-Z0-9_:]*).
bool IsValidMetricName(const std::string& name);
/// True for a valid label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting "__").
bool IsValidLabelName(const std::string& name);

}  // namespace lockgraph
