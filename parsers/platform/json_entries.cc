// See json_entries.h. A character scanner that tracks only nesting depth
// and whether it is inside a string: enough to find where each entry starts
// and ends without parsing it (its reader parses it afterwards).
#include "parsers/platform/json_entries.h"

#include <utility>

namespace lockgraph {
namespace {

constexpr size_t kMaxEntryBytes = size_t(64) << 20;

}  // namespace

JsonEntrySplitter::JsonEntrySplitter(OnEntry on_entry, OnUnparsedLine on_unparsed)
    : on_entry_(std::move(on_entry)), on_unparsed_(std::move(on_unparsed)) {}

void JsonEntrySplitter::ParseLine(std::string_view line, uint64_t line_no) {
  ++counts_.total;
  last_line_ = line_no;
  // NDJSON: a line that starts an object while one is still open means the
  // open one was broken (a cut line); give it up, not the rest of the file.
  if (in_entry_ && entry_depth_ == 0 && !line.empty() && line[0] == '{') Abandon(line_no - 1);
  if (!line_text_.empty()) line_text_.push_back('\n');
  line_text_.append(line);
  if (in_entry_) entry_.push_back('\n');
  garbage_ = false;
  size_t seg = 0;  // where this line's part of the open entry starts
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string_) {
      if (escape_) escape_ = false;
      else if (c == '\\') escape_ = true;
      else if (c == '"') in_string_ = false;
      continue;
    }
    Scan(line, i, line_no, &seg);
  }
  if (in_string_) {
    // No JSON string spans lines: whatever is open is broken.
    in_string_ = escape_ = false;
    if (in_entry_) {
      Abandon(line_no);
      return;
    }
    garbage_ = true;
  }
  if (in_entry_) {
    entry_.append(line.substr(seg));
    // No log entry is this big: a bracket that never closes must not make
    // the whole input one entry held in memory.
    if (entry_.size() > kMaxEntryBytes) Abandon(line_no);
  } else if (counted_through_ < line_no) {
    CountUpTo(line_no, garbage_ ? EntryVerdict::kUnparsed : EntryVerdict::kParsed);
  }
}

void JsonEntrySplitter::Scan(std::string_view line, size_t i, uint64_t line_no, size_t* seg) {
  const char c = line[i];
  switch (c) {
    case '"':
      if (!in_entry_) garbage_ = true;  // a key or scalar outside any entry
      in_string_ = true;
      break;
    case '{':
    case '[':
      if (!in_entry_) {
        if (depth_ == 0 && c == '[') {
          entry_depth_ = 1;  // a top-level array: its objects are the entries
        } else if (depth_ == entry_depth_ && c == '{') {
          in_entry_ = true;
          entry_.clear();
          entry_first_line_ = line_no;
          *seg = i;
        } else {
          garbage_ = true;
        }
      } else if (c == '[' && entry_depth_ == 0 && depth_ == 1 && entry_.size() < 64) {
        entry_.append(line.substr(*seg, i - *seg));
        *seg = i;
        if (BecomesRecordsWrapper()) {
          // Azure's {"records": [ ... ]}: the records are the entries.
          in_entry_ = false;
          entry_.clear();
          entry_depth_ = 2;
        }
      }
      ++depth_;
      break;
    case '}':
    case ']':
      --depth_;
      if (depth_ < 0) {
        depth_ = 0;
        garbage_ = true;
      } else if (in_entry_ && depth_ == entry_depth_) {
        entry_.append(line.substr(*seg, i + 1 - *seg));
        in_entry_ = false;
        EndEntry(line_no);
      } else if (!in_entry_ && depth_ < entry_depth_) {
        entry_depth_ = depth_;  // the array (or the records wrapper) closed
      }
      break;
    case ' ': case '\t': case '\r': case ',': case ':':
      break;
    default:
      if (!in_entry_) garbage_ = true;
  }
}

void JsonEntrySplitter::Abandon(uint64_t last_line) {
  in_entry_ = false;
  entry_.clear();
  depth_ = entry_depth_;
  if (counted_through_ < last_line) CountUpTo(last_line, EntryVerdict::kUnparsed);
}

bool JsonEntrySplitter::BecomesRecordsWrapper() const {
  std::string compact;
  for (char c : entry_)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') compact.push_back(c);
  return compact == "{\"records\":";
}

void JsonEntrySplitter::EndEntry(uint64_t line_no) {
  const EntryVerdict verdict = on_entry_(entry_, entry_first_line_);
  entry_.clear();
  // An entry that ends on a line already counted (several on one line)
  // leaves the count alone: each line is counted once, by the first.
  if (counted_through_ < line_no) CountUpTo(line_no, verdict);
}

void JsonEntrySplitter::CountUpTo(uint64_t line_no, EntryVerdict verdict) {
  const uint64_t lines = line_no - counted_through_;
  if (verdict == EntryVerdict::kUnparsed) {
    counts_.unparsed += lines;
    std::string_view rest = line_text_;
    for (uint64_t no = counted_through_ + 1; no <= line_no; ++no) {
      const size_t nl = rest.find('\n');
      if (on_unparsed_) on_unparsed_(no, rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
  } else {
    counts_.parsed += lines;
    if (verdict == EntryVerdict::kSkipped) skipped_lines_ += lines;
  }
  counted_through_ = line_no;
  line_text_.clear();
}

bool JsonEntrySplitter::Finish() {
  if (!in_entry_) return true;
  in_entry_ = false;
  entry_.clear();
  if (counted_through_ < last_line_) CountUpTo(last_line_, EntryVerdict::kUnparsed);
  return false;
}

}  // namespace lockgraph
