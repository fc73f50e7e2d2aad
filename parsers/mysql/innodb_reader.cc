// See innodb_reader.h.
#include "parsers/mysql/innodb_reader.h"

#include <algorithm>

#include <re2/re2.h>

namespace lockgraph {
namespace {

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool DashLine(std::string_view s) {
  s = Trim(s);
  return s.size() >= 4 && s.find_first_not_of('-') == std::string_view::npos;
}

// Lines of the client around the status text: \G row headers and columns,
// table borders, prompts, "1 row in set"; and the markdown fences of a
// report pasted into an issue or a note.
bool ClientFraming(std::string_view line) {
  static const RE2 re(
      R"(\s*```[\w-]*\s*|\*+ \d+\. row \*+|\s*Type: InnoDB|\s*Name: ?|\+[-+]+\+?|\| Type +\| Name +\| Status.*|\s*\||\d+ rows? in set.*|(?:mysql|MariaDB \[[^\]]*\])> .*|(?:mysql|MariaDB \[[^\]]*\])>)");
  return RE2::FullMatch(Piece(line), re);
}

}  // namespace

std::optional<MysqlErrorlogEntry> ReadMysqlErrorlogLine(std::string_view line) {
  // Each pattern below needs a bracketed label or "InnoDB:": a line with
  // none (every line of the PostgreSQL logs the sniffers try) is refused
  // before them, and then they are not even compiled (2 M instructions of
  // every run's format choice).
  bool may = false;
  for (std::string_view needed :
       {"[Note] ", "[Warning] ", "[ERROR] ", "[Error] ", "[System] ", "InnoDB:"})
    may = may || line.find(needed) != std::string_view::npos;
  if (!may) return std::nullopt;
  // 5.7 and 8.0: ISO 8601 time with T, thread, [Label], 8.0's [MY-n] [Subsystem].
  static const RE2 iso(
      R"((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?) +(\d+) \[(?:Note|Warning|ERROR|Error|System)\] (?:\[(MY-\d+)\] \[(\w+)\] ?)?(.*))");
  // 5.5, 5.6 and MariaDB: "YYMMDD HH:MM:SS" or "YYYY-MM-DD HH:MM:SS", thread (5.6+).
  static const RE2 classic(
      R"((\d{4}-\d\d-\d\d +\d?\d:\d\d:\d\d|\d{6} +\d?\d:\d\d:\d\d) +(?:(\w+) +)?\[(?:Note|Warning|ERROR|Error|System)\] (.*))");
  // 5.5 and 5.6 InnoDB messages: time, 5.6's hex thread id, "InnoDB:" and no label.
  // 5.6 prints its thread id with no space before "InnoDB:"
  // (`2016-06-15 20:28:25 7f72c0043700InnoDB: transactions deadlock ...`).
  static const RE2 bare(
      R"((\d{4}-\d\d-\d\d \d\d:\d\d:\d\d|\d{6} [ \d]\d:\d\d:\d\d) (?:([0-9A-Fa-fx]+) ?)?(InnoDB: ?.*))");
  MysqlErrorlogEntry e;
  std::string message;
  // A log pasted with every line indented (markdown, e-mail quoting).
  line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t")));
  if (!RE2::FullMatch(Piece(line), iso, &e.time, &e.thread, &e.code, &e.subsystem, &message) &&
      !RE2::FullMatch(Piece(line), classic, &e.time, &e.thread, &message) &&
      !RE2::FullMatch(Piece(line), bare, &e.time, &e.thread, &message))
    return std::nullopt;
  std::string_view m = message;
  if (e.subsystem.empty() && m.substr(0, 7) == "InnoDB:") {
    e.subsystem = "InnoDB";
    m.remove_prefix(7);
    if (!m.empty() && m.front() == ' ') m.remove_prefix(1);
  }
  e.message = std::string(m);
  return e;
}

std::vector<std::string> SplitEscapedInnodbText(std::string_view line) {
  std::vector<std::string> pieces(1);
  size_t newlines = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\\' || i + 1 == line.size()) {
      pieces.back() += line[i];
      continue;
    }
    char next = line[++i];
    if (next == 'n') {
      pieces.emplace_back();
      ++newlines;
    } else if (next == 't') {
      pieces.back() += '\t';
    } else if (next == '\\' || next == '\'' || next == '"') {
      pieces.back() += next;
    } else {
      pieces.back() += '\\';
      pieces.back() += next;
    }
  }
  bool report = false;
  for (const std::string& p : pieces)
    report = report || ReadInnodbHeader(p) || ReadInnodbVictim(p) || ReadInnodbVictimTrxId(p) ||
             Trim(p) == "LATEST DETECTED DEADLOCK";
  if (newlines < 2 || !report) return {};
  return pieces;
}

InnodbReader::InnodbReader(std::string file, ParseSink& sink, bool show_records)
    : file_(std::move(file)), sink_(sink), show_records_(show_records) {}

void InnodbReader::Unparsed(uint64_t line_no, std::string_view line) {
  ++counts_.unparsed;
  if (escaped_) {  // EscapedLine counts and lists the physical line
    escaped_unparsed_ = true;
    return;
  }
  // A record dump's field is row data (customers' data included): listed
  // by its line number only, never by its text.
  if (IsInnodbRecordField(line)) line = "(a field of a record dump: row data, not shown)";
  sink_.OnUnparsed(file_, line_no, line);
}

void InnodbReader::ParseLine(std::string_view line, uint64_t line_no) {
  ++counts_.total;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // MySQL 8's JSON error log escapes its headers' newlines too
  // ("msg": "\n*** (1) TRANSACTION:\n"): JsonSinkLine reads those.
  if (line.find("\\n") != std::string_view::npos && !json_sink_ &&
      line.find("\"err_code\"") == std::string_view::npos) {
    std::vector<std::string> pieces = SplitEscapedInnodbText(line);
    if (!pieces.empty()) return EscapedLine(pieces, line, line_no);
  }
  ParseText(line, line_no);
}

void InnodbReader::EscapedLine(const std::vector<std::string>& pieces, std::string_view line,
                               uint64_t line_no) {
  const LineCounts before = counts_;
  escaped_ = true;
  escaped_unparsed_ = false;
  for (const std::string& piece : pieces) ParseText(piece, line_no);
  escaped_ = false;
  const bool parsed = counts_.parsed > before.parsed;
  counts_ = before;
  // The text around the escaped string (the client's `[('InnoDB', '', "`)
  // is its framing when the pieces were read as a report.
  if (parsed) return Parsed();
  if (!escaped_unparsed_) return Skipped();
  bool dump = false;  // row data inside the escaped text: never listed
  for (const std::string& piece : pieces) dump = dump || IsInnodbRecordField(piece);
  Unparsed(line_no, dump ? "(an escaped text holding record dumps: row data, not shown)" : line);
}

void InnodbReader::ParseText(std::string_view line, uint64_t line_no) {
  raw_line_ = line;
  if (auto e = ReadMysqlErrorlogLine(line)) return Entry(*e, line_no);
  if (JsonSinkLine(line, line_no)) return;
  static const RE2 table_row(R"(\| InnoDB \|[^|]*\| ?(.*))");
  std::string inner;
  if (RE2::FullMatch(Piece(line), table_row, &inner)) {
    status_ = true;
    if (Trim(inner).empty() || inner.find_first_not_of('=') == std::string::npos) return Skipped();
    return Text(inner, line_no);
  }
  if (!section_ && ClientFraming(line)) return Skipped();
  // The server's startup banner, written to the error log without a prefix.
  if (!section_ && line.rfind("Version: '", 0) == 0 && line.find("'  socket: '") != std::string_view::npos)
    return Skipped();
  if (!section_ && Trim(line).substr(0, 7) == "Status:") {
    status_ = true;
    std::string_view rest = Trim(Trim(line).substr(7));
    if (rest.empty()) return Skipped();
    return Text(rest, line_no);
  }
  Text(line, line_no);
}

// MySQL 8's JSON error log (log_sink_json) carries only the headers of a
// report ("msg": "*** (1) TRANSACTION:\n"): each 12468 entry is kept as a
// deadlock without processes, with the problem named once per report.
bool InnodbReader::JsonSinkLine(std::string_view line, uint64_t line_no) {
  static const RE2 code(R"("err_code": ?(\d+))");
  static const RE2 time(R"re("time": ?"([^"]*)")re");
  int err = 0;
  std::string_view t = Trim(line);
  if (json_sink_ && (t == "{" || t == "}" || t == "},")) return Skipped(), true;
  // Only a JSON object's line, or a key of a pretty-printed one; never a line
  // of a text report (its SQL may hold anything).
  if (t.empty() || (t.front() != '{' && t.front() != '"') || (section_ && !json_sink_)) return false;
  if (!RE2::PartialMatch(Piece(line), code, &err)) {
    if (!json_sink_) return false;
    return Skipped(), true;  // another key of a pretty-printed entry
  }
  if (!json_sink_) {
    json_sink_ = true;
    sink_.OnDiagnostic({Diagnostic::Severity::kWarning, file_, line_no,
                        "MySQL's JSON error log (log_sink_json) carries only the headers of InnoDB "
                        "deadlock reports, not their transactions and locks; write the classic "
                        "error log too (log_error_services = 'log_filter_internal; log_sink_internal; "
                        "log_sink_json') and analyze that file",
                        std::string(line)});
  }
  if (section_ && err != 12469) Close(false);
  if (err == 12468) {
    std::string when;
    RE2::PartialMatch(Piece(line), time, &when);
    Open("Transactions deadlock detected", when, line_no);
    section_->report().problems.push_back(
        "the JSON error log (log_sink_json) prints only the report's headers: no transaction, "
        "lock or victim");
    return Parsed(), true;
  }
  if (err == 12469 && section_) {
    static const RE2 victim(R"(WE ROLL BACK TRANSACTION \((\d{1,6})\))");
    section_->report().last_line = line_no;
    int n = 0;
    if (RE2::PartialMatch(Piece(line), victim, &n)) {
      section_->report().victim = n;
      Close(true);
    }
    return Parsed(), true;
  }
  return Skipped(), true;
}

void InnodbReader::Entry(const MysqlErrorlogEntry& e, uint64_t line_no) {
  std::string_view text = e.message;
  // "Transactions" since 5.7, "transactions" in 5.6.
  std::string_view first = Trim(text).substr(0, 30);
  if (first == "Transactions deadlock detected" || first == "transactions deadlock detected") {
    if (section_) Close(false);
    Open("Transactions deadlock detected", e.time, line_no);
    return Parsed();
  }
  // Entries carry only a report's headers (its body follows on raw lines);
  // any other entry, even of InnoDB, is another message between them.
  if (section_ && (e.subsystem == "InnoDB" || !e.code.empty()) &&
      (ReadInnodbHeader(text) || ReadInnodbVictim(text) || ReadInnodbVictimTrxId(text) ||
       IsTooDeepMessage(text) || Trim(text).empty())) {
    if (Trim(text).empty()) return Parsed();  // the header comes on the next line
    InnodbSection::Outcome o = section_->Add(text, line_no);
    if (o == InnodbSection::Outcome::kEnd) {
      Parsed();
      return Close(true);
    }
    if (o == InnodbSection::Outcome::kTaken) return Parsed();
  }
  // Another message of the log (or of another thread between the entries
  // of a report): understood as the log's own, not part of a deadlock.
  Skipped();
}

bool InnodbReader::StatusLine(std::string_view text, uint64_t line_no) {
  std::string_view t = Trim(text);
  if (t == "LATEST DETECTED DEADLOCK") {
    status_ = true;
    Open("LATEST DETECTED DEADLOCK", "", line_no);
    title_dash_ = true;
    Parsed();
    return true;
  }
  if (DashLine(t) || t.find("INNODB MONITOR OUTPUT") != std::string_view::npos ||
      (t.size() >= 4 && t.find_first_not_of('=') == std::string_view::npos)) {
    status_ = true;
    Skipped();
    return true;
  }
  if (status_ || t.empty()) {  // another section of the status
    Skipped();
    return true;
  }
  return false;
}

void InnodbReader::Text(std::string_view text, uint64_t line_no) {
  if (section_) {
    // A paste with an empty line after every line: the title's dash line
    // comes after an empty one.
    if (title_dash_ && Trim(text).empty()) return Skipped();
    if (title_dash_ && DashLine(text)) {
      title_dash_ = false;
      section_->report().last_line = line_no;
      return Parsed();
    }
    title_dash_ = false;
    // The next section of the status (or its end) closes a report that has
    // no victim line (TOO DEEP, or cut by the 1MB limit).
    if (status_ && (DashLine(text) || Trim(text).find("INNODB MONITOR OUTPUT") != std::string_view::npos)) {
      Close(false);
    } else {
      InnodbSection::Outcome o = section_->Add(text, line_no);
      if (o == InnodbSection::Outcome::kNotUnderstood) return Unparsed(line_no, raw_line_);
      Parsed();
      if (o == InnodbSection::Outcome::kEnd) Close(true);
      return;
    }
  }
  if (StatusLine(text, line_no)) return;
  // The deadlock section pasted without its title: its timestamp line or
  // its first header starts a report.
  auto header = ReadInnodbHeader(text);
  auto ts = ReadInnodbTimestamp(text);
  if ((header && header->kind == InnodbHeader::Kind::kTransaction) || ts || IsTooDeepMessage(text)) {
    Open("LATEST DETECTED DEADLOCK", "", line_no);
    section_->Add(text, line_no);
    return Parsed();
  }
  Unparsed(line_no, raw_line_);
}

void InnodbReader::Open(std::string form, std::string time, uint64_t line_no) {
  InnodbReport r;
  r.file = file_;
  r.form = std::move(form);
  r.time = std::move(time);
  r.first_line = r.last_line = line_no;
  section_ = std::make_unique<InnodbSection>(std::move(r), show_records_);
}

void InnodbReader::Close(bool ended) {
  InnodbReport& r = section_->report();
  if (!ended && !r.too_deep) r.cut = true;
  sink_.OnEvent(BuildInnodbDeadlock(r));
  section_.reset();
  title_dash_ = false;
}

void InnodbReader::Finish() {
  if (section_) Close(false);
}

}  // namespace lockgraph
