// See prefix_skeleton.h.
#include "parsers/postgresql/prefix_skeleton.h"

#include "text/number.h"

namespace lockgraph {
namespace {

// What %m and %t print first (prefix.cc's kTimeMs and kTimeS): 'd' a digit.
constexpr std::string_view kTimeShape = "dddd-dd-dd dd:dd:dd.ddd";

}  // namespace

PrefixSkeleton::PrefixSkeleton(std::string_view prefix) {
  // As PrefixCompiler: trailing blanks are matched as " *", so they are not
  // required; a '%' at the end is literal; %% and a padded %-5% print '%';
  // an unknown escape prints nothing (taken here as a break between two
  // literals, which only makes the test weaker).
  while (!prefix.empty() && prefix.back() == ' ') prefix.remove_suffix(1);
  std::string literal;
  auto flush = [&] {
    if (!literal.empty()) literals_.push_back(literal);
    literal.clear();
  };
  for (size_t i = 0; i < prefix.size(); ++i) {
    const char c = prefix[i];
    if (c != '%' || i + 1 >= prefix.size()) {
      literal += c;
      continue;
    }
    const size_t start = i++;
    bool padded = false;
    while (i < prefix.size() && (prefix[i] == '-' || IsDigit(prefix[i]))) {
      padded = true;
      ++i;
    }
    if (i >= prefix.size()) break;
    const char escape = prefix[i];
    if (escape == '%') {
      literal += '%';
      continue;
    }
    flush();
    if (escape == 'q') return;  // the rest is optional
    if (start == 0 && !padded && (escape == 'm' || escape == 't')) {
      time_ = escape == 'm' ? Time::kMs : Time::kS;
      if (i + 1 < prefix.size() && prefix[i + 1] != '%') after_time_ = prefix[i + 1];
    }
  }
  flush();
}

bool PrefixSkeleton::MayMatch(std::string_view line) const {
  if (time_ != Time::kNone) {
    const size_t n = time_ == Time::kMs ? kTimeShape.size() : kTimeShape.find('.');
    if (line.size() < n) return false;
    for (size_t i = 0; i < n; ++i)
      if (kTimeShape[i] == 'd' ? !IsDigit(line[i]) : line[i] != kTimeShape[i]) return false;
    // Then either " zone" or the literal that follows the time.
    if (after_time_ && (line.size() == n || (line[n] != ' ' && line[n] != after_time_))) return false;
  }
  size_t from = 0;
  for (const std::string& literal : literals_) {
    const size_t at = line.find(literal, from);
    if (at == std::string_view::npos) return false;
    from = at + literal.size();
  }
  return true;
}

}  // namespace lockgraph
