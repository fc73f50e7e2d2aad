// Reads a block of csvlog or jsonlog lines on several threads with the
// output of one reader reading them line by line (docs/performance.md#parallel-parsing).
//
// The block is cut into parts at lines where a record may start; each part
// is read by a reader of its own, which starts as a reader does between two
// records, and what it delivers (records, unparsed lines, diagnostics) is
// kept in order. The parts are then handed on one after the other. A part's
// reading is right only if the line-by-line reader would be between two
// records where the part starts: it is when the part before ended on a
// record's last line. When that part ended inside a record instead (its
// reader still holds lines), everything from that record's first line on
// is read again, on one thread; a record still open at the block's end is
// left for the next block, so every block starts between two records.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "model/log_record.h"
#include "parsers/input_format.h"
#include "parsers/part_workers.h"
#include "parsers/postgresql/record_reader.h"

namespace lockgraph {

/// A record reader that can start anywhere a record starts: it says
/// whether a line may open a record, and how many lines it holds of a record
/// not yet delivered.
template <typename Reader>
concept ChunkableReader = requires(const Reader& r, std::string_view line) {
  { Reader::MayStartRecord(line) } -> std::same_as<bool>;
  { r.pending_lines() } -> std::same_as<uint64_t>;
};

/// Not copyable. One per input; `out` gets everything, in input order, on
/// the thread that calls ParseBlock.
template <ChunkableReader Reader>
class RecordChunks {
 public:
  static constexpr size_t kMinPartBytes = 64 * 1024;

  /// Parts of less than `min_part_bytes` are not worth a thread (tests
  /// make them small to cut often).
  RecordChunks(std::string file, RecordCallbacks out, unsigned threads,
               size_t min_part_bytes = kMinPartBytes)
      : file_(std::move(file)), out_(std::move(out)), workers_(threads),
        min_part_bytes_(std::max<size_t>(1, min_part_bytes)) {}

  size_t ParseBlock(std::string_view block, bool at_end);
  /// Counts of every line handed on so far.
  const LineCounts& counts() const { return counts_; }

 private:
  struct Unparsed {
    uint64_t line;
    std::string text;
  };
  using Item = std::variant<LogRecord, Unparsed, Diagnostic>;
  struct Part {
    size_t begin = 0, end = 0;  // bytes of the block
    bool finish = false;        // the input's last part: close what is open
    uint64_t first_line = 1;    // the reader's number for the part's first line
    std::vector<Item> items;    // delivered, in order, numbered from first_line
    LineCounts counts;          // of the settled lines
    uint64_t lines = 0;         // settled lines: read and counted
    size_t stop = 0;            // where they end: begin, or a record's start
  };

  void Split(std::string_view block, bool at_end);
  /// The first line at or after byte `at` (> 0) that may open a record, or
  /// the block's size.
  static size_t NextRecordStart(std::string_view block, size_t at);
  void Read(std::string_view block, Part& part) const;
  void HandOn(Part& part);
  uint64_t FirstLineNumber(size_t offset) const {
    // 1 only for the input's first line: csvlog drops a BOM there.
    return offset == 0 && counts_.total == 0 ? 1 : 2;
  }

  std::string file_;
  RecordCallbacks out_;
  PartWorkers workers_;
  size_t min_part_bytes_;
  std::vector<Part> parts_;
  LineCounts counts_;
  uint64_t next_line_ = 1;  // the input's number of the next block's first line
};

template <ChunkableReader Reader>
size_t RecordChunks<Reader>::ParseBlock(std::string_view block, bool at_end) {
  Split(block, at_end);
  workers_.Run(parts_.size(), [&](size_t i) { Read(block, parts_[i]); });
  size_t settled = 0;
  for (Part& part : parts_) {
    if (part.begin != settled) {
      // The part before ended inside a record: read on from its start.
      Part rest;
      rest.begin = settled;
      rest.end = parts_.back().end;
      rest.finish = at_end;
      rest.first_line = FirstLineNumber(settled);
      Read(block, rest);
      HandOn(rest);
      return rest.stop;
    }
    HandOn(part);
    settled = part.stop;
  }
  return settled;
}

template <ChunkableReader Reader>
void RecordChunks<Reader>::Split(std::string_view block, bool at_end) {
  const size_t n = std::max<size_t>(
      1, std::min<size_t>(workers_.threads(), block.size() / min_part_bytes_));
  parts_.resize(n);
  size_t used = 0;
  size_t begin = 0;
  for (size_t k = 1; k < n; ++k) {
    const size_t cut = NextRecordStart(block, std::max(begin + 1, block.size() * k / n));
    if (cut >= block.size()) break;
    parts_[used++] = Part{begin, cut, false, FirstLineNumber(begin), {}, {}, 0, 0};
    begin = cut;
  }
  parts_[used++] = Part{begin, block.size(), at_end, FirstLineNumber(begin), {}, {}, 0, 0};
  parts_.resize(used);
}

template <ChunkableReader Reader>
size_t RecordChunks<Reader>::NextRecordStart(std::string_view block, size_t at) {
  if (at > block.size()) return block.size();
  size_t start = at;
  if (block[at - 1] != '\n') {
    start = block.find('\n', at);
    if (start == std::string_view::npos) return block.size();
    ++start;
  }
  while (start < block.size()) {
    const size_t end = std::min(block.find('\n', start), block.size());
    if (Reader::MayStartRecord(block.substr(start, end - start))) return start;
    start = end + 1;
  }
  return block.size();
}

template <ChunkableReader Reader>
void RecordChunks<Reader>::Read(std::string_view block, Part& part) const {
  part.items.clear();
  RecordCallbacks cb;
  cb.interesting = out_.interesting;
  cb.orphan_detail = out_.orphan_detail;
  cb.deliver_uninteresting = out_.deliver_uninteresting;
  std::vector<Item>& items = part.items;
  if (out_.on_record) cb.on_record = [&items](LogRecord&& r) { items.emplace_back(std::move(r)); };
  if (out_.on_unparsed)
    cb.on_unparsed = [&items](uint64_t line, std::string_view text) {
      items.emplace_back(Unparsed{line, std::string(text)});
    };
  if (out_.on_diagnostic) cb.on_diagnostic = [&items](Diagnostic&& d) { items.emplace_back(std::move(d)); };
  Reader reader(file_, std::move(cb));

  const char* data = block.data();
  uint64_t line_no = part.first_line;
  size_t pos = part.begin;
  size_t open_at = part.begin;  // first byte of the record the reader holds
  while (pos < part.end) {
    const void* nl = std::memchr(data + pos, '\n', part.end - pos);
    const size_t len = nl ? static_cast<const char*>(nl) - (data + pos) : part.end - pos;
    reader.ParseLine(std::string_view(data + pos, len), line_no++);
    if (reader.pending_lines() == 1) open_at = pos;
    pos += len + (nl ? 1 : 0);
  }
  uint64_t held = reader.pending_lines();
  if (part.finish) {
    reader.Finish();
    held = 0;
  }
  part.counts = reader.counts();
  part.counts.total -= held;  // counted again when the record is read whole
  part.lines = line_no - part.first_line - held;
  part.stop = held ? open_at : part.end;
}

template <ChunkableReader Reader>
void RecordChunks<Reader>::HandOn(Part& part) {
  // The reader numbered the part's lines from part.first_line.
  const uint64_t shift = next_line_ - part.first_line;
  for (Item& item : part.items) {
    if (auto* r = std::get_if<LogRecord>(&item)) {
      r->source.first_line += shift;
      r->source.last_line += shift;
      out_.on_record(std::move(*r));
    } else if (auto* u = std::get_if<Unparsed>(&item)) {
      out_.on_unparsed(u->line + shift, u->text);
    } else {
      Diagnostic& d = std::get<Diagnostic>(item);
      if (d.line) d.line += shift;
      out_.on_diagnostic(std::move(d));
    }
  }
  part.items.clear();
  counts_ += part.counts;
  next_line_ += part.lines;
}

}  // namespace lockgraph
