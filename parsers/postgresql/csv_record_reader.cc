// See csv_record_reader.h. Fields are found sixteen bytes a step
// (text/find_bytes.h) and kept as views
// into the line when they need no unescaping (no `""` inside, not spanning
// lines); only those are copied into data_. State survives the end of a line
// only inside quotes.
#include "parsers/postgresql/csv_record_reader.h"

#include "text/find_bytes.h"

namespace lockgraph {

CsvRecordReader::State CsvRecordReader::Feed(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!open_) {
    data_.clear();
    fields_.clear();
    return ScanFields(line, 0);
  }
  data_.push_back('\n');  // the newline that ended the previous line
  const size_t end = ScanQuotedTail(line, 0);
  if (end == std::string_view::npos) return State::kOpen;
  open_ = false;
  Field& f = fields_.back();
  f.size = data_.size() - f.begin;
  if (end == line.size()) return State::kComplete;
  if (line[end] != ',') return Malformed(true);
  return ScanFields(line, end + 1);
}

// Reads fields from line[i], the start of a field, to the end of the line.
CsvRecordReader::State CsvRecordReader::ScanFields(std::string_view line, size_t i) {
  const char* const s = line.data();
  const size_t n = line.size();
  while (true) {
    if (i == n || s[i] != '"') {
      // Unquoted (or missing): ends at a comma; a quote inside is an error.
      const size_t j = FindEitherByte(s, i, n, ',', '"');
      if (j < n && s[j] == '"') return Malformed(false);
      fields_.push_back(Field{s + i, 0, j - i, false});
      if (j == n) return State::kComplete;
      i = j + 1;
      continue;
    }
    // Quoted: a view when the next quote closes the field.
    const size_t open = i + 1;
    size_t j = FindByte(s, open, n, '"');
    if (j + 1 < n && s[j + 1] == '"') {
      // `""` inside: unescape into data_.
      fields_.push_back(Field{nullptr, data_.size(), 0, true});
      data_.append(s + open, j + 1 - open);
      j = ScanQuotedTail(line, j + 2);
      if (j == std::string_view::npos) return Open();
      fields_.back().size = data_.size() - fields_.back().begin;
    } else if (j == n) {
      fields_.push_back(Field{nullptr, data_.size(), 0, true});
      data_.append(s + open, n - open);
      return Open();
    } else {
      fields_.push_back(Field{s + open, 0, j - open, true});
      ++j;
    }
    // j is just past the closing quote.
    if (j == n) return State::kComplete;
    if (s[j] != ',') return Malformed(true);
    i = j + 1;
  }
}

// Appends the rest of an open quoted field, from line[i], to data_, with
// `""` unescaped. Returns the index just past the closing quote, or npos
// when the field is still open at the end of the line.
size_t CsvRecordReader::ScanQuotedTail(std::string_view line, size_t i) {
  const char* const s = line.data();
  const size_t n = line.size();
  while (true) {
    const size_t j = i < n ? FindByte(s, i, n, '"') : n;
    if (j == n) {
      data_.append(s + i, n - i);
      return std::string_view::npos;
    }
    data_.append(s + i, j - i);
    if (j + 1 < n && s[j + 1] == '"') {
      data_.push_back('"');
      i = j + 2;
      continue;
    }
    return j + 1;
  }
}

// The record cannot be read; as before, the field being read is left with
// no contents and the next Feed() starts a new record.
// `quoted`: the bad field, already in fields_, was quoted.
CsvRecordReader::State CsvRecordReader::Malformed(bool quoted) {
  if (quoted)
    fields_.back() = Field{nullptr, data_.size(), 0, true};
  else
    fields_.push_back(Field{nullptr, data_.size(), 0, false});
  open_ = false;
  return State::kMalformed;
}

// A quoted field stays open past this line, which the caller may reuse:
// copies the fields that are views into data_, before the open field.
CsvRecordReader::State CsvRecordReader::Open() {
  open_ = true;
  bool views = false;
  for (size_t k = 0; k + 1 < fields_.size(); ++k) views |= fields_[k].view != nullptr;
  if (!views) return State::kOpen;
  Field& last = fields_.back();
  spare_.assign(data_, last.begin, std::string::npos);
  data_.resize(last.begin);
  for (size_t k = 0; k + 1 < fields_.size(); ++k) {
    Field& f = fields_[k];
    if (!f.view) continue;
    f.begin = data_.size();
    data_.append(f.view, f.size);
    f.view = nullptr;
  }
  last.begin = data_.size();
  data_ += spare_;
  return State::kOpen;
}

bool CsvRecordReader::CloseCut() {
  if (!open_) return false;
  fields_.back().size = data_.size() - fields_.back().begin;
  open_ = false;
  return true;
}

}  // namespace lockgraph
