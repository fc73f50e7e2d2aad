// See lock_conflicts.h. The table is lock.c's LockConflicts[], byte for byte
// the same from 9.6 to 19: bit m of entry r is set when mode r conflicts
// with held mode m.
#include "parsers/postgresql/lock_conflicts.h"

#include <array>

namespace lockgraph {
namespace {

constexpr std::array<std::string_view, 9> kModeNames = {
    "INVALID",  "AccessShareLock",          "RowShareLock",
    "RowExclusiveLock", "ShareUpdateExclusiveLock", "ShareLock",
    "ShareRowExclusiveLock", "ExclusiveLock", "AccessExclusiveLock"};

constexpr int Bit(int mode) { return 1 << mode; }

constexpr std::array<int, 9> kConflicts = {
    0,
    /* AccessShareLock */ Bit(8),
    /* RowShareLock */ Bit(7) | Bit(8),
    /* RowExclusiveLock */ Bit(5) | Bit(6) | Bit(7) | Bit(8),
    /* ShareUpdateExclusiveLock */ Bit(4) | Bit(5) | Bit(6) | Bit(7) | Bit(8),
    /* ShareLock */ Bit(3) | Bit(4) | Bit(6) | Bit(7) | Bit(8),
    /* ShareRowExclusiveLock */ Bit(3) | Bit(4) | Bit(5) | Bit(6) | Bit(7) | Bit(8),
    /* ExclusiveLock */ Bit(2) | Bit(3) | Bit(4) | Bit(5) | Bit(6) | Bit(7) | Bit(8),
    /* AccessExclusiveLock */ Bit(1) | Bit(2) | Bit(3) | Bit(4) | Bit(5) | Bit(6) | Bit(7) |
        Bit(8),
};

}  // namespace

int PgLockModeLevel(std::string_view mode) {
  for (int i = 1; i < int(kModeNames.size()); ++i)
    if (kModeNames[i] == mode) return i;
  return 0;
}

bool PgLockModesConflict(std::string_view requested, std::string_view held) {
  int r = PgLockModeLevel(requested), h = PgLockModeLevel(held);
  return r != 0 && h != 0 && (kConflicts[r] & Bit(h)) != 0;
}

}  // namespace lockgraph
