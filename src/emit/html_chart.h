// The summary chart of the HTML report: deadlocks and lock waits over time
// as an inline SVG bar chart, per second, minute, hour or day as the span
// of the log asks (at most a few hundred bars).
#pragma once

#include <string>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// An <svg> element, or a <p> saying why there is no chart (no deadlock or
/// lock wait with a readable time).
std::string TimeChart(const std::vector<Event>& events);

}  // namespace lockgraph
