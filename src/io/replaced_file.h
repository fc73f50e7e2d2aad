// A file written whole or not at all: the text goes to a temporary file
// beside it, renamed over it once complete (rename(2) is atomic within a
// directory), so a failed run leaves no half file behind and no copy of the
// text is held in memory (`lockgraph report -o FILE`).
#pragma once

#include <fstream>
#include <string>

namespace lockgraph {

/// Not thread-safe, not copyable.
class ReplacedFile {
 public:
  ReplacedFile() = default;
  ReplacedFile(const ReplacedFile&) = delete;
  ReplacedFile& operator=(const ReplacedFile&) = delete;
  /// Removes the temporary file unless Commit() succeeded.
  ~ReplacedFile();

  /// Creates the temporary file beside `path` (".NAME.lockgraph-XXXXXX" in
  /// its directory: a run killed before Commit leaves it there); a `path`
  /// that is a device, a pipe or a symbolic link is opened in place
  /// instead. False when it cannot be created or opened.
  bool Open(const std::string& path);
  /// Where to write; valid after Open().
  std::ostream& out() { return out_; }
  /// Closes the temporary file, gives it the mode a new file would have
  /// (0666 less the umask) and renames it to the path. False, with the
  /// temporary file removed, when a write, the close or the rename failed.
  bool Commit();

 private:
  std::string path_, temp_;
  std::ofstream out_;
};

}  // namespace lockgraph
