// The columns of Azure Log Analytics CSV exports of PostgreSQL logs
// (reference platforms.md §1.5): which table a header belongs to, and the
// csvlog fields of an AzureDiagnostics row (record_*_s columns), packed into
// one string so that rows can wait in an EntryOrderer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/log_record.h"
#include "parsers/postgresql/csv_record_reader.h"

namespace lockgraph {

enum class LaLayout {
  kNone,
  kRecordColumns,  // AzureDiagnostics: record_message_s, record_error_severity_s, ...
  kServerLogs,     // PGSQLServerLogs: Message (stderr line with prefix), Detail, ...
};

/// Where the columns of one export are. Copyable.
struct LaHeader {
  LaLayout layout = LaLayout::kNone;
  std::vector<int> field_of_column;  // per column: the packed field it fills, or -1
  int message = -1, detail = -1, time = -1, category = -1;  // PGSQLServerLogs columns
};

/// "TimeGenerated [UTC]" -> "TimeGenerated"; a UTF-8 BOM dropped.
std::string ColumnName(std::string_view name);
/// The layout of the header record `csv` holds.
LaHeader ReadLaHeader(const CsvRecordReader& csv);
/// True when `line` is a whole header line of a known layout.
bool ParseLaHeaderLine(std::string_view line, LaHeader* h);

/// The csvlog fields of an AzureDiagnostics row, packed.
std::string PackRecordRow(const CsvRecordReader& csv, const LaHeader& h);
/// The log time of a packed row.
std::string_view PackedTime(std::string_view packed);
/// The record of a packed row; severity canonical, numbers parsed.
LogRecord UnpackRecord(std::string_view packed, const std::string& file, uint64_t line_no);

}  // namespace lockgraph
