// The plug-in point for output formats: one file per emitter plus one line
// in RegisterBuiltinEmitters() (src/emit/registry.cc). Emitters write to a
// std::ostream, deterministically: sorted events, stable ids, no clock.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "gate/check_result.h"

namespace lockgraph {

struct EmitOptions {
  bool color = false;  // ANSI colour in text output (never with NO_COLOR)
};

/// Which events an emitter's Write reads (Emitter::NeedsEvents).
enum class EventNeeds {
  kAll,
  /// Each deadlock group's example (its first deadlock in log order) and
  /// the events with findings that are not deadlocks (sarif, github and
  /// codequality did so before they rendered those at OnEvent).
  kExamplesAndFindings,
  /// Each deadlock group's example only (junit; sarif, github, codequality
  /// with RendersOnEvent()).
  kExamples,
};

class Emitter {
 public:
  virtual ~Emitter() = default;
  /// The --format name.
  virtual std::string Name() const = 0;
  virtual std::string Description() const = 0;
  /// True when events are written as they come (OnEvent), so that
  /// `tail -F log | lockgraph analyze --format ndjson -` works.
  virtual bool Streams() const { return false; }
  /// True when the emitter keeps what it needs of each event itself (from
  /// OnEvent, without writing), so the caller need not keep the events in
  /// Report::events: memory stays flat (json, with an EventSpool).
  virtual bool KeepsOwnEvents() const { return false; }
  /// What Write reads of Report::events without a check verdict (set_check
  /// not called); analyze keeps only that. kAll by default.
  virtual EventNeeds NeedsEvents() const { return EventNeeds::kAll; }
  /// True when OnEvent renders, into an EventSpool, what Write prints of
  /// every event but the deadlock groups' examples, which Write reads from
  /// Report::events (sarif, github, codequality: NeedsEvents() kExamples).
  /// The caller then hands every event to OnEvent too. When OnEvent saw no
  /// event (check, callers that collect every event), Write renders them
  /// all from Report::events.
  virtual bool RendersOnEvent() const { return false; }
  virtual void OnEvent(const Event& event, std::ostream& out) {}
  /// `check`: every event of the finished report, in log order, relation
  /// names given and paths relocated as in `report`, after set_check and
  /// before Write, which then finds only each deadlock group's example in
  /// Report::events (src/app/put_aside_events.h). By default OnEvent.
  virtual void OnCheckedEvent(const Event& event, const Report& report, std::ostream& out) {
    OnEvent(event, out);
  }
  virtual void OnInputStart(size_t input) {}
  /// True when queries are redacted unless --no-redact (formats that are
  /// uploaded: sarif, junit).
  virtual bool RedactsByDefault() const { return false; }
  /// Writes the whole report (streaming emitters: only what is left).
  virtual void Write(const Report& report, std::ostream& out) = 0;
  void set_options(const EmitOptions& options) { options_ = options; }
  /// What `lockgraph check` decided (gate/), read by Write; null (analyze)
  /// when there is no verdict. The caller keeps it alive.
  void set_check(const CheckResult* check) { check_ = check; }
  /// The absolute root the input paths are relative to (check:
  /// --source-root, src/emit/source_paths.h); sarif names it in
  /// originalUriBaseIds. Empty (the default, analyze): not known.
  void set_source_root(const std::string& root) { source_root_ = root; }

 protected:
  EmitOptions options_;
  const CheckResult* check_ = nullptr;
  std::string source_root_;
};

std::unique_ptr<Emitter> MakeTextEmitter();
std::unique_ptr<Emitter> MakeJsonEmitter();
std::unique_ptr<Emitter> MakeNdjsonEmitter();
std::unique_ptr<Emitter> MakeDotEmitter();
std::unique_ptr<Emitter> MakeSarifEmitter();
std::unique_ptr<Emitter> MakeJunitEmitter();
std::unique_ptr<Emitter> MakeGithubEmitter();
std::unique_ptr<Emitter> MakeCodeQualityEmitter();
std::unique_ptr<Emitter> MakeHtmlEmitter();
std::unique_ptr<Emitter> MakePrometheusEmitter();

/// Every builtin emitter, in the order `--help` lists them.
std::vector<std::unique_ptr<Emitter>> RegisterBuiltinEmitters();

}  // namespace lockgraph
