// Serves a registry's metrics over HTTP on /metrics for Prometheus to
// scrape, from a thread of its own (cpp-httplib). docs/metrics.md.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "metrics/registry.h"

namespace lockgraph {

/// A listen address: "127.0.0.1:9187", "[::1]:9187", "localhost:0" (port 0:
/// any free port).
struct ListenAddress {
  std::string host;
  int port = 0;
};
/// Parses "HOST:PORT" ("[V6]:PORT" for an IPv6 address); nullopt when the
/// host is empty or the port is not a number from 0 to 65535.
std::optional<ListenAddress> ParseListenAddress(const std::string& text);

/// GET /metrics: the exposition of the registry at that moment; GET /: a
/// line pointing to /metrics; anything else 404. Not copyable; Stop() (or
/// the destructor) ends the thread. The registry must outlive the server.
class MetricsHttpServer {
 public:
  explicit MetricsHttpServer(const MetricRegistry& registry);
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  /// Binds `address` and starts serving. Returns "" or why it could not
  /// ("cannot listen on 127.0.0.1:9187 (address in use?)").
  std::string Start(const ListenAddress& address);
  /// The port bound (the one chosen when 0 was asked); 0 before Start.
  int port() const;
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lockgraph
