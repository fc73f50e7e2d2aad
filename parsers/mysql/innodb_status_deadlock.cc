// See innodb_status_deadlock.h.
#include "parsers/mysql/innodb_status_deadlock.h"

#include "parsers/mysql/innodb_reader.h"

namespace lockgraph {
namespace {

bool DashLine(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  return s.size() >= 4 && s.find_first_not_of('-') == std::string_view::npos;
}

class Collect : public ParseSink {
 public:
  void OnEvent(Event&& event) override {
    if (event.deadlock) events.push_back(std::move(event));
  }
  void OnUnparsed(const std::string&, uint64_t, std::string_view) override {}
  void OnDiagnostic(Diagnostic&&) override {}
  std::vector<Event> events;
};

}  // namespace

std::string LatestDeadlockSection(std::string_view status) {
  constexpr std::string_view kTitle = "LATEST DETECTED DEADLOCK";
  size_t at = status.find(kTitle);
  while (at != std::string_view::npos && at > 0 && status[at - 1] != '\n')
    at = status.find(kTitle, at + 1);
  if (at == std::string_view::npos) return "";
  size_t pos = status.find('\n', at);
  if (pos == std::string_view::npos) return std::string(status.substr(at));
  ++pos;
  // The dash line under the title belongs to the section.
  size_t eol = status.find('\n', pos);
  if (DashLine(status.substr(pos, eol - pos)) && eol != std::string_view::npos) pos = eol + 1;
  while (pos < status.size()) {
    eol = status.find('\n', pos);
    std::string_view line = status.substr(pos, eol == std::string_view::npos ? eol : eol - pos);
    if (DashLine(line)) return std::string(status.substr(at, pos - at));
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
  return std::string(status.substr(at));
}

std::vector<Event> ReadInnodbDeadlocks(std::string_view section, const std::string& file) {
  Collect sink;
  InnodbReader reader(file, sink);
  uint64_t line_no = 0;
  size_t pos = 0;
  while (pos < section.size()) {
    size_t eol = section.find('\n', pos);
    std::string_view line = section.substr(pos, eol == std::string_view::npos ? eol : eol - pos);
    reader.ParseLine(line, ++line_no);
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
  reader.Finish();
  return std::move(sink.events);
}

}  // namespace lockgraph
