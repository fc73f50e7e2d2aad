// --metrics-listen and --metrics-max-causes, shared by the long-running
// commands (watch, follow) so that both take and check them alike.
// docs/metrics.md#wiring.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "metrics/metrics_service.h"

namespace CLI {
class App;
}

namespace lockgraph {

/// Adds --metrics-listen HOST:PORT and --metrics-max-causes N (default 20)
/// to `cmd`, stored in `settings` (which must outlive the parse).
void AddMetricsOptions(CLI::App* cmd, MetricsSettings* settings);

/// Starts serving when --metrics-listen was given, and says where on `err`
/// ("lockgraph COMMAND: serving metrics on http://127.0.0.1:9187/metrics").
/// Returns true with *service null (no metrics asked) or set; false after printing
/// "lockgraph COMMAND: <why>" to `err` (exit 2).
bool StartMetricsIfAsked(const std::string& command, const MetricsSettings& settings,
                         std::unique_ptr<MetricsService>* service, std::ostream& err);

}  // namespace lockgraph
