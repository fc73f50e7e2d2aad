// PostgreSQL's syslog output (reference §6.5, pitfalls 1 and 6): joins the
// `[seq-chunk]` records of one message (framing: syslog_frame.h) back into
// the stderr-style physical lines PostgreSQL wrote.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parsers/postgresql/syslog_frame.h"

namespace lockgraph {

/// Rebuilds physical lines from the frames of a syslog file and delivers
/// each part line (prefix + "LABEL:  text") together with its TAB
/// continuation lines, contiguously, even when other processes' records
/// came in between. Per (pid, seq), chunk 1 starts a part line; a later
/// chunk starting with a TAB (rsyslog: `#011`) is a continuation line; a
/// later chunk that `is_part_start` accepts starts the next part line;
/// anything else is the rest of a line PostgreSQL split at 900 bytes and is
/// appended. `#011` becomes a TAB; `#012` (newline, when
/// syslog_split_messages is off) splits lines. A part is complete when its
/// process starts the next part, at the first line past kWindowLines
/// further lines that brought nothing for it, or at Finish(); parts are delivered in the order of
/// their first lines, each once it and every earlier part are complete.
/// Not thread-safe; not copyable.
class SyslogLineJoiner {
 public:
  static constexpr uint64_t kWindowLines = 1000;

  struct Callbacks {
    /// True when a text starts with the PostgreSQL prefix and a label.
    std::function<bool(std::string_view text)> is_part_start;
    /// A part line; `time` is the syslog time of its first chunk.
    std::function<void(int64_t pid, std::string_view time, std::string_view line,
                       uint64_t line_no)> on_part;
    /// A continuation line of the part delivered last, without its TAB.
    std::function<void(std::string_view text, uint64_t line_no)> on_continuation;
  };

  explicit SyslogLineJoiner(Callbacks callbacks);
  SyslogLineJoiner(const SyslogLineJoiner&) = delete;
  SyslogLineJoiner& operator=(const SyslogLineJoiner&) = delete;

  /// Takes the frame of input line `line_no`. Returns false when the line
  /// is not understood: its part does not start with a prefix and label, or
  /// it continues such a part, or nothing it could continue is open.
  bool OnFrame(const SyslogFrame& frame, uint64_t line_no);
  /// Delivers every part still open, oldest first.
  void Finish();

  // For a block read on several threads (syslog_blocks.h).
  /// Appends what tells this state from another's after the same lines:
  /// for each part not delivered yet, in order, its first line (less
  /// `line_shift`), pid, seq, whether it is matched and open, its idle
  /// lines when open, and the sizes of its line and continuations.
  void Fingerprint(uint64_t line_shift, std::vector<uint64_t>* out) const;
  /// Adds `n` to the line numbers of every part not delivered yet.
  void ShiftLines(uint64_t n);
  /// Takes `other`'s parts and counts; this joiner's callbacks stay.
  void TakeState(SyslogLineJoiner&& other);

 private:
  // kFirst: chunk 1; kLaterChunk: chunk 2, 3, ...; kSingle: "[n]" or no
  // number; kLaterSegment: the text after a #012.
  enum class Piece { kFirst, kLaterChunk, kSingle, kLaterSegment };
  struct Group {
    int64_t pid = 0;
    std::optional<uint64_t> seq;
    bool matched = false;  // its part line starts with prefix and label
    bool open = false;     // may still receive chunks
    uint64_t line_no = 0;
    uint64_t last_seen = 0;  // ordinal of its last input line
    std::string time;
    std::string line;
    std::string continuations;  // texts back to back
    std::vector<std::pair<size_t, uint64_t>> ends;  // end offset, line_no
  };

  bool OnPiece(const SyslogFrame& frame, std::string_view text, Piece piece,
               uint64_t line_no);
  bool StartPart(const SyslogFrame& frame, std::string_view text, uint64_t line_no);
  Group* OpenGroup(int64_t pid);
  void Close(Group& g);
  /// Delivers the complete parts at the front of order_.
  void Release();
  /// Closes every part idle for more than kWindowLines lines: called for
  /// each line, before it is read, so that when a part closes depends only
  /// on the lines since its last one (not on where the count began).
  void EvictStale() {
    if (!by_pid_.empty() && ordinal_ - oldest_seen_ > kWindowLines) FlushStale();
  }
  void FlushStale();

  Callbacks cb_;
  std::vector<Group> groups_;                  // slots, reused
  std::vector<size_t> free_;                   // slots delivered, reusable
  std::deque<size_t> order_;                   // slots not delivered, by first line
  std::unordered_map<int64_t, size_t> by_pid_;  // open group of each pid
  std::string text_;                           // unescaped text of the line
  uint64_t ordinal_ = 0;
  uint64_t oldest_seen_ = 0;  // at most the least last_seen of the open parts
};

}  // namespace lockgraph
