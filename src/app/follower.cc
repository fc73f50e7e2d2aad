// See follower.h. One look (Look) polls every followed file for new bytes,
// truncation and renames, flushes the records of a file that went quiet,
// closes files rotated away, then adds the files the targets name anew.
#include "app/follower.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/commands.h"
#include "app/followed_file.h"
#include "follow/target_scan.h"
#include "parsers/flushable.h"

namespace lockgraph {
namespace {

constexpr int64_t kSaveEveryMs = 1000;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Follower::Follower(FollowOptions options, FollowObserver* observer)
    : options_(std::move(options)),
      observer_(observer),
      analyzer_(options_.analyze, this),
      emitter_(MakeNdjsonEmitter()),
      output_(options_.output_path, options_.output_max_size, options_.output_keep) {
  analyzer_.set_input_paths(options_.targets);  // several servers' logs: events name theirs
}

Follower::~Follower() = default;

// --- events -----------------------------------------------------------------

void Follower::OnEvent(Event&& event) { analyzer_.OnEvent(std::move(event)); }

void Follower::OnUnparsed(const std::string& file, uint64_t line, std::string_view text) {
  analyzer_.OnUnparsed(file, line, text);
}

void Follower::OnDiagnostic(Diagnostic&& diag) {
  if (current_ && diag.line && diag.line <= current_->resume_lines) return;  // said before
  std::cerr << "lockgraph follow: " << diag.file << (diag.line ? ":" + std::to_string(diag.line) : "")
            << ": " << diag.message << '\n';
}

void Follower::OnEvent(const Event& event) {
  Followed* f = current_;
  if (!f) return;  // every event comes while a file is read
  ++f->st.events;
  changed_ = true;
  if (f->suppress > 0) {  // written before the restart
    --f->suppress;
    return;
  }
  std::ostringstream line;
  emitter_->OnEvent(event, line);
  batch_ += line.str();
  if (!observer_) return;
  observer_->OnEvent(event);
  for (const Finding& finding : event.findings) observer_->OnFinding(finding, event);
}

// --- the loop ---------------------------------------------------------------

int Follower::Run(const FollowSignals& signals) {
  std::string error;
  if (!Start(&error)) {
    std::cerr << "lockgraph follow: " << error << '\n';
    return kExitError;
  }
  while (!failed_) {
    if (signals.reopen && *signals.reopen) {
      *signals.reopen = 0;
      if (!output_.Reopen(&error)) std::cerr << "lockgraph follow: " << error << '\n';
    }
    const bool stopping = signals.stop && *signals.stop;
    const int64_t now = NowMs();
    int wait_ms = Look(now);
    if (stopping || (options_.once && wait_ms >= options_.poll_ms)) break;
    if (!Commit(false)) break;
    waker_.Wait(std::max(1, wait_ms));
  }
  for (auto& f : files_)  // records a restart would close alike (docs/follow.md#state)
    if (f->parser && f->dirty) {
      current_ = f.get();
      FlushParser(*f->parser);
      f->dirty = false;
    }
  current_ = nullptr;
  if (!Commit(true) || failed_) {
    std::cerr << "lockgraph follow: " << failure_ << '\n';
    return kExitError;
  }
  return kExitOk;
}

bool Follower::Start(std::string* error) {
  FollowState state;
  bool existed = false;
  if (!options_.state_path.empty() && !LoadState(options_.state_path, &state, &existed, error))
    return false;
  if (!output_.Open(error)) return false;
  if (existed && state.output.path == output_.path()) {
    if (uint64_t cut = output_.CutBackTo(state.output.id, state.output.size))
      std::cerr << "lockgraph follow: " << output_.path() << ": " << cut
                << " bytes written after the last saved state cut (written again)\n";
  }
  waker_.Watch(FoldersToWatch(options_.targets));
  Resume(state);
  return true;
}

int Follower::Look(int64_t now_ms) {
  for (auto& f : files_)
    if (f->fd >= 0) Poll(*f, now_ms);
  AddNewFiles(now_ms);
  waker_.Watch(FoldersToWatch(options_.targets));
  int wait = options_.poll_ms;
  for (auto& f : files_) {
    if (f->fd < 0) continue;
    if (f->dirty || (!f->parser && now_ms - f->last_data_ms < options_.quiet_ms))
      wait = std::min<int64_t>(wait, std::max<int64_t>(1, f->last_data_ms + options_.quiet_ms - now_ms));
  }
  return wait;
}

void Follower::AddNewFiles(int64_t now_ms) {
  for (const std::string& path : ExpandTargets(options_.targets)) {
    std::optional<FileStat> st = StatPath(path);
    if (!st || st->id == output_.id() || st->size == 0 || IsOwnFile(path)) continue;
    if (KnownId(st->id) && !ForgetReusedId(st->id, path)) continue;
    auto f = std::make_unique<Followed>();
    f->fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f->fd < 0) continue;  // unreadable now: looked at again next time
    if (IsCopyOfKnown(f->fd)) continue;  // logrotate's copytruncate copy (AdoptCopy)
    f->st.path = f->name = path;
    f->st.id = st->id;
    f->last_data_ms = now_ms;
    changed_ = true;
    Note(*f, "following");
    files_.push_back(std::move(f));
    Poll(*files_.back(), now_ms);
  }
}

bool Follower::IsOwnFile(const std::string& path) const {
  // The output's rotated files and the state's temporary file, when they
  // sit in a followed folder: follow must never read what it wrote.
  for (const std::string& own : {output_.path(), options_.state_path})
    if (!own.empty() && path.compare(0, own.size(), own) == 0) return true;
  return false;
}

bool Follower::ForgetReusedId(const FileId& id, const std::string& path) {
  auto it = std::find_if(files_.begin(), files_.end(),
                         [&](const auto& f) { return f->st.id == id; });
  Followed& known = **it;
  if (known.fd >= 0) return false;  // followed now: the same file
  // Closed or not followed: the identity may have been given to a new file
  // since (the file deleted, its inode reused).
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const std::optional<FileStat> st = StatFd(fd);
  const bool same = st && st->size >= known.st.offset && HeadMatches(fd, known.st.head);
  close(fd);
  if (same) return false;
  files_.erase(it);
  changed_ = true;
  return true;
}

bool Follower::KnownId(const FileId& id) const {
  for (const auto& f : files_)
    if (f->st.id == id) return true;
  return false;
}

void Follower::Note(const Followed& f, const std::string& what) {
  if (options_.notes) std::cerr << "lockgraph follow: " << f.st.path << ": " << what << '\n';
  if (observer_) observer_->OnFileNote(f.st.path, what);
}

// --- the state --------------------------------------------------------------

void Follower::Resume(const FollowState& state) {
  const std::vector<std::string> scan = ExpandTargets(options_.targets);
  for (const FileState& s : state.files) {
    const std::string path = FindById(s, scan);
    auto f = std::make_unique<Followed>();
    f->st = s;
    f->name = s.path;
    if (path.empty()) {
      if (!s.finished && !s.skipped)
        Note(*f, "gone while lockgraph was stopped: what it held after line " +
                     std::to_string(s.lines) + " is lost");
      changed_ = true;
      continue;  // forgotten
    }
    f->st.path = path;
    if (!s.finished && !s.skipped) {
      f->fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (f->fd < 0) continue;
      // Read again from the first byte (the open records and lock waits
      // come back from the lines); the events written before are not.
      f->st.offset = f->st.lines = f->st.events = 0;
      f->suppress = s.events;
      f->resume_lines = s.lines;
      const std::optional<FileStat> st = StatFd(f->fd);
      if (st && (st->size < s.offset || !HeadMatches(f->fd, s.head))) {
        f->st.offset = s.offset;  // truncated while stopped: its copy holds the rest
        files_.push_back(std::move(f));
        Followed& back = *files_.back();
        if (AdoptCopy(back)) back.st.offset = 0;
        else OnTruncated(back);
        continue;
      }
      f->last_data_ms = NowMs();
    }
    files_.push_back(std::move(f));
  }
}

FollowState Follower::CurrentState() const {
  FollowState state;
  for (const auto& f : files_) {
    FileState s = f->st;
    s.events += f->suppress;  // not seen again yet: still written
    s.lines = std::max(s.lines, f->resume_lines);
    state.files.push_back(std::move(s));
  }
  state.output = {output_.path(), output_.id(), output_.size()};
  return state;
}

bool Follower::Commit(bool force_save) {
  const bool wrote = !batch_.empty();
  if (wrote) {
    std::string error;
    if (!output_.Write(batch_, &error)) {
      failed_ = true;
      failure_ = error;
      return false;
    }
    output_.Sync();
    batch_.clear();
  }
  if (options_.state_path.empty()) return true;
  const int64_t now = NowMs();
  if (!force_save && !wrote && !(changed_ && now - last_save_ms_ >= kSaveEveryMs)) return true;
  std::string error;
  if (!SaveState(options_.state_path, CurrentState(), &error)) {
    failed_ = true;  // going on would write the events again after a restart
    failure_ = "cannot save the state: " + error;
    return false;
  }
  changed_ = false;
  last_save_ms_ = now;
  return true;
}

}  // namespace lockgraph
