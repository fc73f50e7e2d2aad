// What time an event happened, as an instant: the server's own `time` text
// read with its zone (a number, UTC, or an abbreviation PostgreSQL knows),
// else in the zone of --timezone, else in UTC, and which of these it was.
// Fills Event::epoch_ms, time_iso and time_zone_from; docs/json-schema.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/event.h"
#include "text/timestamp.h"

namespace date {
class time_zone;
}

namespace lockgraph {

struct ResolvedTime {
  CivilTime civil;           // as written
  int64_t epoch_us = 0;      // the instant
  int offset_minutes = 0;    // of the wall time written, east of UTC
  ZoneFrom from = ZoneFrom::kNone;
};

class TimeResolver {
 public:
  /// `zone`: an IANA name ("Europe/Berlin"), "UTC", or an offset
  /// ("+02:00", "-0500"); empty: UTC, marked as a default. Null and
  /// *error set when the zone is unknown.
  static std::unique_ptr<TimeResolver> Make(const std::string& zone, std::string* error);

  /// The instant of `text`, or nullopt when it is not a time, or names a
  /// zone abbreviation that neither PostgreSQL's set nor --timezone knows.
  std::optional<ResolvedTime> Resolve(std::string_view text) const;

  /// Sets ev->epoch_ms, time_iso and time_zone_from from ev->time.
  void Apply(Event* ev) const;

 private:
  TimeResolver() = default;
  /// The offset of `zone` at the wall time `t`, in minutes.
  static int ZoneOffset(const date::time_zone* zone, const CivilTime& t);
  /// True when `zone`'s abbreviation at `t` is `abbrev`.
  static bool ZoneAbbrevIs(const date::time_zone* zone, const CivilTime& t, const std::string& abbrev);
  std::optional<int> OffsetOfAbbrev(const CivilTime& t) const;

  const date::time_zone* zone_ = nullptr;  // --timezone as an IANA zone
  std::optional<int> fixed_offset_;        // --timezone as an offset or UTC
};

/// A point in time given on the command line (--since, --until): an ISO
/// time ("2026-12-02", "2026-12-02T10:00", "2026-12-02 10:00:00+01:00"),
/// read in `resolver`'s zone when it has none, or a time before `now_us`
/// ("-2h", "-30m", "-90s", "-1d", "-1w"). Microseconds since 1970; nullopt
/// and *error set otherwise.
std::optional<int64_t> ParseTimeBound(const std::string& text, const TimeResolver& resolver,
                                      int64_t now_us, std::string* error);

}  // namespace lockgraph
