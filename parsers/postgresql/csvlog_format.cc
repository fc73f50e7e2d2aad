// The csvlog input format (reference §6.3): CsvlogReader behind the
// InputFormat interface. Sniffing runs the reader itself over the head, so
// that a match means the records really parse, not just that lines start
// with a timestamp.
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/csvlog_reader.h"
#include "parsers/postgresql/record_reader_parser.h"

namespace lockgraph {
namespace {

class CsvlogFormat : public InputFormat {
 public:
  std::string Name() const override { return "csvlog"; }
  std::string Description() const override {
    return "PostgreSQL csvlog (23, 24 or 26 columns, log_destination = 'csvlog')";
  }

  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    uint64_t first_bad = 0;
    RecordCallbacks cb;
    cb.interesting = [](std::string_view) { return false; };  // nothing to copy
    cb.on_unparsed = [&first_bad](uint64_t line_no, std::string_view) {
      if (!first_bad) first_bad = line_no;
    };
    CsvlogReader reader("", std::move(cb));
    uint64_t line_no = 0;
    for (const std::string& line : head) reader.ParseLine(line, ++line_no);
    const LineCounts& c = reader.counts();
    const uint64_t decided = c.parsed + c.unparsed;

    SniffResult result;
    result.score = static_cast<int>(c.parsed);
    if (c.parsed > 0 && c.parsed * 2 > decided) {
      result.verdict = SniffResult::Verdict::kMatch;
      result.reason = std::to_string(c.parsed) + " of " + std::to_string(decided) +
                      " lines are csvlog records";
    } else if (c.parsed == 0 && c.unparsed == 0 && reader.pending_lines() > 0) {
      // One record longer than the head: the outcome "incomplete", a match
      // with the lowest score.
      result.verdict = SniffResult::Verdict::kMatch;
      result.score = 1;
      result.reason = "one csvlog record still open after " +
                      std::to_string(reader.pending_lines()) + " lines";
    } else if (decided == 0) {
      result.reason = "empty input";
    } else {
      result.reason = "only " + std::to_string(c.parsed) + " of " + std::to_string(decided) +
                      " lines are csvlog records (23, 24 or 26 fields starting with a "
                      "log_time); line " + std::to_string(first_bad) + " is not";
    }
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file,
                                           const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return std::make_unique<RecordReaderParser<CsvlogReader>>(file, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakePgCsvlogFormat() { return std::make_unique<CsvlogFormat>(); }

}  // namespace lockgraph
