// See prefix_redetect.h.
#include "parsers/postgresql/prefix_redetect.h"

#include <optional>

#include "parsers/postgresql/labels.h"

namespace lockgraph {
namespace {

constexpr const char* kCatchAll = "%*";

}  // namespace

bool PrefixRedetector::MayTry(std::string_view line, const PrefixMatcher& current) {
  if (current.prefix() == kCatchAll || line.empty() || line[0] == ' ' || line[0] == '\t')
    return false;
  std::string_view word;
  return FindLabelStart(line, &word) != std::string_view::npos && LookupLabel(word);
}

std::unique_ptr<PrefixMatcher> PrefixRedetector::Retry(std::string_view line,
                                                       const PrefixMatcher& current,
                                                       std::string* note) {
  if (!tries_left_ || !MayTry(line, current)) return nullptr;
  --tries_left_;
  sample_.emplace_back(line);
  std::optional<std::string> prefix = DetectPrefix(sample_, nullptr);
  std::string error;
  std::unique_ptr<PrefixMatcher> m;
  PrefixedLine out;
  if (prefix && *prefix != current.prefix() && *prefix != kCatchAll)
    m = PrefixMatcher::Compile(*prefix, &error);
  if (!m || !m->Match(line, &out, nullptr)) {
    sample_.pop_back();  // fits no prefix: not evidence for the next try
    return nullptr;
  }
  *note = "log_line_prefix '" + *prefix + "' from this line on: '" + current.prefix() +
          "', detected on the first lines (startup messages only?), does not fit it";
  return m;
}

}  // namespace lockgraph
