// Lock-tag formats from DescribeLockTag() (src/backend/storage/lmgr/lmgr.c),
// matched whole and longest first: "transaction %u" ends three other tags.
#include "parsers/postgresql/lock_tag.h"

#include <re2/re2.h>

#include <array>
#include <cstring>
#include <memory>
#include <string>

namespace lockgraph {
namespace {

struct TagFormat {
  const char* type;      // pg_locks.locktype
  const char* start;     // literal start: only then is the pattern tried
  const char* pattern;   // RE2, matched against the whole tag
  std::array<const char*, 4> fields;  // pg_locks column of each group
};

// Order matters: longer forms that contain shorter ones come first.
const TagFormat kFormats[] = {
    {"tuple", "tuple (", R"(tuple \((\d+),(\d+)\) of relation (\d+) of database (\d+))",
     {"page", "tuple", "relation", "database"}},
    {"page", "page ", R"(page (\d+) of relation (\d+) of database (\d+))",
     {"page", "relation", "database", nullptr}},
    {"extend", "extension ", R"(extension of relation (\d+) of database (\d+))",
     {"relation", "database", nullptr, nullptr}},
    {"relation", "relation ", R"(relation (\d+) of database (\d+))",
     {"relation", "database", nullptr, nullptr}},
    {"frozenid", "pg_database", R"(pg_database\.datfrozenxid of database (\d+))",
     {"database", nullptr, nullptr, nullptr}},
    {"virtualxid", "virtual ", R"(virtual transaction (-?\d+/\d+))",
     {"virtualxid", nullptr, nullptr, nullptr}},
    {"spectoken", "speculative ", R"(speculative token (\d+) of transaction (\d+))",
     {"objid", "transactionid", nullptr, nullptr}},
    {"applytransaction", "remote ",
     R"(remote transaction (\d+) of subscription (\d+) of database (\d+))",
     {"transactionid", "objid", "database", nullptr}},
    {"transactionid", "transaction ", R"(transaction (\d+))",
     {"transactionid", nullptr, nullptr, nullptr}},
    {"object", "object ", R"(object (\d+) of class (\d+) of database (\d+))",
     {"objid", "classid", "database", nullptr}},
    {"advisory", "advisory ", R"(advisory lock \[(\d+),(\d+),(\d+),(\d+)\])",
     {"database", "classid", "objid", "objsubid"}},
    {"userlock", "user lock", R"(user lock \[(\d+),(\d+),(\d+)\])",
     {"database", "classid", "objid", nullptr}},
    {"unknown", "unrecognized", R"(unrecognized locktag type (-?\d+))",
     {"locktag_type", nullptr, nullptr, nullptr}},
};

struct CompiledFormat {
  const TagFormat* format;
  std::unique_ptr<RE2> re;
};

const std::vector<CompiledFormat>& Compiled() {
  static const std::vector<CompiledFormat> compiled = [] {
    std::vector<CompiledFormat> out;
    for (const TagFormat& f : kFormats)
      out.push_back({&f, std::make_unique<RE2>(f.pattern)});
    return out;
  }();
  return compiled;
}

// Fields are listed in pg_locks column order, whatever order the text has.
constexpr std::array<const char*, 9> kColumnOrder = {
    "database", "relation", "page", "tuple", "virtualxid",
    "transactionid", "classid", "objid", "objsubid"};

}  // namespace

LockTarget ParsePgLockTag(std::string_view text) {
  LockTarget target;
  target.text = std::string(text);
  re2::StringPiece input(text.data(), text.size());
  for (const CompiledFormat& c : Compiled()) {
    if (text.substr(0, std::strlen(c.format->start)) != c.format->start) continue;
    std::array<re2::StringPiece, 4> groups;
    const int n = c.re->NumberOfCapturingGroups();
    std::array<RE2::Arg, 4> args;
    std::array<const RE2::Arg*, 4> argp;
    for (int i = 0; i < n; ++i) {
      args[i] = RE2::Arg(&groups[i]);
      argp[i] = &args[i];
    }
    if (!RE2::FullMatchN(input, *c.re, argp.data(), n)) continue;
    target.type = c.format->type;
    auto add = [&](const char* column) {
      for (int i = 0; i < n; ++i) {
        if (std::string_view(c.format->fields[i]) != column) continue;
        bool numeric = std::string_view(column) != "virtualxid";
        target.fields.push_back(
            {column, std::string(groups[i].data(), groups[i].size()), numeric});
      }
    };
    for (const char* column : kColumnOrder) add(column);
    add("locktag_type");
    return target;
  }
  target.type = "unknown";
  return target;
}

bool IsPgLockMode(std::string_view mode) {
  static constexpr std::string_view kModes[] = {
      "AccessShareLock", "RowShareLock", "RowExclusiveLock",
      "ShareUpdateExclusiveLock", "ShareLock", "ShareRowExclusiveLock",
      "ExclusiveLock", "AccessExclusiveLock", "SIReadLock", "INVALID"};
  for (std::string_view m : kModes)
    if (m == mode) return true;
  return false;
}

}  // namespace lockgraph
