// What a long-running command (watch, follow) needs to serve metrics: a
// registry, the observer that fills it, and the /metrics server, started
// together from --metrics-listen. docs/metrics.md#wiring.
#pragma once

#include <memory>
#include <string>

#include "metrics/http_server.h"
#include "metrics/observer.h"
#include "metrics/registry.h"

namespace lockgraph {

struct MetricsSettings {
  std::string listen;        // --metrics-listen: "127.0.0.1:9187"; empty: no metrics
  MetricsOptions options;    // --metrics-max-causes, and whether watch's gauges exist
};

/// Not copyable; thread-safe as its parts are. Stops serving when destroyed.
class MetricsService {
 public:
  /// Declares the metrics and starts serving them on settings.listen.
  /// Returns null and sets `error` (a sentence, without the program's
  /// name) when the address is not valid or cannot be bound.
  static std::unique_ptr<MetricsService> Start(const MetricsSettings& settings, std::string* error);

  /// Feed it: per event, per run-level finding, per line result, per poll.
  MetricsObserver& observer() { return observer_; }
  const MetricRegistry& registry() const { return registry_; }
  /// The port bound (the chosen one when the address asked for port 0).
  int port() const { return server_.port(); }
  /// "http://127.0.0.1:9187/metrics", with the port bound.
  std::string url() const;

 private:
  explicit MetricsService(const MetricsOptions& options)
      : observer_(registry_, options), server_(registry_) {}

  MetricRegistry registry_;
  MetricsObserver observer_;
  MetricsHttpServer server_;
  ListenAddress address_;
};

}  // namespace lockgraph
