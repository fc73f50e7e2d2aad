// Writing a record in each format: stderr with log_line_prefix, csvlog and
// jsonlog, as PostgreSQL 15 elog.c does. See generator.h.
#include "generator.h"
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gen_pglog {

void Generator::Emit(const Rec& r, Scenario* s) {
  now_us_ += rng_.range(20, 1400);
  Proc& p = procs_[r.proc];
  ++p.line_num;
  ++counts_.records;
  const std::string* msg = &r.msg;
  if (r.after_kind) {
    int64_t waited;
    if (r.after_kind == 1) {
      waited = 1000000 + rng_.range(5, 400);
      s->wait_start[r.wait_slot] = now_us_ - waited;
    } else {
      waited = now_us_ - s->wait_start[r.wait_slot];
    }
    msg_.assign(r.msg);
    msg_ += "after ";
    AppMs(msg_, waited);
    msg_ += " ms";
    msg = &msg_;
  }
  // %m: identical on every line of a message.
  int64_t sec = now_us_ / 1000000;
  if (sec != cached_sec_) {
    cached_sec_ = sec;
    sec_str_.clear();
    AppCivil(sec_str_, sec);
  }
  ts_.assign(sec_str_);
  ts_ += '.';
  Pad(ts_, static_cast<uint64_t>(now_us_ / 1000 % 1000), 3);
  ts_ += " UTC";
  switch (opt_.fmt) {
    case Fmt::kStderr: WriteStderr(r, p, *msg); break;
    case Fmt::kCsv: WriteCsv(r, p, *msg); break;
    case Fmt::kJson: WriteJson(r, p, *msg); break;
    case Fmt::kSyslog: WriteSyslog(r, p, *msg); break;
  }
  if (buf_.size() >= kFlushAt) Flush();
}

void Generator::WriteStderr(const Rec& r, const Proc& p, const std::string& msg) {
  prefix_.assign(ts_);
  prefix_ += " [";
  AppU(prefix_, p.pid);
  prefix_ += "] ";
  if (p.client) {
    if (r.phase == 0) {
      prefix_ += "[unknown]@[unknown]/[unknown] ";
    } else {
      prefix_ += p.user;
      prefix_ += '@';
      prefix_ += p.db->name;
      prefix_ += '/';
      prefix_ += (r.phase == 1 || !*p.app) ? "[unknown]" : p.app;
      prefix_ += ' ';
    }
  }
  std::string& o = buf_;
  o += prefix_;
  o += r.sev;
  o += ":  ";
  AppTabbed(o, msg);
  if (r.cursor) {
    o += " at character ";
    AppI(o, r.cursor);
  }
  o += '\n';
  auto part = [&](const char* label, const std::string& text) {
    if (text.empty()) return;
    o += prefix_;
    o += label;
    AppTabbed(o, text);
    o += '\n';
  };
  part("DETAIL:  ", r.detail);
  part("HINT:  ", r.hint);
  part("CONTEXT:  ", r.context);
  part("STATEMENT:  ", r.statement);
}

void Generator::WriteCsv(const Rec& r, const Proc& p, const std::string& msg) {
  std::string& o = buf_;
  o += ts_;
  o += ',';
  if (p.client && r.phase >= 1) {
    AppCsv(o, p.user);
    o += ',';
    AppCsv(o, p.db->name);
    o += ',';
  } else {
    o += ",,";
  }
  AppU(o, p.pid);
  o += ',';
  if (p.client) {
    o += '"';
    o += p.host;
    o += ':';
    AppU(o, p.port);
    o += '"';
  }
  o += ',';
  o += p.sid;
  o += ',';
  AppU(o, p.line_num);
  o += ',';
  if (p.client) AppCsv(o, r.ps);
  o += ',';
  o += p.start_str;
  o += ',';
  o += r.vxid;
  o += ',';
  AppU(o, r.txid);
  o += ',';
  o += r.sev;
  o += ',';
  o += r.state;
  o += ',';
  AppCsv(o, msg);
  o += ',';
  if (!r.detail.empty()) AppCsv(o, r.detail);
  o += ',';
  if (!r.hint.empty()) AppCsv(o, r.hint);
  o += ",,,";  // internal_query, internal_query_pos
  if (!r.context.empty()) AppCsv(o, r.context);
  o += ',';
  if (!r.statement.empty()) AppCsv(o, r.statement);
  o += ',';
  if (r.cursor) AppI(o, r.cursor);
  o += ",,";  // location
  AppCsv(o, (p.client && r.phase == 2) ? p.app : "");
  o += ',';
  AppCsv(o, r.btype ? r.btype : p.backend_type);
  o += ",,0\n";  // leader_pid, query_id
}

void Generator::WriteJson(const Rec& r, const Proc& p, const std::string& msg) {
  std::string& o = buf_;
  o += "{\"timestamp\":\"";
  o += ts_;
  o += '"';
  if (p.client && r.phase >= 1) {
    o += ",\"user\":";
    AppJson(o, p.user);
    o += ",\"dbname\":";
    AppJson(o, p.db->name);
  }
  o += ",\"pid\":";
  AppU(o, p.pid);
  if (p.client) {
    o += ",\"remote_host\":\"";
    o += p.host;
    o += "\",\"remote_port\":";
    AppU(o, p.port);
  }
  o += ",\"session_id\":\"";
  o += p.sid;
  o += "\",\"line_num\":";
  AppU(o, p.line_num);
  if (p.client) {
    o += ",\"ps\":";
    AppJson(o, r.ps);
  }
  o += ",\"session_start\":\"";
  o += p.start_str;
  o += '"';
  if (!r.vxid.empty()) {
    o += ",\"vxid\":\"";
    o += r.vxid;
    o += '"';
  }
  o += ",\"txid\":";
  AppU(o, r.txid);
  o += ",\"error_severity\":\"";
  o += r.sev;
  o += '"';
  if (std::strcmp(r.state, "00000") != 0) {
    o += ",\"state_code\":\"";
    o += r.state;
    o += '"';
  }
  o += ",\"message\":";
  AppJson(o, msg);
  if (!r.detail.empty()) {
    o += ",\"detail\":";
    AppJson(o, r.detail);
  }
  if (!r.hint.empty()) {
    o += ",\"hint\":";
    AppJson(o, r.hint);
  }
  if (!r.context.empty()) {
    o += ",\"context\":";
    AppJson(o, r.context);
  }
  if (!r.statement.empty()) {
    o += ",\"statement\":";
    AppJson(o, r.statement);
    if (r.cursor) {
      o += ",\"cursor_position\":";
      AppI(o, r.cursor);
    }
  }
  if (p.client && r.phase == 2 && *p.app) {
    o += ",\"application_name\":";
    AppJson(o, p.app);
  }
  o += ",\"backend_type\":";
  AppJson(o, r.btype ? r.btype : p.backend_type);
  o += ",\"query_id\":0}\n";
}

void Generator::Flush() {
  if (buf_.empty()) return;
  counts_.lines += static_cast<uint64_t>(std::count(buf_.begin(), buf_.end(), '\n'));
  counts_.bytes += buf_.size();
  if (std::fwrite(buf_.data(), 1, buf_.size(), out_) != buf_.size()) {
    std::fprintf(stderr, "gen_pglog: write %s: %s\n", opt_.out.c_str(), std::strerror(errno));
    std::exit(2);
  }
  buf_.clear();
}

}  // namespace gen_pglog
