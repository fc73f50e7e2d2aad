// The label table: English (elog.c) and a few translations quoted in
// shared/docs/reference/postgresql-logs.md §8 here; every other translation
// comes from the server catalogues (catalog_data.cc).
#include "parsers/postgresql/labels.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "parsers/postgresql/catalog.h"

namespace lockgraph {
namespace {

struct Entry {
  std::string_view word;
  PartLabel label;
  std::string_view canonical;
};

constexpr PartLabel P = PartLabel::kPrimary;

constexpr Entry kEntries[] = {
    // English, the words elog.c writes; the most frequent first, since
    // LookupLabel runs on every line of a log.
    {"LOG", P, "LOG"}, {"STATEMENT", PartLabel::kStatement, "STATEMENT"},
    {"DETAIL", PartLabel::kDetail, "DETAIL"}, {"ERROR", P, "ERROR"},
    {"DEBUG", P, "DEBUG"}, {"DEBUG1", P, "DEBUG1"}, {"DEBUG2", P, "DEBUG2"},
    {"DEBUG3", P, "DEBUG3"}, {"DEBUG4", P, "DEBUG4"}, {"DEBUG5", P, "DEBUG5"},
    {"INFO", P, "INFO"}, {"NOTICE", P, "NOTICE"},
    {"WARNING", P, "WARNING"}, {"FATAL", P, "FATAL"},
    {"PANIC", P, "PANIC"},
    {"HINT", PartLabel::kHint, "HINT"},
    {"QUERY", PartLabel::kQuery, "QUERY"},
    {"CONTEXT", PartLabel::kContext, "CONTEXT"},
    {"LOCATION", PartLabel::kLocation, "LOCATION"},
    {"BACKTRACE", PartLabel::kBacktrace, "BACKTRACE"},
    // de
    {"FEHLER", P, "ERROR"}, {"WARNUNG", P, "WARNING"}, {"HINWEIS", P, "NOTICE"},
    {"TIPP", PartLabel::kHint, "HINT"},
    {"ZUSAMMENHANG", PartLabel::kContext, "CONTEXT"},
    {"ANWEISUNG", PartLabel::kStatement, "STATEMENT"},
    // fr
    {"ERREUR", P, "ERROR"}, {"ATTENTION", P, "WARNING"},
    {"DÉTAIL", PartLabel::kDetail, "DETAIL"},
    {"ASTUCE", PartLabel::kHint, "HINT"},
    {"CONTEXTE", PartLabel::kContext, "CONTEXT"},
    {"INSTRUCTION", PartLabel::kStatement, "STATEMENT"},
    // es
    {"DETALLE", PartLabel::kDetail, "DETAIL"},
    {"CONTEXTO", PartLabel::kContext, "CONTEXT"},
    {"SENTENCIA", PartLabel::kStatement, "STATEMENT"},
    // ru
    {"ОШИБКА", P, "ERROR"}, {"СООБЩЕНИЕ", P, "LOG"},
    {"ПРЕДУПРЕЖДЕНИЕ", P, "WARNING"}, {"ВАЖНО", P, "FATAL"},
    {"ПОДРОБНОСТИ", PartLabel::kDetail, "DETAIL"},
    {"ПОДСКАЗКА", PartLabel::kHint, "HINT"},
    {"КОНТЕКСТ", PartLabel::kContext, "CONTEXT"},
    {"ОПЕРАТОР", PartLabel::kStatement, "STATEMENT"},
    // ja
    {"詳細", PartLabel::kDetail, "DETAIL"}, {"ヒント", PartLabel::kHint, "HINT"},
    {"文脈", PartLabel::kContext, "CONTEXT"}, {"文", PartLabel::kStatement, "STATEMENT"},
    // zh_CN
    {"错误", P, "ERROR"}, {"日志", P, "LOG"},
    {"详细信息", PartLabel::kDetail, "DETAIL"}, {"提示", PartLabel::kHint, "HINT"},
    {"上下文", PartLabel::kContext, "CONTEXT"}, {"语句", PartLabel::kStatement, "STATEMENT"},
    // pt_BR
    {"ERRO", P, "ERROR"}, {"DETALHE", PartLabel::kDetail, "DETAIL"},
    {"DICA", PartLabel::kHint, "HINT"}, {"COMANDO", PartLabel::kStatement, "STATEMENT"},
    // pl
    {"BŁĄD", P, "ERROR"}, {"DZIENNIK", P, "LOG"},
    {"SZCZEGÓŁY", PartLabel::kDetail, "DETAIL"},
    {"PODPOWIEDŹ", PartLabel::kHint, "HINT"},
    {"KONTEKST", PartLabel::kContext, "CONTEXT"},
    {"WYRAŻENIE", PartLabel::kStatement, "STATEMENT"},
    // ko
    {"오류", P, "ERROR"}, {"로그", P, "LOG"},
    {"상세정보", PartLabel::kDetail, "DETAIL"}, {"힌트", PartLabel::kHint, "HINT"},
    {"내용", PartLabel::kContext, "CONTEXT"}, {"명령 구문", PartLabel::kStatement, "STATEMENT"},
    // tr
    {"HATA", P, "ERROR"}, {"AYRINTI", PartLabel::kDetail, "DETAIL"},
    {"İPUCU", PartLabel::kHint, "HINT"}, {"ORTAM", PartLabel::kContext, "CONTEXT"},
    {"KOMUT", PartLabel::kStatement, "STATEMENT"},
};

constexpr size_t kEnglishEntries = 20;  // the first rows of kEntries

struct CatalogLabel {
  PgText id;
  PartLabel label;
  std::string_view canonical;
};

constexpr CatalogLabel kCatalogLabels[] = {
    {PgText::kLabelLog, P, "LOG"},         {PgText::kLabelError, P, "ERROR"},
    {PgText::kLabelWarning, P, "WARNING"}, {PgText::kLabelFatal, P, "FATAL"},
    {PgText::kLabelPanic, P, "PANIC"},     {PgText::kLabelNotice, P, "NOTICE"},
    {PgText::kLabelInfo, P, "INFO"},       {PgText::kLabelDebug, P, "DEBUG"},
    {PgText::kLabelDetail, PartLabel::kDetail, "DETAIL"},
    {PgText::kLabelHint, PartLabel::kHint, "HINT"},
    {PgText::kLabelQuery, PartLabel::kQuery, "QUERY"},
    {PgText::kLabelContext, PartLabel::kContext, "CONTEXT"},
    {PgText::kLabelLocation, PartLabel::kLocation, "LOCATION"},
    {PgText::kLabelStatement, PartLabel::kStatement, "STATEMENT"},
    {PgText::kLabelBacktrace, PartLabel::kBacktrace, "BACKTRACE"},
};

// "ASTUCE :  " -> "ASTUCE", "AYRINTI:" -> "AYRINTI", "FEHLER" -> "FEHLER".
std::string_view LabelWord(std::string_view text) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (!text.empty() && text.back() == ':') text.remove_suffix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// Every translated word; the first language to use a word wins (a test
// checks that no word means two different labels).
const std::unordered_map<std::string_view, LabelInfo>& Translated() {
  static const std::unordered_map<std::string_view, LabelInfo> words = [] {
    std::unordered_map<std::string_view, LabelInfo> out;
    for (size_t i = kEnglishEntries; i < std::size(kEntries); ++i)
      out.emplace(kEntries[i].word, LabelInfo{kEntries[i].label, kEntries[i].canonical});
    for (const CatalogLabel& c : kCatalogLabels)
      for (const PgTextVariant& v : PgTextVariants(c.id)) {
        std::string_view word = LabelWord(v.text);
        if (!word.empty()) out.emplace(word, LabelInfo{c.label, c.canonical});
      }
    return out;
  }();
  return words;
}

// Row I of kEntries against `word`, compared at the row's constant size:
// inlined, where string_view's == calls memcmp.
template <size_t I>
bool IsRow(std::string_view word) {
  constexpr std::string_view row = kEntries[I].word;
  return word.size() == row.size() && std::memcmp(word.data(), row.data(), row.size()) == 0;
}

template <size_t I>
LabelInfo Row() {
  return LabelInfo{kEntries[I].label, kEntries[I].canonical};
}

// labels.h's common words are this table's first rows, in its order.
template <size_t I>
constexpr bool IsCommonRow() {
  return kEntries[I].word == kCommonLabels[I].canonical &&
         kEntries[I].canonical == kCommonLabels[I].canonical &&
         kEntries[I].label == kCommonLabels[I].label;
}
static_assert(IsCommonRow<0>() && IsCommonRow<1>() && IsCommonRow<2>() && IsCommonRow<3>());

}  // namespace

std::optional<LabelInfo> LookupLabel(std::string_view word) {
  // The table's first four words label nearly every line of a log.
  if (IsRow<0>(word)) return Row<0>();
  if (IsRow<1>(word)) return Row<1>();
  if (IsRow<2>(word)) return Row<2>();
  if (IsRow<3>(word)) return Row<3>();
  for (size_t i = 4; i < kEnglishEntries; ++i)
    if (kEntries[i].word == word) return LabelInfo{kEntries[i].label, kEntries[i].canonical};
  const auto& translated = Translated();
  if (auto it = translated.find(word); it != translated.end()) return it->second;
  return std::nullopt;
}

const std::string& LabelAlternation() {
  static const std::string alternation = [] {
    std::vector<std::string_view> words;
    for (size_t i = 0; i < kEnglishEntries; ++i) words.push_back(kEntries[i].word);
    for (const auto& [word, info] : Translated()) words.push_back(word);
    std::sort(words.begin(), words.end());  // a stable order before the stable sort
    words.erase(std::unique(words.begin(), words.end()), words.end());
    // Longest first so that "DEBUG1" wins over "DEBUG", "文脈" over "文".
    std::stable_sort(words.begin(), words.end(),
                     [](auto a, auto b) { return a.size() > b.size(); });
    std::string out;
    for (std::string_view w : words) {
      if (!out.empty()) out += '|';
      out += RE2::QuoteMeta(re2::StringPiece(w.data(), w.size()));
    }
    return out;
  }();
  return alternation;
}

const std::string& LabelCharClass() {
  static const std::string char_class = [] {
    // The ASCII characters of every word, and any character beyond ASCII:
    // a superset of every label's characters (a class of every rune of the
    // translations took 0.8 M instructions to compile). What ends a prefix
    // or follows it, brackets, '@', '/', '=', ',' and most digits, is not
    // in it.
    bool ascii[128] = {};
    auto add = [&](std::string_view word) {
      for (const char c : word)
        if (static_cast<unsigned char>(c) < 0x80) ascii[static_cast<unsigned char>(c)] = true;
    };
    for (size_t i = 0; i < kEnglishEntries; ++i) add(kEntries[i].word);
    for (const auto& [word, info] : Translated()) add(word);
    std::string out = "[";
    for (int c = 0; c < 128; ++c) {
      if (!ascii[c]) continue;
      if (!std::isalnum(c)) out += '\\';
      out += static_cast<char>(c);
    }
    return out + "\\x{80}-\\x{10FFFF}]";
  }();
  return char_class;
}

std::string_view CanonicalSeverity(std::string_view word) {
  if (auto info = LookupLabel(word); info && info->label == PartLabel::kPrimary)
    return info->canonical;
  return word;
}

}  // namespace lockgraph
