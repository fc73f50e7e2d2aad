// The log series a file belongs to: one server's log under its rotations.
// PostgreSQL's collector names files by time (postgresql-%Y-%m-%d_%H%M%S,
// postgresql-%a), logrotate adds .1 or -YYYYMMDD and a compression suffix,
// and csvlog/jsonlog write the same stem with another extension. Files of
// one series come from one server; files of two series are taken for two
// servers (docs/postgresql.md#servers).
#pragma once

#include <string>
#include <string_view>

namespace lockgraph {

/// The series of `path`: its directory and file name with the compression
/// suffix, the rotation suffix (".3", "-20261203") and the format's
/// extension (.log, .csv, .json) taken off, and each date, time or weekday
/// in the name written `*`: "/var/log/postgresql/postgresql-15-main.log.2.gz"
/// -> "/var/log/postgresql/postgresql-15-main",
/// "log/postgresql-2026-12-03_101500.csv" -> "log/postgresql-*". "-"
/// (stdin) is "-". Pure function; thread-safe.
std::string LogSeriesName(std::string_view path);

}  // namespace lockgraph
