// The Prometheus metrics (src/metrics): the registry and its exposition text
// byte for byte, escaping of hostile label values, the cardinality bound,
// what the observer counts from real log samples and watch polls, and the
// /metrics server. The real scrape is tests/e2e/metrics.sh.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <sstream>
#include <thread>

#include "app/analyzer.h"
#include "metrics/exposition.h"
#include "metrics/http_server.h"
#include "metrics/metrics_service.h"
#include "metrics/observer.h"
#include "metrics/registry.h"
#include "parsers/postgresql/pg_snapshot.h"
#include "support.h"

namespace lockgraph {
namespace {

std::string Text(const MetricRegistry& registry) {
  std::ostringstream out;
  WriteExposition(registry.Families(), out);
  return out.str();
}

// The value of one series in an exposition, or -1 when absent.
double Sample(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  return -1;
}

// The whole HTTP/1.0 response to `GET path` on 127.0.0.1:port ("" when the
// connection fails): headers and body as the server sent them.
std::string HttpGet(int port, const std::string& path) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(uint16_t(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (write(fd, request.data(), request.size()) == ssize_t(request.size())) {
      char buf[4096];
      for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) response.append(buf, size_t(n));
    }
  }
  close(fd);
  return response;
}

std::string Body(const std::string& response) {
  size_t at = response.find("\r\n\r\n");
  return at == std::string::npos ? "" : response.substr(at + 4);
}

Report AnalyzeSample(const std::string& name) {
  AnalyzeOptions options;
  options.threads = 1;
  Analyzer analyzer(options, nullptr);
  std::string error;
  REQUIRE(analyzer.AnalyzeInput(std::string(LOCKGRAPH_SAMPLES_DIR) + "/" + name, &error));
  return analyzer.Finish();
}

TEST_CASE("metrics: counters, gauges and a histogram in the exposition format", "[metrics]") {
  MetricRegistry r;
  REQUIRE(r.Declare("demo_events_total", MetricType::kCounter, "Events seen.", {"kind", "db"}));
  REQUIRE(r.Declare("demo_level", MetricType::kGauge, "A level.", {}));
  REQUIRE(r.Declare("demo_wait_seconds", MetricType::kHistogram, "Waits.", {}, {0.5, 1, 10}));
  REQUIRE(r.Declare("demo_empty_total", MetricType::kCounter, "Nothing yet.", {"x"}));
  r.Add("demo_events_total", {"b", "shop"});
  r.Add("demo_events_total", {"a", "shop"}, 2);
  r.Add("demo_events_total", {"b", "shop"});
  r.Add("demo_events_total", {"b", "shop"}, -5);  // refused: counters only go up
  r.Set("demo_level", {}, 0.25);
  r.Observe("demo_wait_seconds", {}, 0.5);   // on a bound: that bucket
  r.Observe("demo_wait_seconds", {}, 2);
  r.Observe("demo_wait_seconds", {}, 3600);  // above every bound: +Inf only
  CHECK(Text(r) ==
        "# HELP demo_events_total Events seen.\n"
        "# TYPE demo_events_total counter\n"
        "demo_events_total{kind=\"a\",db=\"shop\"} 2\n"
        "demo_events_total{kind=\"b\",db=\"shop\"} 2\n"
        "# HELP demo_level A level.\n"
        "# TYPE demo_level gauge\n"
        "demo_level 0.25\n"
        "# HELP demo_wait_seconds Waits.\n"
        "# TYPE demo_wait_seconds histogram\n"
        "demo_wait_seconds_bucket{le=\"0.5\"} 1\n"
        "demo_wait_seconds_bucket{le=\"1\"} 1\n"
        "demo_wait_seconds_bucket{le=\"10\"} 2\n"
        "demo_wait_seconds_bucket{le=\"+Inf\"} 3\n"
        "demo_wait_seconds_sum 3602.5\n"
        "demo_wait_seconds_count 3\n"
        "# HELP demo_empty_total Nothing yet.\n"
        "# TYPE demo_empty_total counter\n");
  r.Remove("demo_level", {});
  CHECK(Sample(Text(r), "demo_level") == -1);
}

// Writers on several threads (follow's reader, watch's poller) and a scrape
// meanwhile: nothing is lost, every scrape is a consistent text.
TEST_CASE("metrics: the registry is safe to update from several threads", "[metrics]") {
  MetricRegistry r;
  REQUIRE(r.Declare("demo_total", MetricType::kCounter, "Events.", {"thread"}));
  REQUIRE(r.Declare("demo_seconds", MetricType::kHistogram, "Waits.", {}, {1}));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&r, t]() {
      for (int i = 0; i < 10000; ++i) {
        r.Add("demo_total", {std::to_string(t % 2)});
        r.Observe("demo_seconds", {}, i % 2 ? 0.5 : 2);
      }
    });
  for (int i = 0; i < 20; ++i) CHECK(Text(r).rfind("# HELP demo_total Events.\n", 0) == 0);
  for (std::thread& t : threads) t.join();
  std::string text = Text(r);
  CHECK(Sample(text, "demo_total{thread=\"0\"}") == 20000);
  CHECK(Sample(text, "demo_total{thread=\"1\"}") == 20000);
  CHECK(Sample(text, "demo_seconds_bucket{le=\"1\"}") == 20000);
  CHECK(Sample(text, "demo_seconds_count") == 40000);
}

TEST_CASE("metrics: hostile label values and help text are escaped", "[metrics]") {
  MetricRegistry r;
  REQUIRE(r.Declare("demo_total", MetricType::kCounter, "Back\\slash and\nnewline \"quoted\".", {"q"}));
  r.Add("demo_total", {"a\"b\\c\nd} 1\n# TYPE x gauge\xff"});
  CHECK(Text(r) ==
        "# HELP demo_total Back\\\\slash and\\nnewline \"quoted\".\n"
        "# TYPE demo_total counter\n"
        "demo_total{q=\"a\\\"b\\\\c\\nd} 1\\n# TYPE x gauge\xef\xbf\xbd\"} 1\n");
}

TEST_CASE("metrics: declarations that break the naming rules are refused", "[metrics]") {
  MetricRegistry r;
  CHECK_FALSE(r.Declare("demo_events", MetricType::kCounter, "no _total"));
  CHECK_FALSE(r.Declare("2demo_total", MetricType::kCounter, "starts with a digit"));
  CHECK_FALSE(r.Declare("demo_total", MetricType::kCounter, "bad label", {"__reserved"}));
  CHECK_FALSE(r.Declare("demo_total", MetricType::kCounter, "bad label", {"a-b"}));
  CHECK_FALSE(r.Declare("demo_seconds", MetricType::kHistogram, "le is taken", {"le"}, {1}));
  CHECK_FALSE(r.Declare("demo_seconds", MetricType::kHistogram, "not ascending", {}, {2, 1}));
  CHECK_FALSE(r.Declare("demo_seconds", MetricType::kHistogram, "no buckets", {}, {}));
  CHECK(r.Declare("demo_total", MetricType::kCounter, "fine"));
  CHECK_FALSE(r.Declare("demo_total", MetricType::kCounter, "taken"));
  r.Add("demo_total", {"one label too many"});  // ignored
  r.Set("demo_total", {}, 5);                    // not a gauge: ignored
  CHECK(Text(r) == "# HELP demo_total fine\n# TYPE demo_total counter\n");
}

TEST_CASE("metrics: sample values", "[metrics]") {
  CHECK(FormatSampleValue(0) == "0");
  CHECK(FormatSampleValue(12345678) == "12345678");
  CHECK(FormatSampleValue(0.1) == "0.1");
  CHECK(FormatSampleValue(1.5e-7) == "1.5e-07");
  CHECK(FormatSampleValue(1e300) == "1e+300");
  CHECK(FormatSampleValue(-2.5) == "-2.5");
}

TEST_CASE("metrics: a label keeps its first N values, then says other", "[metrics]") {
  LabelBound bound(2);
  CHECK(bound("a") == "a");
  CHECK(bound("b") == "b");
  CHECK(bound("c") == "other");
  CHECK(bound("a") == "a");
  CHECK(bound("d") == "other");
}

TEST_CASE("metrics: deadlocks by cause equal the report's causes", "[metrics]") {
  Report report = AnalyzeSample("postgresql/scenarios.log");
  REQUIRE(report.causes.size() >= 2);
  MetricRegistry r;
  MetricsObserver observer(r, MetricsOptions{});
  for (const Event& ev : report.events) observer.OnEvent(ev);
  std::string text = Text(r);
  for (const DeadlockCause& c : report.causes) {
    INFO("cause " << c.id);
    CHECK(Sample(text, "lockgraph_deadlocks_total{database=\"lockgraph\",cause=\"" + c.id + "\"}") ==
          double(c.count));
  }
  // Lock waits by outcome: as many as the report's lock_wait events say.
  std::map<std::string, int> outcomes;
  for (const Event& ev : report.events)
    if (ev.lock_wait) ++outcomes[std::string(ev.lock_wait->mode) + "," + WaitOutcomeName(ev.lock_wait->outcome)];
  REQUIRE(!outcomes.empty());
  for (const auto& [key, n] : outcomes) {
    size_t comma = key.find(',');
    INFO(key);
    CHECK(Sample(text, "lockgraph_lock_waits_total{mode=\"" + key.substr(0, comma) + "\",outcome=\"" +
                           key.substr(comma + 1) + "\"}") == n);
  }
}

TEST_CASE("metrics: causes past --metrics-max-causes are counted as other", "[metrics]") {
  Report report = AnalyzeSample("postgresql/scenarios.log");
  REQUIRE(report.causes.size() >= 2);
  MetricRegistry r;
  MetricsOptions options;
  options.max_causes = 1;
  MetricsObserver observer(r, options);
  std::string first_cause;
  for (const Event& ev : report.events) {
    if (ev.deadlock && first_cause.empty())
      for (const DeadlockCause& c : report.causes)
        for (const std::string& sig : c.signatures)
          if (sig == ev.signature) first_cause = c.id;
    observer.OnEvent(ev);
  }
  uint64_t total = 0, first = 0;
  for (const DeadlockCause& c : report.causes) {
    total += c.count;
    if (c.id == first_cause) first = c.count;
  }
  std::string text = Text(r);
  CHECK(Sample(text, "lockgraph_deadlocks_total{database=\"lockgraph\",cause=\"" + first_cause + "\"}") == first);
  CHECK(Sample(text, "lockgraph_deadlocks_total{database=\"lockgraph\",cause=\"other\"}") == total - first);
}

TEST_CASE("metrics: findings and line results", "[metrics]") {
  MetricRegistry r;
  MetricsObserver observer(r, MetricsOptions{});
  Event chain;
  chain.type = EventType::kChain;
  auto finding = [](const char* id, Severity severity) {
    Finding f;
    f.rule_id = id;
    f.severity = severity;
    return f;
  };
  chain.findings = {finding("PG014", Severity::kWarning)};
  observer.OnEvent(chain);
  Event ended = chain;
  ended.type = EventType::kChainEnded;  // a copy: its findings were counted
  observer.OnEvent(ended);
  observer.OnFinding(finding("PG012", Severity::kError));
  LineCounts lines;
  lines.parsed = 10;
  lines.skipped = 2;
  lines.unparsed = 1;
  observer.AddLineCounts(lines);
  observer.OnLines(LineResult::kParsed);
  std::string text = Text(r);
  CHECK(Sample(text, "lockgraph_findings_total{rule=\"PG014\",severity=\"warning\"}") == 1);
  CHECK(Sample(text, "lockgraph_findings_total{rule=\"PG012\",severity=\"error\"}") == 1);
  CHECK(Sample(text, "lockgraph_log_lines_total{result=\"parsed\"}") == 11);
  CHECK(Sample(text, "lockgraph_log_lines_total{result=\"skipped\"}") == 2);
  CHECK(Sample(text, "lockgraph_log_lines_total{result=\"not_understood\"}") == 1);
}

// A chain 101 <- 102 <- 103 and an idle-in-transaction root: the gauges.
TEST_CASE("metrics: watch's gauges from one poll, dropped when a poll fails", "[metrics]") {
  PgSnapshot s;
  s.has_blocking_pids = false;
  s.server = "db1";
  s.sampled_at = "2026-01-01 00:00:10+00";
  auto row = [&](int pid, const char* xid, bool granted, const char* mode) {
    PgLockRow row;
    row.sampled_at = s.sampled_at;
    row.pid = pid;
    row.locktype = "transactionid";
    row.transactionid = xid;
    row.mode = mode;
    row.granted = granted;
    if (!granted) row.waitstart = pid == 102 ? "2026-01-01 00:00:02+00" : "2026-01-01 00:00:07.5+00";
    if (pid == 101) row.state = "idle in transaction";
    s.rows.push_back(row);
  };
  row(101, "700", true, "ExclusiveLock");
  row(102, "700", false, "ShareLock");
  row(102, "701", true, "ExclusiveLock");
  row(103, "701", false, "ShareLock");
  PgSnapshotAnalysis a = AnalyzePgSnapshot(s);
  MetricRegistry r;
  MetricsOptions options;
  options.watch = true;
  MetricsObserver observer(r, options);
  observer.OnPoll("host=db1 password=***", a.backends, a.events);
  std::string text = Text(r);
  const std::string l = "{server=\"host=db1 password=***\"}";
  CHECK(Sample(text, "lockgraph_server_up" + l) == 1);
  CHECK(Sample(text, "lockgraph_blocked_sessions" + l) == 2);
  CHECK(Sample(text, "lockgraph_longest_lock_wait_seconds" + l) == 8);
  CHECK(Sample(text, "lockgraph_deepest_blocking_chain" + l) == 2);
  CHECK(Sample(text, "lockgraph_idle_in_transaction_root_blockers" + l) == 1);
  CHECK(Sample(text, "lockgraph_open_lock_cycles" + l) == 0);
  CHECK(Sample(text, "lockgraph_polls_total{server=\"host=db1 password=***\",result=\"ok\"}") == 1);
  observer.OnPollFailed("host=db1 password=***");
  text = Text(r);
  CHECK(Sample(text, "lockgraph_server_up" + l) == 0);
  CHECK(Sample(text, "lockgraph_blocked_sessions" + l) == -1);
  CHECK(Sample(text, "lockgraph_open_lock_cycles" + l) == -1);
  CHECK(Sample(text, "lockgraph_polls_total{server=\"host=db1 password=***\",result=\"failed\"}") == 1);
}

// A scraper that hangs up in the middle of a large answer: the server gets
// EPIPE on its own thread; the process neither dies of SIGPIPE nor has its
// SIGPIPE disposition changed (a closed stdout still ends a piped command).
TEST_CASE("metrics: a scraper hanging up does not kill the process", "[metrics]") {
  struct sigaction before, after;
  sigaction(SIGPIPE, nullptr, &before);
  MetricRegistry registry;
  REQUIRE(registry.Declare("demo_total", MetricType::kCounter, "Many series.", {"n"}));
  for (int i = 0; i < 50000; ++i) registry.Add("demo_total", {std::to_string(i)});  // about 1 MB
  auto service = std::make_unique<MetricsHttpServer>(registry);
  REQUIRE(service->Start(ListenAddress{"127.0.0.1", 0}) == "");
  sigaction(SIGPIPE, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
  for (int attempt = 0; attempt < 5; ++attempt) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(uint16_t(service->port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    const std::string request = "GET /metrics HTTP/1.0\r\n\r\n";
    REQUIRE(write(fd, request.data(), request.size()) == ssize_t(request.size()));
    char buf[16];
    CHECK(read(fd, buf, sizeof buf) > 0);  // the answer has begun
    linger reset{1, 0};                    // close with RST: the server's next send fails
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    close(fd);
  }
  // Still serving, whole answers.
  std::string res = HttpGet(service->port(), "/metrics");
  CHECK(res.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
  CHECK(Body(res) == Text(registry));
}

TEST_CASE("metrics: listen addresses", "[metrics]") {
  auto show = [](const std::string& text) {
    std::optional<ListenAddress> a = ParseListenAddress(text);
    return a ? a->host + " " + std::to_string(a->port) : std::string("invalid");
  };
  CHECK(show("127.0.0.1:9187") == "127.0.0.1 9187");
  CHECK(show("[::1]:9187") == "::1 9187");
  CHECK(show("localhost:0") == "localhost 0");
  CHECK(show("::1:9187") == "invalid");
  CHECK(show(":9187") == "invalid");
  CHECK(show("127.0.0.1") == "invalid");
  CHECK(show("127.0.0.1:65536") == "invalid");
  CHECK(show("127.0.0.1:http") == "invalid");
}

TEST_CASE("metrics: /metrics served over HTTP", "[metrics]") {
  MetricsSettings settings;
  settings.listen = "127.0.0.1:0";
  std::string error;
  std::unique_ptr<MetricsService> service = MetricsService::Start(settings, &error);
  REQUIRE(service);
  CHECK(error.empty());
  service->observer().OnLines(LineResult::kSkipped, 3);
  std::string res = HttpGet(service->port(), "/metrics");
  CHECK(res.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
  CHECK(res.find("\r\nContent-Type: " + std::string(kExpositionContentType) + "\r\n") != std::string::npos);
  CHECK(Body(res) == Text(service->registry()));
  CHECK(Sample(Body(res), "lockgraph_log_lines_total{result=\"skipped\"}") == 3);
  CHECK(HttpGet(service->port(), "/nothing").rfind("HTTP/1.1 404 Not Found\r\n", 0) == 0);
  CHECK(service->url() == "http://127.0.0.1:" + std::to_string(service->port()) + "/metrics");
  // The port is taken now: a second service says so instead of starting.
  settings.listen = "127.0.0.1:" + std::to_string(service->port());
  CHECK_FALSE(MetricsService::Start(settings, &error));
  CHECK(error == "--metrics-listen: cannot listen on " + settings.listen +
                     " (address in use, or not an address of this host?)");
  settings.listen = "nowhere";
  CHECK_FALSE(MetricsService::Start(settings, &error));
  CHECK(error == "--metrics-listen 'nowhere': give HOST:PORT (127.0.0.1:9187, [::1]:9187, "
                 "localhost:0 for any free port)");
}

}  // namespace
}  // namespace lockgraph

namespace lockgraph {
namespace {

TEST_CASE("metrics: docs/metrics.md lists exactly the families lockgraph declares", "[metrics]") {
  MetricRegistry r;
  MetricsOptions options;
  options.watch = true;
  MetricsObserver observer(r, options);
  std::string declared;
  for (const MetricFamily& f : r.Families()) {
    declared += f.name + " " + MetricTypeName(f.type) + " ";
    for (size_t i = 0; i < f.label_names.size(); ++i)
      declared += (i ? ", " : "") + ("`" + f.label_names[i] + "`");
    declared += "\n";
  }
  std::string doc = test::ReadFile(std::string(LOCKGRAPH_SOURCE_DIR) + "/docs/metrics.md");
  std::string documented;
  std::istringstream in(doc);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `lockgraph_", 0) != 0) continue;
    std::vector<std::string> cells;
    for (size_t at = 1, bar; (bar = line.find(" | ", at)) != std::string::npos && cells.size() < 3; at = bar + 3)
      cells.push_back(line.substr(at == 1 ? 2 : at, bar - (at == 1 ? 2 : at)));
    REQUIRE(cells.size() == 3);
    std::string labels = cells[2] == "(none)" ? "" : cells[2];
    documented += cells[0].substr(1, cells[0].size() - 2) + " " + cells[1] + " " + labels + "\n";
  }
  CHECK(documented == declared);
}

}  // namespace
}  // namespace lockgraph
