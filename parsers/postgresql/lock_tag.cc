// Lock-tag formats from DescribeLockTag() (src/backend/storage/lmgr/lmgr.c),
// matched whole and longest first: "transaction %u" ends three other tags.
// A localized server translates the tags too (catalog.h): when no English
// form matches, the catalogue's translations are tried.
#include "parsers/postgresql/lock_tag.h"

#include "parsers/postgresql/catalog_match.h"

#include <re2/re2.h>

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace lockgraph {
namespace {

struct TagFormat {
  const char* type;      // pg_locks.locktype
  const char* start;     // literal start: only then is the pattern tried
  const char* pattern;   // RE2, matched against the whole tag
  std::array<const char*, 4> fields;  // pg_locks column of each group
  PgText text;           // the msgid, for the translations
};

// Order matters: longer forms that contain shorter ones come first.
const TagFormat kFormats[] = {
    {"tuple", "tuple (", R"(tuple \((\d+),(\d+)\) of relation (\d+) of database (\d+))",
     {"page", "tuple", "relation", "database"}, PgText::kTagTuple},
    {"page", "page ", R"(page (\d+) of relation (\d+) of database (\d+))",
     {"page", "relation", "database", nullptr}, PgText::kTagPage},
    {"extend", "extension ", R"(extension of relation (\d+) of database (\d+))",
     {"relation", "database", nullptr, nullptr}, PgText::kTagExtend},
    {"relation", "relation ", R"(relation (\d+) of database (\d+))",
     {"relation", "database", nullptr, nullptr}, PgText::kTagRelation},
    {"frozenid", "pg_database", R"(pg_database\.datfrozenxid of database (\d+))",
     {"database", nullptr, nullptr, nullptr}, PgText::kTagFrozenIds},
    {"virtualxid", "virtual ", R"(virtual transaction (-?\d+/\d+))",
     {"virtualxid", nullptr, nullptr, nullptr}, PgText::kTagVirtualTransaction},
    {"spectoken", "speculative ", R"(speculative token (\d+) of transaction (\d+))",
     {"objid", "transactionid", nullptr, nullptr}, PgText::kTagSpeculativeToken},
    {"applytransaction", "remote ",
     R"(remote transaction (\d+) of subscription (\d+) of database (\d+))",
     {"transactionid", "objid", "database", nullptr}, PgText::kTagApplyTransaction},
    {"transactionid", "transaction ", R"(transaction (\d+))",
     {"transactionid", nullptr, nullptr, nullptr}, PgText::kTagTransaction},
    {"object", "object ", R"(object (\d+) of class (\d+) of database (\d+))",
     {"objid", "classid", "database", nullptr}, PgText::kTagObject},
    {"advisory", "advisory ", R"(advisory lock \[(\d+),(\d+),(\d+),(\d+)\])",
     {"database", "classid", "objid", "objsubid"}, PgText::kTagAdvisory},
    {"userlock", "user lock", R"(user lock \[(\d+),(\d+),(\d+)\])",
     {"database", "classid", "objid", nullptr}, PgText::kTagUserLock},
    {"unknown", "unrecognized", R"(unrecognized locktag type (-?\d+))",
     {"locktag_type", nullptr, nullptr, nullptr}, PgText::kTagUnrecognized},
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

// Fills `target` from the arguments of one format, listed in pg_locks
// column order whatever order the text has.
void Fill(const TagFormat& f, const std::vector<std::string_view>& values, LockTarget* target) {
  target->type = f.type;
  const size_t n = values.size();
  auto add = [&](const char* column) {
    for (size_t i = 0; i < n && i < f.fields.size(); ++i) {
      if (!f.fields[i] || std::string_view(f.fields[i]) != column) continue;
      bool numeric = std::string_view(column) != "virtualxid";
      target->fields.push_back({column, std::string(values[i]), numeric});
    }
  };
  for (const char* column : kColumnOrder) add(column);
  add("locktag_type");
}

// A translated tag. The virtual transaction's two numbers are one field.
bool ParseTranslatedTag(std::string_view text, LockTarget* target) {
  static const PgPrefixSet kPrefixes(
      {PgText::kTagRelation, PgText::kTagExtend, PgText::kTagFrozenIds, PgText::kTagPage,
       PgText::kTagTuple, PgText::kTagTransaction, PgText::kTagVirtualTransaction,
       PgText::kTagSpeculativeToken, PgText::kTagObject, PgText::kTagUserLock,
       PgText::kTagAdvisory, PgText::kTagApplyTransaction, PgText::kTagUnrecognized});
  if (!kPrefixes.MayMatch(text)) return false;
  PgTextMatch m;
  for (const TagFormat& f : kFormats) {
    if (!MatchPgText(f.text, text, &m)) continue;
    std::string vxid;
    if (f.text == PgText::kTagVirtualTransaction && m.args.size() == 2) {
      vxid = std::string(m.args[0]) + "/" + std::string(m.args[1]);
      m.args = {vxid};
    }
    Fill(f, m.args, target);
    return true;
  }
  return false;
}

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
    std::vector<std::string_view> values;
    for (int i = 0; i < n; ++i) values.emplace_back(groups[i].data(), groups[i].size());
    Fill(*c.format, values, &target);
    return target;
  }
  if (ParseTranslatedTag(text, &target)) return target;
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
