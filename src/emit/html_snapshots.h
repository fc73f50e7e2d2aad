// The report's "Live locks" section: each pg_locks snapshot with its blocking
// trees and cycles, drawn, each root blocker flagged (idle in transaction,
// its age, its last query), each member with what it waits for and how long.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include "emit/html_svg.h"
#include "model/event.h"

namespace lockgraph {

/// What the section shows of a snapshot, chain or cycle event, rendered
/// when the event is made and written later by SnapshotsHtml, numbered in
/// log order (a piece: any bytes); empty for every other event.
std::string SnapshotHtmlPiece(const Event& event);

/// Writes the section: its head when made, each piece (in log order) with
/// its number, and its end when destroyed. The first `drawn_max` trees and
/// cycles are drawn with `svg`, the others listed. Not copyable.
class SnapshotsHtml {
 public:
  SnapshotsHtml(SvgRenderer& svg, size_t drawn_max, std::ostream& out);
  ~SnapshotsHtml();
  SnapshotsHtml(const SnapshotsHtml&) = delete;
  SnapshotsHtml& operator=(const SnapshotsHtml&) = delete;
  /// False for a malformed piece (then it is written in part or not at all).
  bool Write(std::string_view piece);

 private:
  SvgRenderer& svg_;
  size_t drawn_max_;
  std::ostream& out_;
  int snapshot_no_ = 0, chain_no_ = 0, cycle_no_ = 0;
  size_t drawn_ = 0;
};

}  // namespace lockgraph
