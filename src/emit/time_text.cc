// See time_text.h.
#include "emit/time_text.h"

#include "emit/text_safety.h"
#include "text/timestamp.h"

namespace lockgraph {

std::string DisplayTime(const Event& ev) {
  const std::string& iso = ev.time_iso;  // "2026-12-02T10:15:19.504+01:00"
  if (iso.size() < 25) return OneLineText(ev.time);
  std::string wall = iso.substr(0, iso.size() - 6);
  wall[10] = ' ';
  if (ev.time_zone_from == ZoneFrom::kDefault) return wall;
  // The zone's name as the log wrote it (CET, MSK) reads better than its offset.
  if (ev.time_zone_from == ZoneFrom::kLog) {
    std::optional<CivilTime> t = ParseTimestamp(ev.time);
    if (t && !t->zone.empty()) return wall + " " + t->zone;
  }
  std::string offset = iso.substr(iso.size() - 6);
  return wall + " " + (offset == "+00:00" ? std::string("UTC") : offset);
}

}  // namespace lockgraph
