// The wait-for graph of one deadlock or lock wait as a cgraph cluster: the
// one model drawn by `--format dot` and, laid out by gvc, by the HTML
// report (src/emit/html_svg.h). Node ids are stable ("d1_pid_4211"), never
// pointers. Rule findings are a note in the cluster label and colour the
// edges (red error, orange warning, blue note).
#pragma once

#include <string>

#include "emit/dot_graph.h"
#include "emit/dot_sink.h"
#include "model/event.h"

namespace lockgraph {

/// Adds deadlock `ev` as cluster "cluster_<prefix>" titled "<title> at
/// <time>": one node per process (victim in red), cycle edges solid, waits
/// off the cycle dashed.
void AddDeadlockCluster(DotSink& graph, const Event& ev, const std::string& prefix,
                        const std::string& title);

/// Adds lock wait `ev` as the chain waiter -> ... -> root blocker; nothing
/// when the chain has fewer than two members.
void AddWaitCluster(DotSink& graph, const Event& ev, const std::string& prefix,
                    const std::string& title);

}  // namespace lockgraph
