// See http_server.h. The HTTP itself is served by the server module's
// backend (httplib_backend.cc); this file parses the address and opens it.
#include "metrics/http_server.h"

#include "module/server_module.h"
#include "text/number.h"

namespace lockgraph {

std::optional<ListenAddress> ParseListenAddress(const std::string& text) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  ListenAddress a;
  a.host = text.substr(0, colon);
  if (a.host.size() >= 2 && a.host.front() == '[' && a.host.back() == ']')
    a.host = a.host.substr(1, a.host.size() - 2);
  else if (a.host.find(':') != std::string::npos)
    return std::nullopt;  // an IPv6 address needs its brackets
  std::string port = text.substr(colon + 1);
  std::optional<int> p = ParseNumber<int>(port);
  if (a.host.empty() || !p || *p < 0 || *p > 65535) return std::nullopt;
  a.port = *p;
  return a;
}

MetricsHttpServer::MetricsHttpServer(const MetricRegistry& registry) : registry_(registry) {}

MetricsHttpServer::~MetricsHttpServer() { Stop(); }

std::string MetricsHttpServer::Start(const ListenAddress& address) {
  using Make = MetricsHttpBackend* (*)(const MetricRegistry*);
  std::string error;
  auto make = reinterpret_cast<Make>(ServerModuleSymbol("lockgraph_new_metrics_http_backend", &error));
  if (!make) return error;
  backend_.reset(make(&registry_));
  return backend_->Start(address);
}

int MetricsHttpServer::port() const { return backend_ ? backend_->port() : 0; }

void MetricsHttpServer::Stop() {
  if (backend_) backend_->Stop();
}

}  // namespace lockgraph
