#include "support.h"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/command_util.h"

namespace lockgraph::test {

Report AnalyzeText(const std::string& text, const std::string& input_format,
                   const std::string& prefix, bool has_prefix) {
  char path[] = "/tmp/lockgraph-test-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) std::abort();
  if (write(fd, text.data(), text.size()) != ssize_t(text.size())) std::abort();
  close(fd);
  AnalyzeOptions options;
  options.input_format = input_format;
  options.parse.log_line_prefix = prefix;
  options.parse.has_prefix = has_prefix;
  options.keep_unparsed = 100;
  Analyzer analyzer(options, nullptr);
  std::string error;
  bool ok = analyzer.AnalyzeInput(path, &error);
  unlink(path);
  Report report = std::move(analyzer.Finish());
  if (!ok) report.diagnostics.push_back({Diagnostic::Severity::kError, path, 0, error, ""});
  for (InputInfo& in : report.inputs) in.file = "input";
  for (Event& ev : report.events) ev.source.file = "input";
  return report;
}

std::string CycleString(const Deadlock& d) {
  std::string s;
  for (const WaitEdge& e : d.edges) {
    if (!s.empty()) s += "; ";
    s += e.waiter + " -" + e.mode + "/" + e.lock.text + "-> " + e.blocker;
  }
  return s;
}

const char* const kLateRelationName =
    "2026-12-02 10:00:00.100 UTC [100] LOG:  process 100 still waiting for ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 100.000 ms\n"
    "2026-12-02 10:00:00.100 UTC [100] DETAIL:  Process holding the lock: 200. Wait queue: 100.\n"
    "2026-12-02 10:00:00.100 UTC [100] STATEMENT:  UPDATE accounts SET balance = 1 WHERE id = 3;\n"
    "2026-12-02 10:00:00.500 UTC [100] LOG:  process 100 acquired ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 500.000 ms\n"
    "2026-12-02 10:00:01.100 UTC [300] LOG:  process 300 still waiting for ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 100.000 ms\n"
    "2026-12-02 10:00:01.100 UTC [300] DETAIL:  Process holding the lock: 400. Wait queue: 300.\n"
    "2026-12-02 10:00:01.100 UTC [300] CONTEXT:  while locking tuple (0,3) in relation \"accounts\"\n"
    "2026-12-02 10:00:01.100 UTC [300] STATEMENT:  SELECT * FROM accounts WHERE id = 3 FOR UPDATE;\n"
    "2026-12-02 10:00:01.500 UTC [300] LOG:  process 300 acquired ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 500.000 ms\n";

std::vector<std::string> SampleInputs() {
  namespace fs = std::filesystem;
  std::vector<std::string> inputs;
  for (const char* dir : {"samples", "tests/corpus", "tests/golden"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(LOCKGRAPH_SOURCE_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || name.rfind("expected", 0) == 0 || name == "no-redact" ||
          ext == ".md" || ext == ".sh" || ext == ".py" || ext == ".sql")
        continue;
      inputs.push_back(e.path().string());
    }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> SampleTextLines(size_t per_file) {
  namespace fs = std::filesystem;
  std::vector<std::string> lines;
  for (const char* dir : {"samples", "tests/corpus"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(LOCKGRAPH_SOURCE_DIR) / dir)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".log" && ext != ".txt")) continue;
      std::istringstream in(ReadFile(entry.path().string()));
      std::string line;
      for (size_t n = 0; n < per_file && std::getline(in, line); ++n) lines.push_back(line);
    }
  }
  return lines;
}

void ForEachBlockOf(std::string_view text, size_t block,
                    const std::function<size_t(std::string_view, bool)>& parse) {
  for (size_t begin = 0; begin < text.size();) {
    std::string_view data = text.substr(begin, block);
    const bool at_end = begin + data.size() == text.size();
    if (!at_end) {
      const size_t last = data.rfind('\n');
      if (last == std::string_view::npos) {
        block *= 2;
        continue;
      }
      data = data.substr(0, last + 1);
    }
    const size_t took = parse(data, at_end);
    if (at_end) return;
    if (took == 0) block *= 2;
    begin += took;
  }
}

NdjsonAnalyzer::NdjsonAnalyzer()
    : emitter(FindEmitter("ndjson")), stream(std::make_unique<StreamToEmitter>(*emitter, out)) {
  AnalyzeOptions options;
  options.collect_events = false;
  analyzer = std::make_unique<Analyzer>(options, stream.get());
}

std::string AnalyzeNdjson(const std::vector<std::string>& paths, LineCounts* first_lines) {
  NdjsonAnalyzer run;
  std::string error;
  for (const std::string& path : paths) REQUIRE(run.analyzer->AnalyzeInput(path, &error));
  const Report& report = run.analyzer->Finish();
  if (first_lines && !report.inputs.empty()) *first_lines = report.inputs.front().lines;
  return run.out.str();
}

std::string TempFile(const std::string& bytes) {
  char path[] = "/tmp/lockgraph-test-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, bytes.data(), bytes.size()) == ssize_t(bytes.size()));
  close(fd);
  return path;
}

std::string Gzip(const std::string& text) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, text.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = unsigned(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = unsigned(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace lockgraph::test
