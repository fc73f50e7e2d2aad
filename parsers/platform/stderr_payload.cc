// See stderr_payload.h.
#include "parsers/platform/stderr_payload.h"

#include <cctype>

#include "parsers/builtin_formats.h"
#include "parsers/flushable.h"
#include "parsers/postgresql/prefix.h"

namespace lockgraph {
namespace {

// Prefixes the platforms set and users cannot change (reference
// platforms.md §1.3-1.5): Cloud SQL and AlloyDB since 2021, Cloud SQL
// before, Azure Single Server.
const std::vector<std::string>& PlatformPrefixes() {
  static const std::vector<std::string> prefixes = {
      "%m [%p]: [%l-1] db=%d,user=%u ",
      "[%p]: [%l-1] db=%d,user=%u ",
      "%t-%c-",
  };
  return prefixes;
}

// "(2/3) " at the start of a Cloud SQL entry: part 2 of a line split in 3.
bool SplitPart(std::string_view text, int* part, int* parts, size_t* len) {
  if (text.size() < 6 || text[0] != '(') return false;
  size_t i = 1;
  auto number = [&](int* out) {
    size_t start = i;
    *out = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && i - start < 6)
      *out = *out * 10 + (text[i++] - '0');
    return i > start;
  };
  if (!number(part) || i >= text.size() || text[i++] != '/' || !number(parts)) return false;
  if (i + 1 >= text.size() || text[i] != ')' || text[i + 1] != ' ') return false;
  *len = i + 2;
  return *part >= 1 && *part <= *parts;
}

std::string_view FirstLine(std::string_view text) {
  std::string_view line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

std::string DetectPayloadPrefix(const std::vector<std::string>& samples, int* matched) {
  *matched = 0;
  std::vector<std::string> lines;
  for (const std::string& s : samples) lines.push_back(StripSourceTag(FirstLine(s)));
  if (lines.empty()) return "";
  for (const std::string& prefix : PlatformPrefixes()) {
    std::string error;
    auto m = PrefixMatcher::Compile(prefix, &error);
    if (!m) continue;
    int n = 0;
    PrefixedLine out;
    for (const std::string& line : lines) n += m->Match(line, &out, nullptr);
    if (n * 2 > int(lines.size())) {
      *matched = n;
      return prefix;
    }
  }
  std::optional<std::string> prefix = DetectPrefix(lines, matched);
  if (!prefix) *matched = 0;
  return prefix.value_or("");
}

std::string StripSourceTag(std::string_view line) {
  std::string_view word;
  const size_t start = FindLabelStart(line, &word);
  if (start == std::string_view::npos) return std::string(line);
  const size_t text = start + word.size() + 3;  // after "WORD:  "
  if (text >= line.size() || line[text] != '[') return std::string(line);
  const size_t close = line.find(']', text);
  if (close == std::string_view::npos || close - text > 64) return std::string(line);
  const std::string_view tag = line.substr(text + 1, close - text - 1);
  const size_t colon = tag.rfind(':');
  // "file.c:123": a source file name, a colon, a line number.
  if (colon == std::string_view::npos || colon < 3 || tag.substr(colon - 2, 2) != ".c" ||
      colon + 1 == tag.size())
    return std::string(line);
  for (size_t i = colon + 1; i < tag.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(tag[i]))) return std::string(line);
  size_t rest = close + 1;
  while (rest < line.size() && line[rest] == ' ') ++rest;
  std::string out(line.substr(0, text));
  out.append(line.substr(rest));
  return out;
}

std::string WithDetailLine(std::string message, std::string_view detail) {
  if (detail.empty()) return message;
  std::string_view word;
  size_t start = FindLabelStart(message, &word);
  if (start == std::string_view::npos) start = 0;
  const std::string prefix = message.substr(0, start);
  message += '\n';
  message += prefix;
  message += "DETAIL:  ";
  for (char c : detail) {
    message.push_back(c);
    if (c == '\n') message.push_back('\t');
  }
  return message;
}

StderrPayload::StderrPayload(const std::string& file, const ParseOptions& options,
                             const std::string& prefix, ParseSink& sink) {
  const std::string used = options.has_prefix ? options.log_line_prefix
                           : prefix.empty()   ? std::string("%*")
                                              : prefix;
  std::string error;
  matcher_ = PrefixMatcher::Compile(used, &error);
  if (!matcher_) matcher_ = PrefixMatcher::Compile("%*", &error);
  ParseOptions inner = options;
  inner.has_prefix = true;
  inner.log_line_prefix = matcher_->prefix();
  stderr_ = MakePgStderrFormat()->CreateParser(file, inner, matcher_->prefix(), sink);
}

StderrPayload::~StderrPayload() = default;

bool StderrPayload::Understood(std::string_view payload) const {
  int part = 0, parts = 0;
  size_t len = 0;
  if (SplitPart(payload, &part, &parts, &len)) {
    if (part > 1) return true;
    payload.remove_prefix(len);
  }
  PrefixedLine out;
  SessionInfo session;
  return matcher_->Match(StripSourceTag(FirstLine(payload)), &out, &session);
}

void StderrPayload::Feed(std::string_view payload, uint64_t line_no) {
  int part = 0, parts = 0;
  size_t len = 0;
  if (SplitPart(payload, &part, &parts, &len)) {
    // Cloud SQL splits a long line into entries "(1/n) prefix text",
    // "(2/n) more text", ...: join them back into one line.
    if (part == 1) {
      if (!split_.empty()) FeedLines(split_, split_line_);
      split_.assign(payload.substr(len));
      split_line_ = line_no;
    } else {
      split_.append(payload.substr(len));
    }
    if (part == parts) {
      FeedLines(split_, split_line_);
      split_.clear();
    }
    return;
  }
  if (!split_.empty()) {
    FeedLines(split_, split_line_);  // a split line whose last part is missing
    split_.clear();
  }
  FeedLines(payload, line_no);
}

void StderrPayload::FeedLines(std::string_view text, uint64_t line_no) {
  bool first = true;
  while (true) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    PrefixedLine out;
    SessionInfo session;
    if (first || (!line.empty() && line[0] != '\t' && matcher_->Match(line, &out, &session))) {
      scratch_ = StripSourceTag(line);
    } else if (!line.empty() && line[0] == '\t') {
      scratch_.assign(line);
    } else {
      // An embedded newline whose TAB the platform dropped.
      scratch_.assign("\t");
      scratch_.append(line);
    }
    stderr_->ParseLine(scratch_, line_no);
    first = false;
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

void StderrPayload::Flush() { FlushParser(*stderr_); }

void StderrPayload::Finish() {
  if (!split_.empty()) FeedLines(split_, split_line_);
  split_.clear();
  stderr_->Finish();
}

}  // namespace lockgraph
