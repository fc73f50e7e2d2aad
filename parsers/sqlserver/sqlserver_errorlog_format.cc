// SQL Server trace flag 1222 / 1204 text, in the ERRORLOG or bare
// (errorlog_reader.h), behind the InputFormat interface; UTF-8 or UTF-16.
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/sqlserver/errorlog_reader.h"
#include "parsers/sqlserver/text_decoder.h"

namespace lockgraph {
namespace {

class SqlServerErrorlogFormat : public InputFormat {
 public:
  std::string Name() const override { return "sqlserver-errorlog"; }
  std::string Description() const override {
    return "SQL Server ERRORLOG or text with trace flag 1222 / 1204 deadlock reports (UTF-8 or UTF-16)";
  }

  /// Matches a head with a 1222 `deadlock-list` line or a 1204 "Deadlock
  /// encountered" line, or whose lines mostly carry an ERRORLOG prefix with
  /// an ERRORLOG source (spid51, Server, Logon). Scores every head line.
  SniffResult Sniff(const std::vector<std::string>& raw_head,
                    const ParseOptions& options) const override {
    std::vector<std::string> head = DecodeHead(raw_head);
    int lines = 0, prefixed = 0, reports = 0;
    for (std::string line : head) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      ++lines;
      ErrorlogPrefix p;
      size_t text = 0;
      if (ReadErrorlogPrefix(line, &p) && IsErrorlogSource(p.source)) {
        ++prefixed;
        text = p.text;
      }
      std::string_view t = std::string_view(line).substr(std::min(text, line.size()));
      t = t.substr(std::min(t.size(), t.find_first_not_of(' ')));
      while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
      if (t == "deadlock-list" || t.substr(0, 20) == "Deadlock encountered") ++reports;
    }
    SniffResult result;
    if (reports > 0 || (prefixed >= 3 && prefixed * 2 > lines)) {
      result.verdict = SniffResult::Verdict::kMatch;
      result.score = int(head.size());
      result.reason = std::to_string(reports) + " trace flag 1222/1204 reports, " +
                      std::to_string(prefixed) + " ERRORLOG lines";
    } else {
      result.reason = "no trace flag 1222/1204 report and no ERRORLOG prefix";
    }
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return std::make_unique<DecodingLineParser>(std::make_unique<ErrorlogReader>(file, sink));
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakeSqlServerErrorlogFormat() {
  return std::make_unique<SqlServerErrorlogFormat>();
}

}  // namespace lockgraph
