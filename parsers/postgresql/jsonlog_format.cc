// The jsonlog input format (reference §6.4, CloudNativePG §6.6):
// JsonlogReader behind the InputFormat interface.
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/jsonlog_reader.h"
#include "parsers/postgresql/record_reader_parser.h"

namespace lockgraph {
namespace {

class JsonlogFormat : public InputFormat {
 public:
  std::string Name() const override { return "jsonlog"; }
  std::string Description() const override {
    return "PostgreSQL jsonlog (15+, log_destination = 'jsonlog'), also CloudNativePG's JSON";
  }

  /// Matches when most non-empty lines are JSON objects and at least one is
  /// a server record with an error_severity. CloudNativePG interleaves its
  /// own JSON messages with the records: those count as JSON objects.
  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    int lines = 0, objects = 0, records = 0;
    LogRecord record;
    for (const std::string& line : head) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      ++lines;
      JsonLineKind kind = ParseJsonlogLine(line, &record);
      if (kind == JsonLineKind::kNotObject) continue;
      ++objects;
      if (kind == JsonLineKind::kRecord && !record.severity.empty()) ++records;
    }
    SniffResult result;
    result.score = records;
    if (records > 0 && objects * 2 > lines) {
      result.verdict = SniffResult::Verdict::kMatch;
      result.reason = std::to_string(records) + " of " + std::to_string(lines) +
                      " lines are jsonlog records";
    } else if (lines == 0) {
      result.reason = "empty input";
    } else if (objects * 2 <= lines) {
      result.reason = "only " + std::to_string(objects) + " of " + std::to_string(lines) +
                      " lines are JSON objects";
    } else {
      result.reason = "no JSON object has timestamp, error_severity and message";
    }
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file,
                                           const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return std::make_unique<RecordReaderParser<JsonlogReader>>(file, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakePgJsonlogFormat() { return std::make_unique<JsonlogFormat>(); }

}  // namespace lockgraph
