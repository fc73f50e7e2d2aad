// The label table. Sources: src/backend/po/*.po at REL_17_STABLE, as quoted
// in shared/docs/reference/postgresql-logs.md §8.
#include "parsers/postgresql/labels.h"

#include <re2/re2.h>

#include <algorithm>
#include <memory>
#include <vector>
#include <vector>

namespace lockgraph {
namespace {

struct Entry {
  std::string_view word;
  PartLabel label;
  std::string_view canonical;
};

constexpr PartLabel P = PartLabel::kPrimary;

const Entry kEntries[] = {
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

}  // namespace

std::optional<LabelInfo> LookupLabel(std::string_view word) {
  for (const Entry& e : kEntries)
    if (e.word == word) return LabelInfo{e.label, e.canonical};
  return std::nullopt;
}

const std::string& LabelAlternation() {
  static const std::string alternation = [] {
    std::vector<std::string_view> words;
    for (const Entry& e : kEntries) words.push_back(e.word);
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

std::string_view CanonicalSeverity(std::string_view word) {
  if (auto info = LookupLabel(word); info && info->label == PartLabel::kPrimary)
    return info->canonical;
  return word;
}

}  // namespace lockgraph
