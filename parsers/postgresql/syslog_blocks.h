// A block of syslog lines read on several threads, with the output of one
// thread byte for byte: the scheme of stderr_chunks.h for the syslog reader.
// Each part but the first is read from a fresh state on a thread of its
// own, which notes its state at points among its first lines: before each
// of the first 64, then before every 128th up to the 4,096th (the joiner
// keeps a silent backend's last part open for 1,000 lines, so states may
// take that long to meet). Then, in input order, the real reader reads the
// part's lines itself until its state is the part's at one of those points:
// the same parts waiting in the joiner and the same records open in the
// assembler, each begun on the same line with the same pid, sizes and idle
// lines (SyslogReader::Fingerprint). A part or record that began on the
// same line in both has had the same lines since, so from there on the
// part's reading is the real one's: the real reader takes over what the
// part found after that point and the state it ended in. A part is read
// again, all of it, by the real reader when no point fits, when a line of
// another host comes (syslog_hosts.h gives each host its own reader), when
// the real reader took another prefix or the part met a line where it
// could, or when the part found more than it may keep.
// docs/performance.md#syslog-on-several-threads-2026-12-06-late-night.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/part_workers.h"
#include "parsers/postgresql/part_findings.h"
#include "parsers/postgresql/syslog_reader.h"

namespace lockgraph {

class SyslogBlocks {
 public:
  /// `threads`: how many parts a block is cut into, each on a thread.
  SyslogBlocks(std::string file, unsigned threads);
  ~SyslogBlocks();
  SyslogBlocks(const SyslogBlocks&) = delete;
  SyslogBlocks& operator=(const SyslogBlocks&) = delete;

  /// The reader's way for one line: the hosts parser's (it routes the line
  /// to its host's reader); `line_no` counts from the input's first line.
  using ReadLine = std::function<void(std::string_view line, uint64_t line_no)>;

  /// Reads `lines` (whole lines; at the end of input the last may lack its
  /// '\n') as `read_line` line by line would, numbering them on from
  /// *line_no. `real`: the reader of the only host so far, `host` its name;
  /// `one_host`: whether that is still so.
  void ParseBlock(std::string_view lines, SyslogReader& real, std::string_view host,
                  const ReadLine& read_line, const std::function<bool()>& one_host,
                  uint64_t* line_no);
  size_t threads() const { return workers_.threads(); }

  /// How the parts went: taken over, or read again.
  using Stats = PartStats;
  const Stats& stats() const { return stats_; }

 private:
  struct Part;
  struct PartStart {
    std::shared_ptr<const PrefixMatcher> matcher;
    bool may_redetect = false;
    std::string_view host;
    RecordCallbacks callbacks;  // the real reader's tests
  };
  void ReadPart(Part& part, const PartStart& start) const;
  void Merge(Part& part, SyslogReader& real, bool usable, const ReadLine& read_line,
             uint64_t* line_no);

  std::string file_;
  PartWorkers workers_;
  std::vector<std::unique_ptr<Part>> parts_;
  Stats stats_;
};

}  // namespace lockgraph
