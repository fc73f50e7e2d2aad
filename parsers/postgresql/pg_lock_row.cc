// See pg_lock_row.h. Targets get the type, fields and text that
// ParsePgLockTag() gives the same lock's tag in a log, so that a lock read
// from pg_locks and the same lock named in a log get one key.
#include "parsers/postgresql/pg_lock_row.h"

#include <algorithm>
#include <charconv>


namespace lockgraph {
namespace {

bool ParseInt(std::string_view s, int64_t* v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool ParseBool(std::string_view s, bool* v) {
  if (s == "t" || s == "true") *v = true;
  else if (s == "f" || s == "false") *v = false;
  else return false;
  return true;
}

// "{1,2,3}" (psql) -> numbers; "{}" -> none.
bool ParseIntArray(std::string_view s, std::vector<int64_t>* out) {
  if (s.size() < 2 || s.front() != '{' || s.back() != '}') return false;
  s = s.substr(1, s.size() - 2);
  while (!s.empty()) {
    size_t comma = s.find(',');
    int64_t v = 0;
    if (!ParseInt(s.substr(0, comma), &v)) return false;
    out->push_back(v);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return true;
}

constexpr PgTextColumn kTextColumns[] = {
    {"sampled_at", &PgLockRow::sampled_at},
    {"locktype", &PgLockRow::locktype},
    {"database", &PgLockRow::database},
    {"relation", &PgLockRow::relation},
    {"page", &PgLockRow::page},
    {"tuple", &PgLockRow::tuple},
    {"virtualxid", &PgLockRow::virtualxid},
    {"transactionid", &PgLockRow::transactionid},
    {"classid", &PgLockRow::classid},
    {"objid", &PgLockRow::objid},
    {"objsubid", &PgLockRow::objsubid},
    {"virtualtransaction", &PgLockRow::virtualtransaction},
    {"mode", &PgLockRow::mode},
    {"waitstart", &PgLockRow::waitstart},
    {"wait_event_type", &PgLockRow::wait_event_type},
    {"wait_event", &PgLockRow::wait_event},
    {"state", &PgLockRow::state},
    {"backend_type", &PgLockRow::backend_type},
    {"backend_xid", &PgLockRow::backend_xid},
    {"xact_start", &PgLockRow::xact_start},
    {"query_start", &PgLockRow::query_start},
    {"state_change", &PgLockRow::state_change},
    {"usename", &PgLockRow::usename},
    {"datname", &PgLockRow::datname},
    {"application_name", &PgLockRow::application_name},
    {"client_addr", &PgLockRow::client_addr},
    {"relation_name", &PgLockRow::relation_name},
    {"query", &PgLockRow::query},
};

// The columns that identify each lock type, in pg_locks column order: the
// fields ParsePgLockTag() gives the same lock's text (a test checks it).
struct TagShape {
  const char* locktype;  // as pg_locks names it
  const char* type;      // LockTarget::type
  std::initializer_list<std::string_view PgLockRow::*> columns;
};

const TagShape kShapes[] = {
    {"relation", "relation", {&PgLockRow::database, &PgLockRow::relation}},
    {"extend", "extend", {&PgLockRow::database, &PgLockRow::relation}},
    {"frozenid", "frozenid", {&PgLockRow::database}},
    {"page", "page", {&PgLockRow::database, &PgLockRow::relation, &PgLockRow::page}},
    {"tuple", "tuple",
     {&PgLockRow::database, &PgLockRow::relation, &PgLockRow::page, &PgLockRow::tuple}},
    {"transactionid", "transactionid", {&PgLockRow::transactionid}},
    {"virtualxid", "virtualxid", {&PgLockRow::virtualxid}},
    {"spectoken", "spectoken", {&PgLockRow::transactionid, &PgLockRow::objid}},
    {"speculative token", "spectoken", {&PgLockRow::transactionid, &PgLockRow::objid}},
    {"object", "object", {&PgLockRow::database, &PgLockRow::classid, &PgLockRow::objid}},
    {"advisory", "advisory",
     {&PgLockRow::database, &PgLockRow::classid, &PgLockRow::objid, &PgLockRow::objsubid}},
    {"userlock", "userlock", {&PgLockRow::database, &PgLockRow::classid, &PgLockRow::objid}},
    {"applytransaction", "applytransaction",
     {&PgLockRow::database, &PgLockRow::transactionid, &PgLockRow::objid}},
};

std::string_view ColumnName(std::string_view PgLockRow::*column) {
  for (const PgTextColumn& c : kTextColumns)
    if (c.field == column) return c.name;
  return "";
}

// DescribeLockTag()'s text for the row's lock (lmgr.c), fields present.
std::string TagText(const PgLockRow& r) {
  const std::string_view t = r.locktype;
  auto cat = [](std::initializer_list<std::string_view> parts) {
    std::string out;
    for (std::string_view p : parts) out += p;
    return out;
  };
  const std::string of_rel = cat({" of relation ", r.relation, " of database ", r.database});
  if (t == "relation") return cat({"relation ", r.relation, " of database ", r.database});
  if (t == "extend") return "extension" + of_rel;
  if (t == "frozenid") return cat({"pg_database.datfrozenxid of database ", r.database});
  if (t == "page") return cat({"page ", r.page, of_rel});
  if (t == "tuple") return cat({"tuple (", r.page, ",", r.tuple, ")", of_rel});
  if (t == "transactionid") return cat({"transaction ", r.transactionid});
  if (t == "virtualxid") return cat({"virtual transaction ", r.virtualxid});
  if (t == "spectoken" || t == "speculative token")
    return cat({"speculative token ", r.objid, " of transaction ", r.transactionid});
  if (t == "object")
    return cat({"object ", r.objid, " of class ", r.classid, " of database ", r.database});
  if (t == "advisory")
    return cat({"advisory lock [", r.database, ",", r.classid, ",", r.objid, ",", r.objsubid, "]"});
  if (t == "userlock") return cat({"user lock [", r.database, ",", r.classid, ",", r.objid, "]"});
  return cat({"remote transaction ", r.transactionid, " of subscription ", r.objid,
              " of database ", r.database});
}

}  // namespace

std::span<const PgTextColumn> PgLockTextColumns() { return kTextColumns; }

bool PgLockRowFromColumns(const PgColumnGetter& get, PgLockRow* row, std::string* error) {
  for (const PgTextColumn& c : kTextColumns)
    if (auto v = get(c.name)) row->*c.field = *v;
  // NULL, missing and empty all leave the field empty: no need to ask again.
  for (std::string_view PgLockRow::*required : {&PgLockRow::locktype, &PgLockRow::mode}) {
    if ((row->*required).empty()) {
      *error = "no " + std::string(ColumnName(required));
      return false;
    }
  }
  auto granted = get("granted");
  if (!granted || !ParseBool(*granted, &row->granted)) {
    *error = "granted is not t/f";
    return false;
  }
  if (auto v = get("fastpath"); v && !v->empty() && !ParseBool(*v, &row->fastpath)) {
    *error = "fastpath is not t/f";
    return false;
  }
  if (auto v = get("pid"); v && !v->empty()) {
    int64_t pid = 0;
    if (!ParseInt(*v, &pid)) {
      *error = "pid is not a number";
      return false;
    }
    row->pid = pid;
  }
  if (auto v = get("blocking_pids"); v && !v->empty()) {
    std::vector<int64_t> pids;
    if (!ParseIntArray(*v, &pids)) {
      *error = "blocking_pids is not an array of pids";
      return false;
    }
    row->blocking_pids = std::move(pids);
  }
  return true;
}

bool IsPgLocksHeader(const std::vector<std::string>& columns, std::string* missing) {
  missing->clear();
  for (const char* need : {"locktype", "pid", "mode", "granted"}) {
    bool found = false;
    for (const std::string& c : columns) found = found || c == need;
    if (!found) *missing += (missing->empty() ? "" : ", ") + std::string(need);
  }
  return missing->empty();
}

bool HasBlockingPidsColumn(const std::vector<std::string>& columns) {
  for (const std::string& c : columns)
    if (c == "blocking_pids") return true;
  return false;
}

namespace {

// The shape of the row's lock type when every column of it is filled in;
// null for a lock type this version does not know, or a row with missing
// fields.
const TagShape* CompleteShape(const PgLockRow& row) {
  const TagShape* shape = nullptr;
  for (const TagShape& t : kShapes)
    if (row.locktype == t.locktype) shape = &t;
  if (shape)
    for (auto column : shape->columns)
      if ((row.*column).empty()) return nullptr;
  return shape;
}

// The columns kept, in pg_locks column order, for a lock without a shape.
constexpr std::string_view PgLockRow::*kAnyColumns[] = {
    &PgLockRow::database, &PgLockRow::relation,      &PgLockRow::page,
    &PgLockRow::tuple,    &PgLockRow::virtualxid,    &PgLockRow::transactionid,
    &PgLockRow::classid,  &PgLockRow::objid,         &PgLockRow::objsubid};

}  // namespace

LockTarget PgLockRowTarget(const PgLockRow& row) {
  LockTarget target;
  const TagShape* shape = CompleteShape(row);
  if (shape) {
    target.type = shape->type;
    target.fields.reserve(shape->columns.size());
    for (auto column : shape->columns)
      target.fields.push_back({std::string(ColumnName(column)), std::string(row.*column),
                               column != &PgLockRow::virtualxid});
    target.text = TagText(row);
  } else {
    // Keep whatever identifies it, in pg_locks column order.
    target.type = row.locktype;
    for (auto column : kAnyColumns)
      if (!(row.*column).empty())
        target.fields.push_back({std::string(ColumnName(column)), std::string(row.*column),
                                 column != &PgLockRow::virtualxid});
  }
  if (!row.relation.empty()) target.relation_name = row.relation_name;
  return target;
}

std::string PgLockRowKey(const PgLockRow& row) {
  // LockTarget::Key() of PgLockRowTarget(row): the type, then the fields'
  // values; a complete shape always has fields, so its text never counts.
  const TagShape* shape = CompleteShape(row);
  std::string key(shape ? std::string_view(shape->type) : row.locktype);
  char sep = ':';
  auto add = [&](std::string_view value) {
    key += sep;
    key += value;
    sep = '/';
  };
  if (shape) {
    for (auto column : shape->columns) add(row.*column);
  } else {
    for (auto column : kAnyColumns)
      if (!(row.*column).empty()) add(row.*column);
  }
  return key;
}

std::optional<int64_t> PgTimestampMicros(std::string_view s) {
  // YYYY-MM-DD[ T]HH:MM:SS[.ffffff][(+|-)HH[:MM[:SS]]]
  // Each field as ParseInt reads it (an optional '-', then digits only),
  // digit by digit: a snapshot has half a million timestamps to read.
  auto num = [&](size_t pos, size_t len, int64_t* v) {
    if (pos + len > s.size()) return false;
    const bool negative = s[pos] == '-';
    if (negative && len == 1) return false;  // a sign and no digit
    int64_t n = 0;
    for (size_t i = pos + negative; i < pos + len; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      n = n * 10 + (s[i] - '0');
    }
    *v = negative ? -n : n;
    return true;
  };
  int64_t y, mo, d, h, mi, sec;
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') ||
      s[13] != ':' || s[16] != ':' || !num(0, 4, &y) || !num(5, 2, &mo) || !num(8, 2, &d) ||
      !num(11, 2, &h) || !num(14, 2, &mi) || !num(17, 2, &sec))
    return std::nullopt;
  size_t pos = 19;
  int64_t micros = 0;
  if (pos < s.size() && s[pos] == '.') {
    int64_t scale = 100000;
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, scale /= 10)
      micros += (s[pos] - '0') * scale;
  }
  int64_t offset_s = 0;
  if (pos < s.size()) {
    if (s[pos] != '+' && s[pos] != '-') return std::nullopt;
    int sign = s[pos] == '-' ? -1 : 1;
    int64_t oh = 0, om = 0, os = 0;
    if (!num(pos + 1, 2, &oh)) return std::nullopt;
    pos += 3;
    if (pos < s.size() && (s[pos] != ':' || !num(pos + 1, 2, &om))) return std::nullopt;
    if (pos < s.size()) pos += 3;
    if (pos < s.size() && (s[pos] != ':' || !num(pos + 1, 2, &os))) return std::nullopt;
    if (pos < s.size()) pos += 3;
    if (pos != s.size()) return std::nullopt;
    offset_s = sign * (oh * 3600 + om * 60 + os);
  }
  // Days from civil (H. Hinnant's algorithm).
  y -= mo <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const int64_t days = era * 146097 + doe - 719468;
  return ((days * 86400 + h * 3600 + mi * 60 + sec) - offset_s) * 1000000 + micros;
}

}  // namespace lockgraph
