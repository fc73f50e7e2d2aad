// See hole_text.h.
#include "emit/hole_text.h"

#include <cstdint>

namespace lockgraph {
namespace {

constexpr char kLiteral = 0;

void PutLength(uint32_t n, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(char((n >> (8 * i)) & 0xff));
}

// Reads one length-prefixed part at *pos; false when truncated.
bool TakeLength(std::string_view s, size_t* pos, uint32_t* n) {
  if (s.size() - *pos < 4) return false;
  *n = 0;
  for (int i = 0; i < 4; ++i) *n |= uint32_t(uint8_t(s[*pos + i])) << (8 * i);
  *pos += 4;
  return s.size() - *pos >= *n;
}

}  // namespace

void HoleText::AddPart(char kind, std::string_view bytes) {
  packed_.push_back(kind);
  PutLength(uint32_t(bytes.size()), &packed_);
  packed_.append(bytes);
}

void HoleText::Append(std::string_view literal) {
  if (!literal.empty()) AddPart(kLiteral, literal);
}

void HoleText::AddHole(char kind, std::string_view arg) { AddPart(kind, arg); }

bool HoleText::AppendJson(std::string_view dump, const std::vector<JsonHole>& holes) {
  const std::string_view value = "\"\\u0001\"";
  std::vector<size_t> at;  // where each hole's value starts in dump
  size_t from = 0;
  for (const JsonHole& h : holes) {
    const std::string pattern = "\"" + std::string(h.key) + "\": " + std::string(value);
    size_t p = dump.find(pattern, from);
    if (p == std::string_view::npos) {
      Append(dump);
      return false;
    }
    at.push_back(p + pattern.size() - value.size());
    from = p + pattern.size();
  }
  size_t done = 0;
  for (size_t i = 0; i < holes.size(); ++i) {
    Append(dump.substr(done, at[i] - done));
    AddHole(holes[i].kind, holes[i].arg);
    done = at[i] + value.size();
  }
  Append(dump.substr(done));
  return true;
}

bool FillHoles(std::string_view packed,
               const std::function<std::string(char kind, std::string_view arg)>& fill,
               std::string* out) {
  size_t pos = 0;
  while (pos < packed.size()) {
    const char kind = packed[pos++];
    uint32_t n = 0;
    if (!TakeLength(packed, &pos, &n)) return false;
    std::string_view bytes = packed.substr(pos, n);
    pos += n;
    if (kind == kLiteral) out->append(bytes);
    else out->append(fill(kind, bytes));
  }
  return true;
}

std::string PackFields(const std::vector<std::string_view>& fields) {
  std::string out;
  for (std::string_view f : fields) {
    PutLength(uint32_t(f.size()), &out);
    out.append(f);
  }
  return out;
}

std::vector<std::string_view> UnpackFields(std::string_view packed) {
  std::vector<std::string_view> fields;
  size_t pos = 0;
  uint32_t n = 0;
  while (pos < packed.size() && TakeLength(packed, &pos, &n)) {
    fields.push_back(packed.substr(pos, n));
    pos += n;
  }
  return fields;
}

}  // namespace lockgraph
