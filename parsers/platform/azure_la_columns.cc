// See azure_la_columns.h.
#include "parsers/platform/azure_la_columns.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "parsers/postgresql/labels.h"
#include "text/number.h"

namespace lockgraph {
namespace {

// The LogRecord fields a row fills, in the order they are packed.
enum Field : size_t {
  kTime, kPid, kSeverity, kSqlstate, kMessage, kDetail, kHint, kContext, kStatement,
  kUser, kDatabase, kApplication, kHost, kSessionId, kSessionLine, kCommandTag, kVxid,
  kXid, kBackendType, kQueryId, kFieldCount,
};

// AzureDiagnostics columns (pgBadger's list, platforms.md §1.5) and the
// PGSQLServerLogs ones this reader uses.
const std::map<std::string, Field, std::less<>>& RecordColumns() {
  static const std::map<std::string, Field, std::less<>> columns = {
      {"record_log_time_s", kTime}, {"record_process_id_s", kPid},
      {"record_error_severity_s", kSeverity}, {"record_sql_state_code_s", kSqlstate},
      {"record_message_s", kMessage}, {"record_detail_s", kDetail}, {"record_hint_s", kHint},
      {"record_context_s", kContext}, {"record_query_s", kStatement},
      {"record_user_name_s", kUser}, {"record_database_name_s", kDatabase},
      {"record_application_name_s", kApplication}, {"record_connection_from_s", kHost},
      {"record_session_id_s", kSessionId}, {"record_session_line_num_s", kSessionLine},
      {"record_command_tag_s", kCommandTag}, {"record_virtual_transaction_id_s", kVxid},
      {"record_transaction_id_s", kXid}, {"record_backend_type_s", kBackendType},
      {"record_query_id_s", kQueryId},
  };
  return columns;
}

}  // namespace

std::string ColumnName(std::string_view name) {
  if (name.size() >= 3 && name.substr(0, 3) == "\xEF\xBB\xBF") name.remove_prefix(3);  // BOM
  const size_t bracket = name.find(" [");  // "TimeGenerated [UTC]"
  return std::string(name.substr(0, bracket));
}

LaHeader ReadLaHeader(const CsvRecordReader& csv) {
  LaHeader h;
  h.field_of_column.assign(csv.size(), -1);
  int record_columns = 0;
  for (size_t i = 0; i < csv.size(); ++i) {
    const std::string name = ColumnName(csv.field(i));
    auto it = RecordColumns().find(name);
    if (it != RecordColumns().end()) {
      h.field_of_column[i] = int(it->second);
      ++record_columns;
    }
    if (name == "Message") h.message = int(i);
    if (name == "Detail") h.detail = int(i);
    if (name == "TimeGenerated") h.time = int(i);
    if (name == "Category") h.category = int(i);
  }
  if (record_columns >= 3 && h.field_of_column.size() &&
      std::count(h.field_of_column.begin(), h.field_of_column.end(), int(kMessage)) &&
      std::count(h.field_of_column.begin(), h.field_of_column.end(), int(kSeverity)))
    h.layout = LaLayout::kRecordColumns;
  else if (h.message >= 0 && h.detail >= 0)
    h.layout = LaLayout::kServerLogs;
  return h;
}

bool ParseLaHeaderLine(std::string_view line, LaHeader* h) {
  CsvRecordReader csv;
  if (csv.Feed(line) != CsvRecordReader::State::kComplete) return false;
  *h = ReadLaHeader(csv);
  return h->layout != LaLayout::kNone;
}

namespace {

constexpr char kSep = '\x1e';  // between packed fields (ASCII record separator)

}  // namespace

std::string PackRecordRow(const CsvRecordReader& csv, const LaHeader& h) {
  std::vector<std::string_view> fields(kFieldCount);
  for (size_t i = 0; i < csv.size() && i < h.field_of_column.size(); ++i)
    if (h.field_of_column[i] >= 0) fields[size_t(h.field_of_column[i])] = csv.field(i);
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out.push_back(kSep);
    out.append(fields[i]);
  }
  return out;
}

std::string_view PackedTime(std::string_view packed) { return packed.substr(0, packed.find(kSep)); }

namespace {

std::vector<std::string_view> Unpack(std::string_view packed) {
  std::vector<std::string_view> out;
  for (;;) {
    const size_t sep = packed.find(kSep);
    out.push_back(packed.substr(0, sep));
    if (sep == std::string_view::npos) break;
    packed.remove_prefix(sep + 1);
  }
  return out;
}

}  // namespace

LogRecord UnpackRecord(std::string_view packed, const std::string& file, uint64_t line_no) {
  std::vector<std::string_view> f = Unpack(packed);
  f.resize(kFieldCount);
  LogRecord r;
  r.source = {file, line_no, line_no, {}};
  r.time = f[kTime];
  r.pid = ParseNumber<int64_t>(f[kPid]);
  r.severity = CanonicalSeverity(f[kSeverity]);
  r.sqlstate = f[kSqlstate];
  r.message = f[kMessage];
  r.detail = f[kDetail];
  r.hint = f[kHint];
  r.context = f[kContext];
  r.statement = f[kStatement];
  SessionInfo& s = r.session;
  s.user = f[kUser];
  s.database = f[kDatabase];
  s.application = f[kApplication];
  s.host = f[kHost];
  s.session_id = f[kSessionId];
  s.session_line = ParseNumber<uint64_t>(f[kSessionLine]);
  s.command_tag = f[kCommandTag];
  s.vxid = f[kVxid];
  s.xid = ParseNumber<uint64_t>(f[kXid]);
  s.backend_type = f[kBackendType];
  s.query_id = ParseNumber<int64_t>(f[kQueryId]);
  return r;
}

}  // namespace lockgraph
