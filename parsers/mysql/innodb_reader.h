// Reads InnoDB deadlock reports out of what people have: SHOW ENGINE INNODB
// STATUS (whole or the LATEST DETECTED DEADLOCK section alone; \G output,
// the client's tabular `| InnoDB |` framing, a `mysql>` session paste) and
// error logs written with innodb_print_all_deadlocks (MySQL 5.6/5.7
// `[Note] InnoDB:`, MySQL 8 `[MY-012468]`/`[MY-012469]`, MariaDB 10/11),
// many reports per log. The framing is taken off here; InnodbSection reads
// the report itself. docs/mysql.md.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parsers/input_format.h"
#include "parsers/mysql/innodb_section.h"

namespace lockgraph {

/// An error-log line's prefix: time, thread, label, and the message after
/// `InnoDB: ` or `[MY-nnnnnn] [InnoDB] `.
struct MysqlErrorlogEntry {
  std::string time;
  std::string thread;
  std::string code;       // "MY-012469"; empty before 8.0
  std::string subsystem;  // "InnoDB" (8.0 column, or the older message's first word)
  std::string message;
};

/// A status or report printed as one escaped string (a client's repr of the
/// row, `[('InnoDB', '', "\n=====...\n")]`, or a JSON value): its lines, with
/// `\\`, `\t`, `\'` and `\"` unescaped, when `line` holds at least two
/// escaped newlines and one of its pieces is an InnoDB report line; empty
/// otherwise. The text before the first and after the last escaped newline is
/// the first and last piece.
std::vector<std::string> SplitEscapedInnodbText(std::string_view line);

/// Reads the prefix of a MySQL 5.5-8.4 or MariaDB error-log line (5.5 and
/// 5.6 InnoDB messages have no [Note] label: `2014-06-02 11:56:35 7f5a InnoDB: `).
std::optional<MysqlErrorlogEntry> ReadMysqlErrorlogLine(std::string_view line);

class InnodbReader final : public LineParser {
 public:
  /// `show_records`: keep record dumps (--show-records).
  InnodbReader(std::string file, ParseSink& sink, bool show_records = false);
  void ParseLine(std::string_view line, uint64_t line_no) override;
  void Finish() override;
  const LineCounts& counts() const override { return counts_; }

 private:
  /// One line of text (a physical line, or a piece of an escaped one).
  void ParseText(std::string_view line, uint64_t line_no);
  /// A physical line holding a whole escaped report: read piece by piece,
  /// counted once (parsed when a piece belongs to a report).
  void EscapedLine(const std::vector<std::string>& pieces, std::string_view line, uint64_t line_no);
  void Entry(const MysqlErrorlogEntry& e, uint64_t line_no);
  void Text(std::string_view text, uint64_t line_no);
  /// A line of MySQL 8's JSON error log; false when it is not one.
  bool JsonSinkLine(std::string_view line, uint64_t line_no);
  /// True when `text` was a status line outside any report.
  bool StatusLine(std::string_view text, uint64_t line_no);
  void Open(std::string form, std::string time, uint64_t line_no);
  /// Hands the open report on; `ended`: its victim line was read.
  void Close(bool ended);
  void Parsed() { ++counts_.parsed; }
  void Skipped() { ++counts_.skipped; }
  void Unparsed(uint64_t line_no, std::string_view line);

  std::string file_;
  ParseSink& sink_;
  LineCounts counts_;
  std::unique_ptr<InnodbSection> section_;
  bool show_records_ = false;
  bool status_ = false;        // inside SHOW ENGINE INNODB STATUS output
  bool title_dash_ = false;
  bool json_sink_ = false;     // a JSON error-log line was seen    // the dash line under LATEST DETECTED DEADLOCK is next
  std::string_view raw_line_;  // the line as read, for OnUnparsed
  bool escaped_ = false;       // reading the pieces of an escaped line
  bool escaped_unparsed_ = false;  // one of them was not understood
};

}  // namespace lockgraph
