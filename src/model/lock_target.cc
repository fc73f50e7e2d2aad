// Keys and labels of lock targets; the per-type field lists are made by the
// engine parsers (parsers/postgresql/lock_tag.cc for PostgreSQL).
#include "model/lock_target.h"

namespace lockgraph {
namespace {

// The resource elements of SQL Server deadlock graphs (reference A5).
bool IsSqlServerResource(std::string_view type) {
  for (std::string_view t : {"keylock", "pagelock", "ridlock", "objectlock", "hobtlock",
                             "allocunitlock", "filelock", "databaselock", "metadatalock",
                             "applicationlock", "rowgrouplock", "extentlock", "xactlock",
                             "exchangeEvent", "threadpool", "resourceWait", "SyncPoint"})
    if (type == t) return true;
  return false;
}

// "keylock on db.dbo.t1 index cidx (KEY: 5:72057594214350848 (1a39e6095155))",
// "exchangeEvent Pipe7 (e_waitPipeGetRow, node 3)".
std::string SqlServerLabel(const LockTarget& l) {
  std::string s = l.type;
  if (!l.Field("objectname").empty()) s += " on " + std::string(l.Field("objectname"));
  if (!l.Field("indexname").empty()) s += " index " + std::string(l.Field("indexname"));
  if (l.type == "exchangeEvent") {
    s += " " + std::string(l.Field("id")) + " (" + std::string(l.Field("WaitType"));
    if (!l.Field("nodeId").empty()) s += ", node " + std::string(l.Field("nodeId"));
    return s + ")";
  }
  if (!l.text.empty()) return s + " (" + l.text + ")";
  if (!l.Field("id").empty()) return s + " " + std::string(l.Field("id"));
  return s;
}

// InnoDB (engine mysql): "record shop.account index PRIMARY heap 2",
// "supremum of shop.slot index PRIMARY (page 3)", "table shop.account".
std::string InnodbLabel(const LockTarget& l) {
  std::string table(l.Field("table"));
  if (!l.Field("database").empty()) table = std::string(l.Field("database")) + "." + table;
  if (l.type == "table") return "table " + table;
  std::string where = table + " index " + std::string(l.Field("index"));
  if (l.Field("supremum") == "true") return "supremum of " + where + " (page " + std::string(l.Field("page")) + ")";
  if (l.Field("heap_no").empty()) return "records of " + where + " (page " + std::string(l.Field("page")) + ")";
  return "record " + where + " heap " + std::string(l.Field("heap_no"));
}

}  // namespace

std::string_view LockTarget::Field(std::string_view name) const {
  for (const LockField& f : fields)
    if (f.name == name) return f.value;
  return {};
}

std::string LockTarget::Key() const {
  std::string key = type;
  char sep = ':';
  for (const LockField& f : fields) {
    key += sep;
    key += f.value;
    sep = '/';
  }
  if (fields.empty() && !text.empty()) key += ":" + text;
  return key;
}

std::string LockTarget::Label() const {
  std::string rel = relation_name.empty() ? std::string(Field("relation"))
                                          : relation_name;
  if (type == "transactionid") return "transaction " + std::string(Field("transactionid"));
  if (type == "tuple")
    return "tuple (" + std::string(Field("page")) + "," +
           std::string(Field("tuple")) + ") of " + rel;
  if (type == "relation") return "relation " + rel;
  if (type == "page") return "page " + std::string(Field("page")) + " of " + rel;
  if (type == "extend") return "extension of " + rel;
  if (type == "virtualxid") return "virtual transaction " + std::string(Field("virtualxid"));
  if (type == "advisory") {  // as the log writes it: [database,key1,key2,kind]
    std::string db(Field("database"));
    return "advisory lock [" + (db.empty() ? "" : db + ",") + std::string(Field("classid")) + "," +
           std::string(Field("objid")) + "," + std::string(Field("objsubid")) + "]";
  }
  if (IsSqlServerResource(type)) return SqlServerLabel(*this);
  if ((type == "record" || type == "table") && !Field("table").empty()) return InnodbLabel(*this);
  if (!text.empty()) return text;
  return Key();
}

}  // namespace lockgraph
