// Text output of rule findings and deadlock groups: the pieces the text
// emitter prints under each event and before the summary. Log text in
// findings goes through PrintableText (src/emit/text_safety.h).
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/report.h"

namespace lockgraph {

/// Words of `text` in lines of at most `width` bytes (a longer word gets a
/// line of its own), counting `first_used` bytes already on the first line;
/// lines after the first start with `indent` (counted too).
std::string WrapText(std::string_view text, size_t width, const std::string& indent,
                     size_t first_used = 0);

/// `indent` + `title` + ":" then, per finding, "  PG001 error name: message"
/// and the hint wrapped under it. Nothing when `findings` is empty. With
/// `color`, the severity is painted.
void WriteFindingsText(const std::vector<Finding>& findings, const std::string& indent,
                       const std::string& title, bool color, std::ostream& out);

/// The header of a group of more than one deadlock: count, signature,
/// first and last seen, the rules that fired.
void WriteGroupHeader(const DeadlockGroup& group, int group_no, bool color, std::ostream& out);

/// The findings of a run counted by rule and by severity, event by event,
/// for the summary line (the events need not be kept).
class FindingCounts {
 public:
  void Add(const std::vector<Finding>& findings);
  /// "findings: 3 errors, 1 warning (PG001 2, PG009 1, ...)"; nothing when
  /// there are none.
  void Write(std::ostream& out) const;

 private:
  std::map<std::string, int> by_rule_;
  int by_severity_[3] = {0, 0, 0};
};

}  // namespace lockgraph
