// See metrics_service.h.
#include "metrics/metrics_service.h"

namespace lockgraph {

std::unique_ptr<MetricsService> MetricsService::Start(const MetricsSettings& settings,
                                                      std::string* error) {
  std::optional<ListenAddress> address = ParseListenAddress(settings.listen);
  if (!address) {
    *error = "--metrics-listen '" + settings.listen +
             "': give HOST:PORT (127.0.0.1:9187, [::1]:9187, localhost:0 for any free port)";
    return nullptr;
  }
  std::unique_ptr<MetricsService> service(new MetricsService(settings.options));
  std::string why = service->server_.Start(*address);
  if (!why.empty()) {
    *error = "--metrics-listen: " + why;
    return nullptr;
  }
  service->address_ = *address;
  return service;
}

std::string MetricsService::url() const {
  const std::string& host = address_.host;
  return "http://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port()) + "/metrics";
}

}  // namespace lockgraph
