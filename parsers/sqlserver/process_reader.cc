// See process_reader.h.
#include "parsers/sqlserver/process_reader.h"

#include <charconv>
#include <cstring>
#include <string_view>

namespace lockgraph {
namespace {

std::optional<int64_t> Number(std::string_view s) {
  int64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// Reads one typed attribute into `p`; false when `name` is not a typed one.
bool ReadTyped(std::string_view name, std::string_view value, Participant* p) {
  if (name == "id") p->id = std::string(value);
  else if (name == "spid") p->spid = Number(value);
  else if (name == "ecid") p->ecid = Number(value);
  else if (name == "isolationlevel") p->isolation_level = std::string(value);
  else if (name == "lockMode") p->wait_mode = std::string(value);
  else if (name == "waitresource") p->wait_resource = TrimText(value);
  else if (name == "waittime") p->wait_ms = Number(value);
  else if (name == "transactionname") p->transaction_name = std::string(value);
  else if (name == "logused") p->log_used = Number(value);
  else if (name == "loginname") p->session.user = std::string(value);
  else if (name == "hostname") p->session.host = std::string(value);
  else if (name == "clientapp") p->session.application = std::string(value);
  else if (name == "currentdbname") p->session.database = std::string(value);
  else return false;
  return true;
}

ContextFrame ReadFrame(const pugi::xml_node& frame) {
  ContextFrame f;
  f.kind = ContextFrame::Kind::kFunction;
  f.function = frame.attribute("procname").value();
  if (auto line = Number(frame.attribute("line").value())) f.line = int(*line);
  f.statement = TrimText(frame.child_value());
  return f;
}

}  // namespace

std::string TrimText(std::string_view s) {
  constexpr const char* kSpace = " \t\r\n";
  size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(kSpace);
  return std::string(s.substr(b, e - b + 1));
}

Participant ReadSqlServerProcess(const pugi::xml_node& process) {
  Participant p;
  for (const pugi::xml_attribute& a : process.attributes()) {
    std::string_view name = a.name(), value = a.value();
    if (!ReadTyped(name, value, &p))
      p.attributes.push_back({std::string(name), std::string(value), false});
  }
  for (const pugi::xml_node& frame : process.child("executionStack").children("frame"))
    p.frames.push_back(ReadFrame(frame));
  p.query = TrimText(process.child_value("inputbuf"));
  return p;
}

}  // namespace lockgraph
