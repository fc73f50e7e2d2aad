// Matching logged text against the catalogue (catalog.h): every variant of a
// PgText compiled once into a TemplateMatcher, tried English first, each
// only when the text starts with the variant's literal prefix. Doc:
// docs/postgresql.md "Localized servers".
#pragma once

#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/postgresql/catalog.h"

namespace lockgraph {

/// A text matched against one variant of a PgText.
struct PgTextMatch {
  std::string_view lang;                // "en", "de", ...
  std::vector<std::string_view> args;   // in the English msgid's order
};

/// True when `text` is, whole, one rendering of a variant of `id` (English
/// first). Thread-safe; the matchers are compiled on first use.
bool MatchPgText(PgText id, std::string_view text, PgTextMatch* out = nullptr);

/// The literal prefixes of the translations (not English) of some PgTexts,
/// for a test cheap enough to run on every record: one table lookup on the
/// first byte, then a few compares, no regex. Immutable; thread-safe.
class PgPrefixSet {
 public:
  explicit PgPrefixSet(std::initializer_list<PgText> ids);
  /// True when `text` starts with one of the prefixes (or with a digit, when
  /// a translation starts with a number): only then can it be one of them.
  bool MayMatch(std::string_view text) const;
  /// False when no text that starts with `c` can: a test on one byte.
  bool MayStartWith(char c) const {
    return !by_first_[static_cast<unsigned char>(c)].empty() ||
           (c >= '0' && c <= '9' && !after_number_.empty());
  }

 private:
  std::array<std::vector<std::string>, 256> by_first_;  // prefixes by first byte
  std::vector<std::string> after_number_;  // of the translations that start with one
};

/// The English rendering of a text that is a translation of a wait-ending
/// message (kDeadlockDetected, kCancel*, kTerminateAdmin, kNoWait*): e.g.
/// "storniere Anfrage wegen Zeitüberschreitung einer Sperre" gives
/// "canceling statement due to lock timeout". Any other text is returned
/// unchanged.
std::string CanonicalPgMessage(std::string_view text);

}  // namespace lockgraph
