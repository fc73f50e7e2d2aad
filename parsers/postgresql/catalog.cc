// See catalog.h. The tables themselves are in catalog_data.cc (generated).
#include "parsers/postgresql/catalog.h"

#include <array>

namespace lockgraph {

std::string_view PgEnglish(PgText id) {
  for (size_t i = 0; i < kPgMessageCount; ++i)
    if (kPgMessages[i].id == id) return kPgMessages[i].msgid;
  return {};
}

const std::vector<PgTextVariant>& PgTextVariants(PgText id) {
  using Table = std::array<std::vector<PgTextVariant>, size_t(PgText::kCount)>;
  static const Table table = [] {
    Table t;
    for (size_t i = 0; i < kPgMessageCount; ++i)
      t[size_t(kPgMessages[i].id)].push_back({"en", kPgMessages[i].msgid});
    for (size_t i = 0; i < kPgTranslationCount; ++i) {
      const PgTranslation& tr = kPgTranslations[i];
      std::vector<PgTextVariant>& v = t[size_t(tr.id)];
      bool seen = false;
      for (const PgTextVariant& x : v) seen = seen || x.text == tr.msgstr;
      if (!seen) v.push_back({tr.lang, tr.msgstr});
    }
    return t;
  }();
  return table[size_t(id)];
}

}  // namespace lockgraph
