// See event_time.h.
#include "analysis/event_time.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>

#include <date/tz.h>

#include "analysis/tz_abbrevs.h"

namespace lockgraph {
namespace {

date::local_time<std::chrono::seconds> LocalSeconds(const CivilTime& t) {
  return date::local_time<std::chrono::seconds>(std::chrono::seconds(WallMicros(t) / 1000000));
}

const TzAbbrev* FindAbbrev(const std::string& abbrev) {
  const TzAbbrev* end = kTzAbbrevs + kTzAbbrevCount;
  const TzAbbrev* it = std::lower_bound(kTzAbbrevs, end, abbrev, [](const TzAbbrev& a, const std::string& b) {
    return std::strcmp(a.abbrev, b.c_str()) < 0;
  });
  return it != end && abbrev == it->abbrev ? it : nullptr;
}

const date::time_zone* LocateZone(const std::string& name) {
  try {
    return date::locate_zone(name);
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

std::unique_ptr<TimeResolver> TimeResolver::Make(const std::string& zone, std::string* error) {
  std::unique_ptr<TimeResolver> r(new TimeResolver());
  if (zone.empty()) return r;
  if (zone == "UTC" || zone == "Z" || zone == "GMT") {
    r->fixed_offset_ = 0;
    return r;
  }
  if (zone[0] == '+' || zone[0] == '-') {
    std::optional<CivilTime> t = ParseTimestamp("2000-01-01 00:00:00" + zone);
    if (t && t->offset_minutes) {
      r->fixed_offset_ = *t->offset_minutes;
      return r;
    }
  } else if ((r->zone_ = LocateZone(zone))) {
    return r;
  }
  *error = "unknown time zone \"" + zone +
           "\": give an IANA name (Europe/Berlin, America/New_York, UTC) or an offset (+02:00)";
  return nullptr;
}

int TimeResolver::ZoneOffset(const date::time_zone* zone, const CivilTime& t) {
  auto local = LocalSeconds(t);
  auto sys = zone->to_sys(local, date::choose::earliest);
  return int((local.time_since_epoch() - sys.time_since_epoch()).count() / 60);
}

bool TimeResolver::ZoneAbbrevIs(const date::time_zone* zone, const CivilTime& t, const std::string& abbrev) {
  auto info = zone->get_info(LocalSeconds(t));
  return info.first.abbrev == abbrev || (info.result == date::local_info::ambiguous && info.second.abbrev == abbrev);
}

std::optional<int> TimeResolver::OffsetOfAbbrev(const CivilTime& t) const {
  // The zone given by --timezone decides first: its own abbreviations
  // (CET/CEST for Europe/Berlin) fit the wall time exactly, DST included.
  if (zone_ && ZoneAbbrevIs(zone_, t, t.zone)) {
    auto info = zone_->get_info(LocalSeconds(t));
    const auto& si = info.first.abbrev == t.zone ? info.first : info.second;
    return int(si.offset.count() / 60);
  }
  const TzAbbrev* a = FindAbbrev(t.zone);
  if (!a) return std::nullopt;
  if (!*a->zone) return a->offset_seconds / 60;
  const date::time_zone* z = LocateZone(a->zone);
  if (!z) return std::nullopt;
  return ZoneOffset(z, t);
}

std::optional<ResolvedTime> TimeResolver::Resolve(std::string_view text) const {
  std::optional<CivilTime> t = ParseTimestamp(text);
  if (!t) return std::nullopt;
  ResolvedTime r;
  r.civil = *t;
  if (t->offset_minutes) {
    r.offset_minutes = *t->offset_minutes;
    r.from = ZoneFrom::kLog;
  } else if (!t->zone.empty()) {
    std::optional<int> off = OffsetOfAbbrev(*t);
    if (!off) return std::nullopt;  // a name nobody here knows: no guess
    r.offset_minutes = *off;
    r.from = ZoneFrom::kLog;
  } else if (fixed_offset_) {
    r.offset_minutes = *fixed_offset_;
    r.from = ZoneFrom::kOption;
  } else if (zone_) {
    r.offset_minutes = ZoneOffset(zone_, *t);
    r.from = ZoneFrom::kOption;
  } else {
    r.from = ZoneFrom::kDefault;
  }
  r.epoch_us = WallMicros(*t) - int64_t(r.offset_minutes) * 60000000;
  return r;
}

void TimeResolver::Apply(Event* ev) const {
  if (ev->time.empty()) return;
  std::optional<ResolvedTime> r = Resolve(ev->time);
  if (!r) return;
  ev->epoch_ms = r->epoch_us / 1000;
  ev->time_iso = IsoTime(r->civil, r->offset_minutes);
  ev->time_zone_from = r->from;
}

namespace {

/// "-2h": microseconds to go back; nullopt when not of that form.
std::optional<int64_t> RelativeMicros(const std::string& text) {
  if (text.size() < 3 || text[0] != '-') return std::nullopt;
  int64_t n = 0;
  size_t i = 1;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && n < 100000000; ++i) n = n * 10 + (text[i] - '0');
  if (i == 1 || i + 1 != text.size()) return std::nullopt;
  int64_t unit = 0;
  switch (text[i]) {
    case 's': unit = 1; break;
    case 'm': unit = 60; break;
    case 'h': unit = 3600; break;
    case 'd': unit = 86400; break;
    case 'w': unit = 7 * 86400; break;
    default: return std::nullopt;
  }
  return n * unit * 1000000;
}

}  // namespace

std::optional<int64_t> ParseTimeBound(const std::string& text, const TimeResolver& resolver,
                                      int64_t now_us, std::string* error) {
  if (std::optional<int64_t> back = RelativeMicros(text)) return now_us - *back;
  std::string full = text;
  if (full.size() == 10) full += " 00:00:00";  // a date alone: its midnight
  else if (full.size() == 16 && (full[10] == 'T' || full[10] == ' ')) full += ":00";
  std::optional<ResolvedTime> r = resolver.Resolve(full);
  if (!r || r->civil.epoch) {
    *error = "\"" + text + "\" is not a time: give an ISO time (2026-12-02, 2026-12-02T10:00, "
             "2026-12-02 10:00:00+01:00) or a time ago (-90s, -30m, -2h, -1d, -1w)";
    return std::nullopt;
  }
  return r->epoch_us;
}

}  // namespace lockgraph
