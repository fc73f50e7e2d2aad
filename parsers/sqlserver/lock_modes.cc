// See lock_modes.h. Codes: N no conflict, C conflict, I illegal combination.
#include "parsers/sqlserver/lock_modes.h"

#include <array>
#include <cctype>

namespace lockgraph {
namespace {

constexpr std::array<std::string_view, 22> kModes = {
    "NL",       "Sch-S",    "Sch-M",    "S",        "U",        "X",
    "IS",       "IU",       "IX",       "SIU",      "SIX",      "UIX",
    "BU",       "RangeS-S", "RangeS-U", "RangeI-N", "RangeI-S", "RangeI-U",
    "RangeI-X", "RangeX-S", "RangeX-U", "RangeX-X"};

// Row: requested; column: granted; in kModes order.
constexpr std::array<std::string_view, 22> kMatrix = {
    "NNNNNNNNNNNNNNNNNNNNNN",  // NL
    "NNCNNNNNNNNNNIIIIIIIII",  // Sch-S
    "NCCCCCCCCCCCCIIIIIIIII",  // Sch-M
    "NNCNNCNNCNCCCNNNNNCNNC",  // S
    "NNCNCCNCCCCCCNCNNCCNCC",  // U
    "NNCCCCCCCCCCCCCNCCCCCC",  // X
    "NNCNNCNNNNNNCIIIIIIIII",  // IS
    "NNCNCCNNNNNCCIIIIIIIII",  // IU
    "NNCCCCNNNCCCCIIIIIIIII",  // IX
    "NNCNCCNNCNCCCIIIIIIIII",  // SIU
    "NNCCCCNNCCCCCIIIIIIIII",  // SIX
    "NNCCCCNCCCCCCIIIIIIIII",  // UIX
    "NNCCCCCCCCCCNIIIIIIIII",  // BU
    "NIINNCIIIIIIINNCCCCCCC",  // RangeS-S
    "NIINCCIIIIIIINCCCCCCCC",  // RangeS-U
    "NIINNNIIIIIIICCNNNNCCC",  // RangeI-N
    "NIINNCIIIIIIICCNNNCCCC",  // RangeI-S
    "NIINCCIIIIIIICCNNCCCCC",  // RangeI-U
    "NIICCCIIIIIIICCNCCCCCC",  // RangeI-X
    "NIINNCIIIIIIICCCCCCCCC",  // RangeX-S
    "NIINCCIIIIIIICCCCCCCCC",  // RangeX-U
    "NIICCCIIIIIIICCCCCCCCC",  // RangeX-X
};

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

int ModeIndex(std::string_view mode) {
  while (!mode.empty() && mode.back() == ' ') mode.remove_suffix(1);
  for (size_t i = 0; i < kModes.size(); ++i)
    if (EqualsNoCase(mode, kModes[i])) return int(i);
  return -1;
}

}  // namespace

bool IsSqlServerLockMode(std::string_view mode) { return ModeIndex(mode) >= 0; }

ModeConflict SqlServerModeConflict(std::string_view requested, std::string_view granted) {
  int r = ModeIndex(requested), g = ModeIndex(granted);
  if (r < 0 || g < 0) return ModeConflict::kUnknown;
  switch (kMatrix[size_t(r)][size_t(g)]) {
    case 'N': return ModeConflict::kCompatible;
    case 'C': return ModeConflict::kConflict;
    default: return ModeConflict::kIllegal;
  }
}

}  // namespace lockgraph
