// See check_report.h.
#include "emit/check_report.h"

#include "emit/event_json.h"
#include "emit/hole_text.h"
#include "emit/text_safety.h"

namespace lockgraph {

namespace {

nlohmann::ordered_json LongWaitJson(const CheckResult& c, const LongWait& w) {
  const Event ev = c.event(w.event);
  return {{"key", w.key}, {"waited_ms", w.waited_ms}, {"known", w.known},
          {"file", ev.source.file}, {"first_line", ev.source.first_line}};
}

// CheckToJson with `waits` as its long waits.
nlohmann::ordered_json CheckJson(const CheckResult& c, const Report& report,
                                 nlohmann::ordered_json waits) {
  nlohmann::ordered_json fresh = nlohmann::ordered_json::array();
  for (const DeadlockGroup& g : report.groups)
    if (c.IsNew(g.signature)) fresh.push_back(g.signature);
  nlohmann::ordered_json j = {{"passed", !c.Failed()},
                              {"broken", c.broken},
                              {"new_deadlocks", c.new_deadlocks},
                              {"known_deadlocks", c.known_deadlocks},
                              {"new_signatures", std::move(fresh)},
                              {"long_waits", std::move(waits)},
                              {"fail_on", c.fail_on}};
  if (c.has_baseline) {
    j["baseline"] = c.baseline_file;
    j["stale"] = c.stale;
  }
  return j;
}

std::string Dump(const nlohmann::ordered_json& j, int depth) {
  return depth < 0 ? DumpJson(j, -1) : DumpJsonAt(j, unsigned(depth));
}

}  // namespace

nlohmann::ordered_json CheckToJson(const CheckResult& c, const Report& report) {
  nlohmann::ordered_json waits = nlohmann::ordered_json::array();
  for (const LongWait& w : c.long_waits) waits.push_back(LongWaitJson(c, w));
  return CheckJson(c, report, std::move(waits));
}

void WriteCheckJson(const CheckResult& c, const Report& report, int depth, std::ostream& out) {
  // The object with a hole for the long waits, found with its key (a quote
  // inside a string value is escaped: hole_text.h), then the array an
  // element at a time, laid out as nlohmann lays out a member array.
  const std::string text = Dump(CheckJson(c, report, kJsonHoleValue), depth);
  const std::string key = depth < 0 ? "\"long_waits\":" : "\"long_waits\": ";
  const std::string hole = key + Dump(nlohmann::ordered_json(kJsonHoleValue), -1);
  const size_t at = text.find(hole);
  if (at == std::string::npos) return void(out << Dump(CheckToJson(c, report), depth));  // never so
  out << std::string_view(text).substr(0, at) << key;
  if (c.long_waits.empty()) {
    out << "[]";
  } else {
    const std::string member(depth < 0 ? 0 : size_t(depth) + 2, ' ');
    const std::string element(depth < 0 ? 0 : size_t(depth) + 4, ' ');
    const char* newline = depth < 0 ? "" : "\n";
    out << '[' << newline;
    for (size_t i = 0; i < c.long_waits.size(); ++i)
      out << (i ? "," : "") << (i ? newline : "") << element
          << Dump(LongWaitJson(c, c.long_waits[i]), depth < 0 ? -1 : depth + 4);
    out << newline << member << ']';
  }
  out << std::string_view(text).substr(at + hole.size());
}

void WriteCheckText(const CheckResult& c, std::ostream& out) {
  out << "check: " << (c.Failed() ? "FAIL" : "ok") << '\n';
  for (const std::string& b : c.broken) out << "  broken: " << PrintableText(b) << '\n';
  if (c.has_baseline)
    out << "  baseline " << PrintableText(c.baseline_file) << ": " << c.known_deadlocks
        << " known deadlocks, " << c.new_deadlocks << " new\n";
  for (const std::string& s : c.stale) out << "  no longer seen: " << PrintableText(s) << '\n';
}

}  // namespace lockgraph
