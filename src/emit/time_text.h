// The time of an event as the text outputs print it, one form whatever the
// engine wrote: "2026-12-02 10:15:19.504 UTC", "2021-01-21 12:58:34.900 CET",
// "2011-12-12 22:52:42 +01:00",
// and no zone when neither the log nor --timezone gave one.
#pragma once

#include <string>

#include "model/event.h"

namespace lockgraph {

/// From Event::time_iso, with the zone name the log wrote (CET) when it
/// wrote one; the server's own text (made safe for a terminal)
/// when the time could not be read; empty when there is none.
std::string DisplayTime(const Event& ev);

}  // namespace lockgraph
