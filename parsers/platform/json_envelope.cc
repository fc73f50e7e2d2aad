// See json_envelope.h.
#include "parsers/platform/json_envelope.h"

#include <unordered_map>

#include <nlohmann/json.hpp>

#include "parsers/flushable.h"
#include "parsers/server_sink.h"

#include "parsers/platform/entry_orderer.h"
#include "parsers/platform/stderr_payload.h"

namespace lockgraph {
namespace {

EntryVerdict ReadEntry(std::string_view text, const EntryReader& reader, EnvelopeEntry* out) {
  // Exceptions stay here (house style): parse without them, and catch what
  // a reader's json access might still throw.
  try {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return EntryVerdict::kUnparsed;
    return reader(j, out);
  } catch (...) {
    return EntryVerdict::kUnparsed;
  }
}

class JsonEnvelopeParser final : public LineParser, public FlushableParser {
 public:
  JsonEnvelopeParser(const std::string& file, const ParseOptions& options,
                     const std::string& prefix, EntryReader reader, std::string what,
                     ParseSink& sink)
      : file_(file),
        what_(std::move(what)),
        options_(options),
        prefix_(prefix),
        sink_(sink),
        reader_(std::move(reader)),
        splitter_([this](std::string_view json, uint64_t line) { return OnEntry(json, line); },
                  [this](uint64_t line_no, std::string_view text) {
                    sink_.OnUnparsed(file_, line_no, text);
                  }) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    splitter_.ParseLine(line, line_no);
  }

  void Flush(FlushMode mode) override {  // follow: the export went quiet between entries
    // analyze: an ordering window decided on a pause may deliver a late
    // entry out of place; the entries wait for the next ones or the end.
    if (mode == FlushMode::kSameOutput) return;
    for (auto& lane : lanes_) {
      lane->orderer.Flush();
      lane->payload.Flush();
    }
  }

  void Finish() override {
    if (!splitter_.Finish()) {
      Note(Diagnostic::Severity::kWarning, last_entry_line_,
           "the input ends inside a JSON entry (a cut download?); its lines are counted as "
           "not understood");
    }
    bool newest_first = false;
    for (auto& lane : lanes_) {  // in the order their first entries came
      lane->orderer.Finish();
      lane->payload.Finish();
      newest_first = newest_first || lane->orderer.newest_first();
    }
    if (skipped_entries_) {
      Note(Diagnostic::Severity::kNote, first_skipped_,
           std::to_string(skipped_entries_) + " " + what_ + " entries (" +
               std::to_string(splitter_.skipped_lines()) +
               " lines) are not PostgreSQL server log entries and were skipped");
    }
    if (newest_first) {
      Note(Diagnostic::Severity::kNote, 0,
           "the " + what_ + " entries are newest first (a console download): read in reverse");
    }
  }

  const LineCounts& counts() const override { return splitter_.counts(); }

 private:
  EntryVerdict OnEntry(std::string_view json, uint64_t line_no) {
    last_entry_line_ = line_no;
    EnvelopeEntry entry;
    EntryVerdict verdict = ReadEntry(json, reader_, &entry);
    if (verdict == EntryVerdict::kSkipped && skipped_entries_++ == 0) first_skipped_ = line_no;
    if (verdict != EntryVerdict::kParsed) return verdict;
    Lane& lane = LaneOf(entry.server);
    if (!lane.payload.Understood(entry.payload)) return EntryVerdict::kUnparsed;
    lane.orderer.Add(SortableTime(entry.time), line_no, std::move(entry.payload));
    return verdict;
  }

  /// One server's entries: ordered and assembled apart from the others', so
  /// that two instances' backends never share a record; their events name
  /// the server (an entry without one: the input's only lane, no name).
  struct Lane {
    Lane(const std::string& file, const ParseOptions& options, const std::string& prefix,
         ParseSink& sink, const std::string& server)
        : named(sink, server),
          payload(file, options, prefix, server.empty() ? sink : named),
          orderer([this](uint64_t line_no, std::string_view text) { payload.Feed(text, line_no); }) {}
    ServerSink named;
    StderrPayload payload;
    EntryOrderer orderer;
  };

  Lane& LaneOf(const std::string& server) {
    if (last_lane_ && last_server_ == server) return *last_lane_;
    auto it = lane_of_.find(server);
    if (it == lane_of_.end()) {
      lanes_.push_back(std::make_unique<Lane>(file_, options_, prefix_, sink_, server));
      it = lane_of_.emplace(server, lanes_.back().get()).first;
    }
    last_server_ = server;
    return *(last_lane_ = it->second);
  }

  void Note(Diagnostic::Severity severity, uint64_t line, std::string message) {
    Diagnostic d;
    d.severity = severity;
    d.file = file_;
    d.line = line;
    d.message = std::move(message);
    sink_.OnDiagnostic(std::move(d));
  }

  std::string file_;
  std::string what_;
  ParseOptions options_;
  std::string prefix_;
  ParseSink& sink_;
  EntryReader reader_;
  std::vector<std::unique_ptr<Lane>> lanes_;  // in order of first entry
  std::unordered_map<std::string, Lane*> lane_of_;
  Lane* last_lane_ = nullptr;
  std::string last_server_;
  JsonEntrySplitter splitter_;
  uint64_t skipped_entries_ = 0, first_skipped_ = 0, last_entry_line_ = 0;
};

}  // namespace

std::string JsonText(const nlohmann::json& j, std::initializer_list<const char*> keys) {
  const nlohmann::json* at = &j;
  for (const char* key : keys) {
    if (!at->is_object()) return "";
    auto it = at->find(key);
    if (it == at->end()) return "";
    at = &*it;
  }
  return at->is_string() ? at->get<std::string>() : "";
}

SniffResult SniffJsonEnvelope(const std::vector<std::string>& head, const EntryReader& reader,
                              const ParseOptions& options, const std::string& what) {
  std::vector<std::string> payloads;
  int entries = 0, pg_lines = 0;
  uint64_t line_no = 0;
  JsonEntrySplitter splitter(
      [&](std::string_view json, uint64_t first) {
        ++entries;
        EnvelopeEntry entry;
        EntryVerdict v = ReadEntry(json, reader, &entry);
        if (v == EntryVerdict::kParsed) {
          payloads.push_back(std::move(entry.payload));
          pg_lines += int(line_no - first + 1);
        }
        return v;
      },
      nullptr);
  for (const std::string& line : head) splitter.ParseLine(line, ++line_no);
  SniffResult result;
  if (entries == 0) {
    result.reason = "no JSON entry in the first lines";
    return result;
  }
  if (payloads.empty()) {
    result.reason = "no " + what + " PostgreSQL log entry among " + std::to_string(entries) +
                    " JSON entries";
    return result;
  }
  int matched = 0;
  std::string prefix = options.has_prefix ? options.log_line_prefix
                                          : DetectPayloadPrefix(payloads, &matched);
  if (!options.has_prefix && matched == 0) {
    result.reason = "the " + what + " entries' server text has no known log_line_prefix";
    return result;
  }
  result.verdict = SniffResult::Verdict::kMatch;
  // Entries are certain evidence: outrank the stderr format, which may see
  // "LOG:  " inside a JSON line.
  result.score = 2 * pg_lines + 1;
  result.detected = prefix;
  result.reason = std::to_string(payloads.size()) + " " + what + " entries, prefix '" + prefix + "'";
  return result;
}

std::unique_ptr<LineParser> MakeJsonEnvelopeParser(const std::string& file,
                                                   const ParseOptions& options,
                                                   const std::string& prefix, EntryReader reader,
                                                   std::string what, ParseSink& sink) {
  return std::make_unique<JsonEnvelopeParser>(file, options, prefix, std::move(reader),
                                              std::move(what), sink);
}

}  // namespace lockgraph
