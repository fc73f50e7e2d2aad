// A small, forgiving SQL tokenizer for statements as PostgreSQL logs them:
// whole, clipped at track_activity_query_size, or with $n placeholders. It
// never fails; text it cannot classify becomes single-character symbols.
// Used by the token normalizer (docs/rules.md#statements) and by the
// statement facts the rules read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

struct SqlToken {
  enum class Kind {
    kWord,    // keyword or unquoted identifier, folded to lower case
    kQuoted,  // "quoted identifier", quotes removed, case kept
    kNumber,  // 42, 4.2, 1e3, 0x1F
    kString,  // 'text', E'text', $tag$text$tag$ (quotes removed)
    kParam,   // $1
    kSymbol,  // operators and punctuation: "=", "(", ",", "::", ...
  };
  Kind kind = Kind::kSymbol;
  std::string text;
  /// Where the token is in the input, [begin, end): redaction replaces
  /// literals in place and keeps everything else as written.
  size_t begin = 0, end = 0;
};

/// Splits `sql` into tokens. Comments (-- and nested /* */) and whitespace
/// are dropped, also when the text ends inside them (clipped queries); an
/// unterminated string or quoted identifier becomes one token up to the end.
std::vector<SqlToken> TokenizeSql(std::string_view sql);

/// True for the literal kinds the normalizer replaces by "?".
bool IsLiteral(const SqlToken& token);

}  // namespace lockgraph
