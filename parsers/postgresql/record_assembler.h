// Assembles stderr-style physical lines (prefix + "LABEL:  text", TAB
// continuations) into whole LogRecords, per backend, even where other
// backends' lines come between the parts of one message. Records leave in
// the order their first lines came, so that the lock-wait tracker sees the
// log's order. Used by the stderr and syslog readers.
// Algorithm: docs/postgresql.md#record-assembly.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/log_record.h"

namespace lockgraph {

/// The part label of a physical line, canonical English.
enum class PartLabel {
  kPrimary,    // a severity: LOG, ERROR, ... (starts a new message)
  kDetail,
  kHint,
  kQuery,
  kContext,
  kLocation,
  kBacktrace,
  kStatement,
};

/// One prefixed physical line, already split by the prefix matcher.
struct PrefixedLine {
  PartLabel label = PartLabel::kPrimary;
  std::string_view severity;  // canonical, for kPrimary
  std::string_view sqlstate;  // from "ERROR:  40P01: " (verbose) or %e
  std::string_view text;      // after "LABEL:  "
  std::optional<int64_t> pid;
  std::string_view time;
  const SessionInfo* session = nullptr;  // may be null
};

class RecordAssembler {
 public:
  using Emit = std::function<void(LogRecord&&)>;
  /// `interesting` decides from the primary message whether a record is
  /// assembled at all; the others only close their backend's open record.
  /// `orphan_detail`, when set, decides whether a DETAIL whose primary line
  /// is not in the input (grep output, an excerpt) still opens a record of
  /// its own, flagged LogRecord::primary_missing.
  RecordAssembler(std::string file, Emit emit,
                  std::function<bool(std::string_view)> interesting,
                  std::function<bool(std::string_view)> orphan_detail = nullptr);

  void OnPrefixed(const PrefixedLine& line, uint64_t line_no);
  /// A TAB continuation line (TAB already removed): belongs to the last
  /// part of the backend whose line came last.
  void OnContinuation(std::string_view text, uint64_t line_no);
  /// End of input: emit everything still open, flagged as truncated when a
  /// deadlock report has fewer query lines than edges.
  void Finish();
  /// The input paused between whole messages (LineParser::Flush): emits
  /// every open record, unflagged, in order; later lines go on as before.
  void CloseAll();
  /// As CloseAll(), but the record Finish() would flag as truncated (see
  /// LooksCut) stays open: a pause of analyze's pipe (FlushMode::kSameOutput).
  void CloseComplete();

  /// True while some backend's record is open: then every prefixed line
  /// must go through OnPrefixed. When false, a reader may skip the lines of
  /// records it knows are uninteresting (the stderr fast path).
  bool HasOpen() const { return !open_.empty(); }
  /// True when the backend whose line came last has an open record.
  bool LastIsOpen() const { return last_key_ && open_.count(*last_key_) != 0; }
  /// True when backend `pid` has an open record.
  bool IsOpen(int64_t pid) const { return open_.count(pid) != 0; }
  /// A prefixed line of backend `pid` that the reader skipped (it has no
  /// open record and starts none): closes a finished record of the backend
  /// before it, and keeps the TAB lines after it away from open records.
  void OnSkippedLine(int64_t pid);
  /// A part line of backend `pid` a reader's fast path did not match whole
  /// because it cannot start a record (an uninteresting primary message,
  /// any part but an orphan DETAIL): OnSkippedLine() when the backend has
  /// no open record, else the part joins it as OnPrefixed() takes it.
  void OnUnmatchedPart(int64_t pid, PartLabel label, std::string_view severity,
                       std::string_view text, uint64_t line_no);

  /// Where records go from now on (an assembler taken over from a part
  /// read on another thread, stderr_chunks.h).
  void SetEmit(Emit emit) { emit_ = std::move(emit); }
  /// Adds `n` to the line numbers of every record not emitted yet.
  void ShiftLines(uint64_t n);
  /// Appends what tells this state from another's after the same lines
  /// (stderr_chunks.h): for each open record in order, its first line (less
  /// `line_shift`), pid, last part and idle lines; the backend of the last
  /// line; the first lines of the records closed but not yet emitted. A
  /// record that began on the same line in both has the same parts. Nothing
  /// when no record is open.
  void Fingerprint(uint64_t line_shift, std::vector<uint64_t>* out) const;

 private:
  struct Open {
    LogRecord record;
    PartLabel last = PartLabel::kPrimary;
    bool keep = false;
    uint64_t seq = 0;        // order of the primary line among records
    uint64_t last_seen = 0;  // ordinal of the last line, for eviction
  };
  void Close(int64_t key);
  /// The open record of the backend whose line came last, when the input
  /// ending here would leave it cut (an ERROR before its HINT); else null.
  Open* LooksCut();
  /// Closes every open record but the one of backend `kept`, in order.
  void CloseAllBut(std::optional<int64_t> kept);
  /// Opens the record of `line` (a primary line, or an orphan DETAIL).
  void Start(int64_t key, const PrefixedLine& line, uint64_t line_no);
  /// Emits closed records in the order their primary lines came, each once
  /// every record that started before it is closed too.
  void Release();
  /// Closes every record idle for more than kIdleLines lines: called for
  /// each line, before it is read, so that when a record goes depends only
  /// on the lines since its last one (not on where the count began).
  void EvictStale() {
    if (!open_.empty() && ordinal_ - oldest_seen_ > kIdleLines) EvictIdle();
  }
  void EvictIdle();
  static constexpr uint64_t kIdleLines = 20000;
  std::string* PartField(LogRecord& r, PartLabel label);

  std::string file_;
  Emit emit_;
  std::function<bool(std::string_view)> interesting_;
  std::function<bool(std::string_view)> orphan_detail_;
  std::unordered_map<int64_t, Open> open_;  // by pid (-1 when no pid)
  std::map<uint64_t, LogRecord> closed_;    // by seq, waiting for Release
  std::map<uint64_t, int64_t> open_by_seq_;  // seq -> key of every open record
  std::optional<int64_t> last_key_;
  uint64_t ordinal_ = 0;
  uint64_t next_seq_ = 0;
  uint64_t oldest_seen_ = 0;  // at most the least last_seen of the open records
};

}  // namespace lockgraph
