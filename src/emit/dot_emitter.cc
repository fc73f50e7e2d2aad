// --format dot: the wait-for graphs as Graphviz DOT, built with cgraph so that
// quoting is Graphviz's own (src/emit/dot_graph.h). One cluster per deadlock
// and per blocked lock wait (src/emit/dot_events.h, shared with the HTML
// report), one per snapshot tree and cycle.
#include <memory>
#include <string>

#include "emit/dot_events.h"
#include "emit/dot_graph.h"
#include "emit/emitter.h"
#include "emit/snapshot_dot.h"

namespace lockgraph {
namespace {

class DotEmitter : public Emitter {
 public:
  std::string Name() const override { return "dot"; }
  std::string Description() const override { return "Graphviz DOT wait-for graphs (pipe to `dot -Tsvg`)"; }

  void Write(const Report& report, std::ostream& out) override {
    DotGraph graph;
    int deadlock_no = 0, wait_no = 0;
    SnapshotDot snapshots;
    for (const Event& ev : report.events) {
      if (ev.deadlock) {
        std::string no = std::to_string(++deadlock_no);
        AddDeadlockCluster(graph, ev, "d" + no, "deadlock " + no);
      }
      if (ev.lock_wait) {
        std::string no = std::to_string(++wait_no);
        AddWaitCluster(graph, ev, "w" + no, "lock wait " + no);
      }
      snapshots.Add(graph, ev);
    }
    out << graph.Write();
  }
};

}  // namespace

std::unique_ptr<Emitter> MakeDotEmitter() { return std::make_unique<DotEmitter>(); }

}  // namespace lockgraph
