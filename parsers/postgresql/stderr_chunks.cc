// See stderr_chunks.h.
#include "parsers/postgresql/stderr_chunks.h"

#include <algorithm>
#include <utility>
#include <variant>

namespace lockgraph {
namespace {

// Points noted per part, one before each of its first lines: a record open
// across a part's start closes within a few lines (at the line after its
// STATEMENT, or its backend's next message); one that stays open longer
// makes the real reader read the whole part.
constexpr size_t kMaxPoints = 128;

struct Unparsed {
  uint64_t line_no;
  std::string text;
};

// What a part's reader found, in order, its line numbers counted from the
// part's first line.
class Recording final : public StderrOutput {
 public:
  std::vector<std::variant<LogRecord, Unparsed>> items;
  void OnRecord(LogRecord&& record) override { items.emplace_back(std::move(record)); }
  void OnUnparsed(uint64_t line_no, std::string_view text) override {
    items.emplace_back(Unparsed{line_no, std::string(text)});
  }
  // A part's reader never takes another prefix (StderrLines::stopped_at).
  void OnNote(Diagnostic&&) override {}
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
  part.out.items.clear();
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
  // A part read with another prefix than the real reader's, or one that
  // met a line the real reader could take another prefix from: no point.
  const bool usable = real.matcher_generation() == generation && !part.lines->stopped_at();
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
    if (LogRecord* record = std::get_if<LogRecord>(&part.out.items[i])) {
      record->source.first_line += shift;
      record->source.last_line += shift;
      real.out()->OnRecord(std::move(*record));
    } else {
      const Unparsed& line = std::get<Unparsed>(part.out.items[i]);
      real.out()->OnUnparsed(line.line_no + shift, line.text);
    }
  }
  real.TakeOver(*part.lines, taken->counts, shift);
  part.lines.reset();
}

}  // namespace lockgraph
