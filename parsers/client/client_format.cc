// The client input format: application and test output (CI job logs,
// pytest, JUnit, an app's log) that holds a PostgreSQL deadlock as a driver
// printed it. Chosen when no server log format matches (src/app/analyzer.cc
// falls back to it); lines that are not deadlock evidence are application
// output, skipped, never "not understood". docs/postgresql.md#application-and-test-output.
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/client/client_event.h"
#include "parsers/client/client_lines.h"
#include "parsers/client/client_scanner.h"

namespace lockgraph {
namespace {

class ClientParser : public LineParser {
 public:
  ClientParser(std::string file, ParseSink& sink)
      : file_(std::move(file)),
        sink_(sink),
        scanner_([this](client::ClientReport&& r) {
          sink_.OnEvent(client::MakeClientDeadlock(r, file_));
        }) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    ++counts_.total;
    // The rest (total - parsed) is application output: not claimed, so not
    // counted as unparsed either.
    if (scanner_.Line(line, line_no) == client::ClientScanner::LineUse::kEvidence)
      ++counts_.parsed;
  }

  void Finish() override { scanner_.Finish(); }
  const LineCounts& counts() const override { return counts_; }

 private:
  std::string file_;
  ParseSink& sink_;
  client::ClientScanner scanner_;
  LineCounts counts_;
};

class ClientFormat : public InputFormat {
 public:
  std::string Name() const override { return "client"; }
  std::string Description() const override {
    return "application or test output with a driver's \"deadlock detected\" error (JDBC, "
           "psycopg, asyncpg, node-postgres, pgx, lib/pq, Rails, Django, pytest)";
  }

  // Server logs win unless the head holds an error line in a form only a
  // driver prints (IsDriverErrorLine): then the score is the lines of its
  // reports plus one per such line, which beats the few label lines a
  // permissive stderr prefix finds in a bare pytest error block, and loses
  // to a server log that merely quotes a driver error in a statement.
  // Without one, other driver markers score 1; the analyzer falls back to
  // this format anyway when nothing matches.
  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& /*options*/) const override {
    SniffResult result;
    int driver_lines = 0, evidence = 0;
    bool marker = false;
    client::ClientScanner scanner([](client::ClientReport&&) {});
    for (size_t i = 0; i < head.size(); ++i) {
      if (scanner.Line(head[i], i + 1) == client::ClientScanner::LineUse::kEvidence) ++evidence;
      if (client::IsDriverErrorLine(head[i]))
        ++driver_lines;
      else
        marker = marker || client::HasDriverMarker(head[i]);
    }
    result.score = driver_lines ? evidence + driver_lines : (marker ? 1 : 0);
    if (result.score) {
      result.verdict = SniffResult::Verdict::kMatch;
      result.reason = "a PostgreSQL driver error in application output";
    } else {
      result.reason =
          "no PostgreSQL driver error (\"deadlock detected\", PSQLException, psycopg, 40P01, ...)";
    }
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file,
                                           const ParseOptions& /*options*/,
                                           const std::string& /*detected*/,
                                           ParseSink& sink) const override {
    return std::make_unique<ClientParser>(file, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakeClientFormat() { return std::make_unique<ClientFormat>(); }

}  // namespace lockgraph
