// Draws a wait-for graph (src/emit/dot_events.h) as inline SVG with
// Graphviz's gvc and the dot layout, for the HTML report.
#pragma once

#include <string>

#include "emit/dot_graph.h"

struct GVC_s;

namespace lockgraph {

/// Draws graphs with the process's one gvc context (see html_svg.cc for
/// why it is never freed). Not copyable; not thread-safe.
class SvgRenderer {
 public:
  SvgRenderer();
  ~SvgRenderer();
  SvgRenderer(const SvgRenderer&) = delete;
  SvgRenderer& operator=(const SvgRenderer&) = delete;

  /// Lays `graph` out with dot and returns its <svg> element (no XML
  /// prolog, DOCTYPE or comment before it), element ids prefixed by `id`
  /// so that several graphs can share a page. Empty when gvc failed.
  std::string Render(DotGraph& graph, const std::string& id);

 private:
  GVC_s* gvc_;
};

}  // namespace lockgraph
