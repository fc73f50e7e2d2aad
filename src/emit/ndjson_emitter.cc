// --format ndjson: one event per line as it is made (with its findings and
// signature), then a summary line with the deadlock groups and run findings.
#include "emit/check_report.h"
#include "emit/emitter.h"
#include "emit/event_json.h"
#include "emit/findings_json.h"

namespace lockgraph {
namespace {

class NdjsonEmitter : public Emitter {
 public:
  std::string Name() const override { return "ndjson"; }
  std::string Description() const override {
    return "one JSON event per line as the input streams, then a summary line";
  }
  bool Streams() const override { return true; }
  void OnEvent(const Event& event, std::ostream& out) override {
    out << EventJsonText(event, -1, 0) << '\n';
    out.flush();  // `tail -F | lockgraph ... | next-tool` sees events at once
  }
  void Write(const Report& report, std::ostream& out) override {
    nlohmann::ordered_json j = {{"type", "summary"}};
    nlohmann::ordered_json summary = SummaryToJson(report.summary);
    for (auto& [key, value] : summary.items()) j[key] = value;
    j["causes"] = CausesToJson(report.causes);
    j["groups"] = GroupsToJson(report.groups);
    j["findings"] = FindingsToJson(report.findings);
    const std::string text = DumpJson(j, -1);
    if (!check_) return void(out << text << '\n');
    // "check" comes last, written a long wait at a time.
    out << std::string_view(text).substr(0, text.size() - 1) << ",\"check\":";
    WriteCheckJson(*check_, report, -1, out);
    out << "}\n";
  }
};

}  // namespace

std::unique_ptr<Emitter> MakeNdjsonEmitter() { return std::make_unique<NdjsonEmitter>(); }

}  // namespace lockgraph
