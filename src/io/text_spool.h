// Texts kept for later without keeping them in memory: appended to a
// buffer, and past a memory budget to an unlinked temporary file, each
// found again by where it was put. The json output's EventSpool keeps the
// rendered events here, PG016 the evidence of the lock events it may show
// (docs/performance.md#what-bounds-memory).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace lockgraph {

/// Not thread-safe, not copyable.
class TextSpool {
 public:
  /// Where a text is: an offset in the file, then in the memory after it.
  struct Ref {
    uint64_t offset = 0;
    uint32_t length = 0;
  };

  /// `memory_budget`: bytes of text held in memory before spilling.
  explicit TextSpool(size_t memory_budget);
  ~TextSpool();
  TextSpool(const TextSpool&) = delete;
  TextSpool& operator=(const TextSpool&) = delete;

  /// Keeps `text` and returns where. Sets *spill_failed when the temporary
  /// file could not be made or written: the text (and every later one) is
  /// then kept in memory, never lost.
  Ref Add(std::string_view text, bool* spill_failed = nullptr);

  /// Points *text at the bytes of `ref`: in memory, in a window of the file
  /// (256 KiB) read at once for the texts after it, or read into *buffer. *text is
  /// valid until the next call to Read() or Add(). Returns false on a read
  /// error.
  bool Read(Ref ref, std::string* buffer, std::string_view* text);

  bool spilled() const { return file_ != nullptr; }

 private:
  bool Spill();

  size_t budget_;
  std::string memory_;
  std::FILE* file_ = nullptr;
  uint64_t file_size_ = 0;
  bool unflushed_ = false;  // written since the last read
  std::string window_;      // the file's bytes from window_offset_ on
  uint64_t window_offset_ = 0;
  bool spill_failed_ = false;
};

}  // namespace lockgraph
