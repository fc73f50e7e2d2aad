// See http_server.h. cpp-httplib (Debian libcpp-httplib-dev) does the HTTP;
// this file only routes and renders.
#include "metrics/http_server.h"

#include <httplib.h>

#include <csignal>
#include <chrono>
#include <sstream>
#include <thread>

#include "metrics/exposition.h"
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

struct MetricsHttpServer::Impl {
  const MetricRegistry& registry;
  httplib::Server server;
  std::thread thread;
  int port = 0;
  explicit Impl(const MetricRegistry& r) : registry(r) {}
};

// httplib::Server's constructor ignores SIGPIPE for the whole process, which
// would change what a closed stdout does to the command: the disposition is
// put back, and the server's threads block SIGPIPE instead (Start), so that a
// scraper hanging up mid-answer gives EPIPE there and nothing elsewhere.
MetricsHttpServer::MetricsHttpServer(const MetricRegistry& registry) {
  struct sigaction old_pipe;
  sigaction(SIGPIPE, nullptr, &old_pipe);
  impl_ = std::make_unique<Impl>(registry);
  sigaction(SIGPIPE, &old_pipe, nullptr);
}

MetricsHttpServer::~MetricsHttpServer() { Stop(); }

std::string MetricsHttpServer::Start(const ListenAddress& address) {
  Impl& s = *impl_;
  // SO_REUSEADDR (a restart binds again at once), never httplib's default
  // SO_REUSEPORT: a second lockgraph on the same port must fail, not share
  // the scrapes with the first.
  s.server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  s.server.Get("/metrics", [&s](const httplib::Request&, httplib::Response& res) {
    std::ostringstream text;
    WriteExposition(s.registry.Families(), text);
    res.set_content(text.str(), kExpositionContentType);
  });
  s.server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("lockgraph: metrics at /metrics\n", "text/plain; charset=utf-8");
  });
  const std::string where = (address.host.find(':') != std::string::npos ? "[" + address.host + "]"
                                                                          : address.host) +
                            ":" + std::to_string(address.port);
  if (address.port == 0) {
    s.port = s.server.bind_to_any_port(address.host);
    if (s.port <= 0) s.port = 0;
  } else if (s.server.bind_to_port(address.host, address.port)) {
    s.port = address.port;
  }
  if (s.port == 0) return "cannot listen on " + where + " (address in use, or not an address of this host?)";
  // Two workers: a scrape takes milliseconds; the pool's threads are made
  // by this thread, and inherit its blocked SIGPIPE.
  s.server.new_task_queue = [] { return new httplib::ThreadPool(2); };
  s.thread = std::thread([&s]() {
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
    s.server.listen_after_bind();
  });
  // stop() does nothing until the loop runs: wait for it, so that a Stop()
  // right after Start() cannot leave the thread listening forever.
  for (int i = 0; i < 5000 && !s.server.is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return "";
}

int MetricsHttpServer::port() const { return impl_->port; }

void MetricsHttpServer::Stop() {
  if (!impl_->thread.joinable()) return;
  impl_->server.stop();
  impl_->thread.join();
}

}  // namespace lockgraph
