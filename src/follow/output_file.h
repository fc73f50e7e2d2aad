// Where `lockgraph follow` writes its NDJSON: stdout, or a file that
// rotates by size (--output-max-size, --output-keep: FILE.1 is the newest
// rotated one) and is reopened on SIGHUP for an outside logrotate. Each
// batch is written with whole lines, so a reader never sees half an event.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "follow/file_identity.h"

namespace lockgraph {

/// Not copyable; not thread-safe.
class OutputFile {
 public:
  /// `path` empty or "-": stdout (never rotated). `max_size` 0: no rotation.
  OutputFile(std::string path, uint64_t max_size, unsigned keep);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Opens (appending, creating); false and *error when it cannot.
  bool Open(std::string* error);
  /// Writes `batch` (whole lines), rotating between two lines where the
  /// next would pass max_size. False and *error on a write error.
  bool Write(std::string_view batch, std::string* error);
  /// fdatasync of a file; nothing for stdout.
  void Sync();
  /// Closes and opens the path again (after logrotate moved the file).
  bool Reopen(std::string* error);
  /// Cuts back what was written after the last state save, which saw the
  /// file `id` at `size` bytes (resume writes those events again): the
  /// file itself when it is `id`; when `id` was rotated to FILE.1 since,
  /// FILE.1 back to `size` and all of FILE. Returns the bytes cut.
  uint64_t CutBackTo(const FileId& id, uint64_t size);

  bool is_stdout() const { return fd_ == 1 && path_.empty(); }
  const std::string& path() const { return path_; }
  FileId id() const { return id_; }
  uint64_t size() const { return size_; }

 private:
  bool Rotate(std::string* error);
  bool WriteRaw(std::string_view bytes, std::string* error);

  std::string path_;
  uint64_t max_size_;
  unsigned keep_;
  int fd_ = -1;
  FileId id_;
  uint64_t size_ = 0;
};

/// Parses "100M", "64k", "1G", "4096" (bytes); false on anything else.
bool ParseByteSize(const std::string& text, uint64_t* bytes);

}  // namespace lockgraph
