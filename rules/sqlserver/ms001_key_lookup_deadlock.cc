// MS001 key-lookup-deadlock: a reader and a writer deadlock on two indexes
// of one table: the reader holds S on a nonclustered index key and looks
// the row up in the clustered index, where the writer holds X and goes on
// to update the nonclustered index. Fix: a covering index. docs/rules/MS001.md.
#include <algorithm>
#include <set>

#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

bool Has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The plain column names of a SELECT list ("c2, c3" -> c2, c3; "t.c2" -> c2);
// expressions and * give nothing.
std::vector<std::string> SelectedColumns(const std::vector<SqlToken>& t) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < t.size() && t[i].text != "select") ++i;
  std::vector<const SqlToken*> item;
  for (++i; i <= t.size(); ++i) {
    bool end = i == t.size() || t[i].text == "from";
    if (end || t[i].text == ",") {
      if (!item.empty() && (item.back()->kind == SqlToken::Kind::kWord ||
                            item.back()->kind == SqlToken::Kind::kQuoted)) {
        bool plain = item.size() == 1 || (item.size() == 3 && item[1]->text == ".");
        if (plain && !Has(out, item.back()->text)) out.push_back(item.back()->text);
      }
      item.clear();
      if (end) break;
      continue;
    }
    if (t[i].text != "top" && t[i].text != "distinct") item.push_back(&t[i]);
  }
  return out;
}

// The columns the WHERE clause compares: a word followed by a comparison.
std::vector<std::string> WhereColumns(const std::vector<SqlToken>& t) {
  static const std::set<std::string> kOps{"=", "<", ">", "<=", ">=", "<>", "!=",
                                          "between", "in", "like", "is"};
  std::vector<std::string> out;
  bool where = false;
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i].text == "where") where = true;
    if (t[i].text == "order" || t[i].text == "group" || t[i].text == "option") where = false;
    if (!where || t[i].kind != SqlToken::Kind::kWord || !kOps.count(t[i + 1].text)) continue;
    if (i > 0 && t[i - 1].text == "@") continue;  // a variable, not a column
    if (!Has(out, t[i].text)) out.push_back(t[i].text);
  }
  return out;
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

class KeyLookupDeadlock : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS001", "key-lookup-deadlock", Severity::kError,
                                "a reader and a writer deadlock on the clustered and a "
                                "nonclustered index of one table: cover the query",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || event.deadlock->edges.empty()) return;
    const Deadlock& d = *event.deadlock;
    std::string object(d.edges[0].lock.Field("objectname"));
    std::set<std::string> indexes;
    for (const WaitEdge& e : d.edges) {
      if (e.lock.type != "keylock" || object.empty() || e.lock.Field("objectname") != object)
        return;  // keys of one table only
      indexes.insert(std::string(e.lock.Field("indexname")));
    }
    const ProcessFacts* reader = nullptr;
    const ProcessFacts* writer = nullptr;
    for (const ProcessFacts& p : facts.deadlock->processes) {
      if (!p.wait) continue;
      if (ms_rules::SharedMode(p.wait->mode) && !reader) reader = &p;
      if (ms_rules::WriteMode(p.wait->mode) && !writer) writer = &p;
    }
    if (indexes.size() < 2 || !reader || !writer) return;
    // The index the reader went through is the one the writer waits for.
    std::string seek(writer->wait->lock.Field("indexname"));
    std::string lookup(reader->wait->lock.Field("indexname"));
    if (seek == lookup) return;
    out->push_back(MakeFinding(Message(*reader, *writer, object, seek, lookup),
                               Hint(*reader, object, seek, lookup), Evidence(event, *facts.deadlock)));
  }

 private:
  static std::string Message(const ProcessFacts& r, const ProcessFacts& w, const std::string& object,
                             const std::string& seek, const std::string& lookup) {
    return ms_rules::Who(*r.participant) + " read " + object + " through index " + seek +
           " and waits for " + r.wait->mode + " on the row in " + lookup + " (a key lookup); " +
           ms_rules::Who(*w.participant) + " holds " + r.wait->blocker_mode + " on that row and waits for " +
           w.wait->mode + " on " + seek + " to change the index";
  }

  static std::string Hint(const ProcessFacts& r, const std::string& object, const std::string& seek,
                          const std::string& lookup) {
    std::vector<SqlToken> t = TokenizeSql(r.query);
    std::vector<std::string> keys = WhereColumns(t), include;
    for (const std::string& c : SelectedColumns(t))
      if (!Has(keys, c)) include.push_back(c);
    std::string hint = "Make " + seek + " cover the query at " + ms_rules::WhereRuns(r) + " (`" +
                       pg_rules::OneLine(r.query, 80) + "`), so that it never visits " + lookup + ": ";
    std::string table = ms_rules::ShortName(object);
    size_t dot = object.find('.');
    std::string two_part = dot == std::string::npos ? object : object.substr(dot + 1);
    if (!keys.empty() && !include.empty())
      hint += "`CREATE NONCLUSTERED INDEX " + seek + " ON " + two_part + " (" + Join(keys) +
              ") INCLUDE (" + Join(include) + ") WITH (DROP_EXISTING = ON);` (check " + seek +
              "'s key columns first: the report does not list them). ";
    else
      hint += "add the columns it reads from " + table + " to " + seek + " as INCLUDE columns "
              "(CREATE INDEX ... WITH (DROP_EXISTING = ON)). ";
    std::string db = ms_rules::DatabaseOf(object);
    hint += "Or turn on row versioning for readers: `ALTER DATABASE " + (db.empty() ? "..." : "[" + db + "]") +
            " SET READ_COMMITTED_SNAPSHOT ON;` (read committed SELECTs then take no S locks). " +
            std::string(ms_rules::kNotNolock) + " " + std::string(ms_rules::kNotTimeouts);
    return hint;
  }

  static std::vector<std::string> Evidence(const Event& event, const DeadlockFacts& df) {
    return ms_rules::CycleAndWaitersEvidence(event, df.processes);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs001KeyLookupDeadlock(const RuleSettings&) {
  return std::make_unique<KeyLookupDeadlock>();
}

}  // namespace lockgraph
