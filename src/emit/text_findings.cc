// See text_findings.h.
#include "emit/text_findings.h"

#include "emit/text_safety.h"

namespace lockgraph {
namespace {

constexpr size_t kWidth = 100;

const char* SeverityColor(Severity s) {
  switch (s) {
    case Severity::kError: return "1;31";
    case Severity::kWarning: return "1;33";
    case Severity::kNote: return "1;36";
  }
  return "1";
}

std::string Paint(bool color, const char* code, const std::string& s) {
  return color ? std::string("\x1b[") + code + "m" + s + "\x1b[0m" : s;
}

std::string Where(const SourceSpan& s) {
  std::string w = s.file + ":" + std::to_string(s.first_line);
  if (s.last_line > s.first_line) w += "-" + std::to_string(s.last_line);
  return PrintableText(w);
}

}  // namespace

std::string WrapText(std::string_view text, size_t width, const std::string& indent,
                     size_t first_used) {
  std::string out;
  size_t line = first_used;  // bytes on the current line
  bool empty_line = true;    // no word on it yet
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n')) ++i;
    size_t end = text.find_first_of(" \n", i);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(i, end - i);
    if (word.empty()) break;
    if (!empty_line && line + 1 + word.size() > width) {
      out += "\n" + indent;
      line = indent.size();
    } else if (!empty_line) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
    empty_line = false;
    i = end;
  }
  return out;
}

void WriteFindingsText(const std::vector<Finding>& findings, const std::string& indent,
                       const std::string& title, bool color, std::ostream& out) {
  if (findings.empty()) return;
  out << indent << Paint(color, "1", title) << ":\n";
  const std::string inner = indent + "  ";
  const std::string hint_indent = inner + "        ";
  for (const Finding& f : findings) {
    std::string head = f.rule_id + " " + SeverityName(f.severity);
    size_t used = inner.size() + head.size() + f.rule_name.size() + 3;
    out << inner << Paint(color, SeverityColor(f.severity), head) << " " << f.rule_name << ": "
        << WrapText(PrintableText(f.message), kWidth, inner + "  ", used) << '\n';
    if (!f.hint.empty())
      out << inner << "  hint: "
          << WrapText(PrintableText(f.hint), kWidth, hint_indent, inner.size() + 8) << '\n';
  }
}

void WriteGroupHeader(const DeadlockGroup& g, int group_no, bool color, std::ostream& out) {
  out << Paint(color, "1;35", "deadlock group " + std::to_string(group_no)) << ": " << g.count
      << " deadlocks of one shape, signature " << g.signature
      << (g.cause.empty() ? "" : ", cause " + g.cause) << '\n';
  out << "  first " << PrintableText(g.first_time) << " (" << Where(g.first_source) << "), last "
      << PrintableText(g.last_time) << " (" << Where(g.last_source) << ")\n";
  std::string rules;
  for (const std::string& r : g.rules) rules += (rules.empty() ? "" : ", ") + r;
  out << "  rules: " << (rules.empty() ? "none fired" : rules) << '\n';
  out << "  the first one:\n";
}

void FindingCounts::Add(const std::vector<Finding>& findings) {
  for (const Finding& f : findings) {
    ++by_rule_[f.rule_id];
    ++by_severity_[static_cast<int>(f.severity)];
  }
}

void FindingCounts::Write(std::ostream& out) const {
  if (by_rule_.empty()) return;
  static constexpr Severity kOrder[] = {Severity::kError, Severity::kWarning, Severity::kNote};
  std::string sev, rules;
  for (Severity s : kOrder) {
    int n = by_severity_[static_cast<int>(s)];
    if (n) sev += (sev.empty() ? "" : ", ") + std::to_string(n) + " " + SeverityName(s) + (n > 1 ? "s" : "");
  }
  for (const auto& [id, n] : by_rule_) rules += (rules.empty() ? "" : ", ") + id + " " + std::to_string(n);
  out << "findings: " << sev << " (" << rules << ")\n";
}

}  // namespace lockgraph
