// SQL Server's lock compatibility matrix, all 22 modes (reference A7.2:
// "SQL Server 2008 Internals", Table 10-2, with the BU and key-range cells
// completed by symmetry and by the range/key-part rule). Used to decide
// whether a waiter is blocked by an owner of the same resource.
#pragma once

#include <string_view>

namespace lockgraph {

enum class ModeConflict {
  kCompatible,  // the requested mode can be granted beside the other
  kConflict,    // it cannot
  kIllegal,     // the two modes cannot be on one resource (e.g. IS and RangeS-S)
  kUnknown,     // a mode lockgraph does not know, or no mode at all
};

/// `requested` against `granted` (case-insensitive; "Sch-S", "SCH-S", "RangeS-S").
ModeConflict SqlServerModeConflict(std::string_view requested, std::string_view granted);

/// True for a mode of the matrix.
bool IsSqlServerLockMode(std::string_view mode);

}  // namespace lockgraph
