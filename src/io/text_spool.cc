// See text_spool.h.
#include "io/text_spool.h"

#include <algorithm>

namespace lockgraph {

TextSpool::TextSpool(size_t memory_budget) : budget_(memory_budget) {}

TextSpool::~TextSpool() {
  if (file_) std::fclose(file_);
}

bool TextSpool::Spill() {
  // tmpfile() is unlinked at once: nothing is left behind, even after a crash.
  if (!file_) {
    file_ = std::tmpfile();
    if (!file_) return false;
  } else if (std::fseek(file_, 0, SEEK_END) != 0) {  // reads may have moved it
    return false;
  }
  if (!memory_.empty() && std::fwrite(memory_.data(), 1, memory_.size(), file_) != memory_.size())
    return false;
  file_size_ += memory_.size();
  memory_.clear();
  unflushed_ = true;
  return true;
}

TextSpool::Ref TextSpool::Add(std::string_view text, bool* spill_failed) {
  // Spilled before the text that would pass the budget, so that memory_,
  // reserved once, never grows (a doubling string held twice its budget,
  // three times while it moved). After a failed write the file's tail is
  // unknown: memory_ keeps the rest.
  if (!memory_.empty() && memory_.size() + text.size() > budget_ && !spill_failed_ && !Spill())
    spill_failed_ = true;
  if (memory_.capacity() < budget_) memory_.reserve(budget_);
  // Offsets count from the start of the file, then of memory_: the bytes in
  // memory_ are the file's tail once they are spilled.
  const Ref ref{file_size_ + memory_.size(), uint32_t(text.size())};
  memory_.append(text);
  if (spill_failed && spill_failed_) *spill_failed = true;
  return ref;
}

bool TextSpool::Read(Ref ref, std::string* buffer, std::string_view* text) {
  if (ref.offset >= file_size_) {
    *text = std::string_view(memory_).substr(ref.offset - file_size_, ref.length);
    return true;
  }
  if (unflushed_ && std::fflush(file_) != 0) return false;
  unflushed_ = false;
  // Texts are mostly read back in the order they were kept: a window of
  // the file (256 KiB, or the memory budget if smaller) serves the next
  // ones, not a seek and a read each.
  const size_t window = std::min<size_t>(budget_, 256 << 10);
  const bool in_window = ref.offset >= window_offset_ &&
                         ref.offset + ref.length <= window_offset_ + window_.size();
  if (!in_window && ref.length < window) {
    window_.resize(std::min<uint64_t>(window, file_size_ - ref.offset));
    window_offset_ = ref.offset;
    if (std::fseek(file_, long(ref.offset), SEEK_SET) != 0 ||
        std::fread(window_.data(), 1, window_.size(), file_) != window_.size()) {
      window_.clear();
      return false;
    }
  } else if (!in_window) {
    buffer->resize(ref.length);
    if (std::fseek(file_, long(ref.offset), SEEK_SET) != 0 ||
        std::fread(buffer->data(), 1, ref.length, file_) != ref.length)
      return false;
    *text = *buffer;
    return true;
  }
  *text = std::string_view(window_).substr(ref.offset - window_offset_, ref.length);
  return true;
}

}  // namespace lockgraph
