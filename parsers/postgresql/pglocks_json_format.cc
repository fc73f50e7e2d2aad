// The pglocks-json input format: a pg_locks snapshot as JSON, e.g.
// `SELECT json_agg(s) FROM (<docs/snapshot.sql>) s` (one array; pretty-
// printed or not), one such array per line (appended snapshots), or one row
// object per line (row_to_json). Recognised by the keys locktype and
// granted. docs/watch.md#snapshot-files.
#include <nlohmann/json.hpp>

#include <deque>
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/pg_snapshot.h"

namespace lockgraph {
namespace {

using json = nlohmann::json;

// A JSON value as the text psql would print for the column; nullopt: NULL.
std::optional<std::string> ColumnText(const json& v) {
  if (v.is_null()) return std::nullopt;
  if (v.is_string()) return v.get_ref<const std::string&>();
  if (v.is_boolean()) return std::string(v.get<bool>() ? "t" : "f");
  if (v.is_array()) {
    std::string s = "{";
    for (const json& e : v) s += (s.size() > 1 ? "," : "") + e.dump();
    return s + "}";
  }
  return v.dump();
}

class PgLocksJsonParser : public LineParser {
 public:
  PgLocksJsonParser(std::string file, ParseSink& sink)
      : file_(std::move(file)), sink_(sink), collector_(file_, sink) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    ++counts_.total;
    if (lines_.empty()) first_line_ = line_no;
    lines_.emplace_back(line);
  }

  void Finish() override {
    try {
      if (!PerLine()) WholeDocument();
    } catch (const json::exception& e) {  // nlohmann stays inside this adapter
      sink_.OnDiagnostic({Diagnostic::Severity::kError, file_, first_line_,
                          std::string("JSON not understood: ") + e.what(), ""});
    }
    collector_.Finish();
  }

  const LineCounts& counts() const override { return counts_; }

 private:
  // Every non-blank line a JSON value of its own: arrays are snapshots,
  // objects rows. False (nothing consumed) when some line is not.
  bool PerLine() {
    std::vector<json> values(lines_.size());
    for (size_t i = 0; i < lines_.size(); ++i) {
      if (lines_[i].find_first_not_of(" \t\r") == std::string::npos) continue;
      values[i] = json::parse(lines_[i], nullptr, false);
      if (values[i].is_discarded() || !(values[i].is_array() || values[i].is_object()))
        return false;
    }
    for (size_t i = 0; i < lines_.size(); ++i) {
      const uint64_t line = first_line_ + i;
      if (values[i].is_null()) ++counts_.parsed;
      else if (values[i].is_object()) Row(values[i], line, line);
      else Snapshot(values[i], line, line);
    }
    return true;
  }

  void WholeDocument() {
    std::string text;
    for (const std::string& l : lines_) text += l + "\n";
    json doc = json::parse(text, nullptr, false);
    const uint64_t last = first_line_ + lines_.size() - 1;
    if (doc.is_discarded() || !(doc.is_array() || doc.is_object())) {
      counts_.unparsed += lines_.size();
      for (size_t i = 0; i < lines_.size(); ++i) sink_.OnUnparsed(file_, first_line_ + i, lines_[i]);
      sink_.OnDiagnostic({Diagnostic::Severity::kError, file_, first_line_,
                          "not a JSON array of pg_locks rows", lines_.front()});
      return;
    }
    counts_.parsed += lines_.size();
    if (doc.is_object()) Row(doc, first_line_, last, false);
    else Snapshot(doc, first_line_, last, false);
  }

  // One array of rows: one snapshot (or several, where sampled_at changes).
  void Snapshot(const json& rows, uint64_t first, uint64_t last, bool count = true) {
    if (count) ++counts_.parsed;
    for (const json& r : rows) Row(r, first, last, false);
    collector_.Break();
  }

  // `count`: the row is a line of its own, counted here.
  void Row(const json& obj, uint64_t first, uint64_t last, bool count = true) {
    PgLockRow row;
    row.line = first;
    std::string error = "not a JSON object";
    std::deque<std::optional<std::string>> kept;  // views into it stay valid
    auto get = [&](std::string_view column) -> std::optional<std::string_view> {
      auto it = obj.find(std::string(column));
      if (it == obj.end()) return std::nullopt;
      kept.push_back(ColumnText(*it));
      if (!kept.back()) return std::nullopt;
      return std::string_view(*kept.back());
    };
    if (obj.is_object() && PgLockRowFromColumns(get, &row, &error)) {
      if (count) ++counts_.parsed;
      collector_.set_has_blocking_pids(obj.contains("blocking_pids"));
      collector_.Add(std::move(row), last);
      return;
    }
    std::string text = obj.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 300);
    if (count) ++counts_.unparsed;
    sink_.OnUnparsed(file_, first, text);
    sink_.OnDiagnostic({Diagnostic::Severity::kWarning, file_, first,
                        "pg_locks row not understood: " + error, text});
  }

  std::string file_;
  ParseSink& sink_;
  PgSnapshotCollector collector_;
  std::vector<std::string> lines_;
  uint64_t first_line_ = 1;
  LineCounts counts_;
};

class PgLocksJsonFormat : public InputFormat {
 public:
  std::string Name() const override { return "pglocks-json"; }
  std::string Description() const override {
    return "pg_locks snapshot as JSON (json_agg of docs/snapshot.sql or of pg_locks)";
  }

  /// Matches when the input starts with '[' or '{' and its head names the
  /// keys "locktype" and "granted".
  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    SniffResult result;
    bool opens = false, started = false, locktype = false, granted = false;
    for (const std::string& line : head) {
      size_t p = line.find_first_not_of(" \t\r");
      if (p == std::string::npos) continue;
      if (!started) opens = line[p] == '[' || line[p] == '{';
      started = true;
      locktype = locktype || line.find("\"locktype\"") != std::string::npos;
      granted = granted || line.find("\"granted\"") != std::string::npos;
    }
    if (opens && locktype && granted) {
      result.verdict = SniffResult::Verdict::kMatch;
      result.score = static_cast<int>(head.size());
      result.reason = "JSON with pg_locks keys";
    } else {
      result.reason = started ? "not JSON with the keys locktype and granted" : "empty input";
    }
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return std::make_unique<PgLocksJsonParser>(file, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakePgLocksJsonFormat() {
  return std::make_unique<PgLocksJsonFormat>();
}

}  // namespace lockgraph
