// MySQL and MariaDB InnoDB deadlock reports (innodb_reader.h) behind the
// InputFormat interface: SHOW ENGINE INNODB STATUS output in any client
// framing, and error logs written with innodb_print_all_deadlocks.
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/mysql/innodb_lines.h"
#include "parsers/mysql/innodb_reader.h"

namespace lockgraph {
namespace {

// Lines only an InnoDB report or status prints.
bool InnodbMarker(std::string_view t) {
  for (std::string_view m : {"LATEST DETECTED DEADLOCK", "INNODB MONITOR OUTPUT",
                             "Transactions deadlock detected", "WE ROLL BACK TRANSACTION",
                             "TOO DEEP OR LONG SEARCH IN THE LOCK TABLE", "MySQL thread id ",
                             "MariaDB thread id ", "\"err_code\": 12468", "\"err_code\":12468",
                             "\"err_code\": 12469", "\"err_code\":12469"})
    if (t.find(m) != std::string_view::npos) return true;
  return ReadInnodbHeader(t).has_value() || ReadInnodbLockLine(t).has_value();
}

class MysqlInnodbFormat : public InputFormat {
 public:
  std::string Name() const override { return "mysql"; }
  std::string Description() const override {
    return "MySQL / MariaDB InnoDB deadlock reports: SHOW ENGINE INNODB STATUS (\\G, table or "
           "session paste) and error logs with innodb_print_all_deadlocks";
  }

  /// Matches a head with InnoDB report lines, or one whose lines mostly are
  /// MySQL / MariaDB error-log entries of InnoDB (a log whose first
  /// deadlock comes later). Scores every head line.
  SniffResult Sniff(const std::vector<std::string>& head, const ParseOptions&) const override {
    int lines = 0, markers = 0, entries = 0, innodb = 0;
    for (std::string line : head) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      ++lines;
      if (InnodbMarker(line)) ++markers;
      // A whole status or report printed as one escaped string.
      if (line.find("\\n") != std::string::npos)
        for (const std::string& piece : SplitEscapedInnodbText(line))
          if (InnodbMarker(piece)) ++markers;
      if (auto e = ReadMysqlErrorlogLine(line)) {
        ++entries;
        if (e->subsystem == "InnoDB" || e->code.substr(0, 3) == "MY-") ++innodb;
      }
    }
    SniffResult result;
    if (markers >= 2 || (innodb >= 1 && entries >= 3 && entries * 2 > lines)) {
      result.verdict = SniffResult::Verdict::kMatch;
      result.score = int(head.size());
      result.reason = std::to_string(markers) + " InnoDB report lines, " + std::to_string(entries) +
                      " MySQL/MariaDB error-log lines";
    } else {
      result.reason = "no InnoDB deadlock report and no MySQL/MariaDB error-log lines";
    }
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions& options,
                                           const std::string&, ParseSink& sink) const override {
    return std::make_unique<InnodbReader>(file, sink, options.show_records);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakeMysqlInnodbFormat() { return std::make_unique<MysqlInnodbFormat>(); }

}  // namespace lockgraph
