// What `lockgraph follow` knows of a file between two looks at it: its
// identity (st_dev, st_ino), its size, a print of its first bytes, and what
// changed since the last look (grown, truncated by copytruncate, replaced by
// a rename). Algorithm: docs/follow.md#rotation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lockgraph {

/// A file's identity on this machine. Copyable.
struct FileId {
  uint64_t dev = 0;
  uint64_t ino = 0;
  bool valid() const { return dev != 0 || ino != 0; }
  bool operator==(const FileId&) const = default;
};

struct FileStat {
  FileId id;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  bool regular = false;
};

/// stat()/fstat(); nullopt when the path or descriptor cannot be read.
std::optional<FileStat> StatPath(const std::string& path);
std::optional<FileStat> StatFd(int fd);

/// FNV-1a hash of a file's first `len` bytes. A copy made by logrotate's
/// copytruncate starts with the same bytes as the file it copied.
struct HeadPrint {
  uint64_t len = 0;
  uint64_t hash = 0;
  bool operator==(const HeadPrint&) const = default;
};

constexpr uint64_t kHeadPrintBytes = 4096;

/// The print of the first min(size, max_len) bytes of `fd` (pread: the
/// descriptor's offset does not move). len 0 for an empty or unreadable file.
HeadPrint HeadPrintOf(int fd, uint64_t max_len = kHeadPrintBytes);

/// True when the first `print.len` bytes of `fd` hash to `print.hash`.
bool HeadMatches(int fd, const HeadPrint& print);

/// True when `fd` starts with the magic bytes of gzip, bzip2, xz or zstd:
/// a rotated, compressed log that no server appends to.
bool LooksCompressed(int fd);

/// What happened to a followed file since the last look.
enum class FileChange {
  kSame,       // same identity at the path, no new bytes
  kGrown,      // new bytes after the offset read so far
  kTruncated,  // smaller than the offset read so far: copytruncate, start again from 0
  kMoved,      // the path now names another file or none: renamed (logrotate
               // create, or deleted); the open descriptor still reads the old one
};

/// Classifies a followed file from what its open descriptor (`by_fd`) and
/// its path (`by_path`, nullopt when the path is gone) say now. `offset`:
/// bytes read so far. Truncation wins over a move (it loses data unless
/// handled), a move over growth.
FileChange ClassifyChange(const FileId& followed, uint64_t offset, const FileStat& by_fd,
                          const std::optional<FileStat>& by_path);

}  // namespace lockgraph
