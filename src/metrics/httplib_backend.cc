// MetricsHttpServer's backend in the server module (lockgraph-servers.so):
// cpp-httplib (Debian libcpp-httplib-dev) does the HTTP; this file only
// routes and renders.
#include <httplib.h>

#include <csignal>
#include <chrono>
#include <sstream>
#include <thread>

#include "metrics/exposition.h"
#include "metrics/http_server.h"

namespace lockgraph {
namespace {

class HttplibBackend : public MetricsHttpBackend {
 public:
  // httplib::Server's constructor ignores SIGPIPE for the whole process,
  // which would change what a closed stdout does to the command: the
  // disposition is put back, and the server's threads block SIGPIPE instead
  // (Start), so that a scraper hanging up mid-answer gives EPIPE there and
  // nothing elsewhere.
  explicit HttplibBackend(const MetricRegistry& registry) : registry_(registry) {
    struct sigaction old_pipe;
    sigaction(SIGPIPE, nullptr, &old_pipe);
    server_ = std::make_unique<httplib::Server>();
    sigaction(SIGPIPE, &old_pipe, nullptr);
  }
  ~HttplibBackend() override { Stop(); }

  std::string Start(const ListenAddress& address) override;
  int port() const override { return port_; }
  void Stop() override {
    if (!thread_.joinable()) return;
    server_->stop();
    thread_.join();
  }

 private:
  const MetricRegistry& registry_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

std::string HttplibBackend::Start(const ListenAddress& address) {
  httplib::Server& server = *server_;
  // SO_REUSEADDR (a restart binds again at once), never httplib's default
  // SO_REUSEPORT: a second lockgraph on the same port must fail, not share
  // the scrapes with the first.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    std::ostringstream text;
    WriteExposition(registry_.Families(), text);
    res.set_content(text.str(), kExpositionContentType);
  });
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("lockgraph: metrics at /metrics\n", "text/plain; charset=utf-8");
  });
  const std::string where = (address.host.find(':') != std::string::npos ? "[" + address.host + "]"
                                                                          : address.host) +
                            ":" + std::to_string(address.port);
  if (address.port == 0) {
    port_ = server.bind_to_any_port(address.host);
    if (port_ <= 0) port_ = 0;
  } else if (server.bind_to_port(address.host, address.port)) {
    port_ = address.port;
  }
  if (port_ == 0) return "cannot listen on " + where + " (address in use, or not an address of this host?)";
  // Two workers: a scrape takes milliseconds; the pool's threads are made
  // by this thread, and inherit its blocked SIGPIPE.
  server.new_task_queue = [] { return new httplib::ThreadPool(2); };
  thread_ = std::thread([&server]() {
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
    server.listen_after_bind();
  });
  // stop() does nothing until the loop runs: wait for it, so that a Stop()
  // right after Start() cannot leave the thread listening forever.
  for (int i = 0; i < 5000 && !server.is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return "";
}

}  // namespace
}  // namespace lockgraph

/// The module's entry point for MetricsHttpServer (src/metrics/http_server.cc).
extern "C" __attribute__((visibility("default"))) lockgraph::MetricsHttpBackend*
lockgraph_new_metrics_http_backend(const lockgraph::MetricRegistry* registry) {
  return new lockgraph::HttplibBackend(*registry);
}
