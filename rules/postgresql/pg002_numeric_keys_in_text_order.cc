// PG002 numeric-keys-in-text-order: in a row-lock cycle, one participant
// took numeric keys in the order of a text sort ("10" before "9") while the
// others go up numerically; silent for statements already seen taking keys
// in no order at all. docs/rules/PG002.md.
#include <charconv>
#include <set>

#include "analysis/signature.h"
#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

// A number literal, or a string literal that holds only an integer ('10'):
// ids sent as text are compared as numbers by an integer column.
bool Integer(const KeyLiteral& k, long long* v) {
  if (k.kind != SqlToken::Kind::kNumber && k.kind != SqlToken::Kind::kString) return false;
  if (k.value.empty() || (k.kind == SqlToken::Kind::kString && k.value[0] == '+')) return false;
  auto r = std::from_chars(k.value.data(), k.value.data() + k.value.size(), *v);
  return r.ec == std::errc() && r.ptr == k.value.data() + k.value.size();
}

// One participant's step from the row it holds to the row it wants.
struct Step {
  const ProcessFacts* p;
  long long held, wanted;
  bool text_up() const { return p->holds->value < p->wants->value; }
  bool number_up() const { return held < wanted; }
};

class NumericKeysInTextOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG002", "numeric-keys-in-text-order", Severity::kWarning,
                                "numeric keys locked in the order of a text sort (10 before 9)"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || !facts.deadlock->row_cycle) return;
    std::vector<Step> steps;
    for (const ProcessFacts& p : facts.deadlock->processes) {
      Step s{&p, 0, 0};
      if (!p.holds || !p.wants || p.holds->column != p.wants->column) continue;
      if (!Integer(*p.holds, &s.held) || !Integer(*p.wants, &s.wanted) || s.held == s.wanted)
        return;  // not integer keys: nothing to say
      steps.push_back(s);
    }
    // Every step must go up in one of the two orders, and one must go up
    // only as text: then that participant sorted its keys as strings.
    const Step* text_sorted = nullptr;
    const Step* number_sorted = nullptr;
    for (const Step& s : steps) {
      if (!s.text_up() && !s.number_up()) {
        // Down in both orders: this statement takes keys in no sorted order
        // at all, so a text sort cannot explain its deadlocks, now or later.
        unsorted_shapes_.insert(Fnv1a64Hex(s.p->shape));
        return;
      }
      if (s.text_up() && !s.number_up() && !text_sorted) text_sorted = &s;
      if (s.number_up() && !number_sorted) number_sorted = &s;
    }
    if (!text_sorted || unsorted_shapes_.count(Fnv1a64Hex(text_sorted->p->shape))) return;
    const ProcessFacts& t = *text_sorted->p;
    const std::string& col = t.wants->column;
    std::string message = t.participant->id + " locked " + t.holds->Text() + " before " +
                          t.wants->Text() + ", the order of a text sort ('" + t.holds->value +
                          "' < '" + t.wants->value + "'), not of a numeric one";
    if (number_sorted)
      message += "; " + number_sorted->p->participant->id + " went " +
                 number_sorted->p->holds->value + " then " + number_sorted->p->wants->value;
    std::string table = t.wait_table.empty() ? "the table" : t.wait_table;
    std::string hint =
        "Sort the " + col + " values as numbers before locking " + table + " rows: the keys "
        "were sorted as strings somewhere (JavaScript's default `ids.sort()`, keys read from "
        "JSON or a URL as text, a varchar column). Use `ids.sort((a, b) => a - b)` or convert "
        "to integers first, or let PostgreSQL order them: `SELECT 1 FROM " + table +
        " WHERE " + col + " = ANY($1::bigint[]) ORDER BY " + col + " FOR UPDATE`. " +
        std::string(pg_rules::kNotIsolation);
    std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
    for (const Step& s : steps) {
      evidence.push_back(pg_rules::ProcessEvidence(*s.p, *event.deadlock));
      evidence.push_back(s.p->participant->id + " holds " + s.p->holds->Text() +
                         " (the row its blocked process wants) and waits for " + s.p->wants->Text());
    }
    out->push_back(MakeFinding(std::move(message), std::move(hint), std::move(evidence)));
  }

 private:
  std::set<std::string> unsorted_shapes_;  // hashes of shapes seen locking keys unsorted
};

}  // namespace

std::unique_ptr<Rule> MakePg002NumericKeysInTextOrder(const RuleSettings&) {
  return std::make_unique<NumericKeysInTextOrder>();
}

}  // namespace lockgraph
