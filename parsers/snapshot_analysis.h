// What one lock snapshot of a server says, whatever the engine: its
// processes, who waits for whom, and the events (a `snapshot`, then cycles
// and chains). Made by parsers/postgresql/pg_snapshot.h and
// parsers/mysql/my_lock_snapshot.h; read by `lockgraph watch`. docs/watch.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// One snapshot analysed. Copyable.
struct SnapshotAnalysis {
  std::map<std::string, Backend> backends;  // by process id
  std::vector<WaitEdge> edges;              // who waits for whom
  std::vector<Event> events;                // snapshot, cycles, chains
};

}  // namespace lockgraph
