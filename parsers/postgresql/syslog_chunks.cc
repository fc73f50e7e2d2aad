// See syslog_chunks.h. How PostgreSQL cuts a message into syslog records is
// described in reference §6.5 (write_syslog: one record per physical line,
// lines over 900 bytes cut at a word boundary, seq shared across forks).
#include "parsers/postgresql/syslog_chunks.h"

#include <algorithm>

namespace lockgraph {
namespace {

bool StartsWithTab(std::string_view s) { return !s.empty() && s.front() == '\t'; }

}  // namespace

SyslogLineJoiner::SyslogLineJoiner(Callbacks callbacks) : cb_(std::move(callbacks)) {}

SyslogLineJoiner::Group* SyslogLineJoiner::OpenGroup(int64_t pid) {
  auto it = by_pid_.find(pid);
  return it == by_pid_.end() ? nullptr : &groups_[it->second];
}

bool SyslogLineJoiner::OnFrame(const SyslogFrame& frame, uint64_t line_no) {
  ++ordinal_;
  EvictStale();
  // Unescape the whole message so that the text stays a suffix of it.
  const size_t bracket = frame.text.data() - frame.message.data();
  std::string_view message = UnescapeSyslog(frame.message, &text_);
  std::string_view text = message.substr(std::min(bracket, message.size()));
  Piece piece = !frame.chunk ? Piece::kSingle
                : *frame.chunk == 1 ? Piece::kFirst : Piece::kLaterChunk;
  // "[N] " may be PostgreSQL's own "[%p] " (stderr captured by journald),
  // not a syslog sequence number: keep it when only then the prefix fits.
  if (piece == Piece::kSingle && bracket > 0 && !cb_.is_part_start(text) &&
      cb_.is_part_start(message))
    text = message;
  // With syslog_split_messages off, the message's newlines are escaped
  // (#012) rather than cut into records: each one starts a segment.
  size_t nl = text.find('\n');
  bool parsed = OnPiece(frame, text.substr(0, nl), piece, line_no);
  while (nl != std::string_view::npos) {
    text.remove_prefix(nl + 1);
    nl = text.find('\n');
    OnPiece(frame, text.substr(0, nl), Piece::kLaterSegment, line_no);
  }
  return parsed;
}

bool SyslogLineJoiner::OnPiece(const SyslogFrame& frame, std::string_view text, Piece piece,
                               uint64_t line_no) {
  Group* g = OpenGroup(frame.pid);
  if (g) g->last_seen = ordinal_;
  auto continuation = [&](std::string_view cont) {
    g->continuations.append(cont);
    g->ends.emplace_back(g->continuations.size(), line_no);
    return g->matched;
  };
  auto rest = [&]() {
    if (g->ends.empty()) {
      g->line.append(text);
    } else {
      g->continuations.append(text);
      g->ends.back().first = g->continuations.size();
    }
    return g->matched;
  };
  switch (piece) {
    case Piece::kFirst:
      return StartPart(frame, text, line_no);
    case Piece::kLaterChunk:
      if (!g || g->seq != frame.seq) return StartPart(frame, text, line_no);
      if (StartsWithTab(text)) return continuation(text.substr(1));
      if (cb_.is_part_start(text)) return StartPart(frame, text, line_no);
      return rest();
    case Piece::kSingle:
      if (StartsWithTab(text)) return g ? continuation(text.substr(1)) : false;
      if (cb_.is_part_start(text)) return StartPart(frame, text, line_no);
      // With syslog_sequence_numbers off, "[N]" numbers the chunks.
      if (g && frame.seq && *frame.seq > 1) return rest();
      return StartPart(frame, text, line_no);
    case Piece::kLaterSegment:
      if (cb_.is_part_start(text)) return StartPart(frame, text, line_no);
      if (!g) return false;
      return continuation(StartsWithTab(text) ? text.substr(1) : text);
  }
  return false;
}

bool SyslogLineJoiner::StartPart(const SyslogFrame& frame, std::string_view text,
                                 uint64_t line_no) {
  if (Group* open = OpenGroup(frame.pid)) Close(*open);
  size_t slot = groups_.size();
  if (free_.empty()) {
    groups_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  Group& g = groups_[slot];
  g.pid = frame.pid;
  g.seq = frame.seq;
  g.matched = cb_.is_part_start(text);
  g.open = true;
  g.line_no = line_no;
  g.last_seen = ordinal_;
  if (by_pid_.empty()) oldest_seen_ = ordinal_;
  g.time.assign(frame.time);
  g.line.assign(text);
  g.continuations.clear();
  g.ends.clear();
  by_pid_[frame.pid] = slot;
  order_.push_back(slot);
  Release();
  return g.matched;
}

void SyslogLineJoiner::Close(Group& g) {
  g.open = false;
  by_pid_.erase(g.pid);
}

void SyslogLineJoiner::Release() {
  while (!order_.empty() && !groups_[order_.front()].open) {
    const Group& g = groups_[order_.front()];
    if (g.matched) {
      cb_.on_part(g.pid, g.time, g.line, g.line_no);
      size_t begin = 0;
      for (const auto& [end, line_no] : g.ends) {
        cb_.on_continuation(std::string_view(g.continuations).substr(begin, end - begin),
                            line_no);
        begin = end;
      }
    }
    free_.push_back(order_.front());
    order_.pop_front();
  }
}

void SyslogLineJoiner::FlushStale() {
  oldest_seen_ = ordinal_;
  for (Group& g : groups_) {
    if (!g.open) continue;
    if (ordinal_ - g.last_seen > kWindowLines) {
      Close(g);
    } else {
      oldest_seen_ = std::min(oldest_seen_, g.last_seen);
    }
  }
  Release();
}

void SyslogLineJoiner::Fingerprint(uint64_t line_shift, std::vector<uint64_t>* out) const {
  for (size_t slot : order_) {
    const Group& g = groups_[slot];
    out->insert(out->end(),
                {g.line_no - line_shift, static_cast<uint64_t>(g.pid), g.seq.value_or(0),
                 (g.matched ? 1u : 0u) | (g.open ? 2u : 0u) | (g.seq ? 4u : 0u),
                 g.open ? ordinal_ - g.last_seen : 0,
                 g.line.size(), g.continuations.size(), g.ends.size()});
  }
}

void SyslogLineJoiner::ShiftLines(uint64_t n) {
  for (size_t slot : order_) {
    Group& g = groups_[slot];
    g.line_no += n;
    for (auto& end : g.ends) end.second += n;
  }
}

void SyslogLineJoiner::TakeState(SyslogLineJoiner&& other) {
  groups_ = std::move(other.groups_);
  free_ = std::move(other.free_);
  order_ = std::move(other.order_);
  by_pid_ = std::move(other.by_pid_);
  ordinal_ = other.ordinal_;
  oldest_seen_ = other.oldest_seen_;
}

void SyslogLineJoiner::Finish() {
  for (Group& g : groups_)
    if (g.open) Close(g);
  Release();
}

}  // namespace lockgraph
