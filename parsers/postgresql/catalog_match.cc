// See catalog_match.h. What a %s may hold depends on the message: a lock
// mode is one word of ASCII letters (lock.c's names, never translated), a
// lock tag or a relation name anything up to the literal that follows, a
// query anything at all.
#include "parsers/postgresql/catalog_match.h"

#include <array>
#include <memory>
#include <mutex>

#include "parsers/postgresql/printf_template.h"

namespace lockgraph {
namespace {

constexpr std::string_view kMode = "[A-Za-z]+";
constexpr std::string_view kAny = "(?s:.*)";

// %s slots by English argument index ("" = the default lazy match).
std::vector<std::string_view> StringSlots(PgText id) {
  switch (id) {
    case PgText::kDeadlockEdge:
    case PgText::kWaitAvoided:
    case PgText::kWaitDetected:
    case PgText::kWaitStill:
    case PgText::kWaitAcquired:
    case PgText::kWaitFailed:
      return {"", kMode, ""};  // pid, mode, tag, ...
    case PgText::kDeadlockQuery:
      return {"", kAny};
    case PgText::kNoWaitRow:
    case PgText::kNoWaitRelation:
      return {kAny};
    default:
      return {};
  }
}

struct Variant {
  std::string_view lang;
  std::unique_ptr<TemplateMatcher> matcher;
};

using Compiled = std::array<std::vector<Variant>, size_t(PgText::kCount)>;

const std::vector<Variant>& VariantsOf(PgText id) {
  static Compiled compiled;
  static std::array<std::once_flag, size_t(PgText::kCount)> once;
  const size_t i = size_t(id);
  std::call_once(once[i], [&] {
    std::vector<std::string_view> slots = StringSlots(id);
    for (const PgTextVariant& v : PgTextVariants(id)) {
      // A row that does not compile is left out (a test checks there is none).
      if (auto m = TemplateMatcher::Compile(v.text, slots))
        compiled[i].push_back({v.lang, std::move(m)});
    }
  });
  return compiled[i];
}

bool Starts(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

// Substitutes args (English order) into an English msgid; "\"" in the
// msgid is already a plain quote.
std::string RenderEnglish(PgText id, const std::vector<std::string_view>& args) {
  std::string_view msgid = PgEnglish(id);
  std::string out;
  size_t arg = 0;
  for (size_t i = 0; i < msgid.size(); ++i) {
    if (msgid[i] == '%' && i + 1 < msgid.size() && msgid[i + 1] == 's') {
      if (arg < args.size()) out.append(args[arg].data(), args[arg].size());
      ++arg;
      ++i;
    } else {
      out += msgid[i];
    }
  }
  return out;
}

}  // namespace

bool MatchPgText(PgText id, std::string_view text, PgTextMatch* out) {
  std::vector<std::string_view> args;
  for (const Variant& v : VariantsOf(id)) {
    const TemplateMatcher& m = *v.matcher;
    if (!Starts(text, m.literal_prefix())) continue;
    if (m.starts_with_number() &&
        (text.empty() || !((text[0] >= '0' && text[0] <= '9') || text[0] == '-')))
      continue;
    if (!m.Match(text, out ? &out->args : nullptr)) continue;
    if (out) out->lang = v.lang;
    return true;
  }
  return false;
}

PgPrefixSet::PgPrefixSet(std::initializer_list<PgText> ids) {
  // From the template texts alone: an English-only log never compiles the
  // translations.
  for (PgText id : ids) {
    const std::vector<PgTextVariant>& variants = PgTextVariants(id);
    for (size_t i = 1; i < variants.size(); ++i) {  // [0] is English
      bool number = false;
      std::string after;
      std::string prefix = TemplateMatcher::LiteralPrefix(variants[i].text, &number, &after);
      if (number) {
        after_number_.push_back(std::move(after));
      } else if (!prefix.empty()) {
        std::vector<std::string>& bucket = by_first_[static_cast<unsigned char>(prefix[0])];
        bool seen = false;
        for (const std::string& p : bucket) seen = seen || p == prefix;
        if (!seen) bucket.push_back(std::move(prefix));
      }
    }
  }
}

bool PgPrefixSet::MayMatch(std::string_view text) const {
  if (text.empty()) return false;
  if (text[0] >= '0' && text[0] <= '9' && !after_number_.empty()) {
    size_t digits = 1;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    for (const std::string& a : after_number_)
      if (Starts(text.substr(digits), a)) return true;
    return false;
  }
  for (const std::string& p : by_first_[static_cast<unsigned char>(text[0])])
    if (Starts(text, p)) return true;
  return false;
}

std::string CanonicalPgMessage(std::string_view text) {
  static constexpr PgText kEnding[] = {
      PgText::kDeadlockDetected, PgText::kCancelLockTimeout, PgText::kCancelStatementTimeout,
      PgText::kCancelUserRequest, PgText::kCancelAutovacuum, PgText::kTerminateAdmin,
      PgText::kNoWaitRow, PgText::kNoWaitRelation};
  static const PgPrefixSet kPrefixes(
      {PgText::kDeadlockDetected, PgText::kCancelLockTimeout, PgText::kCancelStatementTimeout,
       PgText::kCancelUserRequest, PgText::kCancelAutovacuum, PgText::kTerminateAdmin,
       PgText::kNoWaitRow, PgText::kNoWaitRelation});
  if (!kPrefixes.MayMatch(text)) return std::string(text);
  PgTextMatch match;
  for (PgText id : kEnding)
    if (MatchPgText(id, text, &match)) return RenderEnglish(id, match.args);
  return std::string(text);
}

}  // namespace lockgraph
