// libFuzzer target: format detection. Every registered format's Sniff() on
// the first 200 lines (as `analyze` does when --input-format is not given),
// log_line_prefix detection (DetectPrefix), and a prefix compiled from the
// first line (as --prefix would be) matched against the other lines: the
// prefix compiler turns user text into an RE2 pattern, so it must escape
// everything it does not understand.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_format.h"
#include "parsers/postgresql/prefix.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto formats = lockgraph::RegisterBuiltinFormats();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines = lockgraph_fuzz::SplitLines(input);
  if (lines.size() > 200) lines.resize(200);
  lockgraph::ParseOptions options;
  for (const auto& format : formats) (void)format->Sniff(lines, options);
  int matched = 0;
  (void)lockgraph::DetectPrefix(lines, &matched);
  if (lines.empty()) return 0;
  std::string error;
  auto matcher = lockgraph::PrefixMatcher::Compile(lines[0], &error);
  if (!matcher) return 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    lockgraph::PrefixedLine out;
    lockgraph::SessionInfo session;
    std::string_view line = lines[i];
    (void)matcher->Match(line, &out, &session);
    std::string_view word;
    if (const size_t at = lockgraph::FindLabelStart(line, &word); at != std::string_view::npos) {
      (void)matcher->QuickPid(line.substr(0, at));
    }
  }
  return 0;
}
