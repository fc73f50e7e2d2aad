// The Follower's work on one file: looking for its format, reading its new
// lines, flushing it when quiet, following it through copytruncate and
// renames, closing it when rotated away; and the state it resumes from.
// docs/follow.md#rotation, docs/follow.md#state.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iostream>

#include "app/followed_file.h"
#include "app/follower.h"
#include "follow/target_scan.h"
#include "parsers/flushable.h"

namespace lockgraph {
namespace {

constexpr size_t kSniffLines = 200;
constexpr size_t kSniffBytes = 1 << 20;
constexpr size_t kChunk = 1 << 20;
constexpr size_t kBatchBytes = 1 << 20;

std::string Dirname(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

/// Every regular, not hidden file of `folder`.
std::vector<std::string> FilesIn(const std::string& folder) {
  std::vector<std::string> paths;
  DIR* dir = opendir(folder.c_str());
  if (!dir) return paths;
  while (const dirent* e = readdir(dir))
    if (e->d_name[0] != '.') paths.push_back(folder + "/" + e->d_name);
  closedir(dir);
  return paths;
}

/// The complete lines at the start of `fd` (up to kSniffLines / kSniffBytes).
std::vector<std::string> HeadLines(int fd) {
  std::string buf(kSniffBytes, '\0');
  const ssize_t n = pread(fd, buf.data(), buf.size(), 0);
  std::vector<std::string> lines;
  if (n <= 0) return lines;
  buf.resize(static_cast<size_t>(n));
  size_t start = 0;
  for (size_t nl; lines.size() < kSniffLines && (nl = buf.find('\n', start)) != std::string::npos;
       start = nl + 1)
    lines.push_back(buf.substr(start, nl - start));
  return lines;
}

/// True when two files start with the same bytes (up to kHeadPrintBytes,
/// as far as both go; at least one byte).
bool SameStart(int a, int b) {
  char x[kHeadPrintBytes], y[kHeadPrintBytes];
  const ssize_t n = pread(a, x, sizeof x, 0);
  const ssize_t m = pread(b, y, sizeof y, 0);
  const ssize_t len = std::min(n, m);
  return len > 0 && std::memcmp(x, y, static_cast<size_t>(len)) == 0;
}

/// "stderr (%m [%p] )", "csvlog", "stderr (...) in kubectl frames".
std::string DecisionOf(const InputFormat& format, const std::string& detected,
                       const FramingChoice& framing) {
  return format.Name() + (detected.empty() ? "" : " (" + detected + ")") +
         (framing.framing ? " in " + framing.framing->Name() + " frames" : "");
}

LineCounts Minus(const LineCounts& a, const LineCounts& b) {
  return {a.total - b.total, a.parsed - b.parsed, a.skipped - b.skipped, a.unparsed - b.unparsed,
          a.unattached - b.unattached};
}

}  // namespace

void Follower::Poll(Followed& f, int64_t now_ms) {
  const std::optional<FileStat> by_fd = StatFd(f.fd);
  if (!by_fd) return;
  f.mtime_ms = by_fd->mtime_ns / 1000000;
  const FileChange change = ClassifyChange(f.st.id, f.st.offset, *by_fd, StatPath(f.st.path));
  // Truncated and written again past the old offset between two looks:
  // the first bytes tell.
  if (change == FileChange::kTruncated || (f.st.head.len && !HeadMatches(f.fd, f.st.head)))
    OnTruncated(f);
  if (change == FileChange::kMoved && !f.moved) {
    f.moved = true;
    Note(f, "renamed or deleted: reading it to its end");
  }
  if (f.fd < 0 || (!f.parser && !OpenFormat(f, now_ms))) return;
  const uint64_t before = f.st.offset;
  ReadNew(f, false);
  if (f.replaced) {  // truncated while it was read: nothing of the new bytes was parsed
    f.replaced = false;
    OnTruncated(f);
    if (f.fd < 0 || !f.parser) return;
    ReadNew(f, false);
  }
  if (f.st.offset != before) {
    f.last_data_ms = now_ms;
    f.dirty = true;
    if (f.provisional) Resniff(f);
  }
  if (f.dirty && now_ms - f.last_data_ms >= options_.quiet_ms) {
    current_ = &f;
    FlushParser(*f.parser);
    current_ = nullptr;
    f.dirty = false;
  }
  if (now_ms - f.last_data_ms >= options_.finish_ms) {
    if (f.moved) FinishFile(f, "finished: renamed away and quiet");
    else if (Superseded(f)) FinishFile(f, "finished: a newer file of its folder is written");
  }
}

bool Follower::OpenFormat(Followed& f, int64_t now_ms) {
  if (LooksCompressed(f.fd)) {
    f.st.head = HeadPrintOf(f.fd);  // to know it again (ForgetReusedId)
    f.st.skipped = true;
    changed_ = true;
    close(f.fd);
    f.fd = -1;
    Note(f, "compressed: not followed (a rotated log: `lockgraph analyze` reads it)");
    return false;
  }
  const std::optional<FileStat> st = StatFd(f.fd);
  if (!st || st->size == f.sniff_size) return false;
  const std::vector<std::string> head = HeadLines(f.fd);
  if (head.empty()) return false;
  // A file just begun may hold a few lines only: wait for 200 or a pause.
  if (head.size() < kSniffLines && now_ms - f.last_data_ms < options_.quiet_ms) return false;
  std::string detected, error;
  FramingChoice framing;
  const InputFormat* format = analyzer_.ChooseFormat(head, f.name, &detected, &framing, &error);
  f.sniff_size = st->size;
  if (!format) {
    if (head.size() < kSniffLines && st->size < kSniffBytes) return false;  // more lines may tell
    f.st.head = HeadPrintOf(f.fd);
    f.st.skipped = true;
    changed_ = true;
    close(f.fd);
    f.fd = -1;
    Note(f, "not followed: " + error);
    return false;
  }
  const ParseOptions& parse = analyzer_.parse_options();
  f.parser = framing.framing ? MakeFramedParser(*framing.framing, *format, detected, f.name, parse,
                                                head, *this)
                             : format->CreateParser(f.name, parse, detected, *this);
  f.parser->Prepare(head);
  f.decision = DecisionOf(*format, detected, framing);
  f.provisional = head.size() < kSniffLines;
  f.sniff_lines = head.size();
  Note(f, "format " + f.decision);
  return true;
}

void Follower::Resniff(Followed& f) {
  const std::vector<std::string> head = HeadLines(f.fd);
  if (head.size() <= f.sniff_lines) return;
  std::string detected, error;
  FramingChoice framing;
  const InputFormat* format = analyzer_.ChooseFormat(head, f.name, &detected, &framing, &error);
  f.sniff_lines = head.size();
  f.provisional = head.size() < kSniffLines;
  if (!format || DecisionOf(*format, detected, framing) == f.decision) return;
  // Chosen again from the start, as analyze would choose it on these lines.
  Note(f, "format " + DecisionOf(*format, detected, framing) + " (more lines tell): read again");
  f.parser.reset();
  f.suppress += f.st.events;  // written, whatever the new parser makes of them
  f.resume_lines = std::max(f.resume_lines, f.st.lines);
  f.st.offset = f.st.lines = f.st.events = 0;
  f.sniff_size = 0;
  if (OpenFormat(f, f.last_data_ms + options_.quiet_ms)) ReadNew(f, false);  // no pause to wait for
}

void Follower::ReadNew(Followed& f, bool to_the_end) {
  std::string buf;
  size_t want = kChunk;
  current_ = &f;
  for (;;) {
    buf.resize(want);
    const ssize_t n = pread(f.fd, buf.data(), want, static_cast<off_t>(f.st.offset));
    if (n <= 0) break;
    // Bytes of another generation of the file (copytruncate between the
    // look and the read) are not parsed as the rest of this one.
    if (f.st.head.len && !HeadMatches(f.fd, f.st.head)) {
      f.replaced = true;
      break;
    }
    size_t start = 0;
    for (size_t nl; (nl = buf.find('\n', start)) != std::string::npos && nl < size_t(n); start = nl + 1)
      FeedLine(f, std::string_view(buf.data() + start, nl - start));
    const bool last = static_cast<size_t>(n) < want;
    if (last && to_the_end && start < static_cast<size_t>(n)) {  // a last line without '\n'
      FeedLine(f, std::string_view(buf.data() + start, n - start));
      start = static_cast<size_t>(n);
    }
    f.st.offset += start;
    // A long read (a first start, a resume) writes as it goes: memory stays flat.
    if (batch_.size() >= kBatchBytes) Commit(false);
    if (last) break;
    if (start == 0) want *= 2;  // one line longer than the buffer
  }
  current_ = nullptr;
  if (f.st.head.len < kHeadPrintBytes) f.st.head = HeadPrintOf(f.fd);
  ReportLines(f);
}

void Follower::FeedLine(Followed& f, std::string_view line) {
  ++f.st.lines;
  f.parser->ParseLine(line, f.st.lines);
  if (f.st.lines == f.resume_lines) f.told = f.parser->counts();  // told before the restart
}

void Follower::ReportLines(Followed& f) {
  if (!observer_ || !f.parser) return;
  const LineCounts now = f.parser->counts();
  if (f.st.lines <= f.resume_lines) {
    f.told = now;
    return;
  }
  const LineCounts added = Minus(now, f.told);
  f.told = now;
  if (added.total) observer_->OnLines(f.name, added);
}

void Follower::FinishFile(Followed& f, const std::string& why) {
  if (f.parser) {
    ReadNew(f, true);
    current_ = &f;
    f.parser->Finish();
    current_ = nullptr;
    ReportLines(f);
    f.parser.reset();
  }
  close(f.fd);
  f.fd = -1;
  f.st.finished = true;
  f.dirty = false;
  changed_ = true;
  Note(f, why);
}

bool Follower::Superseded(const Followed& f) const {
  const std::string folder = Dirname(f.st.path);
  for (const auto& g : files_)
    if (g.get() != &f && g->fd >= 0 && Dirname(g->st.path) == folder &&
        g->mtime_ms > f.mtime_ms + options_.finish_ms)
      return true;
  return false;
}

void Follower::OnTruncated(Followed& f) {
  if (AdoptCopy(f)) return;
  Note(f, "truncated below byte " + std::to_string(f.st.offset) +
              " and no copy of it in its folder: lines written after the last read and before "
              "the truncation are lost; reading it again from its start");
  if (f.parser) {
    current_ = &f;
    f.parser->Finish();
    current_ = nullptr;
    ReportLines(f);
    f.parser.reset();
  }
  FileState fresh;
  fresh.path = f.st.path;
  fresh.id = f.st.id;
  f.st = fresh;
  f.suppress = f.resume_lines = f.sniff_size = 0;
  f.told = LineCounts();
  f.dirty = false;
  changed_ = true;
}

bool Follower::AdoptCopy(Followed& f) {
  if (f.st.head.len == 0) return false;
  for (const std::string& path : FilesIn(Dirname(f.st.path))) {
    const std::optional<FileStat> st = StatPath(path);
    if (!st || !st->regular || KnownId(st->id)) continue;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    if (!HeadMatches(fd, f.st.head)) {
      close(fd);
      continue;
    }
    close(f.fd);  // the truncated file comes back as a new one (AddNewFiles)
    // Lines written after the copy and before the truncation were read
    // from the file already: the copy holds nothing more.
    f.st.offset = std::min(f.st.offset, st->size);
    f.fd = fd;
    f.st.id = st->id;
    f.st.path = path;
    f.moved = true;
    changed_ = true;
    Note(f, "copytruncate: reading the rest from its copy");
    return true;
  }
  return false;
}

bool Follower::IsCopyOfKnown(int fd) const {
  for (const auto& g : files_) {
    // The print taken when the file was read: the file itself may be
    // truncated already when its copy is first seen.
    if (HeadMatches(fd, g->st.head) || (g->fd >= 0 && SameStart(fd, g->fd))) return true;
  }
  return false;
}

std::string Follower::FindById(const FileState& s, const std::vector<std::string>& scan) const {
  std::optional<FileStat> at = StatPath(s.path);
  if (at && at->id == s.id) return s.path;
  std::vector<std::string> candidates = scan;
  for (std::string& p : FilesIn(Dirname(s.path))) candidates.push_back(std::move(p));
  for (const std::string& p : candidates)
    if ((at = StatPath(p)) && at->id == s.id) return p;
  return "";
}

}  // namespace lockgraph
