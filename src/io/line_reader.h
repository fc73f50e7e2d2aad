// Streams the lines of a file, a compressed file (gzip, bzip2, xz, zstd) or
// stdin ("-") with large read() buffers: the same code for a file and a
// pipe, and no SIGBUS when a file is cut while it is read (mmap windows
// were faster for a bare newline count on 2026-12-06, not 3x slower as
// first measured: docs/performance.md, "read() and mmap"). Compression is
// recognised by its magic bytes, not the name (io/decoder.h). Memory: the
// buffer grows only to the longest line.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

class Decoder;
class ReadAhead;

class LineReader {
 public:
  /// Opens `path` ("-" = stdin). Returns nullptr and sets *error (with the
  /// path and the system's reason) when it cannot be read.
  static std::unique_ptr<LineReader> Open(const std::string& path, std::string* error);
  ~LineReader();

  /// The first `n` lines (fewer at end of input, or, from a pipe, the
  /// complete lines that have arrived so far), kept for the next
  /// ForEachLine. Used for format sniffing.
  const std::vector<std::string>& Head(size_t n);

  /// Calls `fn(line, line_no)` for every line, from the first, without the
  /// '\n'. Returns false and sets *error (naming the file) on a read or
  /// decompression error, or when compressed input ends inside a stream
  /// (a cut download); the lines before the error, the last partial one
  /// included, have been passed to `fn` by then.
  bool ForEachLine(const std::function<void(std::string_view, uint64_t)>& fn,
                   std::string* error);

  /// True for a regular file (plain or compressed): read by ForEachBlock
  /// at full speed, and never paused. A pipe is read line by line, so that
  /// each line leaves as it comes.
  bool regular_file() const { return regular_file_; }

  /// Like ForEachLine, but hands over blocks of about `block_bytes` of whole
  /// lines: `fn(lines, at_end)` gets the unread bytes up to the last '\n'
  /// read (at the end of input: every byte left, the last line perhaps
  /// without its '\n') and returns how many it took, whole lines from the
  /// start; the rest comes again at the front of the next call. When it
  /// takes nothing, the next block is twice as large (one record longer
  /// than a block). At the end it must take everything.
  bool ForEachBlock(size_t block_bytes,
                    const std::function<size_t(std::string_view, bool)>& fn,
                    std::string* error);

  /// From a pipe, FIFO or terminal of plain text: when ForEachLine has
  /// passed lines to `fn` and the input then stays quiet for `quiet_ms`
  /// at a line boundary, `on_pause()` is called (once per pause, from
  /// ForEachLine's thread) before the reader blocks for more. Never for a
  /// regular file (which costs no extra system call) nor compressed input
  /// (its decoder may hold lines no poll() of the descriptor shows). Call
  /// before ForEachLine.
  void OnPause(int quiet_ms, std::function<void()> on_pause);

  /// A regular file: another thread may do ForEachBlock's reads while
  /// this one parses (io/read_ahead.h). `wake()` asks that thread to call
  /// ReadForOther(); it must not block. Call before ForEachBlock.
  void ShareReads(std::function<void()> wake);
  /// From the other thread: reads ForEachBlock's next block if it is
  /// wanted and not read yet. True when it read.
  bool ReadForOther();

  bool gzip() const { return gzip_; }
  /// "gzip", "bzip2", "xz", "zstd", or "" for plain input.
  std::string compression() const;

 private:
  LineReader() = default;
  /// Appends up to `want` decoded bytes to buf_; returns bytes read, 0 at
  /// end of input, -1 on error.
  long Fill(size_t want, std::string* error);
  long ReadRaw(char* dst, size_t want, std::string* error);
  long Decode(char* dst, size_t want, std::string* error);
  /// True when on_pause_ is set and the pipe stays quiet for pause_ms_.
  bool QuietFor() const;

  std::string path_;
  int fd_ = -1;
  bool owns_fd_ = false;
  bool regular_file_ = false;  // else a pipe or terminal: never wait to fill
  bool gzip_ = false;
  bool eof_ = false;
  std::unique_ptr<Decoder> decoder_;
  std::vector<unsigned char> in_;  // compressed bytes read, not yet decoded
  size_t in_pos_ = 0, in_len_ = 0;
  bool raw_eof_ = false;
  std::string pending_error_;  // an error met while Head() read ahead
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;  // unread bytes of buf_
  std::vector<std::string> head_;
  size_t head_bytes_ = 0;       // bytes of buf_ that head_ lines came from
  int pause_ms_ = 0;
  std::function<void()> on_pause_;  // see OnPause
  std::unique_ptr<ReadAhead> ahead_;  // see ShareReads
};

}  // namespace lockgraph
