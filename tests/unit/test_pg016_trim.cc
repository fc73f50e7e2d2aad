// PG016 on a long log: past 4,096 errors and lock events of a table it keeps
// only the times, pids and constraints of those its finding can no longer
// show (rules/postgresql/pg016_rerun_duplicate_key.cc, Trim). The finding
// must read as if nothing had been trimmed: every count, and the text of the
// first five errors and lock events of each constraint, also when a late
// wait that reaches back makes the log's first errors the first shown.
#include <catch2/catch.hpp>

#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

namespace {

constexpr int kRounds = 6000;  // 12,000 events on one table: trimmed more than once

std::string Clock(int seconds, int ms) {
  char out[48];
  std::snprintf(out, sizeof out, "2026-12-03 %02d:%02d:%02d.%03d UTC", 8 + seconds / 3600,
                seconds / 60 % 60, seconds % 60, ms);
  return out;
}

std::string Line(int seconds, int ms, int pid, const std::string& rest) {
  return Clock(seconds, ms) + " [" + std::to_string(pid) + "] app@shop/worker " + rest + "\n";
}

std::string Insert(int k) {
  return "INSERT INTO invoices (customer_id, period, amount) VALUES (" + std::to_string(k) +
         ", '2026-11', 10);";
}

// A wait of `pid` for transaction `xid`: "still waiting" at `seconds` + 0.1 s,
// "acquired" at `end` + 0.35 s, after `waited_ms`.
void WaitStart(std::string* log, int seconds, int pid, int xid, const std::string& statement) {
  *log += Line(seconds, 100, pid, "LOG:  process " + std::to_string(pid) +
                                      " still waiting for ShareLock on transaction " +
                                      std::to_string(xid) + " after 100.000 ms");
  *log += Line(seconds, 100, pid, "DETAIL:  Process holding the lock: 1. Wait queue: " +
                                      std::to_string(pid) + ".");
  *log += Line(seconds, 100, pid, "STATEMENT:  " + statement);
}

void WaitEnd(std::string* log, int end, int pid, int xid, const std::string& statement,
             const std::string& waited_ms) {
  *log += Line(end, 350, pid, "LOG:  process " + std::to_string(pid) +
                                  " acquired ShareLock on transaction " + std::to_string(xid) +
                                  " after " + waited_ms + " ms");
  *log += Line(end, 350, pid, "STATEMENT:  " + statement);
}

void Wait(std::string* log, int seconds, int pid, int xid, const std::string& statement) {
  WaitStart(log, seconds, pid, xid, statement);
  WaitEnd(log, seconds, pid, xid, statement, "350.000");
}

void Duplicate(std::string* log, int seconds, int pid, const std::string& constraint,
               const std::string& key, const std::string& statement) {
  *log += Line(seconds, 400, pid,
               "ERROR:  duplicate key value violates unique constraint \"" + constraint + "\"");
  *log += Line(seconds, 400, pid, "DETAIL:  Key " + key + " already exists.");
  *log += Line(seconds, 400, pid, "STATEMENT:  " + statement);
}

// Every line of evidence with the input's name and line numbers left out.
std::vector<std::string> Plain(const std::vector<std::string>& evidence) {
  std::vector<std::string> out;
  for (const std::string& e : evidence)
    out.push_back(std::regex_replace(e, std::regex("^/tmp/lockgraph-test-\\w+:[0-9-]+: "), ""));
  return out;
}

}  // namespace

TEST_CASE("PG016 on 12,000 events of one table: the counts and the first five of each",
          "[rules][PG016][trim]") {
  // Three errors at the start with no wait near them; then, each second, a
  // wait and the same backend's duplicate key (every 7th on the primary
  // key); at the end a wait of two hours that reaches back to the start.
  std::string log;
  WaitStart(&log, 0, 9999, 99999, Insert(9999));  // ends after the last round
  for (int k = 0; k < 3; ++k)
    Duplicate(&log, k, 100 + k, "invoices_customer_id_period_key",
              "(customer_id, period)=(" + std::to_string(k) + ", 2026-11)", Insert(k));
  int period_key = 3, pkey = 0;
  for (int k = 200; k < 200 + kRounds; ++k) {
    const int pid = 1000 + k;
    Wait(&log, k, pid, 50000 + k, Insert(k));
    if (k % 7 == 0) {
      ++pkey;
      Duplicate(&log, k, pid, "invoices_pkey", "(id)=(" + std::to_string(k) + ")", Insert(k));
    } else {
      ++period_key;
      Duplicate(&log, k, pid, "invoices_customer_id_period_key",
                "(customer_id, period)=(" + std::to_string(k) + ", 2026-11)", Insert(k));
    }
  }
  const int end = 200 + kRounds + 10;
  WaitEnd(&log, end, 9999, 99999, Insert(9999), std::to_string(end) + "350.000");

  Report r = AnalyzeText(log);
  CHECK(r.summary.unique_violations == uint64_t(period_key + pkey));
  CHECK(r.summary.lock_waits == uint64_t(kRounds + 1));
  std::vector<Finding> f = RunFindings(r, "PG016");
  REQUIRE(f.size() == 2);  // by constraint, in name order
  CHECK(f[0].message ==
        std::to_string(period_key) + " duplicate-key errors (23505) on invoices (constraint "
        "invoices_customer_id_period_key on (customer_id, period)) within 60 s of " +
        std::to_string(kRounds + 1) + " lock waits or deadlocks on invoices; the failing backend "
        "had waited for the lock first");
  CHECK(f[1].message ==
        std::to_string(pkey) + " duplicate-key errors (23505) on invoices (constraint invoices_pkey "
        "on (id)) within 60 s of " + std::to_string(kRounds + 1) + " lock waits or deadlocks on "
        "invoices; the failing backend had waited for the lock first");

  // The three first errors, near the long wait only, come first; the long
  // wait, near the first error, is the first lock event.
  auto error = [](int pid, const std::string& constraint, const std::string& key, int k) {
    return std::vector<std::string>{
        std::to_string(pid) + " failed: duplicate key value violates unique constraint " + constraint,
        "key: " + key, "statement: " + Insert(k)};
  };
  auto wait = [](int pid, int xid, const std::string& ms, int k) {
    return std::vector<std::string>{std::to_string(pid) + " waited " + ms +
                                        " ms for ShareLock on transaction " + std::to_string(xid) +
                                        " (acquired)",
                                    "statement: " + Insert(k)};
  };
  std::vector<std::string> want;
  auto add = [&want](const std::vector<std::string>& lines) {
    want.insert(want.end(), lines.begin(), lines.end());
  };
  const std::string pk = "invoices_customer_id_period_key";
  for (int k = 0; k < 3; ++k)
    add(error(100 + k, pk, "(customer_id, period)=(" + std::to_string(k) + ", 2026-11)", k));
  for (int k : {200, 201})  // 203 is the first multiple of 7
    add(error(1000 + k, pk, "(customer_id, period)=(" + std::to_string(k) + ", 2026-11)", k));
  add(wait(9999, 99999, std::to_string(end) + "350.0", 9999));
  for (int k : {200, 201, 202, 203}) add(wait(1000 + k, 50000 + k, "350.0", k));
  CHECK(Plain(f[0].evidence) == want);

  // invoices_pkey's first error (round 203) is near the waits of rounds 200
  // on and the long one: they come in the order they were logged.
  want.clear();
  for (int k : {203, 210, 217, 224, 231})
    add(error(1000 + k, "invoices_pkey", "(id)=(" + std::to_string(k) + ")", k));
  for (int k : {200, 201, 202, 203, 204}) add(wait(1000 + k, 50000 + k, "350.0", k));
  CHECK(Plain(f[1].evidence) == want);
}
