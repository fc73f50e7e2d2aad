// gen_pglog's generator: draws ordinary records and lock scenarios from one
// seeded random stream and writes them in one of PostgreSQL's log formats.
// Its methods are spread by concern: generator.cc (main loop, processes,
// scenario scheduling), workload.cc (ordinary records), lock_sql.cc and
// lock_waits.cc (lock-wait episodes), deadlock.cc, writers.cc, expected.cc.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "model.h"

namespace gen_pglog {

/// Writes one log file and its .expected.json. Not copyable in practice
/// (owns an open FILE* during Run()); not thread-safe. Every random choice
/// is drawn from rng_ in program order: reordering calls changes the output.
class Generator {
 public:
  explicit Generator(const Options& o);
  /// Writes opt.out and opt.out + ".expected.json"; returns the exit code
  /// (0, or 2 after printing an I/O error).
  int Run();

 private:
  static constexpr size_t kFlushAt = 4 << 20;

  // A row lock owned by a transaction.
  struct Row {
    const Table* t;
    uint64_t key;
    uint32_t block, offset;
  };
  // How one session's row update is written: plain, multi-line, or through a
  // PL/pgSQL function (then the CONTEXT stacks the SQL statement and the
  // function frame).
  struct UpdateText {
    std::string query;    // what pg_stat_activity shows / STATEMENT
    std::string inner;    // the UPDATE itself
    std::string tag;      // command tag
    std::string frames;   // extra CONTEXT frames after the row-wait line
  };
  struct Txn {
    uint32_t proc;
    uint64_t xid;
    std::string vxid;
  };
  // How a row wait ends: the lock is granted, or the statement is cancelled
  // by lock_timeout, statement_timeout or the client (pg_cancel_backend).
  enum WaitEnd { kAcquired, kLockTimeout, kStatementTimeout, kUserCancel };

  // processes (generator.cc)
  uint32_t AllocPid();
  void FreeSlot(uint32_t i);
  void RefreshSessionStrings(Proc& p);
  uint32_t NewProcSlot();
  uint32_t NewBackground(const char* type);
  uint32_t NewSession(bool log_it);
  void EndSession(size_t session_index);
  void NewVxid(Proc& p, std::string& out);
  void ZeroVxid(const Proc& p, std::string& out);
  uint32_t IdleSession(const Db* db = nullptr);
  Rec& Tmp(uint32_t proc);

  // scenario scheduling (generator.cc)
  Scenario* DueScenario();
  void Step(Scenario& s);
  Scenario& NewScenario();
  Rec& Add(Scenario& s, uint32_t proc);

  // ordinary records (workload.cc)
  void Expand(std::string& o, const char* t);
  void AppDuration(std::string& o, bool slow);
  const Tpl& PickTemplate(const Db* db);
  void StatementRecord(uint32_t si);
  void TxControl(uint32_t si, const char* word);
  void ErrorRecord(uint32_t si);
  void FatalStartup();
  void Autovacuum();
  void NormalRecord();
  void StartCheckpoint();

  // building blocks of lock scenarios (lock_sql.cc)
  Row NewRow(const Db& db, const Table* t = nullptr);
  std::string TuplePos(const Row& r);
  std::string TupleTag(const Db& db, const Row& r);
  std::string RowContext(const Row& r);
  UpdateText MakeUpdate(const Row& r, int style);
  int PickStyle();
  Txn Begin(Scenario& s, uint32_t proc);
  void DurationStep(Scenario& s, const Txn& t, const std::string& tag, const std::string& query, int64_t ms_floor);
  void Commit(Scenario& s, const Txn& t, const char* word = "COMMIT");
  Rec& Report(Scenario& s, const Txn& t, const std::string& tag, const char* verb, const std::string& mode,
              const std::string& lock, int slot, uint8_t after_kind);
  std::string HolderDetail(uint32_t holder, std::initializer_list<uint32_t> queue);
  bool Claim(size_t n, std::vector<uint32_t>& out, const Db*& db);

  // lock-wait episodes (lock_waits.cc) and deadlocks (deadlock.cc)
  void StartLockWait();
  void RowWait(WaitEnd end);
  void ChainWait();
  void TupleWait();
  void RelationWait();
  void StartDeadlock();

  // writing (writers.cc, expected.cc)
  void Emit(const Rec& r, Scenario* s);
  void WriteStderr(const Rec& r, const Proc& p, const std::string& msg);
  void WriteCsv(const Rec& r, const Proc& p, const std::string& msg);
  void WriteJson(const Rec& r, const Proc& p, const std::string& msg);
  void WriteSyslog(const Rec& r, Proc& p, const std::string& msg);  // syslog.cc
  void Flush();
  int WriteExpected();

  Options opt_;
  Rng rng_;
  std::FILE* out_ = nullptr;
  std::string buf_, prefix_, ts_, sec_str_, msg_, syslog_text_, syslog_head_;
  int64_t cached_sec_ = -1;
  int64_t now_us_ = 0;
  uint32_t next_pid_ = 0;
  std::vector<bool> pid_in_use_;
  int64_t next_xid_ = 0;
  uint64_t next_scenario_id_ = 0;
  std::deque<Proc> procs_;
  std::vector<uint32_t> free_slots_;
  std::vector<uint32_t> sessions_;
  uint32_t checkpointer_ = 0;
  std::vector<std::unique_ptr<Scenario>> active_;
  Rec tmp_;
  Counts counts_;
};

}  // namespace gen_pglog
