// A gettext message template (the printf syntax of PostgreSQL's .po files:
// %d %u %s %ld %03d %%, positional %2$s) compiled into one RE2 that matches
// a whole logged text, with one named slot (a1, a2, ...) per argument of the
// English msgid. Doc: docs/postgresql.md "Localized servers".
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace lockgraph {

/// Immutable after Compile(); Match() is thread-safe. Not copyable.
class TemplateMatcher {
 public:
  /// Compiles `tmpl`. Argument i (0-based, in the order of the English
  /// msgid: positional %N$ names argument N-1, otherwise conversions count
  /// from 0) matches: `-?\d+` for %d/%i/%ld (`\d{W,}` with a zero-padded
  /// width W), `\d+` for %u, `.` for %c, and for %s `string_slots[i]` when
  /// given and non-empty, else a lazy `.+?` that also crosses newlines.
  /// Returns null, with the reason in *error, on a conversion it does not
  /// know or a pattern RE2 rejects.
  static std::unique_ptr<TemplateMatcher> Compile(
      std::string_view tmpl, const std::vector<std::string_view>& string_slots,
      std::string* error = nullptr);
  /// The literal prefix and starts_with_number() of `tmpl` without
  /// compiling it (cheap; for prefilters).
  /// When `tmpl` starts with a number, *after_number is the literal text
  /// that follows that number (" PID 프로세스" in "%d PID 프로세스...").
  static std::string LiteralPrefix(std::string_view tmpl, bool* starts_with_number,
                                   std::string* after_number = nullptr);

  ~TemplateMatcher();
  TemplateMatcher(const TemplateMatcher&) = delete;
  TemplateMatcher& operator=(const TemplateMatcher&) = delete;

  /// True when `text` is the whole of one rendering of the template; then
  /// (*args)[i] is argument i (views into `text`; empty for an argument the
  /// template does not print).
  bool Match(std::string_view text, std::vector<std::string_view>* args) const;

  /// The literal text before the first conversion ("Prozess " for
  /// "Prozess %d ..."): no rendering starts otherwise. May be empty.
  std::string_view literal_prefix() const { return prefix_; }
  /// True when the template starts with a numeric conversion (a rendering
  /// then starts with a digit or '-').
  bool starts_with_number() const { return starts_with_number_; }
  /// Number of arguments (highest argument index + 1).
  int arg_count() const { return arg_count_; }
  /// The RE2 pattern (for tests and diagnostics).
  const std::string& pattern() const { return pattern_; }

 private:
  TemplateMatcher() = default;
  std::unique_ptr<re2::RE2> re_;
  std::string pattern_;
  std::string prefix_;
  std::string required_;  // the longest literal chunk: no rendering lacks it
  bool starts_with_number_ = false;
  int arg_count_ = 0;
  std::vector<int> group_arg_;  // capturing group i+1 -> argument index
};

}  // namespace lockgraph
