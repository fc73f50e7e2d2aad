// See fs_waker.h.
#include "follow/fs_waker.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>

namespace lockgraph {

FsWaker::FsWaker() { fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

FsWaker::~FsWaker() {
  if (fd_ >= 0) close(fd_);
}

void FsWaker::Watch(const std::vector<std::string>& folders) {
  if (fd_ < 0) return;
  constexpr uint32_t kMask = IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE |
                             IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;
  for (const std::string& f : folders) {
    // Adding a watch twice is harmless (inotify returns the same one); a
    // folder made again after a delete needs it.
    if (inotify_add_watch(fd_, f.c_str(), kMask) >= 0 &&
        std::find(watched_.begin(), watched_.end(), f) == watched_.end())
      watched_.push_back(f);
  }
}

bool FsWaker::Wait(int timeout_ms) {
  if (fd_ < 0) {
    pollfd none{};
    poll(&none, 0, timeout_ms);
    return false;
  }
  pollfd p{fd_, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return false;
  char buf[8192];
  while (read(fd_, buf, sizeof buf) > 0) {
  }  // drain: the caller looks at every file anyway
  return true;
}

}  // namespace lockgraph
