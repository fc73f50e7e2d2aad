// See log_series.h.
#include "io/log_series.h"

#include <utility>

#include <re2/re2.h>

namespace lockgraph {
namespace {

/// Takes the tail that `re` (a group for what stays, then the tail)
/// matches off *name; false when it does not match.
bool TakeTail(std::string* name, const RE2& re) {
  std::string rest;
  if (!RE2::FullMatch(*name, re, &rest)) return false;
  *name = std::move(rest);
  return true;
}

}  // namespace

std::string LogSeriesName(std::string_view path) {
  if (path == "-") return "-";
  const size_t slash = path.rfind('/');
  const std::string dir(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1));
  std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
  static const RE2 kCompressed(R"((.+)\.(?:gz|bz2|xz|zst|lz4|Z))");
  static const RE2 kRotated(R"((.+)(?:\.\d{1,3}|-\d{8}(?:\d{2})?|-\d{4}-\d{2}-\d{2}))");
  static const RE2 kExtension(R"((.+)\.(?:log|csv|json|txt))");
  while (TakeTail(&name, kCompressed) || TakeTail(&name, kRotated)) {
  }
  TakeTail(&name, kExtension);
  // Dates with an optional time, 10-digit epochs, weekday and month names.
  static const RE2 kDate(
      R"(\d{4}-?\d{2}-?\d{2}(?:[T_ -]?\d{2}(?::?\d{2}){0,2})?|\b\d{10}\b|)"
      R"(\b(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs)?|Fri|Sat(?:ur)?|Sun)(?:day)?\b|)"
      R"(\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b)");
  RE2::GlobalReplace(&name, kDate, "*");
  return dir + name;
}

}  // namespace lockgraph
