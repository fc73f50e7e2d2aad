// The syslog input format (reference §6.5, §6.6 journald): SyslogReader
// behind the InputFormat interface. `detected` carries the log_line_prefix
// found inside the messages.
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/syslog_frame.h"
#include "parsers/postgresql/syslog_hosts.h"
#include "parsers/postgresql/syslog_reader.h"

namespace lockgraph {
namespace {

class SyslogFormat : public InputFormat {
 public:
  std::string Name() const override { return "syslog"; }
  std::string Description() const override {
    return "PostgreSQL via syslog or journald (`host postgres[pid]: [seq-chunk] ...`)";
  }

  /// Matches when most non-empty lines have syslog framing with PostgreSQL's
  /// `[seq-chunk]` or `[seq]`, or have syslog framing and a detectable
  /// log_line_prefix inside (stderr captured by journald). Score: the framed
  /// lines.
  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    int lines = 0, framed = 0, numbered = 0;
    SyslogFrame frame;
    for (const std::string& line : head) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      ++lines;
      if (!ParseSyslogFrame(line, &frame)) continue;
      ++framed;
      if (frame.seq) ++numbered;
    }
    SniffResult result;
    result.score = framed;
    if (framed * 2 <= lines || lines == 0) {
      result.reason = "only " + std::to_string(framed) + " of " + std::to_string(lines) +
                      " lines have syslog framing (`Mon DD HH:MM:SS host ident[pid]: `)";
      return result;
    }
    std::optional<std::string> prefix;
    if (options.has_prefix) {
      prefix = options.log_line_prefix;
    } else {
      int matched = 0;
      prefix = DetectSyslogPrefix(head, &matched);
    }
    if (numbered * 2 <= lines && !prefix) {
      result.reason = "syslog framing without PostgreSQL's [seq-chunk] numbers, and no "
                      "log_line_prefix fits the messages";
      return result;
    }
    result.verdict = SniffResult::Verdict::kMatch;
    result.detected = prefix.value_or("");
    result.reason = prefix ? "log_line_prefix '" + *prefix + "' inside syslog messages"
                           : "syslog messages; no known log_line_prefix fits them";
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file,
                                           const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    std::optional<std::string> prefix;
    if (options.has_prefix) {
      prefix = options.log_line_prefix;
    } else if (!detected.empty()) {
      prefix = detected;
    }
    // Otherwise (no sniff, or the empty prefix): the reader detects it.
    return MakeSyslogHostsParser(file, prefix, !options.has_prefix, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakePgSyslogFormat() { return std::make_unique<SyslogFormat>(); }

}  // namespace lockgraph
