// JSON written straight to text, laid out exactly as DumpJson() and
// DumpJsonAt() lay out the same values with nlohmann::ordered_json, for
// the parts of an event too large to build as a JSON tree first (the
// members and edges of a 100,000-waiter snapshot's chains). See
// docs/performance.md (issue 20).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockgraph {

/// Appends to a string. `indent` -1: compact (DumpJson(j, -1)); 2: pretty,
/// the outermost value `depth` spaces deep (DumpJsonAt(j, depth)). Strings
/// are escaped as nlohmann escapes them (invalid UTF-8 becomes U+FFFD).
/// The caller pairs Begin/End calls and puts a Key() before each value in
/// an object. Copyable; not thread-safe.
class JsonText {
 public:
  JsonText(std::string* out, int indent, unsigned depth);

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view key);
  void String(std::string_view s);
  void Int(int64_t v);
  void Uint(uint64_t v);
  /// A double as nlohmann writes it (shortest round trip; null if not finite).
  void Double(double v);
  void Bool(bool v);
  /// Any value of a JSON tree, written as its dump would be.
  void Value(const nlohmann::ordered_json& j);

 private:
  /// Room for a separator and a short value, assembled on the stack and
  /// appended at once (most keys and values of an event are short).
  static constexpr size_t kShortBuffer = 192;
  static constexpr size_t kShortText = 96;  // bytes of a short string
  static constexpr size_t kMaxIndent = 64;  // spaces of a short separator

  void BeforeValue();
  /// The separator before a value (a comma, and when pretty a line break
  /// and the indentation) written to `buf` (kShortBuffer bytes, from 0):
  /// its length. Deeper than kMaxIndent, it is appended to the output at
  /// once instead, and the length is 0.
  size_t Separator(char* buf);
  /// A short string that needs no escaping, quoted, after the separator
  /// and followed by `after`: false (and nothing done) when it is not one.
  bool ShortPlain(std::string_view s, std::string_view after);
  template <typename Integer>
  void WholeNumber(Integer v);
  void Open(char bracket);
  void Close(char bracket);
  void NewLine(size_t level);
  void Escaped(std::string_view s);

  std::string* out_;
  bool pretty_;
  unsigned depth_;
  std::vector<size_t> counts_;  // per open container: values written
  bool after_key_ = false;
};

}  // namespace lockgraph
