// See record_assembler.h. A record is closed when its backend starts a new
// message, when the next prefixed line follows its STATEMENT (the last part
// elog.c writes), when it has been idle for kIdleLines lines, or at the end.
#include "parsers/postgresql/record_assembler.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace lockgraph {
namespace {

constexpr int64_t kNoPid = -1;

}  // namespace

RecordAssembler::RecordAssembler(std::string file, Emit emit,
                                 std::function<bool(std::string_view)> interesting,
                                 std::function<bool(std::string_view)> orphan_detail)
    : file_(std::move(file)),
      emit_(std::move(emit)),
      interesting_(std::move(interesting)),
      orphan_detail_(std::move(orphan_detail)) {}

std::string* RecordAssembler::PartField(LogRecord& r, PartLabel label) {
  switch (label) {
    case PartLabel::kPrimary: return &r.message;
    case PartLabel::kDetail: return &r.detail;
    case PartLabel::kHint: return &r.hint;
    case PartLabel::kContext: return &r.context;
    case PartLabel::kStatement: return &r.statement;
    default: return nullptr;  // QUERY, LOCATION, BACKTRACE: not kept
  }
}

void RecordAssembler::OnPrefixed(const PrefixedLine& line, uint64_t line_no) {
  ++ordinal_;
  EvictStale();
  const int64_t key = line.pid.value_or(kNoPid);
  if (last_key_ && *last_key_ != key) {
    auto last = open_.find(*last_key_);
    if (last != open_.end() && last->second.last == PartLabel::kStatement) Close(*last_key_);
  }
  last_key_ = key;
  if (line.label == PartLabel::kPrimary) {
    Close(key);
    // Records that cannot yield an event are not assembled at all: their
    // parts find no open record and are skipped.
    if (!interesting_(line.text)) return;
    Start(key, line, line_no);
  } else {
    auto it = open_.find(key);
    if (line.label == PartLabel::kDetail && orphan_detail_ &&
        (it == open_.end() || it->second.last >= line.label) && orphan_detail_(line.text)) {
      Close(key);  // a DETAIL of its own: the excerpt lost the line before it
      Start(key, line, line_no);
      return;
    }
    // A part without its primary line (input began mid-message) or out of
    // elog.c's order: nothing to attach it to; the line is still parsed.
    if (it == open_.end() || it->second.last >= line.label) return;
    Open& o = it->second;
    o.last = line.label;
    o.last_seen = ordinal_;
    o.record.source.last_line = line_no;
    if (o.keep)
      if (std::string* field = PartField(o.record, line.label)) *field = std::string(line.text);
  }
}

void RecordAssembler::Start(int64_t key, const PrefixedLine& line, uint64_t line_no) {
  Open& o = open_[key];
  o.record.source = {file_, line_no, line_no, {}};
  o.record.time = std::string(line.time);
  o.record.pid = line.pid;
  if (line.label == PartLabel::kPrimary) {
    o.record.severity = std::string(line.severity);
    o.record.sqlstate = std::string(line.sqlstate);
    o.record.message = std::string(line.text);
  } else {
    o.record.primary_missing = true;
    o.record.detail = std::string(line.text);
    o.last = line.label;
  }
  o.keep = true;
  o.seq = next_seq_++;
  open_by_seq_.emplace(o.seq, key);
  if (line.session) o.record.session = *line.session;
  if (open_.size() == 1) oldest_seen_ = ordinal_;
  o.last_seen = ordinal_;
}

void RecordAssembler::OnSkippedLine(int64_t pid) {
  ++ordinal_;
  EvictStale();
  if (last_key_ && *last_key_ != pid) {
    auto last = open_.find(*last_key_);
    if (last != open_.end() && last->second.last == PartLabel::kStatement) Close(*last_key_);
  }
  last_key_ = pid;
}

void RecordAssembler::OnUnmatchedPart(int64_t pid, PartLabel label, std::string_view severity,
                                      std::string_view text, uint64_t line_no) {
  if (!IsOpen(pid)) {
    OnSkippedLine(pid);
    return;
  }
  PrefixedLine part;
  part.label = label;
  part.severity = severity;
  part.pid = pid;
  part.text = text;
  OnPrefixed(part, line_no);
}

void RecordAssembler::OnContinuation(std::string_view text, uint64_t line_no) {
  ++ordinal_;
  EvictStale();
  if (!last_key_) return;
  auto it = open_.find(*last_key_);
  if (it == open_.end()) return;
  Open& o = it->second;
  o.record.source.last_line = line_no;
  o.last_seen = ordinal_;
  if (!o.keep) return;
  if (std::string* field = PartField(o.record, o.last)) {
    field->push_back('\n');
    field->append(text);
  }
}

void RecordAssembler::Close(int64_t key) {
  auto it = open_.find(key);
  if (it == open_.end()) return;
  closed_.emplace(it->second.seq, std::move(it->second.record));
  open_by_seq_.erase(it->second.seq);
  open_.erase(it);
  Release();
}

void RecordAssembler::Release() {
  const uint64_t oldest_open = open_by_seq_.empty() ? UINT64_MAX : open_by_seq_.begin()->first;
  while (!closed_.empty() && closed_.begin()->first < oldest_open) {
    LogRecord record = std::move(closed_.begin()->second);
    closed_.erase(closed_.begin());
    emit_(std::move(record));
  }
}

// oldest_seen_ is at most the least last_seen of the open records: a
// record's last_seen only grows, and a record starts at the current ordinal.
void RecordAssembler::EvictIdle() {
  std::vector<int64_t> stale;
  uint64_t oldest = ordinal_;
  for (const auto& [key, o] : open_) {
    if (ordinal_ - o.last_seen > kIdleLines) {
      stale.push_back(key);
    } else {
      oldest = std::min(oldest, o.last_seen);
    }
  }
  oldest_seen_ = oldest;
  std::sort(stale.begin(), stale.end());
  for (int64_t key : stale) Close(key);
}

void RecordAssembler::ShiftLines(uint64_t n) {
  for (auto& [key, o] : open_) {
    o.record.source.first_line += n;
    o.record.source.last_line += n;
  }
  for (auto& [seq, record] : closed_) {
    record.source.first_line += n;
    record.source.last_line += n;
  }
}

void RecordAssembler::Fingerprint(uint64_t line_shift, std::vector<uint64_t>* out) const {
  if (open_.empty()) return;  // then nothing is pending either
  out->push_back(last_key_ ? static_cast<uint64_t>(*last_key_) : UINT64_MAX);
  for (const auto& [seq, key] : open_by_seq_) {
    const Open& o = open_.at(key);
    out->insert(out->end(), {o.record.source.first_line - line_shift, static_cast<uint64_t>(key),
                             static_cast<uint64_t>(o.last), ordinal_ - o.last_seen});
  }
  out->push_back(UINT64_MAX);
  for (const auto& [seq, record] : closed_) out->push_back(record.source.first_line - line_shift);
}

RecordAssembler::Open* RecordAssembler::LooksCut() {
  // The record the input ended in may be cut: an ERROR always has at least
  // a HINT after its DETAIL in the messages we read (deadlock detected).
  if (!last_key_) return nullptr;
  auto it = open_.find(*last_key_);
  if (it != open_.end() && it->second.keep && it->second.record.severity == "ERROR" &&
      it->second.last < PartLabel::kHint)
    return &it->second;
  return nullptr;
}

void RecordAssembler::Finish() {
  if (Open* cut = LooksCut()) cut->record.truncated = true;
  CloseAll();
  last_key_.reset();
}

void RecordAssembler::CloseAll() { CloseAllBut(std::nullopt); }

void RecordAssembler::CloseComplete() {
  const Open* cut = LooksCut();
  CloseAllBut(cut ? last_key_ : std::nullopt);
}

void RecordAssembler::CloseAllBut(std::optional<int64_t> kept) {
  std::vector<std::pair<uint64_t, int64_t>> order;
  for (const auto& [key, o] : open_)
    if (key != kept) order.push_back({o.record.source.first_line, key});
  std::sort(order.begin(), order.end());
  for (const auto& [line, key] : order) Close(key);
  Release();
}

}  // namespace lockgraph
