// --format json: one document, schema_version first, then inputs, events,
// deadlock groups, run-level findings, and the summary last. Written
// event by event (each dumped and indented on its own), so that no JSON tree
// of the whole report is ever built; the layout is nlohmann's indent of 2.
// Under `analyze` each event is rendered when it is made and kept in an
// EventSpool (spilled to a temporary file past 1 MiB), not as an Event, so
// memory stays flat on logs of any size.
#include <iostream>

#include "emit/check_report.h"
#include "emit/emitter.h"
#include "emit/event_spool.h"
#include "emit/event_json.h"
#include "emit/findings_json.h"

namespace lockgraph {
namespace {

class JsonEmitter : public Emitter {
 public:
  std::string Name() const override { return "json"; }
  std::string Description() const override {
    return "one JSON document (docs/json-schema.md)";
  }
  bool KeepsOwnEvents() const override { return true; }
  void OnInputStart(size_t input) override { input_ = uint32_t(input); }
  void OnEvent(const Event& ev, std::ostream&) override {
    spool_.Add(input_, ev.source.first_line, EventJsonText(ev, 2, 4));
  }

  void Write(const Report& report, std::ostream& out) override {
    nlohmann::ordered_json tool = {{"name", "lockgraph"}, {"version", LOCKGRAPH_VERSION}};
    out << "{\n  \"schema_version\": " << kSchemaVersion << ",\n  \"tool\": " << DumpJsonAt(tool, 2)
        << ",\n  \"inputs\": " << DumpJsonAt(InputsToJson(report.inputs), 2);
    if (!report.failed_inputs.empty()) {
      nlohmann::ordered_json failed = nlohmann::ordered_json::array();
      for (const FailedInput& f : report.failed_inputs) failed.push_back({{"file", f.file}, {"error", f.error}});
      out << ",\n  \"failed_inputs\": " << DumpJsonAt(failed, 2);
    }
    out << ",\n  \"events\": [";
    bool first = true;
    auto write_event = [&](std::string_view text) {
      out << (first ? "\n    " : ",\n    ") << text;
      first = false;
    };
    // Events come from the spool when OnEvent filled it (`analyze`), else
    // from the report (callers that collect events): never both.
    if (spool_.size() == 0) {
      for (const Event& ev : report.events) write_event(EventJsonText(ev, 2, 4));
    } else if (!spool_.ForEachSorted(write_event)) {
      std::cerr << "lockgraph: cannot read back the events kept in a temporary file\n";
    }
    out << (first ? "]" : "\n  ]");
    if (!report.unparsed.empty()) {
      nlohmann::ordered_json lines = nlohmann::ordered_json::array();
      for (const UnparsedLine& u : report.unparsed)
        lines.push_back({{"file", u.file}, {"line", u.line}, {"text", u.text}});
      out << ",\n  \"unparsed\": " << DumpJsonAt(lines, 2);
    }
    if (!report.diagnostics.empty())
      out << ",\n  \"diagnostics\": " << DumpJsonAt(DiagnosticsToJson(report.diagnostics), 2);
    out << ",\n  \"causes\": " << DumpJsonAt(CausesToJson(report.causes), 2);
    out << ",\n  \"groups\": " << DumpJsonAt(GroupsToJson(report.groups), 2);
    out << ",\n  \"findings\": " << DumpJsonAt(FindingsToJson(report.findings), 2);
    if (check_) {
      out << ",\n  \"check\": ";
      WriteCheckJson(*check_, report, 2, out);
    }
    out << ",\n  \"summary\": " << DumpJsonAt(SummaryToJson(report.summary), 2) << "\n}\n";
  }

 private:
  EventSpool spool_;
  uint32_t input_ = 0;
};

}  // namespace

std::unique_ptr<Emitter> MakeJsonEmitter() { return std::make_unique<JsonEmitter>(); }

}  // namespace lockgraph
