// See line_reader.h.
#include "io/line_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace lockgraph {
namespace {

constexpr size_t kChunk = 1 << 20;  // 1 MiB reads

std::string SystemError(const std::string& path, const char* what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

struct LineReader::Inflater {
  z_stream zs{};
  std::vector<unsigned char> in = std::vector<unsigned char>(kChunk);
  bool ready = false;
  ~Inflater() {
    if (ready) inflateEnd(&zs);
  }
};

LineReader::~LineReader() {
  if (owns_fd_ && fd_ >= 0) close(fd_);
}

std::unique_ptr<LineReader> LineReader::Open(const std::string& path, std::string* error) {
  std::unique_ptr<LineReader> r(new LineReader());
  r->path_ = path;
  if (path == "-") {
    r->fd_ = 0;
  } else {
    r->fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (r->fd_ < 0) {
      *error = SystemError(path, "cannot open");
      return nullptr;
    }
    r->owns_fd_ = true;
    posix_fadvise(r->fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  struct stat st;
  r->regular_file_ = fstat(r->fd_, &st) == 0 && S_ISREG(st.st_mode);
  r->buf_.resize(2 * kChunk);
  // Peek two bytes for the gzip magic; they stay in the raw buffer.
  unsigned char magic[2];
  long n = r->ReadRaw(reinterpret_cast<char*>(magic), 2, error);
  if (n < 0) return nullptr;
  if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    r->gzip_ = true;
    r->inflater_ = std::make_unique<Inflater>();
    auto& zs = r->inflater_->zs;
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
      *error = path + ": cannot start gzip decoder";
      return nullptr;
    }
    r->inflater_->ready = true;
    std::memcpy(r->inflater_->in.data(), magic, 2);
    zs.next_in = r->inflater_->in.data();
    zs.avail_in = 2;
  } else {
    std::memcpy(r->buf_.data(), magic, size_t(n));
    r->end_ = size_t(n);
  }
  return r;
}

long LineReader::ReadRaw(char* dst, size_t want, std::string* error) {
  size_t got = 0;
  while (got < want) {
    ssize_t n = read(fd_, dst + got, want - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = SystemError(path_, "read error");
      return -1;
    }
    if (n == 0) break;
    got += size_t(n);
    if (!regular_file_ && got > 0) break;  // a pipe: do not wait to fill the buffer
  }
  return long(got);
}

long LineReader::Fill(size_t want, std::string* error) {
  if (buf_.size() < end_ + want) buf_.resize(end_ + want);
  char* dst = buf_.data() + end_;
  if (!gzip_) {
    long n = ReadRaw(dst, want, error);
    if (n > 0) end_ += size_t(n);
    return n;
  }
  z_stream& zs = inflater_->zs;
  zs.next_out = reinterpret_cast<unsigned char*>(dst);
  zs.avail_out = unsigned(want);
  while (zs.avail_out == want) {
    if (zs.avail_in == 0) {
      long n = ReadRaw(reinterpret_cast<char*>(inflater_->in.data()), kChunk, error);
      if (n < 0) return -1;
      if (n == 0) break;
      zs.next_in = inflater_->in.data();
      zs.avail_in = unsigned(n);
    }
    int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members (e.g. `cat a.gz b.gz`) continue.
      inflateReset(&zs);
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      *error = path_ + ": corrupt gzip data (" + (zs.msg ? zs.msg : "inflate error") + ")";
      return -1;
    } else if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      continue;
    }
  }
  long n = long(want - zs.avail_out);
  end_ += size_t(n);
  return n;
}

const std::vector<std::string>& LineReader::Head(size_t n) {
  std::string error;
  while (head_.size() < n) {
    const char* data = buf_.data();
    const void* nl = std::memchr(data + begin_ + head_bytes_, '\n', end_ - begin_ - head_bytes_);
    if (nl) {
      const char* line = data + begin_ + head_bytes_;
      head_.emplace_back(line, static_cast<const char*>(nl) - line);
      head_bytes_ += head_.back().size() + 1;
      continue;
    }
    if (eof_) {
      // The last line of an input that does not end in a newline.
      if (end_ > begin_ + head_bytes_) {
        head_.emplace_back(data + begin_ + head_bytes_, end_ - begin_ - head_bytes_);
        head_bytes_ = end_ - begin_;
      }
      break;
    }
    // A pipe (tail -F | lockgraph): sniff what has come, do not wait for
    // more, or nothing would be reported until n lines arrived.
    if (!head_.empty() && !regular_file_) break;
    long got = Fill(kChunk, &error);
    if (got <= 0) eof_ = true;
  }
  return head_;
}

bool LineReader::ForEachLine(const std::function<void(std::string_view, uint64_t)>& fn,
                             std::string* error) {
  uint64_t line_no = 0;
  head_.clear();
  head_bytes_ = 0;
  for (;;) {
    char* data = buf_.data();
    size_t pos = begin_;
    while (pos < end_) {
      const void* nl = std::memchr(data + pos, '\n', end_ - pos);
      if (!nl) break;
      size_t len = static_cast<const char*>(nl) - (data + pos);
      fn(std::string_view(data + pos, len), ++line_no);
      pos += len + 1;
    }
    // Keep the unfinished line; move it to the front before reading more.
    size_t rest = end_ - pos;
    if (rest && pos) std::memmove(data, data + pos, rest);
    begin_ = 0;
    end_ = rest;
    if (eof_) break;
    long got = Fill(kChunk, error);
    if (got < 0) return false;
    if (got == 0) eof_ = true;
  }
  if (end_ > begin_) fn(std::string_view(buf_.data() + begin_, end_ - begin_), ++line_no);
  begin_ = end_ = 0;
  return true;
}

}  // namespace lockgraph
