// Sleeps until a watched folder changes (inotify) or a timeout passes, so
// that `lockgraph follow` reads new lines within milliseconds of their
// write without busy polling. Without inotify (not Linux, no watches left)
// it sleeps the timeout: the poll interval is then the latency.
#pragma once

#include <string>
#include <vector>

namespace lockgraph {

/// Not copyable. Not thread-safe.
class FsWaker {
 public:
  FsWaker();
  ~FsWaker();
  FsWaker(const FsWaker&) = delete;
  FsWaker& operator=(const FsWaker&) = delete;

  /// Watches each folder (again after it was recreated); folders it cannot
  /// watch are left to the timeout.
  void Watch(const std::vector<std::string>& folders);
  /// Returns after a change in a watched folder (true), after `timeout_ms`
  /// (false), or on a signal (false).
  bool Wait(int timeout_ms);
  bool uses_inotify() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
  std::vector<std::string> watched_;
};

}  // namespace lockgraph
