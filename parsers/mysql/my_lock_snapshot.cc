// See my_lock_snapshot.h. The metadata-lock matrices are MySQL's
// (sql/mdl.cc, MDL_lock::m_granted_incompatible and m_waiting_incompatible
// for object locks), which MariaDB shares for the types it has.
#include "parsers/mysql/my_lock_snapshot.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <ctime>
#include <map>
#include <set>

#include "graph/blocking_trees.h"
#include "graph/wait_for_graph.h"

namespace lockgraph {
namespace {

std::optional<int64_t> Int(std::string_view s) {
  int64_t v = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> Real(std::string_view s) {
  if (s.empty() || s.size() > 40) return std::nullopt;
  std::string text(s);
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// "`shop`.`orders`" (or "shop.orders") as database and table.
std::pair<std::string, std::string> SplitTable(const std::string& t) {
  auto unquote = [](std::string s) {
    if (s.size() >= 2 && s.front() == '`' && s.back() == '`') s = s.substr(1, s.size() - 2);
    return s;
  };
  size_t dot = t.find("`.`");
  if (dot != std::string::npos) return {unquote(t.substr(0, dot + 1)), unquote(t.substr(dot + 2))};
  dot = t.find('.');
  if (dot == std::string::npos) return {"", unquote(t)};
  return {t.substr(0, dot), t.substr(dot + 1)};
}

LockTarget Target(const MyLockRow& r) {
  LockTarget t;
  auto [database, table] = SplitTable(r.lock_table);
  auto add = [&](const char* name, const std::string& v, bool numeric) {
    if (!v.empty()) t.fields.push_back({name, v, numeric});
  };
  if (r.lock_type == "METADATA") {
    t.type = "metadata";
    t.text = "metadata lock on " + r.lock_table;
  } else {
    t.type = r.lock_type == "TABLE" ? "table" : "record";
  }
  t.fields.push_back({"database", database, false});
  t.fields.push_back({"table", table, false});
  if (t.type != "record") return t;
  add("index", r.lock_index, false);
  add("space", r.lock_space, true);
  add("page", r.lock_page, true);
  add("heap_no", r.lock_rec, true);
  add("lock_data", r.lock_data, false);
  return t;
}

std::string Lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void Describe(const MyLockRow& r, Backend* b) {
  const bool in_trx = !r.trx_id.empty();
  if (r.command == "Sleep") b->state = in_trx ? "idle in transaction" : "idle";
  else if (r.command == "Query" || r.command == "Execute") b->state = "active";
  else b->state = Lower(r.command);
  if (!r.state.empty()) b->wait_event = r.state;  // the processlist's thread state
  // MariaDB shows 0 for a transaction that has written nothing.
  if (auto xid = Int(r.trx_id); xid && *xid > 0) b->xid = uint64_t(*xid);
  if (r.trx_age_s) b->xact_age_ms = *r.trx_age_s * 1000;
  if (r.time_s) b->state_age_ms = *r.time_s * 1000;
  if (r.wait_age_s) b->wait_age_ms = *r.wait_age_s * 1000;
  b->rows_locked = r.trx_rows_locked;
  b->query = r.query;
  b->session.user = r.user;
  b->session.database = r.db;
  b->session.host = r.host;
  b->session.command_tag = r.command;
}

Backend& BackendOf(int64_t id, std::map<std::string, Backend>* backends) {
  auto [it, inserted] = backends->try_emplace(std::to_string(id));
  if (inserted) {
    it->second.id = it->first;
    it->second.pid = id;
  }
  return it->second;
}

void AddHold(Backend* b, const std::string& mode, const LockTarget& lock) {
  for (const HeldLock& h : b->holds)
    if (h.mode == mode && h.lock.Key() == lock.Key()) return;
  b->holds.push_back({mode, lock});
}

// Metadata lock types in the order of mdl.cc's matrices.
int MdlIndex(const std::string& type) {
  static const char* kTypes[] = {"SHARED", "SHARED_HIGH_PRIO", "SHARED_READ", "SHARED_WRITE",
                                 "SHARED_WRITE_LOW_PRIO", "SHARED_UPGRADABLE", "SHARED_READ_ONLY",
                                 "SHARED_NO_WRITE", "SHARED_NO_READ_WRITE", "EXCLUSIVE"};
  for (int i = 0; i < 10; ++i)
    if (type == kTypes[i]) return i;
  return -1;
}

// Row: the request; column: a granted (hard) or pending (soft) lock; '-' waits.
bool MdlConflicts(const std::string& requested, const std::string& other, bool other_granted) {
  static const char* kGranted[] = {"+++++++++-", "+++++++++-", "++++++++--", "++++++----",
                                   "++++++----", "+++++-+---", "+++--+++--", "+++---+---",
                                   "++--------", "----------"};
  static const char* kPending[] = {"+++++++++-", "++++++++++", "++++++++--", "+++++++---",
                                   "++++++----", "+++++++++-", "+++-++++--", "+++++++++-",
                                   "+++++++++-", "++++++++++"};
  int r = MdlIndex(requested), o = MdlIndex(other);
  if (r < 0 || o < 0) return false;  // a type we do not know: no edge invented
  return (other_granted ? kGranted : kPending)[r][o] == '-';
}

void AddMdlEdges(const std::vector<const MyLockRow*>& mdl, std::map<std::string, Backend>* backends,
                 std::vector<WaitEdge>* edges) {
  std::map<std::string, std::vector<const MyLockRow*>> by_object;
  for (const MyLockRow* r : mdl) by_object[r->lock_table].push_back(r);
  for (auto& [object, rows] : by_object) {
    for (const MyLockRow* w : rows) {
      if (w->trx_state != "PENDING" || !w->id) continue;
      LockTarget lock = Target(*w);
      Backend& waiter = BackendOf(*w->id, backends);
      waiter.wait_mode = w->lock_mode;
      waiter.wait_lock = lock;
      for (const MyLockRow* o : rows) {
        if (!o->id || *o->id == *w->id) continue;
        const bool granted = o->trx_state == "GRANTED";
        if (!granted && o->trx_state != "PENDING") continue;
        if (!MdlConflicts(w->lock_mode, o->lock_mode, granted)) continue;
        WaitEdge e;
        e.waiter = waiter.id;
        e.blocker = std::to_string(*o->id);
        e.mode = w->lock_mode;
        e.lock = lock;
        e.basis = granted ? EdgeBasis::kHard : EdgeBasis::kSoft;
        e.derived = true;
        e.blocker_mode = o->lock_mode;
        e.line = w->line;
        if (granted) AddHold(&BackendOf(*o->id, backends), o->lock_mode, lock);
        edges->push_back(std::move(e));
      }
    }
  }
}

Event Base(EventType type, const MyLockSnapshot& s, const std::string& sampled_at) {
  Event ev;
  ev.type = type;
  ev.engine = "mysql";
  ev.time = sampled_at;
  ev.epoch_ms = MyUtcEpochMs(sampled_at);
  ev.source = s.source;
  ev.server = s.server;
  return ev;
}

}  // namespace

const std::vector<std::string>& MyLockSnapshotColumns() {
  static const std::vector<std::string> kColumns = {
      "sampled_at", "kind", "id", "user", "host", "db", "command", "time_s", "state", "trx_id",
      "trx_state", "trx_age_s", "trx_rows_locked", "wait_age_s", "query", "lock_mode",
      "lock_type", "lock_table", "lock_index", "lock_space", "lock_page", "lock_rec",
      "lock_data", "blocker_id", "blocker_mode"};
  return kColumns;
}

bool MyLockRowFromColumns(const MyColumnGetter& get, MyLockRow* row, std::string* error) {
  auto text = [&](const char* column) { return std::string(get(column).value_or("")); };
  row->sampled_at = text("sampled_at");
  row->kind = text("kind");
  if (row->kind != "session" && row->kind != "wait" && row->kind != "mdl")
    return *error = "kind is not session, wait or mdl", false;
  row->id = Int(text("id"));
  if (!row->id) return *error = "id is not a connection id", false;
  using TextColumn = std::pair<const char*, std::string*>;
  for (auto [column, field] : std::initializer_list<TextColumn>{
           {"user", &row->user}, {"host", &row->host}, {"db", &row->db},
                               {"command", &row->command}, {"state", &row->state},
                               {"trx_id", &row->trx_id}, {"trx_state", &row->trx_state},
                               {"query", &row->query}, {"lock_mode", &row->lock_mode},
                               {"lock_type", &row->lock_type}, {"lock_table", &row->lock_table},
                               {"lock_index", &row->lock_index}, {"lock_space", &row->lock_space},
                               {"lock_page", &row->lock_page}, {"lock_rec", &row->lock_rec},
                               {"lock_data", &row->lock_data}, {"blocker_mode", &row->blocker_mode}})
    *field = text(column);
  using RealColumn = std::pair<const char*, std::optional<double>*>;
  for (auto [column, field] : std::initializer_list<RealColumn>{
           {"time_s", &row->time_s}, {"trx_age_s", &row->trx_age_s}, {"wait_age_s", &row->wait_age_s}}) {
    std::string v = text(column);
    *field = Real(v);
    if (!v.empty() && !*field) return *error = std::string(column) + " is not a number", false;
  }
  using IntColumn = std::pair<const char*, std::optional<int64_t>*>;
  for (auto [column, field] : std::initializer_list<IntColumn>{
           {"trx_rows_locked", &row->trx_rows_locked}, {"blocker_id", &row->blocker_id}}) {
    std::string v = text(column);
    *field = Int(v);
    if (!v.empty() && !*field) return *error = std::string(column) + " is not a number", false;
  }
  if (row->kind == "wait" && !row->blocker_id) return *error = "a wait row has no blocker_id", false;
  return true;
}

std::optional<int64_t> MyUtcEpochMs(std::string_view text) {
  std::tm tm = {};
  int y, mo, d, h, mi, s;
  char rest[32] = {};
  std::string t(text.substr(0, 40));
  if (std::sscanf(t.c_str(), "%4d-%2d-%2d %2d:%2d:%2d%31s", &y, &mo, &d, &h, &mi, &s, rest) < 6)
    return std::nullopt;
  tm.tm_year = y - 1900, tm.tm_mon = mo - 1, tm.tm_mday = d, tm.tm_hour = h, tm.tm_min = mi, tm.tm_sec = s;
  int64_t ms = int64_t(timegm(&tm)) * 1000;
  if (rest[0] == '.') ms += int64_t(std::strtod(rest, nullptr) * 1000);
  return ms;
}

namespace {

// The InnoDB waits of the `wait` rows, the `mdl` rows set aside; returns the
// number of lock rows read.
uint64_t AddInnodbEdges(const MyLockSnapshot& snapshot, std::map<std::string, Backend>& backends,
                        std::vector<WaitEdge>* edges_out, std::vector<const MyLockRow*>* mdl_out) {
  std::vector<WaitEdge>& edges = *edges_out;
  std::vector<const MyLockRow*>& mdl = *mdl_out;
  uint64_t locks = 0;
  std::set<std::pair<int64_t, std::string>> waiting_for;  // (connection, lock key)
  for (const MyLockRow& r : snapshot.rows)
    if (r.kind == "wait" && r.id) waiting_for.insert({*r.id, Target(r).Key()});
  for (const MyLockRow& r : snapshot.rows) {
    if (r.kind == "mdl") {
      mdl.push_back(&r), ++locks;
      continue;
    }
    if (r.kind != "wait" || !r.id || !r.blocker_id) continue;
    ++locks;
    LockTarget lock = Target(r);
    Backend& waiter = BackendOf(*r.id, &backends);
    waiter.wait_mode = r.lock_mode;
    waiter.wait_lock = lock;
    // The blocking lock may be the blocker's own request, waiting ahead in
    // the queue (MariaDB reports those too): soft, and not a lock it holds.
    const bool queued = waiting_for.count({*r.blocker_id, lock.Key()}) > 0;
    if (!r.blocker_mode.empty() && !queued)
      AddHold(&BackendOf(*r.blocker_id, &backends), r.blocker_mode, lock);
    WaitEdge e;
    e.waiter = waiter.id;
    e.blocker = std::to_string(*r.blocker_id);
    e.mode = r.lock_mode;
    e.lock = std::move(lock);
    e.basis = queued ? EdgeBasis::kSoft : EdgeBasis::kReported;
    e.blocker_mode = r.blocker_mode;
    e.line = r.line;
    edges.push_back(std::move(e));
  }
  return locks;
}

}  // namespace

SnapshotAnalysis AnalyzeMyLockSnapshot(const MyLockSnapshot& snapshot) {
  const std::string sampled_at =
      snapshot.rows.empty() ? snapshot.sampled_at : snapshot.rows.front().sampled_at;
  SnapshotAnalysis out;
  std::map<std::string, Backend>& backends = out.backends;
  for (const MyLockRow& r : snapshot.rows)
    if (r.kind == "session" && r.id) Describe(r, &BackendOf(*r.id, &backends));
  std::vector<WaitEdge> edges;
  std::vector<const MyLockRow*> mdl;
  const uint64_t locks = AddInnodbEdges(snapshot, backends, &edges, &mdl);
  AddMdlEdges(mdl, &backends, &edges);
  WaitForGraph graph;
  graph.AddWaits(std::move(edges));
  TreesAndCycles found = FindTreesAndCycles(graph, graph.edges(), backends);
  out.edges = graph.ReleaseEdges();

  Event head = Base(EventType::kSnapshot, snapshot, sampled_at);
  SnapshotInfo info;
  info.sampled_at = sampled_at;
  info.blocking = snapshot.blocking;
  info.locks = locks;
  info.backends = backends.size();
  for (const auto& [id, b] : backends) info.waiting += !b.wait_mode.empty();
  info.chains = found.trees.size();
  info.cycles = found.cycles.size();
  info.poll_ms = snapshot.poll_ms;
  head.snapshot = std::move(info);
  out.events.push_back(std::move(head));
  for (WaitCycle& c : found.cycles) {
    Event ev = Base(EventType::kCycle, snapshot, sampled_at);
    ev.pid = c.members.front().pid;
    ev.cycle = std::move(c);
    out.events.push_back(std::move(ev));
  }
  for (BlockingTree& t : found.trees) {
    Event ev = Base(EventType::kChain, snapshot, sampled_at);
    ev.pid = t.members.front().backend.pid;
    ev.chain = std::move(t);
    out.events.push_back(std::move(ev));
  }
  return out;
}

}  // namespace lockgraph
