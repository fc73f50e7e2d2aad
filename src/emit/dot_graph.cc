// See dot_graph.h.
#include "emit/dot_graph.h"

#include <graphviz/cgraph.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "emit/text_safety.h"

namespace lockgraph {
namespace {

// cgraph ID discipline: named objects get even IDs in creation order,
// anonymous ones (edges) odd IDs, so agwrite lists them as they were made.
// Printed names must be cgraph's own reference-counted strings (agwrite
// looks at their header to tell HTML labels), hence agstrdup. Names are
// kept by ID / 2 in a vector: agwrite asks for them many times per object
// (a 2,500-cluster graph spent 40% of its time in a map lookup here).
struct IdState {
  Agraph_t* root = nullptr;
  std::map<std::string, IDTYPE, std::less<>> by_name;
  std::vector<char*> names;  // [id / 2 - 1]: one slot per ID pair, null when anonymous
  IDTYPE next = 2;
};

void* IdOpen(Agraph_t* g, Agdisc_t*) {
  auto* s = new IdState();
  s->root = g;
  return s;
}

long IdMap(void* state, int, char* str, IDTYPE* id, int create) {
  auto* s = static_cast<IdState*>(state);
  if (!str) {
    *id = s->next + 1;
    s->next += 2;
    s->names.push_back(nullptr);  // keeps names[] aligned with next / 2
    return 1;
  }
  auto it = s->by_name.find(std::string_view(str));
  if (it != s->by_name.end()) {
    *id = it->second;
    return 1;
  }
  if (!create) return 0;
  *id = s->next;
  s->next += 2;
  s->by_name.emplace(str, *id);
  s->names.push_back(agstrdup(s->root, str));
  return 1;
}

long IdAlloc(void*, int, IDTYPE) { return 0; }
void IdFree(void*, int, IDTYPE) {}

char* IdPrint(void* state, int, IDTYPE id) {
  auto* s = static_cast<IdState*>(state);
  if (id % 2 != 0 || id < 2 || id / 2 - 1 >= s->names.size()) return nullptr;
  return s->names[id / 2 - 1];
}

void IdClose(void* state) { delete static_cast<IdState*>(state); }
void IdRegister(void*, int, void*) {}

Agiddisc_t kSequentialIds = {IdOpen, IdMap, IdAlloc, IdFree, IdPrint, IdClose, IdRegister};

char* C(const char* s) { return const_cast<char*>(s); }

}  // namespace

std::string DotLabel(std::string_view text, size_t max) {
  std::string valid = ValidUtf8(text.substr(0, max));
  std::string out;
  for (unsigned char c : valid) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\l";
    else if (c == '\t') out += ' ';
    else if (c < 0x20 || c == 0x7f) continue;
    else out += char(c);
  }
  if (text.size() > max) out += "...";
  return out;
}

DotGraph::DotGraph() {
  static Agdisc_t disc = {&AgMemDisc, &kSequentialIds, &AgIoDisc};
  g_ = agopen(C("lockgraph"), Agdirected, &disc);
  Set(g_, "rankdir", "LR");
  // gvContext() (the HTML report) declares node label "\N" on cgraph's
  // prototype graph, so every graph made after it in the process would
  // write that default; declaring it here makes the DOT text the same
  // whether or not a report was drawn first.
  agattr(g_, AGNODE, C("label"), C("\\N"));
  agattr(g_, AGNODE, C("shape"), C("box"));
  agattr(g_, AGNODE, C("fontname"), C("Helvetica"));
  agattr(g_, AGEDGE, C("fontname"), C("Helvetica"));
}

DotGraph::~DotGraph() { agclose(g_); }

Agraph_t* DotGraph::Cluster(const std::string& name, const std::string& label) {
  Agraph_t* sub = agsubg(g_, C(("cluster_" + name).c_str()), 1);
  Set(sub, "label", DotLabel(label));
  return sub;
}

Agnode_t* DotGraph::Node(Agraph_t* g, const std::string& id, const std::string& label) {
  Agnode_t* n = agnode(g, C(id.c_str()), 1);
  Set(n, "label", label);
  return n;
}

Agedge_t* DotGraph::Edge(Agraph_t* g, Agnode_t* from, Agnode_t* to, const std::string& label) {
  Agedge_t* e = agedge(g, from, to, nullptr, 1);
  Set(e, "label", DotLabel(label));
  return e;
}

void DotGraph::Set(void* object, const char* key, const std::string& value) {
  agsafeset(object, C(key), C(value.c_str()), C(""));
}

DotObject DotGraph::AddCluster(const std::string& name, const std::string& label) {
  return Cluster(name, label);
}

DotObject DotGraph::AddNode(DotObject cluster, const std::string& id, const std::string& label) {
  return Node(static_cast<Agraph_t*>(cluster), id, label);
}

DotObject DotGraph::FindNode(DotObject cluster, const std::string& id) {
  return agnode(static_cast<Agraph_t*>(cluster), C(id.c_str()), 0);
}

DotObject DotGraph::AddEdge(DotObject cluster, DotObject from, DotObject to, const std::string& label) {
  return Edge(static_cast<Agraph_t*>(cluster), static_cast<Agnode_t*>(from), static_cast<Agnode_t*>(to),
              label);
}

void DotGraph::SetAttr(DotObject object, const char* key, const std::string& value) {
  Set(object, key, value);
}

std::string DotGraph::Write() {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  agwrite(g_, f);
  std::fclose(f);
  std::string out(buf, len);
  std::free(buf);
  return out;
}

}  // namespace lockgraph
