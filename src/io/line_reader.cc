// See line_reader.h.
#include "io/line_reader.h"

#include "io/decoder.h"
#include "io/read_ahead.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace lockgraph {
namespace {

// 128 KiB reads: what a read copies is still in the core's cache when its
// lines are parsed (1 MiB reads: csvlog on one core 1.28 s a GiB, 128 KiB
// 1.25 s; docs/performance.md "Reads that fit the cache").
constexpr size_t kChunk = 128 << 10;
/// A pipe's head: lines go on being collected for sniffing while they keep
/// coming at least this often (a slow writer, `tail -F` of a busy log); a
/// pipe quiet this long is sniffed on what has come.
constexpr int kPipeQuietMs = 300;

std::string SystemError(const std::string& path, const char* what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

LineReader::~LineReader() {
  if (owns_fd_ && fd_ >= 0) close(fd_);
}

std::string LineReader::compression() const { return decoder_ ? decoder_->Name() : ""; }

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
  // Peek at the magic bytes (a pipe may deliver them one read at a time).
  unsigned char magic[kMagicBytes];
  size_t have = 0;
  while (have < kMagicBytes) {
    long n = r->ReadRaw(reinterpret_cast<char*>(magic) + have, kMagicBytes - have, error);
    if (n < 0) return nullptr;
    if (n == 0) break;
    have += size_t(n);
  }
  std::string why;
  r->decoder_ = DecoderFor(magic, have, &why);
  if (!r->decoder_ && !why.empty()) {
    *error = path + ": " + why;
    return nullptr;
  }
  if (r->decoder_) {
    // The magic bytes are the first compressed input.
    r->gzip_ = std::string(r->decoder_->Name()) == "gzip";
    r->in_.resize(kChunk);
    std::memcpy(r->in_.data(), magic, have);
    r->in_len_ = have;
    // Decode the first block now: an input that yields nothing before it
    // is cut (one bzip2 block, say) is an error here, not an empty input.
    if (r->Fill(kChunk, error) < 0) return nullptr;
  } else {
    std::memcpy(r->buf_.data(), magic, have);
    r->end_ = have;
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
  long n = decoder_ ? Decode(dst, want, error) : ReadRaw(dst, want, error);
  if (n > 0) end_ += size_t(n);
  return n;
}

long LineReader::Decode(char* dst, size_t want, std::string* error) {
  unsigned char* out = reinterpret_cast<unsigned char*>(dst);
  size_t out_len = want;
  while (out_len == want) {
    if (in_len_ == 0 && !raw_eof_) {
      long n = ReadRaw(reinterpret_cast<char*>(in_.data()), in_.size(), error);
      if (n < 0) return -1;
      in_pos_ = 0;
      in_len_ = size_t(n);
      raw_eof_ = n == 0;
    }
    const unsigned char* in = in_.data() + in_pos_;
    const size_t before = in_len_;
    std::string why;
    if (!decoder_->Decode(&in, &in_len_, &out, &out_len, raw_eof_, &why)) {
      *error = path_ + ": " + why;
      return -1;
    }
    in_pos_ += before - in_len_;
    if (raw_eof_ && in_len_ == 0 && out_len == want) {
      // Nothing more comes out: a whole input ends at a stream boundary.
      if (decoder_->Complete()) break;
      *error = path_ + ": truncated " + decoder_->Name() +
               " input: it ends inside a compressed stream (cut download or copy?)";
      return -1;
    }
  }
  return long(want - out_len);
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
    // A pipe (tail -F | lockgraph): sniff what has come once the writer
    // pauses, or nothing would be reported until n lines arrived; but not
    // on a first line alone while more are on their way (a format guessed
    // from one line loses the records of the next ones).
    // (A compressed pipe is sniffed on what has come: its decoder may hold
    // output that no poll() of the descriptor shows.)
    if (!head_.empty() && !regular_file_) {
      struct pollfd p = {fd_, POLLIN, 0};
      if (decoder_ || poll(&p, 1, kPipeQuietMs) == 0) break;
    }
    long got = Fill(kChunk, &error);
    if (got < 0) pending_error_ = error;  // reported by ForEachLine
    if (got <= 0) eof_ = true;
  }
  return head_;
}

void LineReader::OnPause(int quiet_ms, std::function<void()> on_pause) {
  pause_ms_ = quiet_ms;
  on_pause_ = std::move(on_pause);
}

bool LineReader::QuietFor() const {
  if (!on_pause_ || regular_file_ || decoder_) return false;
  struct pollfd p = {fd_, POLLIN, 0};
  return poll(&p, 1, pause_ms_) == 0;  // an error or a signal: just read
}

bool LineReader::ForEachLine(const std::function<void(std::string_view, uint64_t)>& fn,
                             std::string* error) {
  uint64_t line_no = 0;
  uint64_t paused_at = 0;  // line_no at the last pause
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
    // A writer pauses between whole messages (tail -F of a quiet log):
    // only at a line boundary, once per pause, and only after new lines.
    if (rest == 0 && line_no > paused_at && QuietFor()) {
      paused_at = line_no;
      on_pause_();
    }
    long got = Fill(kChunk, error);
    if (got < 0) {
      pending_error_ = *error;
      eof_ = true;
    }
    if (got == 0) eof_ = true;
  }
  if (end_ > begin_) fn(std::string_view(buf_.data() + begin_, end_ - begin_), ++line_no);
  begin_ = end_ = 0;
  if (!pending_error_.empty()) {
    *error = pending_error_;
    return false;
  }
  return true;
}

void LineReader::ShareReads(std::function<void()> wake) {
  if (!regular_file_) return;
  ahead_ = std::make_unique<ReadAhead>(
      [this](char* dst, size_t want, std::string* error) {
        return decoder_ ? Decode(dst, want, error) : ReadRaw(dst, want, error);
      },
      std::move(wake));
}

bool LineReader::ReadForOther() { return ahead_ && ahead_->Help(); }

bool LineReader::ForEachBlock(size_t block_bytes,
                              const std::function<size_t(std::string_view, bool)>& fn,
                              std::string* error) {
  head_.clear();  // the head's lines are still in buf_, from begin_
  head_bytes_ = 0;
  if (ahead_ && !eof_) ahead_->Start();
  struct StopAhead {
    ReadAhead* ahead;
    ~StopAhead() {
      if (ahead) ahead->Stop();
    }
  } stop_ahead{ahead_.get()};
  for (;;) {
    while (!eof_ && end_ - begin_ < block_bytes) {
      const size_t want = block_bytes - (end_ - begin_);
      const long got =
          ahead_ ? ahead_->Next(&buf_, &begin_, &end_, want, error) : Fill(want, error);
      if (got < 0) pending_error_ = *error;
      if (got <= 0) eof_ = true;
    }
    std::string_view data(buf_.data() + begin_, end_ - begin_);
    if (!eof_) {
      const size_t last = data.rfind('\n');
      if (last == std::string_view::npos) {  // one line longer than the block
        block_bytes *= 2;
        continue;
      }
      data = data.substr(0, last + 1);
    }
    const size_t took = data.empty() ? 0 : fn(data, eof_);
    begin_ += took;
    if (eof_) break;
    if (took == 0) block_bytes *= 2;
    const size_t rest = end_ - begin_;
    if (rest && begin_) std::memmove(buf_.data(), buf_.data() + begin_, rest);
    begin_ = 0;
    end_ = rest;
  }
  begin_ = end_ = 0;
  if (!pending_error_.empty()) {
    *error = pending_error_;
    return false;
  }
  return true;
}

}  // namespace lockgraph
