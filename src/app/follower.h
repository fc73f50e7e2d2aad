// `lockgraph follow`: tails server logs across rotation and writes each
// deadlock and lock wait as an NDJSON event within ~100 ms of its last
// line, resuming exactly after a restart from a state file.
// Algorithm (rotation, quiet flush, the state): docs/follow.md.
#pragma once

#include <csignal>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/analyzer.h"
#include "emit/emitter.h"
#include "follow/follow_observer.h"
#include "follow/follow_state.h"
#include "follow/fs_waker.h"
#include "follow/output_file.h"
#include "parsers/flushable.h"

namespace lockgraph {

struct FollowOptions {
  std::vector<std::string> targets;  // FILE, DIR or GLOB
  std::string state_path;            // --state; empty: no resume
  std::string output_path;           // --output; empty or "-": stdout
  uint64_t output_max_size = 0;      // --output-max-size; 0: never rotate
  unsigned output_keep = 5;          // --output-keep
  int quiet_ms = kQuietFlushMs;      // --quiet: open records leave after this pause
  int poll_ms = 250;                 // --poll-interval: longest sleep between looks
  int finish_ms = 5000;              // --finish-after: a rotated-away file quiet this long is closed
  bool once = false;                 // --once: read what is there, flush, save, exit
  bool notes = true;                 // say on stderr what happens to each file
  AnalyzeOptions analyze;            // rules, redaction, --prefix, --input-format
};

/// Signals, set by the command's handlers; read between looks.
struct FollowSignals {
  volatile std::sig_atomic_t* stop = nullptr;    // SIGINT, SIGTERM
  volatile std::sig_atomic_t* reopen = nullptr;  // SIGHUP: reopen --output
};

struct Followed;  // one followed file (follower.cc)

/// Not copyable; one thread.
class Follower : public ParseSink, public EventStream {
 public:
  /// `observer` may be null; it must outlive the Follower.
  Follower(FollowOptions options, FollowObserver* observer);
  ~Follower() override;

  /// Loads the state, follows until a stop signal (or, with --once, until
  /// everything present was read), saves the state. Returns the exit code
  /// (docs/follow.md#exit-codes): 0 stopped cleanly, 2 usage, state or
  /// output error.
  int Run(const FollowSignals& signals);

  // ParseSink: what the file being read gives.
  void OnEvent(Event&& event) override;
  void OnUnparsed(const std::string& file, uint64_t line, std::string_view text) override;
  void OnDiagnostic(Diagnostic&& diag) override;
  // EventStream: the event after the rules, to write.
  void OnEvent(const Event& event) override;

 private:
  bool Start(std::string* error);
  void Resume(const FollowState& state);
  /// One look at every file; returns the milliseconds until the next is due.
  int Look(int64_t now_ms);
  void AddNewFiles(int64_t now_ms);
  void Poll(Followed& f, int64_t now_ms);
  bool OpenFormat(Followed& f, int64_t now_ms);
  /// While f's format is provisional: chooses it again on the lines there
  /// are now; when the choice changes, reads the file again from its start
  /// with the new parser (the events already written are not written again).
  void Resniff(Followed& f);
  void ReadNew(Followed& f, bool to_the_end);
  void FeedLine(Followed& f, std::string_view line);
  void OnTruncated(Followed& f);
  bool AdoptCopy(Followed& f);
  void FinishFile(Followed& f, const std::string& why);
  void ReportLines(Followed& f);
  void Note(const Followed& f, const std::string& what);
  bool Superseded(const Followed& f) const;
  bool KnownId(const FileId& id) const;
  /// True for the output's files and the state's, when in a followed folder.
  bool IsOwnFile(const std::string& path) const;
  /// The known file with identity `id` is closed and `path` now holds
  /// other bytes under that identity (an inode reused): forgets it, true.
  bool ForgetReusedId(const FileId& id, const std::string& path);
  /// True when `fd` starts as a followed file does (a copy being made, or
  /// made, by copytruncate): it is not followed as a file of its own.
  bool IsCopyOfKnown(int fd) const;
  /// Where the file of `s` is now (its path, or a target or a file of its
  /// folder with its identity); empty when gone.
  std::string FindById(const FileState& s, const std::vector<std::string>& scan) const;
  /// Writes the batch, syncs it, saves the state. False on an output error.
  bool Commit(bool force_save);
  FollowState CurrentState() const;

  FollowOptions options_;
  FollowObserver* observer_;
  Analyzer analyzer_;
  std::unique_ptr<Emitter> emitter_;
  OutputFile output_;
  FsWaker waker_;
  std::vector<std::unique_ptr<Followed>> files_;
  Followed* current_ = nullptr;  // the file whose lines are being parsed
  std::string batch_;            // events written since the last Commit
  bool changed_ = false;         // the state changed since the last save
  int64_t last_save_ms_ = 0;
  bool failed_ = false;
  std::string failure_;
};

}  // namespace lockgraph
