// See html_svg.h.
//
// Escaping: Graphviz decodes character references in plain labels (so a log
// text "&lt;" would be drawn as "<") and its SVG writer escapes & < > " ' in
// text, but leaves "&name;" untouched in attributes such as tooltips. Doubling
// every '&' into "&amp;" first makes both paths show the log text exactly;
// < > " ' are always escaped by Graphviz itself (tests/unit/test_html.cc).
#include "emit/html_svg.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace lockgraph {
namespace {

std::string AmpersandsAsReferences(const char* text) {
  std::string out;
  for (const char* p = text; *p; ++p) {
    if (*p == '&') out += "&amp;";
    else out += *p;
  }
  return out;
}

void FixText(void* object) {
  for (const char* key : {"label", "tooltip", "xlabel"}) {
    char* value = agget(object, const_cast<char*>(key));
    if (value && *value) DotGraph::Set(object, key, AmpersandsAsReferences(value));
  }
}

void FixGraphText(Agraph_t* g) {
  FixText(g);
  for (Agraph_t* sub = agfstsubg(g); sub; sub = agnxtsubg(sub)) FixGraphText(sub);
}

void FixAllText(Agraph_t* root) {
  FixGraphText(root);
  for (Agnode_t* n = agfstnode(root); n; n = agnxtnode(root, n)) {
    FixText(n);
    for (Agedge_t* e = agfstout(root, n); e; e = agnxtout(root, e)) FixText(e);
  }
}

// One gvc context for the whole process, never freed: with Graphviz 2.42,
// laying out after a context was freed and another made read a font name
// that libgvc had freed with the first one, from the pango plugin
// (AddressSanitizer: heap-use-after-free in textspan_size).
// The context stays reachable, so LeakSanitizer does not count it.
GVC_t* SharedContext() {
  static GVC_t* gvc = gvContext();
  return gvc;
}

}  // namespace

SvgRenderer::SvgRenderer() : gvc_(nullptr) {}

SvgRenderer::~SvgRenderer() = default;

std::string SvgRenderer::Render(DotGraph& graph, const std::string& id) {
  Agraph_t* g = graph.root();
  DotGraph::Set(g, "id", id);  // gvc prefixes every element id with it
  // Top to bottom: a page is narrow, and the boxes hold whole statements.
  DotGraph::Set(g, "rankdir", "TB");
  FixAllText(g);
  if (!gvc_) gvc_ = SharedContext();  // only when something is drawn
  if (gvLayout(gvc_, g, "dot") != 0) return {};
  char* data = nullptr;
  unsigned int length = 0;
  int rc = gvRenderData(gvc_, g, "svg", &data, &length);
  gvFreeLayout(gvc_, g);
  std::string svg;
  if (rc == 0 && data) svg.assign(data, length);
  gvFreeRenderData(data);
  size_t start = svg.find("<svg");
  return start == std::string::npos ? std::string() : svg.substr(start);
}

}  // namespace lockgraph
