// See metrics_options.h.
#include "app/metrics_options.h"

#include <CLI/CLI.hpp>

namespace lockgraph {

void AddMetricsOptions(CLI::App* cmd, MetricsSettings* settings) {
  cmd->add_option("--metrics-listen", settings->listen,
                  "Serve Prometheus metrics on http://HOST:PORT/metrics "
                  "(127.0.0.1:9187; docs/metrics.md)");
  cmd->add_option("--metrics-max-causes", settings->options.max_causes,
                  "Deadlock causes with a label of their own; later ones count as cause=\"other\"")
      ->check(CLI::Range(size_t(1), size_t(10000)))
      ->capture_default_str();
}

bool StartMetricsIfAsked(const std::string& command, const MetricsSettings& settings,
                         std::unique_ptr<MetricsService>* service, std::ostream& err) {
  service->reset();
  if (settings.listen.empty()) return true;
  std::string error;
  *service = MetricsService::Start(settings, &error);
  if (!*service) {
    err << "lockgraph " << command << ": " << error << '\n';
    return false;
  }
  err << "lockgraph " << command << ": serving metrics on " << (*service)->url() << '\n';
  return true;
}

}  // namespace lockgraph
