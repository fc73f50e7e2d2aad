// See cause_text.h.
#include "emit/cause_text.h"

#include <unordered_map>

#include "emit/text_findings.h"
#include "emit/text_safety.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

std::string Where(const SourceSpan& s) {
  std::string w = s.file + ":" + std::to_string(s.first_line);
  if (s.last_line > s.first_line) w += "-" + std::to_string(s.last_line);
  return PrintableText(w);
}

}  // namespace

void WriteCausesText(const Report& report, bool color, std::ostream& out) {
  uint64_t deadlocks = 0;
  for (const DeadlockCause& c : report.causes) deadlocks += c.count;
  if (deadlocks < 2) return;
  std::unordered_map<std::string, uint64_t> group_count;
  for (const DeadlockGroup& g : report.groups) group_count[g.signature] = g.count;
  std::string title = "deadlock causes";
  out << (color ? "\x1b[1m" + title + "\x1b[0m" : title) << ": "
      << Plural(report.causes.size(), "cause", "causes") << " of "
      << Plural(deadlocks, "deadlock", "deadlocks") << '\n';
  int no = 0;
  for (const DeadlockCause& c : report.causes) {
    out << "  cause " << ++no << ": " << Plural(c.count, "deadlock", "deadlocks") << ", "
        << (c.rule.empty() ? std::string("no rule fired") : "rule " + c.rule) << ", "
        << Plural(c.signatures.size(), "shape", "shapes") << " (cause " << c.id << ")\n";
    out << "    first " << PrintableText(c.first_time) << " (" << Where(c.first_source)
        << "), last " << PrintableText(c.last_time) << " (" << Where(c.last_source) << ")\n";
    for (const std::string& s : c.statements)
      out << "    statement: "
          << WrapText(PrintableText(s.empty() ? "(not in the log)" : s), 100, "      ", 15) << '\n';
    std::string shapes;
    for (const std::string& sig : c.signatures)
      shapes += (shapes.empty() ? "" : ", ") + sig + " x" + std::to_string(group_count[sig]);
    out << "    shapes: " << WrapText(shapes, 100, "      ", 12) << '\n';
  }
  out << '\n';
}

std::vector<DeadlockGroup> GroupsByCause(const Report& report) {
  std::unordered_map<std::string, size_t> rank;
  for (size_t i = 0; i < report.causes.size(); ++i) rank.emplace(report.causes[i].id, i);
  std::vector<std::vector<DeadlockGroup>> by_cause(report.causes.size() + 1);
  for (const DeadlockGroup& g : report.groups) {
    auto it = rank.find(g.cause);
    by_cause[it == rank.end() ? report.causes.size() : it->second].push_back(g);
  }
  std::vector<DeadlockGroup> out;
  for (auto& v : by_cause)
    for (DeadlockGroup& g : v) out.push_back(std::move(g));
  return out;
}

}  // namespace lockgraph
