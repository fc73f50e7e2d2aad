// What analyze, check and baseline share: reading the inputs through one
// Analyzer, choosing the emitter and its colour. One place, so that the
// commands read logs exactly alike.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "app/analyzer.h"
#include "emit/emitter.h"

namespace CLI {
class App;
class Option;
}

namespace lockgraph {

/// Hands streamed events to an emitter (ndjson).
class StreamToEmitter : public EventStream {
 public:
  StreamToEmitter(Emitter& emitter, std::ostream& out) : emitter_(emitter), out_(out) {}
  void OnEvent(const Event& event) override { emitter_.OnEvent(event, out_); }
  void OnInputStart(size_t input) override { emitter_.OnInputStart(input); }

 private:
  Emitter& emitter_;
  std::ostream& out_;
};

/// The options of every command that reads logs (analyze, check, baseline).
struct ReadArgs {
  std::vector<std::string> files;
  std::string input_format;
  std::string prefix;
  const CLI::Option* prefix_opt = nullptr;  // given at all (an empty prefix is one)
  RuleSelection rules;
  bool redact = false;
  const CLI::Option* redact_opt = nullptr;  // --redact or --no-redact given
  unsigned threads = 0;                     // --threads; 0: 2 when there are 2 cores
  bool show_records = false;                // --show-records (MySQL record dumps)
  std::string timezone;                     // --timezone
  std::string since, until;                 // --since, --until (checked by CLI11)
};

/// Adds FILE..., -i, -p, --rules, --disable, --max-wait, --redact/--no-redact,
/// --threads, --show-records, --timezone, --since, --until.
void AddReadOptions(CLI::App* cmd, ReadArgs* args);

/// The analyzer's options from `args`; redaction as asked, else the
/// emitter's default (on for sarif and junit).
AnalyzeOptions MakeAnalyzeOptions(const ReadArgs& args, const Emitter* emitter);

/// True when `emitter` takes every event from OnEvent (it streams, or keeps
/// what it needs itself: json, text): then `analyze` does not keep
/// Report::events, and memory stays flat whatever the size of the log.
bool EmitterSeesEvents(const Emitter& emitter);

/// --color auto|always|never; auto honours NO_COLOR and needs a terminal.
bool UseColor(const std::string& mode);

/// The builtin emitter named `name`, or null.
std::unique_ptr<Emitter> FindEmitter(const std::string& name);

/// "Output format:" and one line per emitter, for --help; fills *names.
std::string FormatHelp(std::vector<std::string>* names);

/// Reads every input (none and stdin not a terminal: "-") into `analyzer`;
/// errors go to stderr prefixed with "lockgraph <command>: ". Returns how
/// many inputs were read; *status becomes kExitError on any error.
size_t ReadInputs(Analyzer& analyzer, std::vector<std::string> files, const std::string& command,
                  int* status);

/// The stderr note about lines not understood, when there were any and
/// they were not listed.
void NoteUnparsed(const Report& report);

}  // namespace lockgraph
