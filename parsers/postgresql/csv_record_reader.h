// Splits CSV as PostgreSQL's csvlog writes it (appendCSVLiteral, reference
// §6.3) into fields, one physical line at a time: quoted fields may span
// lines, `""` is a quote inside quotes, and a missing value (nothing between
// two commas) is told apart from an empty string (`""`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

/// Streaming CSV record splitter. Keeps only the record being read; its
/// buffers are reused from record to record. Not thread-safe; copyable
/// (a copy's field views may point into the line last fed to the original).
class CsvRecordReader {
 public:
  enum class State {
    kComplete,   // the record ended with this line; fields are readable
    kOpen,       // a quoted field is still open at the end of this line
    kMalformed,  // a quote where CSV allows none (`ab"c`, `"ab"c`)
  };

  /// Feeds one physical line without its '\n'; one trailing '\r' is
  /// dropped (CRLF files). Starts a new record unless one is open, in which
  /// case the line continues the open quoted field after a '\n'.
  State Feed(std::string_view line);

  /// Closes an open record at the end of input: the open field keeps what
  /// was read. Returns false when no record was open.
  bool CloseCut();

  /// True between a Feed() that returned kOpen and the end of that record.
  bool open() const { return open_; }

  /// Fields of the last complete (or cut) record. A field read whole from
  /// one line without unescaping is a view into that line, so the caller
  /// keeps the line passed to the last Feed() alive while it reads fields;
  /// fields of a record that spans lines are held by the reader.
  size_t size() const { return fields_.size(); }
  std::string_view field(size_t i) const {
    const Field& f = fields_[i];
    return f.view ? std::string_view(f.view, f.size) : std::string_view(data_).substr(f.begin, f.size);
  }
  /// True when field `i` was written as nothing at all (not even `""`).
  bool missing(size_t i) const { return !fields_[i].quoted && fields_[i].size == 0; }

 private:
  struct Field {
    const char* view = nullptr;  // into the line; nullptr: data_[begin, begin + size)
    size_t begin = 0;
    size_t size = 0;
    bool quoted = false;
  };
  State ScanFields(std::string_view line, size_t i);
  size_t ScanQuotedTail(std::string_view line, size_t i);
  State Malformed(bool quoted);
  State Open();

  bool open_ = false;          // a quoted field (the last of fields_) is open
  std::string data_;           // fields that are not views, back to back
  std::string spare_;          // Open()'s scratch
  std::vector<Field> fields_;
};

}  // namespace lockgraph
