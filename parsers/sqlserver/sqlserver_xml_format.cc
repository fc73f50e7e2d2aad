// The SQL Server deadlock XML input format (xml_report_reader.h) behind the
// InputFormat interface; UTF-8 or UTF-16 (text_decoder.h).
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/sqlserver/text_decoder.h"
#include "parsers/sqlserver/xml_report_reader.h"

namespace lockgraph {
namespace {

bool Contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

class SqlServerXmlFormat : public InputFormat {
 public:
  std::string Name() const override { return "sqlserver-xml"; }
  std::string Description() const override {
    return "SQL Server deadlock graphs: .xdl, <deadlock>, xml_deadlock_report events, "
           "system_health exports (UTF-8 or UTF-16)";
  }

  /// Matches XML (the first non-blank line starts with '<') that holds a
  /// deadlock graph or an Extended Events event in its first lines. Scores
  /// every head line: XML is never another format's.
  SniffResult Sniff(const std::vector<std::string>& raw_head,
                    const ParseOptions& options) const override {
    std::vector<std::string> head = DecodeHead(raw_head);
    SniffResult result;
    size_t first = 0;
    while (first < head.size() && head[first].find_first_not_of(" \t\r") == std::string::npos) ++first;
    if (first == head.size()) {
      result.reason = "empty input";
      return result;
    }
    if (head[first][head[first].find_first_not_of(" \t\r")] != '<') {
      result.reason = "not XML";
      return result;
    }
    for (const std::string& line : head) {
      if (Contains(line, "<deadlock") || Contains(line, "xml_deadlock_report") ||
          Contains(line, "<RingBufferTarget") || Contains(line, "<event ")) {
        result.verdict = SniffResult::Verdict::kMatch;
        result.score = int(head.size());
        result.reason = "SQL Server deadlock XML";
        return result;
      }
    }
    result.reason = "XML without <deadlock> or <event> elements";
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return std::make_unique<DecodingLineParser>(std::make_unique<XmlReportReader>(file, sink));
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakeSqlServerXmlFormat() { return std::make_unique<SqlServerXmlFormat>(); }

}  // namespace lockgraph
