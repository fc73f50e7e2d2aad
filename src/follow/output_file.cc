// See output_file.h.
#include "follow/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace lockgraph {

OutputFile::OutputFile(std::string path, uint64_t max_size, unsigned keep)
    : path_(path == "-" ? std::string() : std::move(path)), max_size_(max_size), keep_(keep) {}

OutputFile::~OutputFile() {
  if (fd_ > 2) close(fd_);
}

bool OutputFile::Open(std::string* error) {
  if (path_.empty()) {
    fd_ = 1;
    return true;
  }
  fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    *error = path_ + ": " + std::strerror(errno);
    return false;
  }
  const std::optional<FileStat> st = StatFd(fd_);
  id_ = st ? st->id : FileId{};
  size_ = st ? st->size : 0;
  return true;
}

bool OutputFile::Write(std::string_view batch, std::string* error) {
  if (path_.empty() || max_size_ == 0) return WriteRaw(batch, error);
  // Whole lines into each file; a line longer than max_size_ alone in one.
  size_t start = 0;
  while (start < batch.size()) {
    size_t end = start;
    while (end < batch.size()) {
      size_t next = batch.find('\n', end);
      next = next == std::string_view::npos ? batch.size() : next + 1;
      if (end > start && size_ + (next - start) > max_size_) break;
      end = next;
    }
    if (size_ > 0 && size_ + (end - start) > max_size_) {
      if (!Rotate(error)) return false;
      continue;
    }
    if (!WriteRaw(batch.substr(start, end - start), error)) return false;
    start = end;
  }
  return true;
}

bool OutputFile::WriteRaw(std::string_view bytes, std::string* error) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error = (path_.empty() ? std::string("stdout") : path_) + ": " + std::strerror(errno);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  size_ += bytes.size();
  return true;
}

void OutputFile::Sync() {
  if (!path_.empty() && fd_ >= 0) fdatasync(fd_);
}

bool OutputFile::Reopen(std::string* error) {
  if (path_.empty()) return true;
  if (fd_ > 2) close(fd_);
  fd_ = -1;
  return Open(error);
}

bool OutputFile::Rotate(std::string* error) {
  // FILE.keep-1 -> FILE.keep ... FILE -> FILE.1; FILE.keep is overwritten.
  for (unsigned i = keep_; i > 1; --i) {
    const std::string from = path_ + "." + std::to_string(i - 1);
    const std::string to = path_ + "." + std::to_string(i);
    std::rename(from.c_str(), to.c_str());  // a missing one is fine
  }
  if (keep_ == 0) {
    unlink(path_.c_str());
  } else if (std::rename(path_.c_str(), (path_ + ".1").c_str()) != 0) {
    *error = path_ + ": cannot rotate: " + std::strerror(errno);
    return false;
  }
  return Reopen(error);
}

uint64_t OutputFile::CutBackTo(const FileId& id, uint64_t size) {
  if (path_.empty() || !id.valid()) return 0;
  uint64_t cut = 0;
  if (!(id == id_)) {
    // Rotated after the last save: the saved file is FILE.1 now, and all
    // of FILE came after the save.
    const std::string older = path_ + ".1";
    const std::optional<FileStat> st = StatPath(older);
    if (!st || !(st->id == id) || st->size < size) return 0;
    if (st->size > size && truncate(older.c_str(), static_cast<off_t>(size)) == 0)
      cut += st->size - size;
    size = 0;
  }
  if (size_ <= size || ftruncate(fd_, static_cast<off_t>(size)) != 0) return cut;
  cut += size_ - size;
  size_ = size;
  return cut;
}

bool ParseByteSize(const std::string& text, uint64_t* bytes) {
  if (text.empty()) return false;
  size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(text, &used);
  } catch (...) {  // std::invalid_argument, std::out_of_range: not a size
    return false;
  }
  const std::string unit = text.substr(used);
  uint64_t mult = 1;
  if (unit == "k" || unit == "K" || unit == "KiB") mult = 1ULL << 10;
  else if (unit == "M" || unit == "MiB") mult = 1ULL << 20;
  else if (unit == "G" || unit == "GiB") mult = 1ULL << 30;
  else if (!unit.empty()) return false;
  *bytes = n * mult;
  return true;
}

}  // namespace lockgraph
