// Azure Database for PostgreSQL logs exported from Log Analytics as CSV
// (reference platforms.md §1.5): the legacy AzureDiagnostics table, whose
// record_*_s columns are the csvlog fields (rows become LogRecords), and
// the resource-specific PGSQLServerLogs table, whose Message is the
// server's stderr line with its prefix and Detail its DETAIL (rows go to
// StderrPayload). Columns are found by the header's names; rows pass
// through EntryOrderer, as the portal exports newest first.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/platform/azure_la_columns.h"
#include "parsers/platform/json_entries.h"
#include "parsers/platform/entry_orderer.h"
#include "parsers/platform/stderr_payload.h"
#include "parsers/postgresql/event_builder.h"

namespace lockgraph {
namespace {

/// Not thread-safe; not copyable.
class AzureLaParser final : public LineParser {
 public:
  AzureLaParser(const std::string& file, const ParseOptions& options, const std::string& prefix,
                ParseSink& sink)
      : file_(file),
        sink_(sink),
        builder_(sink),
        payload_(file, options, prefix, sink),
        orderer_([this](uint64_t line_no, std::string_view row) { Deliver(line_no, row); }) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    ++counts_.total;
    if (!csv_.open()) {
      first_line_ = line_no;
      pending_.clear();
    } else {
      pending_.push_back('\n');
    }
    pending_.append(line);
    switch (csv_.Feed(line)) {
      case CsvRecordReader::State::kOpen: return;  // a quoted field goes on
      case CsvRecordReader::State::kMalformed: Count(line_no, EntryVerdict::kUnparsed); return;
      case CsvRecordReader::State::kComplete: Count(line_no, Row()); return;
    }
  }

  void Finish() override {
    if (csv_.open()) {
      csv_.CloseCut();
      Count(first_line_ + std::count(pending_.begin(), pending_.end(), '\n'),
            EntryVerdict::kUnparsed);
      Diagnostic d;
      d.file = file_;
      d.line = first_line_;
      d.message = "Log Analytics CSV row cut: the input ends inside a quoted field";
      sink_.OnDiagnostic(std::move(d));
    }
    orderer_.Finish();
    payload_.Finish();
    builder_.Finish();
  }

  const LineCounts& counts() const override { return counts_; }

 private:
  EntryVerdict Row() {
    if (header_.layout == LaLayout::kNone) {
      header_ = ReadLaHeader(csv_);
      return header_.layout == LaLayout::kNone ? EntryVerdict::kUnparsed : EntryVerdict::kParsed;
    }
    if (csv_.size() == 1 && csv_.field(0).empty()) return EntryVerdict::kParsed;  // blank line
    if (csv_.size() != header_.field_of_column.size()) return EntryVerdict::kUnparsed;
    if (header_.layout == LaLayout::kRecordColumns) {
      std::string packed = PackRecordRow(csv_, header_);
      std::string time = SortableTime(PackedTime(packed));
      orderer_.Add(std::move(time), first_line_, std::move(packed));
      return EntryVerdict::kParsed;
    }
    if (header_.category >= 0 && csv_.field(size_t(header_.category)) != "PostgreSQLLogs" &&
        !csv_.field(size_t(header_.category)).empty())
      return EntryVerdict::kSkipped;
    std::string payload = WithDetailLine(std::string(csv_.field(size_t(header_.message))),
                                         csv_.field(size_t(header_.detail)));
    if (!payload_.Understood(payload)) return EntryVerdict::kUnparsed;
    std::string time = header_.time >= 0 ? std::string(csv_.field(size_t(header_.time))) : "";
    orderer_.Add(SortableTime(time), first_line_, std::move(payload));
    return EntryVerdict::kParsed;
  }

  void Deliver(uint64_t line_no, std::string_view row) {
    if (header_.layout == LaLayout::kRecordColumns) builder_.OnRecord(UnpackRecord(row, file_, line_no));
    else payload_.Feed(row, line_no);
  }

  void Count(uint64_t last_line, EntryVerdict verdict) {
    const uint64_t lines = last_line - first_line_ + 1;
    if (verdict != EntryVerdict::kUnparsed) {
      counts_.parsed += lines;
      return;
    }
    counts_.unparsed += lines;
    std::string_view rest = pending_;
    for (uint64_t no = first_line_; no <= last_line; ++no) {
      const size_t nl = rest.find('\n');
      sink_.OnUnparsed(file_, no, rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
  }

  std::string file_;
  ParseSink& sink_;
  PgEventBuilder builder_;
  StderrPayload payload_;
  EntryOrderer orderer_;
  CsvRecordReader csv_;
  LaHeader header_;
  LineCounts counts_;
  uint64_t first_line_ = 0;
  std::string pending_;  // the lines of the row being read
};

class AzureLogAnalyticsFormat : public InputFormat {
 public:
  std::string Name() const override { return "azure-log-analytics"; }
  std::string Description() const override {
    return "Azure Database for PostgreSQL logs exported from Log Analytics as CSV "
           "(AzureDiagnostics record_*_s columns, or PGSQLServerLogs)";
  }

  /// Matches on the header line; for PGSQLServerLogs the prefix is detected
  /// from the Message column of the rows that follow.
  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    SniffResult result;
    LaHeader header;
    if (head.empty() || !ParseLaHeaderLine(head[0], &header)) {
      result.reason = "the first line is not a Log Analytics header with record_message_s or "
                      "Message and Detail columns";
      return result;
    }
    result.verdict = SniffResult::Verdict::kMatch;
    result.score = 2 * int(head.size()) + 1;  // a header is certain evidence
    if (header.layout == LaLayout::kRecordColumns) {
      result.reason = "AzureDiagnostics CSV header";
      return result;
    }
    std::vector<std::string> messages;
    CsvRecordReader csv;
    for (size_t i = 1; i < head.size(); ++i)
      if (csv.Feed(head[i]) == CsvRecordReader::State::kComplete &&
          csv.size() == header.field_of_column.size())
        messages.emplace_back(csv.field(size_t(header.message)));
    int matched = 0;
    result.detected = options.has_prefix ? options.log_line_prefix
                                         : DetectPayloadPrefix(messages, &matched);
    result.reason = "PGSQLServerLogs CSV header, prefix '" + result.detected + "'";
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return std::make_unique<AzureLaParser>(file, options, detected, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakeAzureLogAnalyticsFormat() {
  return std::make_unique<AzureLogAnalyticsFormat>();
}

}  // namespace lockgraph
