// gen_pglog's main loop, its processes (pid allocation, sessions) and the
// scheduling of multi-record scenarios. See generator.h.
#include "generator.h"
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gen_pglog {

Generator::Generator(const Options& o) : opt_(o), rng_(o.seed * 0x2545F4914F6CDD1DULL + 12345) {
  buf_.reserve(kFlushAt + (1 << 20));
  now_us_ = 1795910400LL * 1000000;  // 2026-11-28 00:00:00 UTC
  now_us_ += rng_.range(0, 86400) * 1000000LL;
  pid_in_use_.assign(opt_.pid_max + 1, false);
  next_pid_ = 300 + static_cast<uint32_t>(rng_.range(0, opt_.pid_max / 2));
  next_xid_ = 5000000 + rng_.range(0, 1000000);
  checkpointer_ = NewBackground("checkpointer");
  procs_[checkpointer_].start_us -= 3600LL * 1000000;
  RefreshSessionStrings(procs_[checkpointer_]);
  for (int i = 0; i < 60; ++i) NewSession(/*log_it=*/false);
}

int Generator::Run() {
  out_ = std::fopen(opt_.out.c_str(), "wb");
  if (!out_) {
    std::fprintf(stderr, "gen_pglog: %s: %s\n", opt_.out.c_str(), std::strerror(errno));
    return 2;
  }
  const double p_dl = opt_.deadlocks_per_10k / 10000.0;
  const double p_wait = opt_.waits_per_10k / 10000.0;
  while (counts_.bytes + buf_.size() < opt_.size) {
    if (Scenario* s = DueScenario()) {
      Step(*s);
      continue;
    }
    NormalRecord();
    if (rng_.chance(p_dl)) StartDeadlock();
    if (rng_.chance(p_wait)) StartLockWait();
    if (rng_.chance(0.0002)) StartCheckpoint();
  }
  // Finish every scenario so that the counts are exact: no wait is left open.
  while (!active_.empty()) {
    Scenario* s = active_.front().get();
    for (auto& a : active_)
      if (a->due < s->due || (a->due == s->due && a->id < s->id)) s = a.get();
    Step(*s);
  }
  Flush();
  if (std::fclose(out_) != 0) {
    std::fprintf(stderr, "gen_pglog: %s: %s\n", opt_.out.c_str(), std::strerror(errno));
    return 2;
  }
  return WriteExpected();
}


// ------------------------------------------------ processes

// Like the kernel: pids grow (by a few: other processes fork too), wrap
// at pid_max to 300 and skip the ones in use. With pid_max = 32768 (this
// Debian 12 machine's value) a 1 GB log reuses every pid many times.
uint32_t Generator::AllocPid() {
  next_pid_ += static_cast<uint32_t>(rng_.range(1, 9));
  while (true) {
    if (next_pid_ >= opt_.pid_max) next_pid_ = 300 + next_pid_ % 7;
    if (!pid_in_use_[next_pid_]) break;
    ++next_pid_;
  }
  pid_in_use_[next_pid_] = true;
  return next_pid_;
}
void Generator::FreeSlot(uint32_t i) {
  pid_in_use_[procs_[i].pid] = false;
  free_slots_.push_back(i);
}

void Generator::RefreshSessionStrings(Proc& p) {
  p.sid.clear();
  AppHex(p.sid, static_cast<uint64_t>(p.start_us / 1000000));
  p.sid += '.';
  AppHex(p.sid, p.pid);
  p.start_str.clear();
  AppCivil(p.start_str, p.start_us / 1000000);
  p.start_str += " UTC";
}

uint32_t Generator::NewProcSlot() {
  if (!free_slots_.empty()) {
    uint32_t i = free_slots_.back();
    free_slots_.pop_back();
    procs_[i] = Proc();
    return i;
  }
  procs_.emplace_back();
  return static_cast<uint32_t>(procs_.size() - 1);
}

uint32_t Generator::NewBackground(const char* type) {
  uint32_t i = NewProcSlot();
  Proc& p = procs_[i];
  p.pid = AllocPid();
  p.client = false;
  p.backend_type = type;
  p.start_us = now_us_;
  p.backend_id = static_cast<uint32_t>(rng_.range(1, 9));
  RefreshSessionStrings(p);
  return i;
}

// A client session; with log_it, its two connection records are written.
uint32_t Generator::NewSession(bool log_it) {
  uint32_t i = NewProcSlot();
  Proc& p = procs_[i];
  const auto& dbs = Dbs();
  p.db = &dbs[rng_.below(10) < 7 ? 0 : 1];
  p.user = rng_.pick(p.db->users);
  p.app = rng_.pick(p.db->apps);
  p.pid = AllocPid();
  p.host.clear();
  p.host += "10.0.";
  AppU(p.host, static_cast<uint64_t>(rng_.range(1, 4)));
  p.host += '.';
  AppU(p.host, static_cast<uint64_t>(rng_.range(2, 250)));
  p.port = static_cast<uint32_t>(rng_.range(32768, 60999));
  p.start_us = now_us_ - (log_it ? 0 : rng_.range(1, 3600) * 1000000LL);
  p.backend_id = static_cast<uint32_t>(rng_.range(3, 300));
  p.lxid = static_cast<uint32_t>(rng_.range(1, 50));
  RefreshSessionStrings(p);
  sessions_.push_back(i);
  if (log_it) {
    ++counts_.connections;
    Rec& r = Tmp(i);
    r.phase = 0;
    r.btype = "not initialized";
    r.msg += "connection received: host=";
    r.msg += p.host;
    r.msg += " port=";
    AppU(r.msg, p.port);
    Emit(r, nullptr);
    Rec& a = Tmp(i);
    a.phase = 1;
    a.ps = "authentication";
    NewVxid(p, a.vxid);
    a.msg += "connection authorized: user=";
    a.msg += p.user;
    a.msg += " database=";
    a.msg += p.db->name;
    if (*p.app) {
      a.msg += " application_name=";
      a.msg += p.app;
    }
    Emit(a, nullptr);
  }
  return i;
}

void Generator::EndSession(size_t session_index) {
  uint32_t i = sessions_[session_index];
  Proc& p = procs_[i];
  ++counts_.disconnections;
  Rec& r = Tmp(i);
  r.ps = "idle";
  int64_t us = now_us_ - p.start_us + rng_.range(0, 999);
  r.msg += "disconnection: session time: ";
  AppI(r.msg, us / 3600000000LL);
  r.msg += ':';
  Pad(r.msg, static_cast<uint64_t>(us / 60000000LL % 60), 2);
  r.msg += ':';
  Pad(r.msg, static_cast<uint64_t>(us / 1000000LL % 60), 2);
  r.msg += '.';
  Pad(r.msg, static_cast<uint64_t>(us / 1000 % 1000), 3);
  r.msg += " user=";
  r.msg += p.user;
  r.msg += " database=";
  r.msg += p.db->name;
  r.msg += " host=";
  r.msg += p.host;
  r.msg += " port=";
  AppU(r.msg, p.port);
  Emit(r, nullptr);
  p.alive = false;
  sessions_[session_index] = sessions_.back();
  sessions_.pop_back();
  FreeSlot(i);
}

void Generator::NewVxid(Proc& p, std::string& out) {
  out.clear();
  AppU(out, p.backend_id);
  out += '/';
  AppU(out, ++p.lxid);
}
void Generator::ZeroVxid(const Proc& p, std::string& out) {
  out.clear();
  AppU(out, p.backend_id);
  out += "/0";
}

// An idle session (not owned by a scenario), or UINT32_MAX.
uint32_t Generator::IdleSession(const Db* db) {
  for (int tries = 0; tries < 64; ++tries) {
    uint32_t i = sessions_[rng_.below(sessions_.size())];
    if (!procs_[i].busy && (!db || procs_[i].db == db)) return i;
  }
  return UINT32_MAX;
}

Rec& Generator::Tmp(uint32_t proc) {
  tmp_.Reset();
  tmp_.proc = proc;
  return tmp_;
}

// ------------------------------------------------ scenarios

Scenario* Generator::DueScenario() {
  Scenario* best = nullptr;
  for (auto& a : active_)
    if (a->due <= counts_.records && (!best || a->due < best->due || (a->due == best->due && a->id < best->id)))
      best = a.get();
  return best;
}

void Generator::Step(Scenario& s) {
  Emit(s.steps[s.next], &s);
  ++s.next;
  if (s.next < s.steps.size()) {
    // A checkpoint completes minutes later; a lock scenario's records
    // are spread over the next few hundred records.
    s.due = counts_.records + static_cast<uint64_t>(s.checkpoint ? rng_.range(2000, 40000) : rng_.range(1, 120));
    return;
  }
  for (uint32_t p : s.procs) procs_[p].busy = false;
  for (size_t i = 0; i < active_.size(); ++i)
    if (active_[i].get() == &s) {
      active_[i] = std::move(active_.back());
      active_.pop_back();
      break;
    }
}

Scenario& Generator::NewScenario() {
  active_.push_back(std::make_unique<Scenario>());
  Scenario& s = *active_.back();
  s.id = next_scenario_id_++;
  s.due = counts_.records + static_cast<uint64_t>(rng_.range(1, 50));
  return s;
}

Rec& Generator::Add(Scenario& s, uint32_t proc) {
  s.steps.emplace_back();
  Rec& r = s.steps.back();
  r.proc = proc;
  return r;
}

}  // namespace gen_pglog
