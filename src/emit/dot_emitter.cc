// --format dot: the wait-for graphs as Graphviz DOT, built with cgraph so that
// quoting is Graphviz's own (src/emit/dot_graph.h). One cluster per deadlock
// and per blocked lock wait (src/emit/dot_events.h, shared with the HTML
// report), one per snapshot tree and cycle.
//
// Under `analyze` each event's clusters are recorded when it is made
// (src/emit/dot_recipe.h) and kept in an EventSpool, not as an Event; at
// Write each is replayed, numbered in log order and with the relation names
// of the whole input, into a graph of its own, and written as it would be
// in one graph of them all: memory stays flat, and time linear (cgraph's
// agwrite looks every node up in every cluster of its graph).
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "emit/dot_events.h"
#include "emit/dot_graph.h"
#include "emit/dot_recipe.h"
#include "emit/emitter.h"
#include "emit/event_spool.h"
#include "emit/hole_text.h"
#include "analysis/late_relation_names.h"
#include "emit/snapshot_dot.h"
#include "text/number.h"

namespace lockgraph {
namespace {

// The placeholder number a recording is made with.
constexpr const char* kNumber = "#";

// The kinds of cluster, numbered apart: deadlock, lock wait, chain, cycle.
struct ClusterKind {
  char kind;
  const char* prefix;
  const char* title;
};
constexpr ClusterKind kKinds[] = {
    {'d', "d", "deadlock "}, {'w', "w", "lock wait "}, {'c', "c", "chain "}, {'y', "y", "cycle "}};

const ClusterKind& KindOf(char kind) {
  for (const ClusterKind& k : kKinds)
    if (k.kind == kind) return k;
  return kKinds[0];
}

// The relation names of `ev` that may still change, replaced by markers
// that DotRecipe turns into holes; `ev` is copied only when there is one.
struct Marked {
  const Event* event;
  std::unique_ptr<Event> copy;
  std::vector<DotRecipe::Marker> markers;
};

Marked MarkLateNames(const Event& ev, uint32_t input) {
  Marked m{&ev, nullptr, {}};
  if (!HasLateTarget(ev)) return m;
  m.copy = std::make_unique<Event>(ev);
  m.event = m.copy.get();
  ForEachLateTarget(m.copy.get(), [&](LockTarget& target) {
    // Not "\x01" + to_string() + ...: GCC 12 warns falsely (-Wrestrict).
    std::string text = "\x01";
    text += std::to_string(m.markers.size());
    text += '\x01';
    DotRecipe::Marker marker{std::move(text), PackFields({std::to_string(input), target.Field("database"),
                                                          target.Field("relation")})};
    target.relation_name = marker.text;  // Label() ends with it
    m.markers.push_back(std::move(marker));
  });
  return m;
}

// A drawing function's signature, given the placeholder prefix and title.
using Draw = std::function<void(DotSink&, const std::string&, const std::string&)>;

// Every cluster `ev` is drawn as: (kind, recording) pairs packed, in the
// order the clusters are numbered. A lock wait with a chain too short to
// draw still takes its number, with an empty recording. Empty when `ev`
// has no cluster.
std::string Record(const Event& ev, uint32_t input, bool late_names) {
  Marked m = late_names ? MarkLateNames(ev, input) : Marked{&ev, nullptr, {}};
  const Event& e = *m.event;
  std::vector<std::string> parts;
  auto add = [&](char kind, const Draw& draw) {
    const ClusterKind& k = KindOf(kind);
    const std::string prefix = k.prefix + std::string(kNumber);
    const std::string title = k.title + std::string(kNumber);
    DotRecipe recipe(prefix, title, m.markers);
    draw(recipe, prefix, title);
    parts.push_back(std::string(1, kind));
    parts.push_back(recipe.packed());
  };
  using S = const std::string&;
  if (e.deadlock) add('d', [&](DotSink& g, S p, S t) { AddDeadlockCluster(g, e, p, t); });
  if (e.lock_wait) add('w', [&](DotSink& g, S p, S t) { AddWaitCluster(g, e, p, t); });
  const SnapshotClusterKind snapshot = SnapshotClusterOf(e);
  if (snapshot != SnapshotClusterKind::kNone)
    add(snapshot == SnapshotClusterKind::kChain ? 'c' : 'y',
        [&](DotSink& g, S p, S t) { AddSnapshotCluster(g, e, p, t); });
  if (parts.empty()) return {};
  return PackFields(std::vector<std::string_view>(parts.begin(), parts.end()));
}

class DotEmitter : public Emitter {
 public:
  std::string Name() const override { return "dot"; }
  std::string Description() const override { return "Graphviz DOT wait-for graphs (pipe to `dot -Tsvg`)"; }
  bool KeepsOwnEvents() const override { return true; }
  void OnInputStart(size_t input) override { input_ = uint32_t(input); }
  void OnEvent(const Event& ev, std::ostream&) override {
    std::string recorded = Record(ev, input_, true);
    if (!recorded.empty()) spool_.Add(input_, ev.source.first_line, recorded);
  }

  void Write(const Report& report, std::ostream& out) override {
    // A graph's text is its head (the graph and its defaults), its
    // clusters, and "}\n": the empty graph's gives the head.
    const std::string empty = DotGraph().Write();
    const std::string head = empty.substr(0, empty.size() - 2);
    out << head;
    const LateRelationNames names(report);
    const DotRelationFill fill = [&](std::string_view arg) {
      std::vector<std::string_view> f = UnpackFields(arg);
      if (f.size() != 3) return std::string();
      return names.Name(ParseNumber<size_t>(f[0]).value_or(0), f[1], f[2]);
    };
    int numbers[std::size(kKinds)] = {};
    bool intact = true;
    auto write = [&](std::string_view recorded) {
      std::vector<std::string_view> f = UnpackFields(recorded);
      for (size_t i = 0; i + 1 < f.size(); i += 2) {
        const ClusterKind& k = KindOf(f[i].empty() ? 0 : f[i][0]);
        const std::string number = std::to_string(++numbers[&k - kKinds]);
        if (f[i + 1].empty()) continue;
        DotGraph graph;
        intact &= ReplayDotRecipe(f[i + 1], k.prefix + number, k.title + number, fill, graph);
        const std::string text = graph.Write();
        intact &= text.size() >= empty.size() && text.compare(0, head.size(), head) == 0;
        if (text.size() >= empty.size()) out.write(text.data() + head.size(), text.size() - empty.size());
      }
    };
    // Clusters come from the spool when OnEvent filled it (`analyze`),
    // else from the report (callers that collect events): never both.
    if (spool_.size() == 0) {
      for (const Event& ev : report.events) write(Record(ev, 0, false));
    } else if (!spool_.ForEachSorted(write)) {
      std::cerr << "lockgraph: cannot read back the graphs kept in a temporary file\n";
    }
    if (!intact) std::cerr << "lockgraph: internal error: a graph could not be drawn again whole\n";
    out << "}\n";
  }

 private:
  EventSpool spool_;
  uint32_t input_ = 0;
};

}  // namespace

std::unique_ptr<Emitter> MakeDotEmitter() { return std::make_unique<DotEmitter>(); }

}  // namespace lockgraph
