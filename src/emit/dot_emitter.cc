// --format dot: the wait-for graphs as Graphviz DOT, built with cgraph so that
// quoting is Graphviz's own. One cluster per deadlock and per blocked lock
// wait; node ids are stable ("d1_pid_4211"), never pointers.
#include <graphviz/cgraph.h>

#include <cstdio>
#include <memory>
#include <string>

#include "emit/emitter.h"

namespace lockgraph {
namespace {

// cgraph quotes and escapes '"'; a backslash would start a DOT label escape
// (\N, \G, \l), so it is doubled here, and newlines become left-justified
// line breaks.
std::string Label(std::string_view text, size_t max = 200) {
  std::string out;
  size_t n = 0;
  for (char c : text) {
    if (++n > max) {
      out += "...";
      break;
    }
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\l";
    else if (c == '\r' || c == '\t') out += ' ';
    else out += c;
  }
  return out;
}

class Graph {
 public:
  Graph() {
    g_ = agopen(const_cast<char*>("lockgraph"), Agdirected, nullptr);
    Set(g_, "rankdir", "LR");
    agattr(g_, AGNODE, const_cast<char*>("shape"), const_cast<char*>("box"));
    agattr(g_, AGNODE, const_cast<char*>("fontname"), const_cast<char*>("Helvetica"));
    agattr(g_, AGEDGE, const_cast<char*>("fontname"), const_cast<char*>("Helvetica"));
  }
  ~Graph() { agclose(g_); }
  Agraph_t* root() { return g_; }

  Agraph_t* Cluster(const std::string& name, const std::string& label) {
    Agraph_t* sub = agsubg(g_, const_cast<char*>(("cluster_" + name).c_str()), 1);
    Set(sub, "label", Label(label));
    return sub;
  }
  static Agnode_t* Node(Agraph_t* sub, const std::string& id, const std::string& label) {
    Agnode_t* n = agnode(sub, const_cast<char*>(id.c_str()), 1);
    Set(n, "label", label);
    return n;
  }
  static Agedge_t* Edge(Agraph_t* sub, Agnode_t* from, Agnode_t* to, const std::string& label) {
    Agedge_t* e = agedge(sub, from, to, nullptr, 1);
    Set(e, "label", Label(label));
    return e;
  }
  static void Set(void* obj, const char* key, const std::string& value) {
    agsafeset(obj, const_cast<char*>(key), const_cast<char*>(value.c_str()), const_cast<char*>(""));
  }

  std::string Write() {
    char* buf = nullptr;
    size_t len = 0;
    FILE* f = open_memstream(&buf, &len);
    agwrite(g_, f);
    std::fclose(f);
    std::string out(buf, len);
    std::free(buf);
    return out;
  }

 private:
  Agraph_t* g_;
};

class DotEmitter : public Emitter {
 public:
  std::string Name() const override { return "dot"; }
  std::string Description() const override { return "Graphviz DOT wait-for graphs (pipe to `dot -Tsvg`)"; }

  void Write(const Report& report, std::ostream& out) override {
    Graph graph;
    int deadlock_no = 0, wait_no = 0;
    for (const Event& ev : report.events) {
      if (ev.deadlock) AddDeadlock(graph, ev, ++deadlock_no);
      if (ev.lock_wait) AddWait(graph, ev, ++wait_no);
    }
    out << graph.Write();
  }

 private:
  static void AddDeadlock(Graph& graph, const Event& ev, int no) {
    const Deadlock& d = *ev.deadlock;
    std::string prefix = "d" + std::to_string(no);
    Agraph_t* sub = graph.Cluster(prefix, "deadlock " + std::to_string(no) + " at " + ev.time +
                                              (d.complete ? "" : " (incomplete)"));
    auto node_of = [&](const std::string& id) {
      std::string query;
      for (const Participant& p : d.processes)
        if (p.id == id) query = p.query;
      std::string label = Label("pid " + id + (id == d.victim ? " (victim)" : "")) + "\\l" +
                          Label(query) + "\\l";
      Agnode_t* n = Graph::Node(sub, prefix + "_pid_" + id, label);
      if (id == d.victim) {
        Graph::Set(n, "color", "red");
        Graph::Set(n, "penwidth", "2");
      }
      return n;
    };
    for (const WaitEdge& e : d.edges) {
      Agedge_t* edge = Graph::Edge(sub, node_of(e.waiter), node_of(e.blocker),
                                   e.mode + " on " + e.lock.Label());
      Graph::Set(edge, "tooltip", Label(e.lock.text));
    }
  }

  static void AddWait(Graph& graph, const Event& ev, int no) {
    const LockWait& w = *ev.lock_wait;
    if (w.chain.size() < 2) return;
    std::string prefix = "w" + std::to_string(no);
    Agraph_t* sub = graph.Cluster(
        prefix, "lock wait " + std::to_string(no) + " at " + w.start_time + ": " +
                    WaitOutcomeName(w.outcome));
    Agnode_t* prev = nullptr;
    for (size_t i = 0; i < w.chain.size(); ++i) {
      std::string pid = std::to_string(w.chain[i]);
      std::string label = "pid " + pid;
      if (i == 0 && !w.statement.empty()) label += "\\l" + Label(w.statement);
      if (i + 1 == w.chain.size()) label += "\\l(root blocker)";
      Agnode_t* n = Graph::Node(sub, prefix + "_pid_" + pid, label + "\\l");
      if (prev) Graph::Edge(sub, prev, n, i == 1 ? w.mode + " on " + w.lock.Label() : "waits");
      prev = n;
    }
  }
};

}  // namespace

std::unique_ptr<Emitter> MakeDotEmitter() { return std::make_unique<DotEmitter>(); }

}  // namespace lockgraph
