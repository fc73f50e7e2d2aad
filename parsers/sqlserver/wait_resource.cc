// See wait_resource.h.
#include "parsers/sqlserver/wait_resource.h"

#include <array>
#include <cctype>

namespace lockgraph {
namespace {

struct Prefix {
  std::string_view prefix, element;
  std::array<std::string_view, 4> parts;  // names of the colon-separated numbers
};

constexpr std::array<Prefix, 14> kPrefixes = {{
    {"KEY", "keylock", {"dbid", "hobtid"}},
    {"RID", "ridlock", {"dbid", "fileid", "pageid", "slot"}},
    {"PAGE", "pagelock", {"dbid", "fileid", "pageid"}},
    {"PAG", "pagelock", {"dbid", "fileid", "pageid"}},
    {"OBJECT", "objectlock", {"dbid", "objid", "lockPartition"}},
    {"TAB", "objectlock", {"dbid", "objid", "lockPartition"}},
    {"EXT", "extentlock", {"dbid", "fileid", "pageid"}},
    {"DB", "databaselock", {"dbid"}},
    {"APP", "applicationlock", {}},
    {"APPLICATION", "applicationlock", {}},
    {"METADATA", "metadatalock", {}},
    {"HOBT", "hobtlock", {}},
    {"FILE", "filelock", {}},
    {"ALLOCATION_UNIT", "allocunitlock", {}},
}};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "6:1:20789:0" into the named parts; false when a part is not a number or
// there are more parts than names.
bool SplitNumbers(std::string_view value, const Prefix& p, WaitResource* out) {
  std::vector<std::pair<std::string, std::string>> parts;
  size_t i = 0;
  while (!value.empty()) {
    size_t colon = value.find(':');
    std::string_view part = value.substr(0, colon);
    if (i >= p.parts.size() || p.parts[i].empty() || !AllDigits(part)) return false;
    parts.emplace_back(std::string(p.parts[i++]), std::string(part));
    if (colon == std::string_view::npos) break;
    value.remove_prefix(colon + 1);
  }
  out->parts = std::move(parts);
  return true;
}

}  // namespace

bool ParseWaitResource(std::string_view text, WaitResource* out) {
  std::string_view t = Trim(text);
  size_t colon = t.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view prefix = t.substr(0, colon);
  for (const Prefix& p : kPrefixes) {
    if (prefix != p.prefix) continue;
    WaitResource r;
    r.prefix = std::string(p.prefix);
    r.element = std::string(p.element);
    r.text = std::string(t);
    std::string_view value = Trim(t.substr(colon + 1));
    std::string_view extra;
    if (p.prefix == "KEY") {  // "5:72057594214350848 (1a39e6095155)"
      size_t open = value.find(" (");
      if (open != std::string_view::npos && value.back() == ')') {
        extra = value.substr(open + 2, value.size() - open - 3);
        value = value.substr(0, open);
      }
    } else if (p.prefix == "DB") {  // "6[BULK-OP-DB]"
      size_t open = value.find('[');
      if (open != std::string_view::npos && value.back() == ']') {
        extra = value.substr(open + 1, value.size() - open - 2);
        value = value.substr(0, open);
      }
    }
    if (!SplitNumbers(value, p, &r)) {
      r.parts.clear();
      r.parts.emplace_back("resource", std::string(value));
    }
    if (!extra.empty()) r.parts.emplace_back(p.prefix == "KEY" ? "hash" : "subresource", std::string(extra));
    *out = std::move(r);
    return true;
  }
  return false;
}

}  // namespace lockgraph
