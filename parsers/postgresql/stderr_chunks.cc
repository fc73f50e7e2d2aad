// See stderr_chunks.h.
#include "parsers/postgresql/stderr_chunks.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace lockgraph {
namespace {

// Points noted per part, one before each of its first lines: a record open
// across a part's start closes within a few lines (at the line after its
// STATEMENT, or its backend's next message); one that stays open longer
// makes the real reader read the whole part.
constexpr size_t kMaxPoints = 128;

// What a part's reader may keep of its findings: past it, the part is read
// again by the real reader (a part of lines not understood, or of nothing
// but lock waits, at --threads 64 would else hold many times its size).
constexpr size_t kMaxRecordedBytes = 1 << 20;

// What a part's reader found, in order, its line numbers counted from the
// part's first line. A line not understood is a view into the block, which
// outlives the part's merge.
class Recording final : public StderrOutput {
 public:
  struct Item {
    uint64_t line_no;
    std::string_view text;  // a line not understood, or
    size_t record;          // the index of a record (kNoRecord: none)
  };
  static constexpr size_t kNoRecord = SIZE_MAX;

  std::vector<Item> items;
  std::vector<LogRecord> records;
  bool full = false;  // findings were dropped: the part must be read again

  void Clear() {
    items.clear();
    records.clear();
    bytes_ = 0;
    full = false;
  }
  void OnRecord(LogRecord&& record) override {
    if (!Room(sizeof(LogRecord) + record.message.size() + record.detail.size() +
              record.hint.size() + record.context.size() + record.statement.size()))
      return;
    items.push_back({0, {}, records.size()});
    records.push_back(std::move(record));
  }
  void OnUnparsed(uint64_t line_no, std::string_view text) override {
    if (Room(sizeof(Item))) items.push_back({line_no, text, kNoRecord});
  }
  // A part's reader never takes another prefix (StderrLines::stopped_at).
  void OnNote(Diagnostic&&) override {}

 private:
  bool Room(size_t bytes) {
    bytes_ += bytes;
    full = full || bytes_ > kMaxRecordedBytes;
    return !full;
  }
  size_t bytes_ = 0;
};

/// The part's reader before its line `index` (0-based in the part): its
/// counts, how many findings it had, its mood, and where its assembler's
/// Fingerprint is in Part::prints.
struct Point {
  size_t index;
  LineCounts counts;
  size_t items;
  StderrLines::Mood mood;
  size_t print_begin, print_end;
};

}  // namespace

struct StderrChunks::Part {
  std::string_view text;
  Recording out;
  std::unique_ptr<StderrLines> lines;
  std::vector<Point> points;
  std::vector<uint64_t> prints;  // the points' fingerprints, one after the other
};

StderrChunks::StderrChunks(std::string file, unsigned threads)
    : file_(std::move(file)), workers_(threads) {
  for (unsigned i = 0; i < threads; ++i) parts_.push_back(std::make_unique<Part>());
}

StderrChunks::~StderrChunks() = default;

void StderrChunks::ParseBlock(std::string_view lines, StderrLines& real) {
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
  if (count <= 1) {
    real.ParseLines(lines);
    return;
  }
  // What the parts start from, taken before the real reader goes on.
  PartStart start;
  start.matcher = real.matcher();
  start.may_redetect = real.MayRedetect();
  start.tabs_seen = real.mood().tabs_seen;
  const unsigned generation = real.matcher_generation();
  workers_.Run(count, [&](size_t i) {
    if (i == 0) {
      real.ParseLines(parts_[0]->text);
    } else {
      ReadPart(*parts_[i], start);
    }
  });
  for (size_t i = 1; i < count; ++i) Merge(*parts_[i], real, generation);
}

// On a worker thread, while the real reader reads the parts before.
void StderrChunks::ReadPart(Part& part, const PartStart& start) const {
  part.out.Clear();
  part.points.clear();
  part.prints.clear();
  part.lines = std::make_unique<StderrLines>(file_, start.matcher, nullptr, &part.out);
  part.lines->set_may_redetect(start.may_redetect);
  StderrLines::Mood mood;
  mood.in_message = true;  // as after most lines: the point before the first fits often
  mood.tabs_seen = start.tabs_seen;
  part.lines->set_mood(mood);
  StderrLines& lines = *part.lines;
  const size_t p = lines.ParseLinesWhile(part.text, [&](size_t index) {
    const size_t begin = part.prints.size();
    lines.assembler().Fingerprint(0, &part.prints);
    part.points.push_back(
        {index, lines.counts(), part.out.items.size(), lines.mood(), begin, part.prints.size()});
    return part.points.size() < kMaxPoints;
  });
  lines.ParseLines(part.text.substr(p));
}

void StderrChunks::Merge(Part& part, StderrLines& real, unsigned generation) {
  ++stats_.parts;
  const uint64_t shift = real.line_no();
  const Point* taken = nullptr;
  // A part read with another prefix than the real reader's, one that met a
  // line the real reader could take another prefix from, or one that found
  // more than it could keep: no point.
  const bool usable =
      real.matcher_generation() == generation && !part.lines->stopped_at() && !part.out.full;
  std::vector<uint64_t> print;
  const size_t p = real.ParseLinesWhile(part.text, [&](size_t index) {
    if (!usable || index >= part.points.size()) return false;
    const Point& point = part.points[index];
    const StderrLines::Mood mood = real.mood();
    if (mood.in_message != point.mood.in_message || mood.last_label != point.mood.last_label)
      return true;
    // The real reader has seen a TAB line, the part had not yet: it may not
    // have read a line as a lost-TAB continuation from here on.
    if (mood.tabs_seen != point.mood.tabs_seen && part.lines->last_tabless_at() > index)
      return true;
    print.clear();
    real.assembler().Fingerprint(shift, &print);
    if (!std::equal(print.begin(), print.end(), part.prints.begin() + point.print_begin,
                    part.prints.begin() + point.print_end))
      return true;
    taken = &point;
    return false;
  });
  stats_.lines_again += real.line_no() - shift;
  if (!taken) {
    const uint64_t before = real.line_no();
    real.ParseLines(part.text.substr(p));
    stats_.lines_again += real.line_no() - before;
    return;
  }
  ++stats_.taken_over;
  for (size_t i = taken->items; i < part.out.items.size(); ++i) {
    const Recording::Item& item = part.out.items[i];
    if (item.record == Recording::kNoRecord) {
      real.out()->OnUnparsed(item.line_no + shift, item.text);
      continue;
    }
    LogRecord& record = part.out.records[item.record];
    record.source.first_line += shift;
    record.source.last_line += shift;
    real.out()->OnRecord(std::move(record));
  }
  real.TakeOver(*part.lines, taken->counts, shift);
  part.lines.reset();
}

}  // namespace lockgraph
