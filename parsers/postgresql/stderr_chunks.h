// A block of stderr lines read on several threads, with the output of one
// thread byte for byte. Records join the lines of one backend across other
// backends' lines, so a part cannot simply start fresh where the block is
// cut: each part but the first is read from a fresh state on a thread of
// its own, which notes its state before each of its first lines (a point).
// Then, in input order, the real reader reads the part's lines itself until
// its state is the part's at one of those points: the same mood
// (stderr_lines.h), and the same records open and waiting, each begun on
// the same line (RecordAssembler::Fingerprint). A record open in both that
// began on the same line has had the same lines since, so from there on the
// part's reading is the real one's: the real reader takes over what the
// part found after that point and the state it ended in. A part never met
// so within its first lines (a record open across them that the part did
// not see begin, another prefix taken on a line) is read again, all of it,
// by the real reader. docs/performance.md#parallel-stderr-2026-12-06-night.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/part_workers.h"
#include "parsers/postgresql/part_findings.h"
#include "parsers/postgresql/stderr_lines.h"

namespace lockgraph {

class StderrChunks {
 public:
  /// `threads`: how many parts a block is cut into, each on a thread.
  StderrChunks(std::string file, unsigned threads);
  ~StderrChunks();
  StderrChunks(const StderrChunks&) = delete;
  StderrChunks& operator=(const StderrChunks&) = delete;

  /// Reads `lines` (whole lines; at the end of input the last may lack its
  /// '\n') as `real.ParseLines(lines)` would, into `real`.
  void ParseBlock(std::string_view lines, StderrLines& real);
  size_t threads() const { return workers_.threads(); }

  /// How the parts went: taken over, or read again.
  using Stats = PartStats;
  const Stats& stats() const { return stats_; }

 private:
  struct Part;
  /// The real reader's state a block's parts start from.
  struct PartStart {
    std::shared_ptr<const PrefixMatcher> matcher;
    bool may_redetect = false;
    bool tabs_seen = false;
  };
  void ReadPart(Part& part, const PartStart& start) const;
  void Merge(Part& part, StderrLines& real, unsigned generation);

  std::string file_;
  PartWorkers workers_;
  std::vector<std::unique_ptr<Part>> parts_;
  Stats stats_;
};

}  // namespace lockgraph
