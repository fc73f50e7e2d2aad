// Keys and labels of lock targets; the per-type field lists are made by the
// engine parsers (parsers/postgresql/lock_tag.cc for PostgreSQL).
#include "model/lock_target.h"

namespace lockgraph {

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
  if (type == "advisory")
    return "advisory lock [" + std::string(Field("classid")) + "," +
           std::string(Field("objid")) + "," + std::string(Field("objsubid")) + "]";
  if (!text.empty()) return text;
  return Key();
}

}  // namespace lockgraph
