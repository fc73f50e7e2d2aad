// The mysql-snapshot input format: the output of docs/mysql-snapshot.sql
// (or mysql8-snapshot.sql, with mysql-snapshot-mdl.sql's rows appended)
// saved by `mariadb --batch` (tab-separated, a header line, escaped
// \n \t \\, NULL as NULL) or `mariadb --vertical` / `\G`. Recognised by its
// columns; a repeated header, a new "1. row" or a session row after the
// waits starts a new snapshot. docs/mysql.md#snapshot-files.
#include <iterator>
#include <map>
#include <optional>
#include <string>

#include <re2/re2.h>

#include "parsers/builtin_formats.h"
#include "parsers/mysql/my_lock_snapshot.h"

namespace lockgraph {
namespace {

bool Blank(std::string_view line) { return line.find_first_not_of(" \t\r") == line.npos; }

std::vector<std::string> SplitTabs(std::string_view line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == '\t') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// --batch escapes: \n, \t, \\ and \0.
std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? '\0' : c;
  }
  return out;
}

bool IsHeader(const std::vector<std::string>& names) {
  return names == MyLockSnapshotColumns();
}

// "*************************** 3. row ***************************": 3.
std::optional<int> RowHeader(std::string_view line) {
  static const RE2 re(R"(\*+ (\d+)\. row \*+\s*)");
  int n = 0;
  if (RE2::FullMatch(re2::StringPiece(line.data(), line.size()), re, &n)) return n;
  return std::nullopt;
}

// "     sampled_at: 2026-..." of a vertical row: the column and its value.
bool VerticalField(std::string_view line, std::string* column, std::string* value) {
  static const RE2 re(R"( *([a-z_]+): ?(.*))");
  if (!RE2::FullMatch(re2::StringPiece(line.data(), line.size()), re, column, value)) return false;
  for (const std::string& c : MyLockSnapshotColumns())
    if (c == *column) return true;
  return false;
}

class MysqlSnapshotParser : public LineParser {
 public:
  MysqlSnapshotParser(std::string file, ParseSink& sink) : file_(std::move(file)), sink_(sink) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    ++counts_.total;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (std::optional<int> n = RowHeader(line)) {
      EndRow();
      if (*n == 1) Break();
      vertical_ = true;
      row_lines_ = {std::string(line)};
      first_line_ = line_no;
      values_.clear();
      return;
    }
    if (vertical_ && !row_lines_.empty()) return VerticalLine(line);
    if (Blank(line) || RE2::FullMatch(re2::StringPiece(line.data(), line.size()), R"(\d+ rows? in set.*)"))
      return Skipped();
    std::vector<std::string> fields = SplitTabs(line);
    if (IsHeader(fields)) {
      Break();
      header_ = true;
      return Parsed();
    }
    if (!header_) return Reject(line_no, {std::string(line)}, "a row before the column header");
    if (fields.size() != MyLockSnapshotColumns().size())
      return Reject(line_no, {std::string(line)},
                    std::to_string(fields.size()) + " fields, the header has " +
                        std::to_string(MyLockSnapshotColumns().size()));
    values_.clear();
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i] != "NULL") values_[MyLockSnapshotColumns()[i]] = Unescape(fields[i]);
    AddRow(line_no, line_no, {std::string(line)});
  }

  void Finish() override {
    EndRow();
    Break();
  }

  const LineCounts& counts() const override { return counts_; }

 private:
  void Parsed() { ++counts_.parsed; }
  void Skipped() { ++counts_.skipped; }

  // A line inside a vertical row: a column, or a line of a multi-line value.
  void VerticalLine(std::string_view line) {
    row_lines_.emplace_back(line);
    std::string column, value;
    if (VerticalField(line, &column, &value) && !values_.count(column)) {
      values_[column] = value;
      last_column_ = column;
    } else if (!last_column_.empty()) {
      values_[last_column_] += "\n" + std::string(line);
    }
  }

  void EndRow() {
    if (row_lines_.empty()) return;
    std::vector<std::string> lines = std::move(row_lines_);
    row_lines_.clear();
    // A vertical row ends with its blank line or the next header: trailing
    // blank lines and "N rows in set" belong to no value.
    size_t used = lines.size();
    while (used > 1 && (Blank(lines[used - 1]) || lines[used - 1].find(" in set") != std::string::npos)) --used;
    if (!last_column_.empty() && values_.count(last_column_)) {
      std::string& v = values_[last_column_];
      while (!v.empty() && v.back() == '\n') v.pop_back();
      size_t cut = v.find("\n\n");
      if (cut != std::string::npos && v.find_first_not_of('\n', cut) == std::string::npos) v.resize(cut);
    }
    for (auto it = values_.begin(); it != values_.end();)  // SQL NULL: no value
      it = it->second == "NULL" ? values_.erase(it) : std::next(it);
    last_column_.clear();
    counts_.skipped += lines.size() - used;
    lines.resize(used);
    AddRow(first_line_, first_line_ + used - 1, lines);
  }

  void AddRow(uint64_t first, uint64_t last, const std::vector<std::string>& lines) {
    MyLockRow row;
    row.line = first;
    std::string error;
    auto get = [this](std::string_view column) -> std::optional<std::string_view> {
      auto it = values_.find(std::string(column));
      if (it == values_.end()) return std::nullopt;
      return it->second;
    };
    if (!MyLockRowFromColumns(get, &row, &error)) return Reject(first, lines, error);
    counts_.parsed += lines.size();
    const bool new_snapshot =
        !current_.rows.empty() && row.kind == "session" &&
        (current_.rows.back().kind != "session" || current_.rows.back().sampled_at != row.sampled_at);
    if (new_snapshot) Break();
    if (current_.rows.empty()) current_.source.first_line = first;
    current_.source.last_line = last;
    current_.rows.push_back(std::move(row));
  }

  void Break() {
    if (current_.rows.empty()) return;
    current_.source.file = file_;
    for (Event& ev : AnalyzeMyLockSnapshot(current_).events) sink_.OnEvent(std::move(ev));
    current_ = MyLockSnapshot();
  }

  void Reject(uint64_t first, const std::vector<std::string>& lines, const std::string& why) {
    counts_.unparsed += lines.size();
    for (size_t i = 0; i < lines.size(); ++i) sink_.OnUnparsed(file_, first + i, lines[i]);
    sink_.OnDiagnostic({Diagnostic::Severity::kWarning, file_, first,
                        "MySQL snapshot row not understood: " + why, lines.empty() ? "" : lines.front()});
  }

  std::string file_;
  ParseSink& sink_;
  LineCounts counts_;
  bool header_ = false;     // the --batch header was read
  bool vertical_ = false;   // \G rows
  std::vector<std::string> row_lines_;  // of the vertical row being read
  uint64_t first_line_ = 0;
  std::map<std::string, std::string> values_;
  std::string last_column_;
  MyLockSnapshot current_;
};

class MysqlSnapshotFormat : public InputFormat {
 public:
  std::string Name() const override { return "mysql-snapshot"; }
  std::string Description() const override {
    return "MySQL / MariaDB lock snapshot: docs/mysql-snapshot.sql saved by mariadb --batch or "
           "--vertical (\\G)";
  }

  /// Matches the query's --batch header line, or a vertical first row whose
  /// first two columns are sampled_at and kind.
  SniffResult Sniff(const std::vector<std::string>& head, const ParseOptions&) const override {
    SniffResult result;
    result.reason = "no docs/mysql-snapshot.sql header or vertical row";
    for (size_t i = 0; i < head.size(); ++i) {
      std::string line = head[i];
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (Blank(line)) continue;
      std::string column, value, kind_column;
      const bool header = IsHeader(SplitTabs(line));
      const bool vertical = RowHeader(line) && i + 2 < head.size() &&
                            VerticalField(head[i + 1], &column, &value) && column == "sampled_at" &&
                            VerticalField(head[i + 2], &kind_column, &value) && kind_column == "kind";
      if (header || vertical) {
        result.verdict = SniffResult::Verdict::kMatch;
        result.score = int(head.size());
        result.reason = header ? "docs/mysql-snapshot.sql header (--batch)" : "docs/mysql-snapshot.sql rows (\\G)";
      }
      return result;
    }
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions&,
                                           const std::string&, ParseSink& sink) const override {
    return std::make_unique<MysqlSnapshotParser>(file, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakeMysqlSnapshotFormat() { return std::make_unique<MysqlSnapshotFormat>(); }

}  // namespace lockgraph
