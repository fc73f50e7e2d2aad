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

// What a part's reader found (part_findings.h), as its StderrOutput.
class Recording final : public StderrOutput {
 public:
  PartFindings found;
  void OnRecord(LogRecord&& record) override { found.AddRecord(std::move(record)); }
  void OnUnparsed(uint64_t line_no, std::string_view text) override {
    found.AddUnparsed(line_no, text);
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
  const size_t count = CutParts(lines, workers_.threads(),
                                [&](size_t i, std::string_view part) { parts_[i]->text = part; });
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
  part.out.found.Clear();
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
        {index, lines.counts(), part.out.found.size(), lines.mood(), begin, part.prints.size()});
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
      real.matcher_generation() == generation && !part.lines->stopped_at() && !part.out.found.full();
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
  part.out.found.Replay(
      taken->items, shift, [&](LogRecord&& record) { real.out()->OnRecord(std::move(record)); },
      [&](uint64_t line_no, std::string_view text) { real.out()->OnUnparsed(line_no, text); });
  real.TakeOver(*part.lines, taken->counts, shift);
  part.lines.reset();
}

}  // namespace lockgraph
