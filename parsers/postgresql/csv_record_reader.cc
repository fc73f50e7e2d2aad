// See csv_record_reader.h. A small state machine over the bytes of each
// line; the state survives the end of a line only inside quotes.
#include "parsers/postgresql/csv_record_reader.h"

namespace lockgraph {

void CsvRecordReader::StartField() {
  fields_.push_back(Field{data_.size(), 0, false});
  state_ = Scan::kFieldStart;
}

void CsvRecordReader::EndField() {
  fields_.back().size = data_.size() - fields_.back().begin;
}

CsvRecordReader::State CsvRecordReader::Feed(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (state_ == Scan::kQuoted) {
    data_.push_back('\n');  // the newline that ended the previous line
  } else {
    data_.clear();
    fields_.clear();
    StartField();
  }
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    switch (state_) {
      case Scan::kFieldStart:
        if (c == '"') {
          fields_.back().quoted = true;
          state_ = Scan::kQuoted;
        } else if (c == ',') {
          EndField();
          StartField();
        } else {
          data_.push_back(c);
          state_ = Scan::kUnquoted;
        }
        break;
      case Scan::kUnquoted:
        if (c == ',') {
          EndField();
          StartField();
        } else if (c == '"') {
          state_ = Scan::kBad;
        } else {
          data_.push_back(c);
        }
        break;
      case Scan::kQuoted: {
        // Copy the run up to the next quote in one go: fields are long.
        size_t quote = line.find('"', i);
        if (quote == std::string_view::npos) quote = line.size();
        data_.append(line.data() + i, quote - i);
        i = quote;
        if (quote < line.size()) state_ = Scan::kQuoteInQuoted;
        break;
      }
      case Scan::kQuoteInQuoted:
        if (c == '"') {
          data_.push_back('"');
          state_ = Scan::kQuoted;
        } else if (c == ',') {
          EndField();
          StartField();
        } else {
          state_ = Scan::kBad;
        }
        break;
      case Scan::kBad:
        break;
    }
    if (state_ == Scan::kBad) break;
  }
  if (state_ == Scan::kBad) {
    state_ = Scan::kFieldStart;
    return State::kMalformed;
  }
  if (state_ == Scan::kQuoted) return State::kOpen;
  EndField();
  state_ = Scan::kFieldStart;
  return State::kComplete;
}

bool CsvRecordReader::CloseCut() {
  if (state_ != Scan::kQuoted) return false;
  EndField();
  state_ = Scan::kFieldStart;
  return true;
}

}  // namespace lockgraph
