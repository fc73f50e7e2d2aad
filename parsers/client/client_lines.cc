// See client_lines.h. The edge sentence is the server's own (deadlock.c,
// DeadLockReport), as parsers/postgresql/messages.cc reads it.
#include "parsers/client/client_lines.h"

#include <re2/re2.h>

namespace lockgraph::client {
namespace {

bool Contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }
bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
re2::StringPiece Piece(std::string_view s) { return {s.data(), s.size()}; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

}  // namespace

bool IsDeadlockErrorLine(std::string_view line) {
  if (!Contains(line, "deadlock detected")) return false;  // most lines stop here
  static const RE2 kError(
      R"((?:ERROR|[Ee]rror|Exception|DeadlockDetected|pq)(?:\)|:)\s*deadlock detected)");
  return RE2::PartialMatch(Piece(line), kError);
}

bool IsDriverErrorLine(std::string_view line) {
  if (!IsDeadlockErrorLine(line)) return false;
  static constexpr std::string_view kForms[] = {
      "ERROR: deadlock detected", "Exception: ",    "DeadlockDetected", "Error: deadlock detected",
      "error: deadlock detected", "pq: deadlock",   "PG::",             "(SQLSTATE 40P01)"};
  for (std::string_view f : kForms)
    if (Contains(line, f)) return true;
  return false;
}

std::vector<std::string_view> FindEdgeTexts(std::string_view line) {
  std::vector<std::string_view> edges;
  if (!Contains(line, " waits for ")) return edges;
  static const RE2 kEdge(R"((Process \d+ waits for \S+ on [^;]+; blocked by process \d+\.))");
  re2::StringPiece rest = Piece(line);
  re2::StringPiece edge;
  while (RE2::FindAndConsume(&rest, kEdge, &edge)) edges.emplace_back(edge.data(), edge.size());
  return edges;
}

std::optional<LabelValue> FindLabel(std::string_view line) {
  static const RE2 kLabel(
      R"((?:^|[^A-Za-z_])(HINT|Hint|hint|CONTEXT|Context|context|WHERE|Where|where):\s*(.*))");
  re2::StringPiece label, value;
  if (!RE2::PartialMatch(Piece(line), kLabel, &label, &value)) return std::nullopt;
  std::string_view v = Trim(std::string_view(value.data(), value.size()));
  if (!v.empty() && v.back() == ',') v = Trim(v.substr(0, v.size() - 1));  // a printed object
  if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
    v = v.substr(1, v.size() - 2);
  if (v.empty() || v == "undefined" || v == "None" || v == "null") return std::nullopt;
  LabelValue out;
  char first = label.data()[0];
  out.label = (first == 'H' || first == 'h') ? LabelValue::Label::kHint : LabelValue::Label::kContext;
  out.value = std::string(v);
  return out;
}

bool IsPytestSummaryLine(std::string_view line) {
  return (StartsWith(line, "FAILED ") || StartsWith(line, "ERROR ")) && Contains(line, "::") &&
         Contains(line, " - ");
}

bool IsPytestSessionStart(std::string_view line) {
  return StartsWith(line, "=") && Contains(line, " test session starts ");
}

bool HasDriverMarker(std::string_view line) {
  static constexpr std::string_view kMarkers[] = {
      "PSQLException",    "psycopg2.",         "psycopg.errors",  "asyncpg.exceptions",
      "PG::",             "django.db.utils",   "sqlalchemy.exc",  "SQLSTATE",
      "40P01",            "pq: ",              "DeadlockDetected"};
  for (std::string_view m : kMarkers)
    if (Contains(line, m)) return true;
  return IsDeadlockErrorLine(line) || !FindEdgeTexts(line).empty();
}

}  // namespace lockgraph::client
