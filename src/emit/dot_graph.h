// A cgraph graph whose output is deterministic: objects get sequential IDs
// (cgraph's default IDs are string addresses, so agwrite's order of
// subgraphs and nodes changed from run to run), and every label is made
// safe for DOT. Used by the DOT emitter and the HTML report.
#pragma once

#include <string>
#include <string_view>

#include "emit/dot_sink.h"

struct Agraph_s;
struct Agnode_s;
struct Agedge_s;

namespace lockgraph {

/// Text for a DOT label: valid UTF-8, backslashes doubled (a backslash
/// would start a DOT escape such as \N), control characters dropped,
/// newlines as left-justified breaks, cut after `max` bytes.
std::string DotLabel(std::string_view text, size_t max = 200);

/// Not copyable; not thread-safe.
class DotGraph : public DotSink {
 public:
  DotGraph();
  ~DotGraph() override;
  DotGraph(const DotGraph&) = delete;
  DotGraph& operator=(const DotGraph&) = delete;

  Agraph_s* root() { return g_; }
  /// A cluster subgraph named "cluster_<name>" with a (raw) label.
  Agraph_s* Cluster(const std::string& name, const std::string& label);
  /// `label` must already be DotLabel()-safe (it may contain \l breaks).
  static Agnode_s* Node(Agraph_s* g, const std::string& id, const std::string& label);
  /// `label` is raw text.
  static Agedge_s* Edge(Agraph_s* g, Agnode_s* from, Agnode_s* to, const std::string& label);
  static void Set(void* object, const char* key, const std::string& value);

  // DotSink, on this graph.
  DotObject AddCluster(const std::string& name, const std::string& label) override;
  DotObject AddNode(DotObject cluster, const std::string& id, const std::string& label) override;
  DotObject FindNode(DotObject cluster, const std::string& id) override;
  DotObject AddEdge(DotObject cluster, DotObject from, DotObject to, const std::string& label) override;
  void SetAttr(DotObject object, const char* key, const std::string& value) override;

  /// The graph as DOT text (agwrite).
  std::string Write();

 private:
  Agraph_s* g_;
};

}  // namespace lockgraph
