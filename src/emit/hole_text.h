// A rendered text with holes: what an emitter renders of an event when it is
// made (into an EventSpool) but cannot finish before Write, because a part
// depends on the whole run (sarif maps paths from every input, a wait key
// needs the relation names learned over the whole input). The holes are
// filled at Write. docs/performance.md#memory-of-the-ci-formats.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

/// The placeholder value of a hole in a JSON object before it is dumped:
/// dumped, it reads `"\u0001"`, and `"key": "\u0001"` can appear nowhere
/// else in a dump, because quotes inside string values are escaped.
inline constexpr const char* kJsonHoleValue = "\x01";

/// Literal runs and holes (a kind and an argument), packed into one string:
/// each part is a kind byte (0: literal), a 4-byte length and its bytes.
/// Copyable; not thread-safe.
class HoleText {
 public:
  void Append(std::string_view literal);
  void AddHole(char kind, std::string_view arg);
  /// Appends `dump` (nlohmann's dump of JSON in which the values of the
  /// keys in `holes` are kJsonHoleValue) with each such value cut out as a
  /// hole. `holes` in the order their keys appear in the dump. Returns
  /// false, appending `dump` whole, when one is not found.
  struct JsonHole {
    std::string_view key;
    char kind;
    std::string arg;
  };
  bool AppendJson(std::string_view dump, const std::vector<JsonHole>& holes);

  const std::string& packed() const { return packed_; }

 private:
  void AddPart(char kind, std::string_view bytes);
  std::string packed_;
};

/// The text of a packed HoleText with each hole replaced by fill(kind, arg).
/// Returns false for a malformed packing (a truncated part).
bool FillHoles(std::string_view packed,
               const std::function<std::string(char kind, std::string_view arg)>& fill,
               std::string* out);

/// Several fields as one hole argument, and back (each with its length:
/// any bytes are allowed).
std::string PackFields(const std::vector<std::string_view>& fields);
std::vector<std::string_view> UnpackFields(std::string_view packed);

}  // namespace lockgraph
