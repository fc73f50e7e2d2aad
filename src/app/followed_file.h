// One file `lockgraph follow` follows: its descriptor, its parser and
// where it stands (follow/follow_state.h). Shared by follower.cc and
// follower_files.cc only.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <memory>
#include <string>

#include "follow/follow_state.h"
#include "parsers/input_format.h"

namespace lockgraph {

struct Followed {
  FileState st;            // path, identity, offset, lines, events, head
  std::string name;        // the name its events carry (the path it was found at)
  int fd = -1;
  uint64_t suppress = 0;      // events already written before a restart
  uint64_t resume_lines = 0;  // lines whose counts were told before a restart
  std::unique_ptr<LineParser> parser;
  LineCounts told;            // line counts told to the observer
  bool dirty = false;         // lines parsed since the last flush
  bool moved = false;         // the path names another file now (renamed, deleted)
  bool replaced = false;      // its first bytes changed while it was read
  int64_t last_data_ms = 0;
  int64_t mtime_ms = 0;
  uint64_t sniff_size = 0;  // size when its format was last looked for
  /// The format was chosen on fewer than 200 lines: it is chosen again as
  /// lines come (a prefix told from a few startup lines may be wrong).
  bool provisional = false;
  std::string decision;     // format, detected detail and framing chosen
  size_t sniff_lines = 0;   // lines the decision was made on
  ~Followed() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace lockgraph
