// Serves a registry's metrics over HTTP on /metrics for Prometheus to
// scrape, from a thread of its own (cpp-httplib, in the server module:
// src/module/server_module.h, httplib_backend.cc). docs/metrics.md.
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

/// What serves the HTTP: made in the server module (httplib_backend.cc).
class MetricsHttpBackend {
 public:
  virtual ~MetricsHttpBackend() = default;
  virtual std::string Start(const ListenAddress& address) = 0;
  virtual int port() const = 0;
  virtual void Stop() = 0;
};

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
  /// ("cannot listen on 127.0.0.1:9187 (address in use?)", or that the
  /// server module cannot be opened).
  std::string Start(const ListenAddress& address);
  /// The port bound (the one chosen when 0 was asked); 0 before Start.
  int port() const;
  void Stop();

 private:
  const MetricRegistry& registry_;
  std::unique_ptr<MetricsHttpBackend> backend_;  // from Start on
};

}  // namespace lockgraph
