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
constexpr size_t kSparseStep = 128;
constexpr size_t kLastPointLine = 4096;

bool IsPoint(size_t index) {
  return index < kDenseLines || (index % kSparseStep == 0 && index <= kLastPointLine);
}

/// The part's reader before its line `index` (0-based in the part): its
/// counts, how many findings it had, and where its Fingerprint is in
/// Part::prints.
struct Point {
  size_t index;
  LineCounts counts;
  size_t items;
  size_t print_begin, print_end;
};

}  // namespace

struct SyslogBlocks::Part {
  std::string_view text;
  PartFindings out;
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
    EachLineOf(text, [&](std::string_view line) {
      read_line(line, ++*line_no);
      return true;
    });
  };
  const size_t count = CutParts(lines, workers_.threads(),
                                [&](size_t i, std::string_view part) { parts_[i]->text = part; });
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
                        !part.out.full() && !part.foreign && one_host();
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
  PartFindings& out = part.out;
  RecordCallbacks cb = start.callbacks;
  cb.on_record = [&out](LogRecord&& record) { out.AddRecord(std::move(record)); };
  cb.on_unparsed = [&out](uint64_t line_no, std::string_view text) {
    out.AddUnparsed(line_no, text);
  };
  part.reader = std::make_unique<SyslogReader>(file_, std::move(cb), start.matcher,
                                               start.may_redetect);
  SyslogReader& reader = *part.reader;
  size_t index = 0;
  EachLineOf(part.text, [&](std::string_view line) {
    if (IsPoint(index)) {
      const size_t begin = part.prints.size();
      reader.Fingerprint(0, &part.prints);
      part.points.push_back({index, reader.counts(), out.size(), begin, part.prints.size()});
    }
    SyslogFrame frame;
    const bool framed = SplitSyslogLine(&line, &frame);
    if (framed && frame.host != start.host) {
      part.foreign = true;  // read again: the hosts parser routes it
      return false;
    }
    reader.ParseFramed(line, framed ? &frame : nullptr, ++index);
    // Nothing of this part will be taken over: stop early.
    return !out.full() && !reader.stopped_at();
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
  EachLineOf(part.text, [&](std::string_view line) {
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
  ++stats_.taken_over;
  const RecordCallbacks& cb = real.callbacks();
  part.out.Replay(
      taken->items, shift,
      [&](LogRecord&& record) {
        if (cb.on_record) cb.on_record(std::move(record));
      },
      [&](uint64_t line_no, std::string_view text) {
        if (cb.on_unparsed) cb.on_unparsed(line_no, text);
      });
  real.TakeOver(*part.reader, taken->counts, shift);
  *line_no = shift + part.lines;
  part.reader.reset();
}

}  // namespace lockgraph
