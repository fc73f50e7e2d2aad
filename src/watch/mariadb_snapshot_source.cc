// SnapshotSource over MariaDB Connector/C for MySQL and MariaDB servers: one
// connection per server, read-only and bounded (docs/mysql.md#watch). Each
// poll runs docs/mysql-snapshot.sql (MySQL 8: mysql8-snapshot.sql), the
// metadata-lock query when performance_schema has it, and SHOW ENGINE INNODB
// STATUS for a new LATEST DETECTED DEADLOCK. Nothing here throws. Linked
// into the server module (src/module/server_module.h), made through
// MakeMariadbSnapshotSource (server_sources.cc).
#include <mysql.h>
#include <errmsg.h>

#include <chrono>
#include <cstdlib>
#include <cctype>
#include <cstring>
#include <set>

#include "parsers/mysql/innodb_status_deadlock.h"
#include "parsers/mysql/my_lock_snapshot.h"
#include "watch/dsn.h"
#include "watch/snapshot_source.h"

namespace lockgraph {
namespace {

// The parts of mysql://user:password@host:port/db?socket=PATH.
struct MyUri {
  std::optional<std::string> user, password, db, socket;
  std::string host;  // empty: the option files, then localhost (the socket)
  unsigned port = 0;
  std::string error;  // not a URI we read
};

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() &&
        std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += char(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

MyUri ParseMyUri(std::string_view uri) {
  MyUri u;
  uri.remove_prefix(uri.find("://") + 3);
  size_t q = uri.find('?');
  std::string_view params = q == std::string_view::npos ? "" : uri.substr(q + 1);
  uri = uri.substr(0, q);
  size_t slash = uri.find('/');
  if (slash != std::string_view::npos) {
    if (slash + 1 < uri.size()) u.db = PercentDecode(uri.substr(slash + 1));
    uri = uri.substr(0, slash);
  }
  size_t at = uri.rfind('@');
  if (at != std::string_view::npos) {
    std::string_view info = uri.substr(0, at);
    size_t colon = info.find(':');
    if (!info.substr(0, colon).empty()) u.user = PercentDecode(info.substr(0, colon));
    if (colon != std::string_view::npos) u.password = PercentDecode(info.substr(colon + 1));
    uri = uri.substr(at + 1);
  }
  size_t colon = uri.rfind(':');
  if (colon != std::string_view::npos && uri.find(']') == std::string_view::npos) {
    std::string port(uri.substr(colon + 1));
    char* end = nullptr;
    unsigned long p = std::strtoul(port.c_str(), &end, 10);
    if (port.empty() || *end || p == 0 || p > 65535) u.error = "port '" + port + "' is not a port";
    u.port = unsigned(p);
    uri = uri.substr(0, colon);
  }
  u.host = PercentDecode(uri);
  while (!params.empty()) {
    size_t amp = params.find('&');
    std::string_view p = params.substr(0, amp);
    size_t eq = p.find('=');
    std::string key(p.substr(0, eq));
    std::string value = eq == std::string_view::npos ? "" : PercentDecode(p.substr(eq + 1));
    if (key == "socket") u.socket = value;
    else u.error = "unknown parameter '" + key + "' (known: socket)";
    if (amp == std::string_view::npos) break;
    params.remove_prefix(amp + 1);
  }
  return u;
}

// A login the server refused: retrying cannot help.
bool RefusedLogin(unsigned err) {
  return err == 1044 /* ER_DBACCESS_DENIED_ERROR */ || err == 1045 /* ER_ACCESS_DENIED_ERROR */ ||
         err == 1049 /* ER_BAD_DB_ERROR */ || err == 1698 /* ER_ACCESS_DENIED_NO_PASSWORD_ERROR */ ||
         err == 1130 /* ER_HOST_NOT_PRIVILEGED */;
}

bool LostConnection(unsigned err) {
  return err == CR_SERVER_GONE_ERROR || err == CR_SERVER_LOST || err == CR_CONNECTION_ERROR ||
         err == CR_CONN_HOST_ERROR || err == 1053 /* ER_SERVER_SHUTDOWN */ ||
         err == 1927 /* ER_CONNECTION_KILLED (MariaDB) */;
}

class MariadbSnapshotSource : public SnapshotSource {
 public:
  MariadbSnapshotSource(std::string uri, const PollSettings& settings)
      : uri_(std::move(uri)), settings_(settings), label_(MaskDsn(uri_)), parts_(ParseMyUri(uri_)) {
    if (parts_.password && !parts_.password->empty()) secrets_.push_back(*parts_.password);
    if (const char* env = std::getenv("MYSQL_PWD"); env && *env) secrets_.push_back(env);
  }
  ~MariadbSnapshotSource() override { Close(); }

  std::string label() const override { return label_; }

  Result Poll() override {
    Result result;
    if (!conn_ && !Connect(&result)) return result;
    MyLockSnapshot snapshot;
    snapshot.server = label_;
    snapshot.blocking = mysql8_ ? "performance_schema.data_lock_waits"
                                : "information_schema.innodb_lock_waits";
    auto start = std::chrono::steady_clock::now();
    if (!Query(query_.c_str(), &snapshot, &result) ||
        (mdl_ && !Query(MysqlMdlSnapshotQuery(), &snapshot, &result)) ||
        !MissingSessions(&snapshot, &result))
      return result;
    std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    snapshot.poll_ms = took.count();
    if (snapshot.rows.empty() && !Query("SELECT DATE_FORMAT(UTC_TIMESTAMP(6), '%Y-%m-%d %H:%i:%s.%f')",
                                        nullptr, &result, &snapshot.sampled_at))
      return result;
    if (status_ && !Deadlocks(&result)) return result;
    first_poll_ = false;
    result.analysis = AnalyzeMyLockSnapshot(snapshot);
    return result;
  }

 private:
  void Close() {
    if (conn_) mysql_close(conn_);
    conn_ = nullptr;
  }

  std::string Masked(const std::string& s) const { return MaskSecrets(s, secrets_); }

  // Fills `result` with the connection's error (closing a lost connection).
  void Fail(Result* result, const char* what) {
    unsigned err = mysql_errno(conn_);
    std::string msg = std::string(what) + mysql_error(conn_) + " (error " + std::to_string(err) + ")";
    if (LostConnection(err)) {
      result->status = Result::Status::kConnectionLost;
      msg = "connection lost: " + msg;
      Close();
    } else {
      result->status = Result::Status::kQueryFailed;
    }
    result->error = Masked(msg);
  }

  bool Exec(const std::string& sql, Result* result) {
    if (mysql_real_query(conn_, sql.data(), sql.size()) == 0) {
      if (MYSQL_RES* r = mysql_store_result(conn_)) mysql_free_result(r);
      return true;
    }
    Fail(result, "");
    return false;
  }

  bool Connect(Result* result) {
    if (!parts_.error.empty()) {
      result->status = Result::Status::kLoginRefused;
      result->error = Masked("not a mysql:// URI lockgraph reads: " + parts_.error);
      return false;
    }
    conn_ = mysql_init(nullptr);
    // [client], [client-server], [client-mariadb] and [mysql] of the option
    // files (/etc/mysql/my.cnf, ~/.my.cnf), as the mariadb client reads them.
    mysql_optionsv(conn_, MYSQL_READ_DEFAULT_GROUP, "mysql");
    unsigned connect_s = unsigned(settings_.connect_timeout_s);
    unsigned read_s = unsigned(settings_.statement_timeout_ms / 1000 + 5);
    mysql_optionsv(conn_, MYSQL_OPT_CONNECT_TIMEOUT, &connect_s);
    mysql_optionsv(conn_, MYSQL_OPT_READ_TIMEOUT, &read_s);
    mysql_optionsv(conn_, MYSQL_OPT_WRITE_TIMEOUT, &read_s);
    auto c = [](const std::optional<std::string>& s) { return s ? s->c_str() : nullptr; };
    if (!mysql_real_connect(conn_, parts_.host.empty() ? nullptr : parts_.host.c_str(), c(parts_.user),
                            c(parts_.password), c(parts_.db), parts_.port, c(parts_.socket), 0)) {
      unsigned err = mysql_errno(conn_);
      result->status = RefusedLogin(err) ? Result::Status::kLoginRefused : Result::Status::kConnectFailed;
      result->error = Masked(std::string("could not connect: ") + mysql_error(conn_) + " (error " +
                             std::to_string(err) + ")");
      Close();
      return false;
    }
    const bool mariadb = std::strstr(mysql_get_server_info(conn_), "MariaDB") != nullptr;
    mysql8_ = !mariadb && mysql_get_server_version(conn_) >= 80000;
    query_ = mysql8_ ? Mysql8SnapshotQuery() : MariadbSnapshotQuery();
    if (!mariadb && !mysql8_) Replace(&query_, "p.TIME_MS / 1000", "p.TIME");  // MySQL 5.7
    const std::string timeout =
        mariadb ? "SET SESSION max_statement_time = " + std::to_string(settings_.statement_timeout_ms / 1000.0)
                : "SET SESSION max_execution_time = " + std::to_string(settings_.statement_timeout_ms);
    // MariaDB joins information_schema tables (no indexes) by block nested
    // loops unless hash joins are allowed: 1,000 waiters took 830 ms a poll
    // instead of 90 (docs/mysql.md#cost-of-one-poll).
    const std::string joins = mariadb ? "SET SESSION join_cache_level = 4" : "DO 0";
    for (const std::string& sql : {std::string("SET SESSION TRANSACTION READ ONLY"), timeout, joins,
                                   std::string("SET SESSION lock_wait_timeout = 1"),
                                   std::string("SET SESSION innodb_lock_wait_timeout = 1"),
                                   std::string("SET SESSION time_zone = '+00:00'")})
      if (!Exec(sql, result)) {
        if (result->status == Result::Status::kQueryFailed) result->status = Result::Status::kConnectFailed;
        result->error = "could not set up the session: " + result->error;
        Close();
        return false;
      }
    // Metadata locks only where performance_schema records them.
    std::string on;
    Result ignored;
    mdl_ = Query("SELECT ENABLED FROM performance_schema.setup_instruments WHERE @@performance_schema = 1 "
                 "AND NAME = 'wait/lock/metadata/sql/mdl'", nullptr, &ignored, &on) && on == "YES";
    if (!conn_) {  // lost while asking
      result->status = Result::Status::kConnectFailed;
      result->error = "could not set up the session: " + ignored.error;
      return false;
    }
    return true;
  }

  // Runs `sql`; its rows go to `snapshot`, or the first field of the first
  // row to `first` (for one-value queries). False, with `result` filled, when
  // the server refused it or the connection broke.
  bool Query(const char* sql, MyLockSnapshot* snapshot, Result* result, std::string* first = nullptr) {
    if (mysql_real_query(conn_, sql, std::strlen(sql)) != 0) return Fail(result, ""), false;
    MYSQL_RES* res = mysql_store_result(conn_);
    if (!res) {
      if (mysql_errno(conn_) != 0) return Fail(result, ""), false;
      return true;
    }
    const unsigned n = mysql_num_fields(res);
    MYSQL_FIELD* fields = mysql_fetch_fields(res);
    while (MYSQL_ROW row = mysql_fetch_row(res)) {
      unsigned long* lengths = mysql_fetch_lengths(res);
      if (first) {
        if (n > 0 && row[0]) *first = std::string(row[0], lengths[0]);
        break;
      }
      auto get = [&](std::string_view column) -> std::optional<std::string_view> {
        for (unsigned i = 0; i < n; ++i)
          if (column == fields[i].name) {
            if (!row[i]) return std::nullopt;
            return std::string_view(row[i], lengths[i]);
          }
        return std::nullopt;
      };
      MyLockRow r;
      std::string why;
      if (MyLockRowFromColumns(get, &r, &why)) snapshot->rows.push_back(std::move(r));
      else result->error = "a row was not understood: " + why;
    }
    mysql_free_result(res);
    return true;
  }

  static void Replace(std::string* s, const std::string& from, const std::string& to) {
    for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, at + to.size()))
      s->replace(at, from.size(), to);
  }

  // A session seen in a metadata-lock row but not among the session rows
  // (its state changed between the two statements) is described by one
  // more query: the session part of the snapshot query, for those ids.
  bool MissingSessions(MyLockSnapshot* snapshot, Result* result) {
    std::set<int64_t> described, missing;
    for (const MyLockRow& r : snapshot->rows)
      if (r.kind == "session" && r.id) described.insert(*r.id);
    for (const MyLockRow& r : snapshot->rows)
      if (r.kind != "session" && r.id && !described.count(*r.id)) missing.insert(*r.id);
    if (missing.empty()) return true;
    const size_t from = query_.find("SELECT DATE_FORMAT"), to = query_.find(" WHERE p.ID <> CONNECTION_ID()");
    if (from == std::string::npos || to == std::string::npos || to < from) return true;
    std::string sql = query_.substr(from, to - from);
    std::string ids;
    for (int64_t id : missing) ids += (ids.empty() ? "" : ", ") + std::to_string(id);
    sql += " WHERE p.ID IN (" + ids + ")";
    MyLockSnapshot more;
    if (!Query(sql.c_str(), &more, result)) return false;
    // Sessions first, as the query gives them, so that a file and a poll agree.
    std::vector<MyLockRow> rows;
    for (MyLockRow& r : snapshot->rows)
      if (r.kind == "session") rows.push_back(std::move(r));
    for (MyLockRow& r : more.rows) rows.push_back(std::move(r));
    for (MyLockRow& r : snapshot->rows)
      if (r.kind != "session") rows.push_back(std::move(r));
    snapshot->rows = std::move(rows);
    return true;
  }

  // A LATEST DETECTED DEADLOCK that changed since the last poll becomes
  // deadlock events; on the first poll it is marked before_watch.
  bool Deadlocks(Result* result) {
    const char* sql = "SHOW ENGINE INNODB STATUS";
    if (mysql_real_query(conn_, sql, std::strlen(sql)) != 0) {
      unsigned err = mysql_errno(conn_);
      if (err == 1227 /* ER_SPECIFIC_ACCESS_DENIED_ERROR: no PROCESS */) {
        status_ = false;
        result->error = "SHOW ENGINE INNODB STATUS is refused (grant PROCESS): deadlocks are not watched";
        return true;
      }
      return Fail(result, ""), false;
    }
    MYSQL_RES* res = mysql_store_result(conn_);
    if (!res) return mysql_errno(conn_) ? (Fail(result, ""), false) : true;
    std::string status;
    if (MYSQL_ROW row = mysql_fetch_row(res); row && mysql_num_fields(res) >= 3 && row[2])
      status.assign(row[2], mysql_fetch_lengths(res)[2]);
    mysql_free_result(res);
    std::string section = LatestDeadlockSection(status);
    // None (a restarted server) or the same as last time: nothing new.
    if (section.empty() || section == last_section_) return true;
    last_section_ = section;
    for (Event& ev : ReadInnodbDeadlocks(section, label_)) {
      ev.server = label_;
      ev.source = SourceSpan();
      if (first_poll_) ev.deadlock->before_watch = true;
      result->deadlocks.push_back(std::move(ev));
    }
    return true;
  }

  std::string uri_;
  PollSettings settings_;
  std::string label_;
  MyUri parts_;
  std::vector<std::string> secrets_;  // masked in every error
  MYSQL* conn_ = nullptr;
  std::string query_;        // the snapshot query for this server
  bool mysql8_ = false;      // performance_schema.data_lock_waits
  bool mdl_ = false;         // performance_schema.metadata_locks is recorded
  bool status_ = true;       // SHOW ENGINE INNODB STATUS is allowed
  bool first_poll_ = true;   // no poll has succeeded yet
  std::string last_section_;  // the LATEST DETECTED DEADLOCK seen last
};

}  // namespace
}  // namespace lockgraph

/// The module's entry point for MakeMariadbSnapshotSource.
extern "C" __attribute__((visibility("default"))) lockgraph::SnapshotSource*
lockgraph_new_mariadb_source(const std::string* uri, const lockgraph::PollSettings* settings) {
  return new lockgraph::MariadbSnapshotSource(*uri, *settings);
}
