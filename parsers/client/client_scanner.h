// Finds deadlock errors in application and test output, line by line: the
// driver's "deadlock detected" line, then the DETAIL edge lines printed
// under it (and its HINT and CONTEXT), however the driver indents or labels
// them. Repeats of one report (chained exceptions, pytest's summary) are
// one report. docs/postgresql.md#application-and-test-output.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph::client {

/// One deadlock error as the client output shows it.
struct ClientReport {
  uint64_t first_line = 0;
  uint64_t last_line = 0;
  bool error_line = false;          // the "deadlock detected" line was seen
  std::vector<std::string> edges;   // "Process P waits for ...; blocked by process Q.", in order
  std::string hint;
  std::string context;              // CONTEXT, or JDBC's and node's "where"
};

/// Line-by-line state machine. Not thread-safe; one per input.
class ClientScanner {
 public:
  /// Called once per report, when it ends (in input order).
  using ReportFn = std::function<void(ClientReport&&)>;
  explicit ClientScanner(ReportFn on_report) : on_report_(std::move(on_report)) {}

  enum class LineUse {
    kEvidence,  // part of a deadlock report (or of a repeat of one)
    kOther,     // application output: skipped
  };
  /// `line` without its '\n'; `line_no` 1-based and increasing.
  LineUse Line(std::string_view line, uint64_t line_no);
  /// End of input: ends the open report.
  void Finish() { Close(); }

  /// A report ends this many lines after its last edge or label line (node
  /// prints its stack between the error line and the detail property).
  static constexpr uint64_t kQuietLines = 40;
  /// A report with the same edges as one that ended at most this many lines
  /// before is a repeat (a chained exception prints the DETAIL again).
  static constexpr uint64_t kRepeatLines = 200;

 private:
  void Open(uint64_t line_no, bool error_line);
  void Close();
  bool IsRepeat(const ClientReport& r);

  struct Seen {
    std::vector<std::string> edges;
    uint64_t last_line = 0;
  };
  ReportFn on_report_;
  std::optional<ClientReport> open_;
  bool edges_done_ = false;      // a line without an edge followed the edges
  uint64_t last_evidence_ = 0;
  std::deque<Seen> recent_;      // the last reports with edges, for repeats
  uint64_t shown_ = 0;           // reports since pytest's session start
  std::string clean_;            // the current line without colour codes
};

}  // namespace lockgraph::client
