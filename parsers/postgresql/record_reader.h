// The shape shared by the PostgreSQL record readers of the structured
// layouts (csvlog, jsonlog, syslog): physical lines in, whole LogRecords out
// through callbacks, so that tests can read records without an event
// builder. RecordReaderParser adapts any of them to LineParser.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "model/log_record.h"
#include "parsers/flushable.h"
#include "parsers/input_format.h"
#include "parsers/postgresql/event_builder.h"

namespace lockgraph {

/// Where a record reader delivers its output. Every callback may be empty
/// (then that output is dropped); none may throw.
struct RecordCallbacks {
  /// One whole record, in input order of its first line.
  std::function<void(LogRecord&&)> on_record;
  /// One input line that belongs to no record (also counted as unparsed).
  std::function<void(uint64_t line_no, std::string_view text)> on_unparsed;
  std::function<void(Diagnostic&&)> on_diagnostic;
  /// Decides from the primary message whether the parts (detail, hint,
  /// context, statement) and the session are worth copying; records it
  /// rejects are delivered with time, pid, severity, sqlstate and message
  /// only, or not at all when `deliver_uninteresting` is false (their lines
  /// still count as parsed). Empty: keep everything.
  std::function<bool(std::string_view message)> interesting;
  /// Decides whether a DETAIL whose primary line is missing from the input
  /// still makes a record (RecordAssembler, syslog). Empty: it does not.
  std::function<bool(std::string_view detail)> orphan_detail;
  /// Default true. The csvlog and jsonlog readers honour it; the syslog
  /// reader leaves it to its RecordAssembler, which always delivers.
  bool deliver_uninteresting = true;
};

/// A LineParser over a record reader: records go to a PgEventBuilder, lines
/// not understood and diagnostics to the sink. `Reader` provides
/// ParseLine(line, line_no), Finish() and counts(), and takes the file name
/// and a RecordCallbacks as its first constructor arguments. Not copyable.
template <typename Reader>
class RecordReaderParser final : public LineParser, public FlushableParser {
 public:
  template <typename... Args>
  RecordReaderParser(const std::string& file, ParseSink& sink, Args&&... args)
      : file_(file), sink_(sink), builder_(sink),
        reader_(file, Callbacks(), std::forward<Args>(args)...) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    reader_.ParseLine(line, line_no);
  }
  void Finish() override {
    reader_.Finish();
    builder_.Finish();
  }
  const LineCounts& counts() const override { return reader_.counts(); }
  /// A reader with Flush() (syslog) delivers its open messages when the
  /// input pauses; the others deliver a record with its last line.
  void Flush(FlushMode mode) override {
    if constexpr (requires(Reader& r) { r.Flush(mode); }) reader_.Flush(mode);
  }

 private:
  RecordCallbacks Callbacks() {
    RecordCallbacks cb;
    cb.on_record = [this](LogRecord&& r) { builder_.OnRecord(std::move(r)); };
    cb.on_unparsed = [this](uint64_t line_no, std::string_view text) {
      sink_.OnUnparsed(file_, line_no, text);
    };
    cb.on_diagnostic = [this](Diagnostic&& d) { sink_.OnDiagnostic(std::move(d)); };
    cb.interesting = &PgEventBuilder::IsInteresting;
    cb.orphan_detail = &PgEventBuilder::IsOrphanDetail;
    // PgEventBuilder::OnRecord ignores them: do not even build them.
    cb.deliver_uninteresting = false;
    return cb;
  }

  std::string file_;
  ParseSink& sink_;
  PgEventBuilder builder_;
  Reader reader_;
};

}  // namespace lockgraph
