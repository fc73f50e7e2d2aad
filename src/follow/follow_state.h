// The state file of `lockgraph follow --state FILE`: per followed file its
// identity, the bytes and lines read, how many events it has given, and
// the output file's size when the state was saved. Written atomically
// (temp file, fsync, rename) after every batch of events.
// Why this is enough to resume exactly: docs/follow.md#state.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "follow/file_identity.h"

namespace lockgraph {

/// One followed file. Copyable.
struct FileState {
  std::string path;     // where it was last seen
  FileId id;
  uint64_t offset = 0;  // bytes read (whole lines only)
  uint64_t lines = 0;   // lines read
  /// Events the file's parser has given, in the order it gave them (those
  /// of a resumed run included). On resume the file is read again from its
  /// first byte (the parser's open records and lock waits are rebuilt from
  /// the lines themselves) and the first `events` events are not written again.
  uint64_t events = 0;
  HeadPrint head;         // to recognise the file's copytruncate copy
  bool finished = false;  // read to its end and closed (rotated away)
  bool skipped = false;   // not followed (compressed, unknown format)
  bool operator==(const FileState&) const = default;
};

/// Where the events went: on resume, bytes of the output file after
/// `size` were written after the last save and are cut (they are written
/// again). Empty path: stdout.
struct OutputState {
  std::string path;
  FileId id;
  uint64_t size = 0;
  bool operator==(const OutputState&) const = default;
};

struct FollowState {
  std::vector<FileState> files;
  OutputState output;
  bool operator==(const FollowState&) const = default;
};

/// The state as JSON text (one object, "version": 1).
std::string StateToJson(const FollowState& state);
/// Parses StateToJson's text; false and *error on anything else.
bool StateFromJson(const std::string& text, FollowState* state, std::string* error);

/// Reads `path`. A missing file is no error (a first start: *state empty,
/// *existed false); an unreadable or malformed one is.
bool LoadState(const std::string& path, FollowState* state, bool* existed, std::string* error);
/// Writes `path` atomically: PATH.tmp, fsync, rename, fsync of the folder.
bool SaveState(const std::string& path, const FollowState& state, std::string* error);

}  // namespace lockgraph
