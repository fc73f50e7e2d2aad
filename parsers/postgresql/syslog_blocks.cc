// See syslog_blocks.h.
#include "parsers/postgresql/syslog_blocks.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "parsers/postgresql/syslog_frame.h"

namespace lockgraph {
namespace {

// Points: before each of a part's first kDenseLines lines, then before
// every kSparseStep-th line up to kLastPointLine.
constexpr size_t kDenseLines = 64;
constexpr size_t kSparseStep = 32;
constexpr size_t kLastPointLine = 4096;

bool IsPoint(size_t index) {
  return index < kDenseLines || (index % kSparseStep == 0 && index <= kLastPointLine);
}

// What a part's reader may keep of its findings: past it, the part is read
// again by the real reader.
constexpr size_t kMaxRecordedBytes = 1 << 20;

// What a part's reader found, in order, its line numbers counted from the
// part's first line. A line not understood is a view into the block, which
// outlives the part's merge.
struct Recording {
  struct Item {
    uint64_t line_no;
    std::string_view text;  // a line not understood, or
    size_t record;          // the index of a record (kNoRecord: none)
  };
  static constexpr size_t kNoRecord = SIZE_MAX;

  std::vector<Item> items;
  std::vector<LogRecord> records;
  size_t bytes = 0;
  bool full = false;  // findings were dropped: the part must be read again

  void Clear() {
    items.clear();
    records.clear();
    bytes = 0;
    full = false;
  }
  bool Room(size_t n) {
    bytes += n;
    full = full || bytes > kMaxRecordedBytes;
    return !full;
  }
};

/// The part's reader before its line `index` (0-based in the part): its
/// counts, how many findings it had, and where its Fingerprint is in
/// Part::prints.
struct Point {
  size_t index;
  LineCounts counts;
  size_t items;
  size_t print_begin, print_end;
};

/// Calls fn(line) for each line of `text` while it returns true; returns
/// the offset of the first line not read.
template <typename Fn>
size_t EachLine(std::string_view text, Fn&& fn) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (!fn(text.substr(pos, end - pos), pos)) return pos;
    pos = end + 1;
  }
  return text.size();
}

}  // namespace

struct SyslogBlocks::Part {
  std::string_view text;
  Recording out;
  std::unique_ptr<SyslogReader> reader;
  std::vector<Point> points;
  std::vector<uint64_t> prints;  // the points' fingerprints, one after the other
  bool foreign = false;          // a line of another host came
  uint64_t lines = 0;            // lines in the part
};

SyslogBlocks::SyslogBlocks(std::string file, unsigned threads)
    : file_(std::move(file)), workers_(threads) {
  for (unsigned i = 0; i < threads; ++i) parts_.push_back(std::make_unique<Part>());
}

SyslogBlocks::~SyslogBlocks() = default;

void SyslogBlocks::ParseBlock(std::string_view lines, SyslogReader& real, std::string_view host,
                              const ReadLine& read_line, const std::function<bool()>& one_host,
                              uint64_t* line_no) {
  auto read_all = [&](std::string_view text) {
    EachLine(text, [&](std::string_view line, size_t) {
      read_line(line, ++*line_no);
      return true;
    });
  };
  // Parts of about equal size, cut after a '\n'.
  const size_t n = workers_.threads();
  size_t count = 0;
  for (size_t begin = 0; begin < lines.size() && count < n; ++count) {
    size_t end = lines.size();
    if (count + 1 < n) {
      const size_t nl = lines.find('\n', std::max(begin, lines.size() / n * (count + 1)));
      if (nl != std::string_view::npos) end = nl + 1;
    }
    parts_[count]->text = lines.substr(begin, end - begin);
    begin = end;
  }
  // While the redetector keeps lines as evidence, the real reader reads them all.
  if (count <= 1 || !real.matcher() || real.Sampling()) {
    read_all(lines);
    return;
  }
  // What the parts start from, taken before the real reader goes on.
  PartStart start;
  start.matcher = real.matcher();
  start.may_redetect = real.MayRedetect();
  start.host = host;
  start.callbacks.interesting = real.callbacks().interesting;
  start.callbacks.orphan_detail = real.callbacks().orphan_detail;
  const unsigned generation = real.matcher_generation();
  workers_.Run(count, [&](size_t i) {
    if (i == 0) {
      read_all(parts_[0]->text);
    } else {
      ReadPart(*parts_[i], start);
    }
  });
  for (size_t i = 1; i < count; ++i) {
    Part& part = *parts_[i];
    // Read with another prefix than the real reader's, beside a line the
    // real reader could take another prefix from, with another host, or
    // with more found than a part may keep: no point fits.
    const bool usable = real.matcher_generation() == generation && !part.reader->stopped_at() &&
                        !part.out.full && !part.foreign && one_host();
    Merge(part, real, usable, read_line, line_no);
  }
}

// On a worker thread, while the real reader reads the parts before.
void SyslogBlocks::ReadPart(Part& part, const PartStart& start) const {
  part.out.Clear();
  part.points.clear();
  part.prints.clear();
  part.foreign = false;
  part.lines = 0;
  Recording& out = part.out;
  RecordCallbacks cb = start.callbacks;
  cb.on_record = [&out](LogRecord&& record) {
    if (!out.Room(sizeof(LogRecord) + record.message.size() + record.detail.size() +
                  record.hint.size() + record.context.size() + record.statement.size()))
      return;
    out.items.push_back({0, {}, out.records.size()});
    out.records.push_back(std::move(record));
  };
  cb.on_unparsed = [&out](uint64_t line_no, std::string_view text) {
    if (out.Room(sizeof(Recording::Item))) out.items.push_back({line_no, text, Recording::kNoRecord});
  };
  part.reader = std::make_unique<SyslogReader>(file_, std::move(cb), start.matcher,
                                               start.may_redetect);
  SyslogReader& reader = *part.reader;
  size_t index = 0;
  EachLine(part.text, [&](std::string_view line, size_t) {
    if (IsPoint(index)) {
      const size_t begin = part.prints.size();
      reader.Fingerprint(0, &part.prints);
      part.points.push_back({index, reader.counts(), out.items.size(), begin, part.prints.size()});
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    SyslogFrame frame;
    const bool framed = ParseSyslogFrame(line, &frame);
    if (framed && frame.host != start.host) {
      part.foreign = true;  // read again: the hosts parser routes it
      return false;
    }
    reader.ParseFramed(line, framed ? &frame : nullptr, ++index);
    // Nothing of this part will be taken over: stop early.
    return !out.full && !reader.stopped_at();
  });
  part.lines = index;
}

void SyslogBlocks::Merge(Part& part, SyslogReader& real, bool usable, const ReadLine& read_line,
                         uint64_t* line_no) {
  ++stats_.parts;
  const uint64_t shift = *line_no;
  const Point* taken = nullptr;
  size_t next_point = 0;
  size_t index = 0;
  std::vector<uint64_t> print;
  const size_t p = EachLine(part.text, [&](std::string_view line, size_t) {
    if (usable && next_point < part.points.size() && part.points[next_point].index == index) {
      const Point& point = part.points[next_point++];
      print.clear();
      real.Fingerprint(shift, &print);
      if (std::equal(print.begin(), print.end(), part.prints.begin() + point.print_begin,
                     part.prints.begin() + point.print_end)) {
        taken = &point;
        return false;
      }
    }
    read_line(line, ++*line_no);
    ++index;
    return true;
  });
  stats_.lines_again += index;
  if (!taken) return;  // every line read by the real reader
  (void)p;
  ++stats_.taken_over;
  const RecordCallbacks& cb = real.callbacks();
  for (size_t i = taken->items; i < part.out.items.size(); ++i) {
    const Recording::Item& item = part.out.items[i];
    if (item.record == Recording::kNoRecord) {
      if (cb.on_unparsed) cb.on_unparsed(item.line_no + shift, item.text);
      continue;
    }
    LogRecord& record = part.out.records[item.record];
    record.source.first_line += shift;
    record.source.last_line += shift;
    if (cb.on_record) cb.on_record(std::move(record));
  }
  real.TakeOver(*part.reader, taken->counts, shift);
  *line_no = shift + part.lines;
  part.reader.reset();
}

}  // namespace lockgraph
