// The seam between `lockgraph watch` and a server: something that takes a
// pg_locks snapshot on demand. The product's implementations are libpqxx's
// (MakePqxxSnapshotSource) and MariaDB Connector/C's, both in the server
// module (src/module/server_module.h); tests run them against real servers.
// Safety settings and the query's cost: docs/watch.md#safety.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parsers/postgresql/pg_snapshot.h"

namespace lockgraph {

/// Session settings of the poller's own connection.
struct PollSettings {
  int statement_timeout_ms = 2000;  // bounds one poll on a busy server
  int lock_timeout_ms = 100;        // the poller gives up rather than queue for a lock
  int connect_timeout_s = 5;        // when the DSN and PGCONNECT_TIMEOUT say nothing
};

/// One server. Not thread-safe; not copyable. Implementations never throw.
class SnapshotSource {
 public:
  virtual ~SnapshotSource() = default;

  /// The server as it may be printed: the DSN with passwords masked, or
  /// "host=... port=... dbname=..." once connected when no DSN was given.
  virtual std::string label() const = 0;

  struct Result {
    enum class Status {
      kOk,
      kConnectFailed,   // could not connect (or set up the session)
      kLoginRefused,    // the server refused the login: credentials, pg_hba.conf,
                        // a database that does not exist; never retried
      kConnectionLost,  // the connection broke during the poll
      kQueryFailed,     // the server refused or cancelled the query
    };
    Status status = Status::kOk;
    PgSnapshot snapshot;  // kOk: rows, has_blocking_pids, poll_ms, server
    /// kOk: the snapshot already analysed, from a source that reads another
    /// engine (MySQL, MariaDB); the watcher analyses `snapshot` when absent.
    std::optional<SnapshotAnalysis> analysis;
    /// kOk: deadlocks the server reported since the last poll (MySQL's
    /// LATEST DETECTED DEADLOCK), oldest first.
    std::vector<Event> deadlocks;
    std::string error;    // otherwise: the server's or libpq's message, secrets masked
    /// kOk: backends whose query the role may not read (no pg_read_all_stats:
    /// pg_stat_activity says "<insufficient privilege>"); their query is
    /// left empty rather than shown as if it were SQL.
    int hidden_queries = 0;
  };

  /// Connects when not connected, then runs docs/snapshot.sql once.
  virtual Result Poll() = 0;
};

/// `dsn` as libpq takes it (key=value or URI); empty: PG* environment
/// variables, service file, defaults.
std::unique_ptr<SnapshotSource> MakePqxxSnapshotSource(const std::string& dsn,
                                                       const PollSettings& settings);

/// The query `watch` runs: docs/snapshot.sql, compiled in by the build
/// (cmake/embed_snapshot_sql.cmake).
const char* PgSnapshotQuery();

/// `uri` is mysql://[user[:password]@]host[:port][/db][?socket=PATH&...] or
/// mariadb://...; what it leaves out comes from the option files' [client]
/// and [mysql] groups and MYSQL_PWD, as the mariadb client reads them.
/// docs/mysql.md#watch.
std::unique_ptr<SnapshotSource> MakeMariadbSnapshotSource(const std::string& uri,
                                                          const PollSettings& settings);

/// The queries of a MySQL / MariaDB watch, compiled in from docs/: MariaDB
/// and MySQL 5.7 (mysql-snapshot.sql), MySQL 8.0+ (mysql8-snapshot.sql), and
/// the metadata locks when performance_schema has them (mysql-snapshot-mdl.sql).
const char* MariadbSnapshotQuery();
const char* Mysql8SnapshotQuery();
const char* MysqlMdlSnapshotQuery();

/// True when the server module, which makes both kinds of source, can be
/// opened; else false and *error says why (every poll would fail with it).
bool ServerModuleAvailable(std::string* error);

/// True when `dsn` names a MySQL or MariaDB server (mysql:// or mariadb://).
bool IsMysqlUri(const std::string& dsn);

}  // namespace lockgraph
