// SnapshotSource over libpqxx 6.4: one connection per server, set up so that
// the poller cannot harm it (docs/watch.md#safety). Every libpqxx exception
// is caught here and becomes a Result; none leaves this file. Linked into
// the server module (src/module/server_module.h), made through
// MakePqxxSnapshotSource (server_sources.cc).
#include <libpq-fe.h>
#include <pqxx/pqxx>

#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "watch/dsn.h"
#include "watch/snapshot_source.h"

namespace lockgraph {
namespace {

// The passwords an error might echo back: those of the DSN as libpq reads
// it (a conninfo or URI given as dbname included), and PGPASSWORD.
void CollectSecrets(const std::string& dsn, int depth, std::vector<std::string>* out) {
  char* err = nullptr;
  PQconninfoOption* options = PQconninfoParse(dsn.c_str(), &err);
  if (err) PQfreemem(err);
  if (!options) return;
  for (PQconninfoOption* o = options; o->keyword; ++o) {
    if (!o->val || !*o->val) continue;
    std::string key = o->keyword, val = o->val;
    if (key == "password" || key == "sslpassword") out->push_back(val);
    if (key == "dbname" && depth == 0 && (val.find('=') != std::string::npos || val.find("://") != std::string::npos))
      CollectSecrets(val, depth + 1, out);
  }
  PQconninfoFree(options);
}

// A login the server refused: retrying cannot help until someone fixes the
// credentials, pg_hba.conf or the database name (libpq's and the server's
// messages, as PostgreSQL 15 writes them in English).
bool RefusedLogin(const std::string& message) {
  for (const char* needle : {"authentication failed", "no password supplied", "no pg_hba.conf entry",
                             "pg_hba.conf rejects", "password is required", "does not exist",
                             "is not permitted to log in", "invalid connection option",
                             "invalid URI", "missing \"=\" after"})
    if (message.find(needle) != std::string::npos) return true;
  return false;
}

class PqxxSnapshotSource : public SnapshotSource {
 public:
  PqxxSnapshotSource(std::string dsn, const PollSettings& settings)
      : dsn_(std::move(dsn)), settings_(settings),
        label_(dsn_.empty() ? "PG environment" : MaskDsn(dsn_)) {
    CollectSecrets(dsn_, 0, &secrets_);
    if (const char* env = std::getenv("PGPASSWORD"); env && *env) secrets_.push_back(env);
  }

  std::string label() const override { return label_; }

  Result Poll() override {
    Result result;
    if (!conn_ && !Connect(&result.error)) {
      result.status = RefusedLogin(result.error) ? Result::Status::kLoginRefused
                                                 : Result::Status::kConnectFailed;
      result.error = MaskSecrets(result.error, secrets_);
      return result;
    }
    try {
      // A server that ended the session while it was idle (a terminated
      // backend, a restart) is noticed here, before a query is sent:
      // libpqxx 6.4 leaks the PGresult of a query the connection dies in.
      conn_->get_notifs();
      if (!conn_->is_open()) throw pqxx::broken_connection("the server closed the connection");
      pqxx::nontransaction tx(*conn_);
      auto start = std::chrono::steady_clock::now();
      pqxx::result rows = tx.exec(PgSnapshotQuery());
      std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
      result.snapshot = ToSnapshot(rows, &result.error, &result.hidden_queries);
      if (rows.empty())  // nothing contested: ask the time, for wait_ended
        result.snapshot.sampled_at =
            tx.exec("SELECT pg_catalog.statement_timestamp()")[0][0].c_str();
      result.snapshot.poll_ms = took.count();
      result.snapshot.server = label_;
    } catch (const pqxx::broken_connection& e) {
      conn_.reset();
      result.status = Result::Status::kConnectionLost;
      result.error = MaskSecrets("connection lost: " + FirstLine(e.what()), secrets_);
    } catch (const pqxx::sql_error& e) {
      result.status = Result::Status::kQueryFailed;
      result.error = MaskSecrets(FirstLine(e.what()) + " (SQLSTATE " + e.sqlstate() + ")", secrets_);
      if (conn_ && !conn_->is_open()) conn_.reset();
    } catch (const std::exception& e) {
      conn_.reset();
      result.status = Result::Status::kConnectionLost;
      result.error = MaskSecrets("connection lost: " + FirstLine(e.what()), secrets_);
    }
    return result;
  }

 private:
  static std::string FirstLine(const std::string& s) {
    std::string line = s.substr(0, s.find('\n'));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    return line;
  }

  bool Connect(std::string* error) {
    // Not to hang on a server that does not answer; the DSN may say otherwise.
    setenv("PGCONNECT_TIMEOUT", std::to_string(settings_.connect_timeout_s).c_str(), 0);
    try {
      conn_ = std::make_unique<pqxx::connection>(dsn_);
      // libpqxx 6 silently reconnects a broken connection, which would lose
      // the SETs below (read-only, timeouts) and leaks a PGresult on the way;
      // this class reconnects itself, with the settings and a backoff.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
      conn_->inhibit_reactivation(true);
#pragma GCC diagnostic pop
      pqxx::nontransaction tx(*conn_);
      tx.exec(
          "SET application_name = 'lockgraph';"
          "SET default_transaction_read_only = on;"
          "SET statement_timeout = " + std::to_string(settings_.statement_timeout_ms) + ";"
          "SET lock_timeout = " + std::to_string(settings_.lock_timeout_ms) + ";"
          "SET search_path = pg_catalog, public;"
          "SET DateStyle = 'ISO';"
          "SET TimeZone = 'UTC';");
      if (dsn_.empty())
        label_ = std::string("host=") + conn_->hostname() + " port=" + conn_->port() +
                 " dbname=" + conn_->dbname();
      return true;
    } catch (const std::exception& e) {
      conn_.reset();
      *error = "could not connect: " + FirstLine(e.what());
      return false;
    }
  }

  // `hidden`: how many sessions' queries the role may not read. Without
  // pg_read_all_stats, pg_stat_activity shows other roles' sessions with
  // query "<insufficient privilege>" (and state, xact_start... NULL): the
  // query is then left out.
  PgSnapshot ToSnapshot(const pqxx::result& rows, std::string* error, int* hidden) const {
    PgSnapshot snapshot;
    std::set<std::optional<int64_t>> hidden_pids;
    std::map<std::string, pqxx::row::size_type, std::less<>> index;
    std::vector<std::string> names;
    for (pqxx::row::size_type c = 0; c < rows.columns(); ++c) {
      names.emplace_back(rows.column_name(c));
      index.emplace(names.back(), c);
    }
    snapshot.has_blocking_pids = HasBlockingPidsColumn(names);
    for (const pqxx::row& r : rows) {
      auto get = [&](std::string_view column) -> std::optional<std::string_view> {
        auto it = index.find(column);
        if (it == index.end() || r[it->second].is_null()) return std::nullopt;
        return std::string_view(r[it->second].c_str(), r[it->second].size());
      };
      PgLockRow row;
      std::string why;
      if (!PgLockRowFromColumns(get, &row, &why)) {
        *error = "a row was not understood: " + why;
        continue;
      }
      if (row.query == "<insufficient privilege>") {
        row.query = {};
        hidden_pids.insert(row.pid);
      }
      snapshot.rows.push_back(row);
    }
    *hidden = static_cast<int>(hidden_pids.size());
    return snapshot;
  }

  std::string dsn_;
  PollSettings settings_;
  std::string label_;
  std::vector<std::string> secrets_;  // masked in every error
  std::unique_ptr<pqxx::connection> conn_;
};

}  // namespace
}  // namespace lockgraph

/// The module's entry point for MakePqxxSnapshotSource.
extern "C" __attribute__((visibility("default"))) lockgraph::SnapshotSource*
lockgraph_new_pqxx_source(const std::string* dsn, const lockgraph::PollSettings* settings) {
  return new lockgraph::PqxxSnapshotSource(*dsn, *settings);
}
