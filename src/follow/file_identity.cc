// See file_identity.h.
#include "follow/file_identity.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace lockgraph {
namespace {

FileStat FromStat(const struct stat& st) {
  FileStat s;
  s.id = {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
  s.size = static_cast<uint64_t>(st.st_size);
  s.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  s.regular = S_ISREG(st.st_mode);
  return s;
}

uint64_t Fnv1a(const unsigned char* p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

/// Reads up to `n` bytes from offset 0; returns how many.
size_t ReadHead(int fd, unsigned char* buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(fd, buf + got, n - got, static_cast<off_t>(got));
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

}  // namespace

std::optional<FileStat> StatPath(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return std::nullopt;
  return FromStat(st);
}

std::optional<FileStat> StatFd(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return std::nullopt;
  return FromStat(st);
}

HeadPrint HeadPrintOf(int fd, uint64_t max_len) {
  std::vector<unsigned char> buf(max_len);
  const size_t got = ReadHead(fd, buf.data(), buf.size());
  return {got, got ? Fnv1a(buf.data(), got) : 0};
}

bool HeadMatches(int fd, const HeadPrint& print) {
  if (print.len == 0) return false;  // an empty print matches nothing
  std::vector<unsigned char> buf(print.len);
  if (ReadHead(fd, buf.data(), buf.size()) != print.len) return false;
  return Fnv1a(buf.data(), buf.size()) == print.hash;
}

bool LooksCompressed(int fd) {
  unsigned char m[6] = {};
  const size_t n = ReadHead(fd, m, sizeof m);
  if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b) return true;                      // gzip
  if (n >= 3 && std::memcmp(m, "BZh", 3) == 0) return true;                      // bzip2
  if (n >= 6 && std::memcmp(m, "\xFD" "7zXZ\0", 6) == 0) return true;            // xz
  if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) return true;  // zstd
  return false;
}

FileChange ClassifyChange(const FileId& followed, uint64_t offset, const FileStat& by_fd,
                          const std::optional<FileStat>& by_path) {
  if (by_fd.size < offset) return FileChange::kTruncated;
  if (!by_path || !(by_path->id == followed)) return FileChange::kMoved;
  return by_fd.size > offset ? FileChange::kGrown : FileChange::kSame;
}

}  // namespace lockgraph
