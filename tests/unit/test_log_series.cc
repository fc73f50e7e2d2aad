// LogSeriesName: the rotations and formats of one server's log are one
// series; two servers' logs are two (io/log_series.h).
#include <catch2/catch.hpp>

#include "io/log_series.h"

namespace lockgraph {
namespace {

TEST_CASE("a rotated log keeps its series name", "[log_series]") {
  struct Case {
    const char* path;
    const char* series;
  };
  const Case cases[] = {
      // Debian's own file and what logrotate makes of it.
      {"/var/log/postgresql/postgresql-15-main.log", "/var/log/postgresql/postgresql-15-main"},
      {"/var/log/postgresql/postgresql-15-main.log.1", "/var/log/postgresql/postgresql-15-main"},
      {"/var/log/postgresql/postgresql-15-main.log.12.gz", "/var/log/postgresql/postgresql-15-main"},
      {"postgresql.log-20261203", "postgresql"},
      {"postgresql.log-2026120305.xz", "postgresql"},
      {"postgresql.log-2026-12-03.zst", "postgresql"},
      // The collector's log_filename patterns, csvlog and jsonlog beside stderr.
      {"log/postgresql-2026-12-03_101500.log", "log/postgresql-*"},
      {"log/postgresql-2026-12-03_101500.csv", "log/postgresql-*"},
      {"log/postgresql-2026-12-03_1015.json", "log/postgresql-*"},
      {"log/postgresql-20261203T101500.log", "log/postgresql-*"},
      {"log/postgresql-Mon.log", "log/postgresql-*"},
      {"log/postgresql-Tuesday.csv.bz2", "log/postgresql-*"},
      {"log/postgresql-1764756900.log", "log/postgresql-*"},
      {"-", "-"},
  };
  for (const Case& c : cases) {
    INFO(c.path);
    CHECK(LogSeriesName(c.path) == c.series);
  }
}

TEST_CASE("two servers' logs are two series", "[log_series]") {
  CHECK(LogSeriesName("/var/log/postgresql/postgresql-15-main.log") !=
        LogSeriesName("/var/log/postgresql/postgresql-16-main.log"));
  CHECK(LogSeriesName("db1/postgresql.log") != LogSeriesName("db2/postgresql.log"));
  CHECK(LogSeriesName("prod-a.log") == "prod-a");
  CHECK(LogSeriesName("prod-b.log") == "prod-b");
  // A version number or a port is not a date.
  CHECK(LogSeriesName("pg-15") == "pg-15");
  CHECK(LogSeriesName("pg5432.log") == "pg5432");
  // A name that is only an extension stays as it is.
  CHECK(LogSeriesName(".log") == ".log");
}

}  // namespace
}  // namespace lockgraph
