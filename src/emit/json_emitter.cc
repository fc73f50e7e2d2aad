// --format json: one document, schema_version first, summary last.
#include "emit/emitter.h"
#include "emit/event_json.h"

namespace lockgraph {
namespace {

class JsonEmitter : public Emitter {
 public:
  std::string Name() const override { return "json"; }
  std::string Description() const override {
    return "one JSON document (docs/json-schema.md)";
  }
  void Write(const Report& report, std::ostream& out) override {
    nlohmann::ordered_json doc;
    doc["schema_version"] = kSchemaVersion;
    doc["tool"] = {{"name", "lockgraph"}, {"version", LOCKGRAPH_VERSION}};
    doc["inputs"] = InputsToJson(report.inputs);
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    for (const Event& ev : report.events) events.push_back(EventToJson(ev));
    doc["events"] = std::move(events);
    if (!report.unparsed.empty()) {
      nlohmann::ordered_json lines = nlohmann::ordered_json::array();
      for (const UnparsedLine& u : report.unparsed)
        lines.push_back({{"file", u.file}, {"line", u.line}, {"text", u.text}});
      doc["unparsed"] = std::move(lines);
    }
    doc["summary"] = SummaryToJson(report.summary);
    out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
  }
};

}  // namespace

std::unique_ptr<Emitter> MakeJsonEmitter() { return std::make_unique<JsonEmitter>(); }

}  // namespace lockgraph
