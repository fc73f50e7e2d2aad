// Runs inputs through format sniffing and parsing and collects a Report.
// Not thread-safe. Errors are returned as data, never thrown.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "analysis/event_time.h"
#include "analysis/relation_map.h"
#include "analysis/repeats.h"
#include "analysis/report.h"
#include "parsers/framing/framed_parser.h"
#include "parsers/input_format.h"
#include "rules/rule_engine.h"

namespace lockgraph {

class LineReader;
class SinkThread;

struct AnalyzeOptions {
  std::string input_format;       // --input-format; empty: sniff
  ParseOptions parse;
  size_t keep_unparsed = 0;       // how many unparsed lines to keep (--show-unparsed)
  bool collect_events = true;     // false when only streaming (ndjson)
  /// With collect_events: keep of the deadlocks only each signature's first
  /// (in log order: the group's example), and of the other events those
  /// with findings when `keep_findings`, none otherwise; what the CI
  /// formats read without a check (Emitter::NeedsEvents).
  bool examples_only = false;
  bool keep_findings = true;
  RuleSelection rules;            // --rules, --disable, --max-wait (checked by the caller)
  bool redact = false;            // --redact: literals in queries become "?" (analysis/redact.h)
  /// --threads: 1 parses and analyses on one thread; 2 or more hands each
  /// event to a second thread (rules, fingerprints, rendering) while the
  /// parser reads on (app/sink_thread.h).
  unsigned threads = 1;
  /// --timezone: the zone of times written without one (IANA name or
  /// offset; empty: UTC). Checked by the caller (TimeResolver::Make).
  std::string timezone;
  /// --since / --until: only events whose time falls in [since, until)
  /// are kept, microseconds since 1970 (analysis/event_time.h).
  std::optional<int64_t> since_us, until_us;
};

class Analyzer : public ParseSink {
 public:
  /// `stream` may be null; when set it sees every event as it is made.
  Analyzer(AnalyzeOptions options, EventStream* stream);

  /// Reads one input ("-" = stdin). Returns false and sets *error for an
  /// unreadable input or an unknown format (the message names the formats
  /// and --input-format).
  bool AnalyzeInput(const std::string& path, std::string* error);

  /// Inputs read so far, also those that failed part way (in the report).
  size_t inputs_read() const { return report_.inputs.size(); }

  /// The inputs that will be read (paths, DIRs or GLOBs as given). When
  /// they belong to more than one log series (io/log_series.h), each event
  /// names its input's series as its server (JSON source.server); events
  /// a framing already named (a pod, a syslog host) keep that name.
  void set_input_paths(const std::vector<std::string>& paths);

  /// The format of an input from its first lines, chosen as AnalyzeInput
  /// chooses it, for a caller that reads the lines itself (`follow`).
  const InputFormat* ChooseFormat(const std::vector<std::string>& head, const std::string& path,
                                  std::string* detected, FramingChoice* framing,
                                  std::string* error) const {
    return Choose(head, path, detected, framing, error);
  }
  const ParseOptions& parse_options() const { return options_.parse; }

  /// Sorts the events, fills the summary, the run-level findings and the
  /// deadlock groups. Call once, after the inputs.
  Report& Finish();

  // ParseSink
  void OnEvent(Event&& event) override;
  void OnUnparsed(const std::string& file, uint64_t line, std::string_view text) override;
  void OnDiagnostic(Diagnostic&& diag) override;

 private:
  /// Hands every line of `reader` to `parser`, by blocks on every thread
  /// where both allow it. False with *error on a read error.
  bool ReadAll(LineReader& reader, LineParser& parser, SinkThread* async,
               std::string* error) const;
  /// Flags an input whose reader understood fewer than half of the lines
  /// it did not skip, with a diagnostic naming a format that fits better.
  /// Says which earlier inputs the input just read repeated (repeats_).
  void NoteRepeats(const std::string& file);
  void CheckUnderstood(const std::vector<std::string>& head, const InputFormat& format,
                       InputInfo* info);
  /// The format of an input, or, when its lines are framed (docker
  /// compose, grep, Heroku, ...), the format inside the frames with
  /// *framing set. Returns null and sets *error when nothing fits.
  const InputFormat* Choose(const std::vector<std::string>& head, const std::string& path,
                            std::string* detected, FramingChoice* framing,
                            std::string* error) const;
  /// The framing that fits `head` with an inner format among `inner`.
  FramingChoice ChooseFramingOf(const std::vector<std::string>& head,
                                const std::vector<const InputFormat*>& inner) const;

  AnalyzeOptions options_;
  EventStream* stream_;
  std::vector<std::unique_ptr<InputFormat>> formats_;
  std::vector<std::unique_ptr<Framing>> framings_;
  Report report_;
  size_t input_index_ = 0;
  /// Keeps a collected event (options_.examples_only decides which).
  void Collect(Event&& event);

  std::vector<size_t> event_input_;  // input index of each collected event
  std::vector<uint64_t> event_seq_;  // arrival number of each collected event
  uint64_t next_seq_ = 0;
  /// examples_only: signature -> the slot in report_.events of its example.
  std::unordered_map<std::string, size_t> example_of_;
  RuleEngine rules_;
  RepeatFilter repeats_;
  std::unique_ptr<TimeResolver> time_;
  RelationMap relations_;  // OID -> name, over each whole input
  bool several_series_ = false;  // set_input_paths: events name their server
  std::unordered_map<std::string, std::string> series_of_file_;
  /// False when --since/--until leave the event out (counted in the summary).
  bool InWindow(const Event& event);
  /// Of the current input: earlier input -> (deadlocks, lock waits) it repeated.
  std::map<size_t, std::pair<uint64_t, uint64_t>> repeated_;
};

}  // namespace lockgraph
