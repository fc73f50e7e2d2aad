// See rule_text.h.
#include "rules/rule_text.h"

#include <cstdio>

namespace lockgraph::pg_rules {

std::string OneLine(std::string_view text, size_t max) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > max) {
    size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xc0) == 0x80) --cut;
    out = out.substr(0, cut) + "...";
  }
  return out;
}

namespace {

std::string Span(uint64_t first_line, uint64_t last_line) {
  std::string out = std::to_string(first_line);
  if (last_line > first_line) out += "-" + std::to_string(last_line);
  return out;
}

std::string Span(const SourceSpan& s) { return Span(s.first_line, s.last_line); }

}  // namespace

std::string Lines(const Event& event) {
  return (event.source.last_line > event.source.first_line ? "lines " : "line ") +
         Span(event.source);
}

std::string Where(const Event& event) { return event.source.file + ":" + Span(event.source); }

std::string Where(const std::string& file, uint64_t first_line, uint64_t last_line) {
  return file + ":" + Span(first_line, last_line);
}

std::string EdgeText(const WaitEdge& e) {
  return e.waiter + " waits for " + e.mode + " on " + e.lock.Label() + ", blocked by " + e.blocker;
}

std::string Seconds(const std::optional<double>& ms) {
  if (!ms) return "?";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", *ms / 1000);
  return buf;
}

std::vector<std::string> CycleEvidence(const Event& event) {
  std::vector<std::string> out{Lines(event) + ": deadlock detected, victim " +
                               event.deadlock->victim};
  const auto& edges = event.deadlock->edges;
  for (size_t i = 0; i < edges.size(); ++i)
    out.push_back("edge " + std::to_string(i + 1) + ": " + EdgeText(edges[i]));
  return out;
}

std::string JoinIds(const std::vector<std::string>& ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) s += i + 1 == ids.size() ? " and " : ", ";
    s += ids[i];
  }
  return s;
}

bool HasStatement(const Participant& p) {
  std::string_view q = p.query;
  while (!q.empty() && (q.front() == ' ' || q.front() == '\t' || q.front() == '\n')) q.remove_prefix(1);
  return !q.empty() && q.front() != '<';
}

std::string ProcessEvidence(const ProcessFacts& p, const Deadlock& d) {
  const std::string& id = p.participant->id;
  return "process " + id + (id == d.victim ? " (victim)" : "") + ": " +
         OneLine(p.participant->query, 160) + (p.clipped ? " [clipped]" : "");
}

}  // namespace lockgraph::pg_rules
