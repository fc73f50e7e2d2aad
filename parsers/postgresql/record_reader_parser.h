// RecordReaderParser: a record reader (record_reader.h) behind the
// LineParser interface, its records turned into events by a
// PgEventBuilder. A reader that can start at any record (csvlog, jsonlog)
// also reads whole blocks on several threads (record_chunks.h).
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "parsers/block_parser.h"
#include "parsers/flushable.h"
#include "parsers/input_format.h"
#include "parsers/postgresql/event_builder.h"
#include "parsers/postgresql/record_chunks.h"
#include "parsers/postgresql/record_reader.h"

namespace lockgraph {

/// What RecordReaderParser keeps to read blocks: nothing but a line count
/// for a reader that reads line by line only, its RecordChunks otherwise.
template <typename Reader>
struct RecordBlocks {
  uint64_t next_line = 1;
};
template <ChunkableReader Reader>
struct RecordBlocks<Reader> {
  std::unique_ptr<RecordChunks<Reader>> chunks;
};

/// A LineParser over a record reader: records go to a PgEventBuilder, lines
/// not understood and diagnostics to the sink. `Reader` provides
/// ParseLine(line, line_no), Finish() and counts(), and takes the file name
/// and a RecordCallbacks as its first constructor arguments. Not copyable.
template <typename Reader>
class RecordReaderParser final : public LineParser, public FlushableParser, public BlockParser {
 public:
  template <typename... Args>
  RecordReaderParser(const std::string& file, ParseSink& sink, Args&&... args)
      : file_(file), sink_(sink), builder_(sink),
        reader_(file, Callbacks(), std::forward<Args>(args)...) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    reader_.ParseLine(line, line_no);
  }
  /// The reader itself, for a parser in front that has already split the
  /// line (syslog_hosts.cc: the syslog framing). Not with ParseBlock().
  Reader& reader() { return reader_; }
  void Finish() override {
    reader_.Finish();
    builder_.Finish();
  }
  const LineCounts& counts() const override {
    if constexpr (ChunkableReader<Reader>) {
      if (blocks_.chunks) return blocks_.chunks->counts();
    }
    return reader_.counts();
  }
  /// A reader with Flush() (syslog) delivers its open messages when the
  /// input pauses; the others deliver a record with its last line.
  void Flush(FlushMode mode) override {
    if constexpr (requires(Reader& r) { r.Flush(mode); }) reader_.Flush(mode);
  }

  // BlockParser: on several threads when the reader can start at any
  // record; the others read each block line by line, on the caller's thread.
  void UseThreads(unsigned threads) override {
    threads_ = threads;
    if constexpr (ChunkableReader<Reader>)
      blocks_.chunks = std::make_unique<RecordChunks<Reader>>(file_, Callbacks(), threads);
  }
  size_t BlockBytes() const override { return std::min(kPartBytes * threads_, kMaxBlockBytes); }
  size_t ParseBlock(std::string_view lines, bool at_end) override {
    if constexpr (ChunkableReader<Reader>) {
      return blocks_.chunks->ParseBlock(lines, at_end);
    } else {
      size_t pos = 0;
      while (pos < lines.size()) {
        size_t end = lines.find('\n', pos);
        if (end == std::string_view::npos) end = lines.size();
        reader_.ParseLine(lines.substr(pos, end - pos), blocks_.next_line++);
        pos = end + 1;
      }
      return lines.size();
    }
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

  // A part of 4 MiB per thread; but blocks of at most 16 MiB, whatever the
  // cores: the reader holds two (line_reader_blocks.cc).
  static constexpr size_t kPartBytes = 4 << 20;
  static constexpr size_t kMaxBlockBytes = 16 << 20;

  std::string file_;
  ParseSink& sink_;
  PgEventBuilder builder_;
  Reader reader_;
  unsigned threads_ = 1;
  RecordBlocks<Reader> blocks_;  // once UseThreads() was called
};

}  // namespace lockgraph
