// The catalogue of translated server messages (parsers/postgresql/catalog*)
// one template at a time: every row compiles and reads back its arguments,
// and the anomalies of reference §8 give exact values (fr newline, de
// decimal comma and "Tupel (0, 5)", ja swapped tuple, zh_CN and ko argument
// order, ru quoted tag, partially translated catalogues). Rows of languages
// and versions the local server cannot produce (pl, pt_BR, tr) are tested
// from their .po text here.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "parsers/postgresql/catalog.h"
#include "parsers/postgresql/catalog_match.h"
#include "parsers/postgresql/cursor_position.h"
#include "parsers/postgresql/event_builder.h"
#include "parsers/postgresql/labels.h"
#include "parsers/postgresql/lock_tag.h"
#include "parsers/postgresql/messages.h"
#include "parsers/postgresql/printf_template.h"
#include "support.h"

namespace lockgraph {
namespace {

bool IsModeSlot(PgText id, size_t arg) {
  switch (id) {
    case PgText::kDeadlockEdge:
    case PgText::kWaitAvoided:
    case PgText::kWaitDetected:
    case PgText::kWaitStill:
    case PgText::kWaitAcquired:
    case PgText::kWaitFailed:
      return arg == 1;
    default:
      return false;
  }
}

// Renders a template like printf with made-up arguments (argument i in the
// English order gets value (*values)[i]); numbers are 100+i, strings "s<i>"
// or a mode name.
std::string Render(PgText id, std::string_view tmpl, std::map<size_t, std::string>* values) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '%') {
      out += tmpl[i];
      continue;
    }
    if (tmpl[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    size_t j = i + 1, arg = next;
    size_t n = 0;
    while (tmpl[j] >= '0' && tmpl[j] <= '9') n = n * 10 + (tmpl[j++] - '0');
    if (tmpl[j] == '$') {
      arg = n - 1;
      ++j;
    } else {
      j = i + 1;
      ++next;
    }
    bool zero = tmpl[j] == '0';
    while (tmpl[j] >= '0' && tmpl[j] <= '9') ++j;
    while (tmpl[j] == 'l') ++j;
    const char type = tmpl[j];
    std::string v = type == 's' ? (IsModeSlot(id, arg) ? "ShareLock" : "s" + std::to_string(arg))
                    : zero      ? std::to_string(100 + arg)  // "%03d": three digits
                                : std::to_string(100 + arg);
    (*values)[arg] = v;
    out += v;
    i = j;
  }
  return out;
}

TEST_CASE("catalogue: every row compiles and reads back the arguments it prints", "[i18n]") {
  size_t rows = 0;
  for (size_t i = 0; i < kPgTranslationCount; ++i) {
    const PgTranslation& t = kPgTranslations[i];
    INFO(t.lang << ": " << t.msgstr);
    std::string error;
    auto m = TemplateMatcher::Compile(t.msgstr, {}, &error);
    CHECK(error.empty());
    REQUIRE(m != nullptr);
    std::map<size_t, std::string> values;
    const std::string text = Render(t.id, t.msgstr, &values);
    PgTextMatch match;
    REQUIRE(MatchPgText(t.id, text, &match));
    for (const auto& [arg, value] : values) {
      REQUIRE(arg < match.args.size());
      CHECK(match.args[arg] == value);
    }
    ++rows;
  }
  CHECK(rows == kPgTranslationCount);
  CHECK(rows > 500);
}

TEST_CASE("catalogue: the languages of issue 15 are all there", "[i18n]") {
  for (const char* lang : {"de", "es", "fr", "it", "ja", "ko", "pl", "pt_BR", "ru", "sv", "tr",
                           "uk", "zh_CN"}) {
    INFO(lang);
    size_t n = 0;
    for (size_t i = 0; i < kPgTranslationCount; ++i)
      if (std::string_view(kPgTranslations[i].lang) == lang) ++n;
    CHECK(n >= 10);
    bool deadlock = false;
    for (const PgTextVariant& v : PgTextVariants(PgText::kDeadlockDetected))
      deadlock = deadlock || v.lang == lang;
    CHECK(deadlock);
  }
}

TEST_CASE("TemplateMatcher: positional arguments come back in the English order", "[i18n]") {
  auto m = TemplateMatcher::Compile("进程%1$d在%4$ld.%5$03d ms仍然等待在%3$s上的%2$s",
                                    {"", "[A-Za-z]+", ""});
  REQUIRE(m);
  CHECK(m->literal_prefix() == "进程");
  CHECK(m->arg_count() == 5);
  std::vector<std::string_view> args;
  REQUIRE(m->Match("进程42在1000.007 ms仍然等待在事务 9上的ShareLock", &args));
  CHECK(args == std::vector<std::string_view>{"42", "ShareLock", "事务 9", "1000", "007"});
  CHECK_FALSE(m->Match("进程42在1000.7 ms仍然等待在事务 9上的ShareLock", &args));

  std::string error;
  CHECK(TemplateMatcher::Compile("100%% of %q", {}, &error) == nullptr);
  CHECK(error == "unsupported conversion at byte 9 of \"100%% of %q\"");
  auto pct = TemplateMatcher::Compile("%d%% done", {});
  REQUIRE(pct);
  CHECK(pct->starts_with_number());
  CHECK(pct->Match("50% done", &args));
  CHECK(args == std::vector<std::string_view>{"50"});
}

TEST_CASE("lock waits: fr newline, de comma, ja, zh_CN, ko and ru orders", "[i18n]") {
  struct Case {
    const char* text;
    const char* kind;
    int64_t pid;
    const char* mode;
    const char* tag;
    double ms;
  };
  const Case cases[] = {
      {"le processus 123 a détecté un verrou mortel alors qu'il était en attente de\n"
       "ShareLock sur transaction 5 après 1000.123 ms",
       "detected_deadlock", 123, "ShareLock", "transaction 5", 1000.123},
      {"le processus 9 a évité un verrou mortel pour ExclusiveLock sur relation 16385 de la "
       "base de données 5 en modifiant l'ordre\nde la queue après 101.000 ms",
       "avoided_deadlock", 9, "ExclusiveLock", "relation 16385 de la base de données 5", 101.0},
      {"Prozess 4 wartet immer noch auf ShareLock-Sperre auf Transaktion 7 nach 1001,050 ms",
       "still_waiting", 4, "ShareLock", "Transaktion 7", 1001.05},
      {"Prozess 4 konnte ShareLock-Sperre auf Transaktion 7 nach 20,000 ms nicht erlangen",
       "failed", 4, "ShareLock", "Transaktion 7", 20.0},
      {"プロセス77はShareLockをトランザクション 8で待機しています。100.278ミリ秒後",
       "still_waiting", 77, "ShareLock", "トランザクション 8", 100.278},
      {"プロセス77は622.246 ms後にトランザクション 8上のShareLockを獲得しました", "acquired", 77,
       "ShareLock", "トランザクション 8", 622.246},
      {"进程31在100.500 ms仍然等待在事务 9上的ShareLock", "still_waiting", 31, "ShareLock",
       "事务 9", 100.5},
      {"12 PID 프로세스에서 여전히 AccessShareLock(릴레이션 16399, 데이터베이스 16384) 작업을 "
       "기다리고 있음(100.278ms 후)",
       "still_waiting", 12, "AccessShareLock", "릴레이션 16399, 데이터베이스 16384", 100.278},
      {"процесс 22870 продолжает ожидать в режиме AccessExclusiveLock блокировку \"отношение "
       "16390 базы данных 16388\" в течение 204.056 мс",
       "still_waiting", 22870, "AccessExclusiveLock", "отношение 16390 базы данных 16388", 204.056},
      // pt_BR, pl and tr from their .po text (no catalogue in postgresql-15).
      {"processo 5 ainda espera por ShareLock em transação 3 após 1000.001 ms", "still_waiting",
       5, "ShareLock", "transação 3", 1000.001},
      {"proces 5 uzyskał ShareLock na transakcja 3 po 2.500 ms", "acquired", 5, "ShareLock",
       "transakcja 3", 2.5},
      {"5 süreci ShareLock nesnesini transaction 3  işlemi için beklerken 2.500 milisaniye sonra "
       "deadlock tespit etti",
       "detected_deadlock", 5, "ShareLock", "transaction 3", 2.5},
      // A partial catalogue: the message translated, the tag not (and back).
      {"Prozess 4 wartet immer noch auf ShareLock-Sperre auf transaction 7 nach 1001,050 ms",
       "still_waiting", 4, "ShareLock", "transaction 7", 1001.05},
      {"process 4 still waiting for ShareLock on ტრანზაქცია 852 after 100.168 ms",
       "still_waiting", 4, "ShareLock", "ტრანზაქცია 852", 100.168},
      // A cursor position after a translated message.
      {"Prozess 1769 erlangte AccessShareLock-Sperre auf Relation 16399 der Datenbank 16384 nach "
       "622,246 ms bei Zeichen 22",
       "acquired", 1769, "AccessShareLock", "Relation 16399 der Datenbank 16384", 622.246},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    std::optional<LockWaitMessage> m = ParseLockWaitMessage(c.text);
    REQUIRE(m);
    CHECK(m->kind == c.kind);
    CHECK(m->pid == c.pid);
    CHECK(m->mode == c.mode);
    CHECK(m->tag == c.tag);
    REQUIRE(m->after_ms);
    CHECK(*m->after_ms == Approx(c.ms).epsilon(1e-12));
  }
  CHECK_FALSE(ParseLockWaitMessage("Prozess 4 wartet immer noch auf etwas"));
}

std::string Fields(const LockTarget& t) {
  std::string out = t.type + ":";
  for (const LockField& f : t.fields) out += " " + f.name + "=" + f.value;
  return out;
}

TEST_CASE("lock tags: translations, ja swapped tuple, de spaced tuple, partial catalogues",
          "[i18n]") {
  const std::pair<const char*, const char*> cases[] = {
      {"データベース16384のリレーション16385のタプル(27,3)",
       "tuple: database=16384 relation=16385 page=3 tuple=27"},
      {"データベース16384のリレーション16385", "relation: database=16384 relation=16385"},
      {"Tupel (0, 27) von Relation 16385 von Datenbank 16384",
       "tuple: database=16384 relation=16385 page=0 tuple=27"},
      {"数据库16384的关系16385中的元组(4,5)", "tuple: database=16384 relation=16385 page=4 tuple=5"},
      {"ligne (4,5) de la relation 16385 de la base de données 16384",
       "tuple: database=16384 relation=16385 page=4 tuple=5"},
      {"транзакция 747", "transactionid: transactionid=747"},
      {"ტრანზაქცია 852", "transactionid: transactionid=852"},  // ka: tag only translated
      {"transacción virtual 3/77", "virtualxid: virtualxid=3/77"},
      {"Benutzersperre [1,2,3,4]", "advisory: database=1 classid=2 objid=3 objsubid=4"},
      {"Benutzersperre [1,2,3]", "userlock: database=1 classid=2 objid=3"},
      {"%2$u veritabanının %1$u nesnesi", "unknown:"},  // never printed like this
      {"16384 veritabanının 16385 nesnesi", "relation: database=16384 relation=16385"},
      {"krotka (1,2) relacji 16385 bazy danych 16384",
       "tuple: database=16384 relation=16385 page=1 tuple=2"},
      {"tupla (1,2) da relação 16385 do banco de dados 16384",
       "tuple: database=16384 relation=16385 page=1 tuple=2"},
      // The English forms still win first.
      {"tuple (1,2) of relation 16385 of database 16384",
       "tuple: database=16384 relation=16385 page=1 tuple=2"},
      {"nicht bekannt 5", "unknown:"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    LockTarget t = ParsePgLockTag(text);
    CHECK(Fields(t) == expected);
    CHECK(t.text == text);
  }
}

TEST_CASE("deadlock DETAIL: translated edges and query lines", "[i18n]") {
  struct Case {
    const char* detail;
    const char* cycle;
  };
  const Case cases[] = {
      {"Prozess 1 wartet auf ShareLock-Sperre auf Transaktion 10; blockiert von Prozess 2.\n"
       "Prozess 2 wartet auf ExclusiveLock-Sperre auf Tupel (0, 5) von Relation 16390 von "
       "Datenbank 5; blockiert von Prozess 1.\n"
       "Prozess 1: UPDATE a\nProzess 2: UPDATE b",
       "1 -ShareLock/Transaktion 10-> 2; 2 -ExclusiveLock/Tupel (0, 5) von Relation 16390 von "
       "Datenbank 5-> 1"},
      {"Le processus 1 attend ShareLock sur transaction 10 ; bloqué par le processus 2.\n"
       "Le processus 2 attend ShareLock sur transaction 11 ; bloqué par le processus 1.\n"
       "Processus 1 : UPDATE a\nProcessus 2 : UPDATE b",
       "1 -ShareLock/transaction 10-> 2; 2 -ShareLock/transaction 11-> 1"},
      {"进程1等待在事务 10上的ShareLock; 由进程2阻塞.\n进程2等待在事务 11上的ShareLock; 由进程1阻塞.\n"
       "进程 1: UPDATE a\n进程 2: UPDATE b",
       "1 -ShareLock/事务 10-> 2; 2 -ShareLock/事务 11-> 1"},
      {"Процесс 1 ожидает в режиме ShareLock блокировку \"транзакция 10\"; заблокирован "
       "процессом 2.\nПроцесс 2 ожидает в режиме ShareLock блокировку \"транзакция 11\"; "
       "заблокирован процессом 1.\nПроцесс 1: UPDATE a\nПроцесс 2: UPDATE b",
       "1 -ShareLock/транзакция 10-> 2; 2 -ShareLock/транзакция 11-> 1"},
      {"1 프로세스가 ShareLock 상태로 지연되고 있음(해당 작업: 트랜잭션 10); 2 프로세스에 의해 "
       "블록킹되었음\n2 프로세스가 ShareLock 상태로 지연되고 있음(해당 작업: 트랜잭션 11); 1 "
       "프로세스에 의해 블록킹되었음\n프로세스 1: UPDATE a\n프로세스 2: UPDATE b",
       "1 -ShareLock/트랜잭션 10-> 2; 2 -ShareLock/트랜잭션 11-> 1"},
      {"プロセス 1 は ShareLock を トランザクション 10 で待機していましたが、プロセス 2 でブロック"
       "されました\nプロセス 2 は ShareLock を トランザクション 11 で待機していましたが、プロセス 1 "
       "でブロックされました\nプロセス 1: UPDATE a\nプロセス 2: UPDATE b",
       "1 -ShareLock/トランザクション 10-> 2; 2 -ShareLock/トランザクション 11-> 1"},
      // Partial catalogues: ka and tr translate the query lines, not the
      // edges (and ka the relation tag); pl from its .po text.
      {"Process 1 waits for ShareLock on transaction 10; blocked by process 2.\n"
       "Process 2 waits for ShareLock on transaction 11; blocked by process 1.\n"
       "პროცესი 1: UPDATE a\nპროცესი 2: UPDATE b",
       "1 -ShareLock/transaction 10-> 2; 2 -ShareLock/transaction 11-> 1"},
      {"Process 1 waits for ShareLock on transaction 10; blocked by process 2.\n"
       "Process 2 waits for ShareLock on transaction 11; blocked by process 1.\n"
       "Süreç 1: UPDATE a\nSüreç 2: UPDATE b",
       "1 -ShareLock/transaction 10-> 2; 2 -ShareLock/transaction 11-> 1"},
      {"Proces 1 oczekuje na ShareLock na transakcja 10; zablokowany przez 2.\n"
       "Proces 2 oczekuje na ShareLock na transakcja 11; zablokowany przez 1.\n"
       "Proces 1: UPDATE a\nProces 2: UPDATE b",
       "1 -ShareLock/transakcja 10-> 2; 2 -ShareLock/transakcja 11-> 1"},
  };
  for (const Case& c : cases) {
    INFO(c.detail);
    DeadlockDetail d = ParseDeadlockDetail(c.detail);
    CHECK(d.problems.empty());
    Deadlock dl;
    dl.edges = d.edges;
    CHECK(test::CycleString(dl) == c.cycle);
    REQUIRE(d.processes.size() == 2);
    CHECK(d.processes[0].id == "1");
    CHECK(d.processes[0].query == "UPDATE a");
    CHECK(d.processes[1].id == "2");
    CHECK(d.processes[1].query == "UPDATE b");
    CHECK(d.edges[0].lock.type == "transactionid");
  }
}

TEST_CASE("CONTEXT: translated row waits", "[i18n]") {
  const std::pair<const char*, const char*> cases[] = {
      {"beim Aktualisieren von Tupel (0,23) in Relation »accounts«", "updating (0,23) accounts"},
      {"при изменении кортежа (6416,42) в отношении \"text_table\"",
       "updating (6416,42) text_table"},
      {"\"t\" nesnesindeki (1,2) satırı kilitlenirken", "locking (1,2) t"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    std::vector<ContextFrame> f = ParseContext(text);
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == ContextFrame::Kind::kRowWait);
    CHECK(f[0].action + " " + f[0].tuple + " " + f[0].relation == expected);
  }
}

TEST_CASE("CONTEXT: translated PL/pgSQL, SQL function and SPI frames", "[i18n]") {
  std::vector<ContextFrame> f = ParseContext(
      "beim Aktualisieren von Tupel (0,2) in Relation »t«\n"
      "SQL-Anweisung »UPDATE t\n   SET x = 1«\n"
      "PL/pgSQL-Funktion transfer(integer,integer) Zeile 5 bei SQL-Anweisung");
  REQUIRE(f.size() == 3);
  CHECK(f[0].kind == ContextFrame::Kind::kRowWait);
  CHECK(f[1].kind == ContextFrame::Kind::kSqlStatement);
  CHECK(f[1].statement == "UPDATE t\n   SET x = 1");
  CHECK(f[2].kind == ContextFrame::Kind::kFunction);
  CHECK(f[2].function == "transfer(integer,integer)");
  CHECK(f[2].line == 5);
  CHECK(f[2].statement == "SQL statement");

  f = ParseContext("instruction SQL « SELECT 1 FROM ONLY \"public\".\"t\" x FOR KEY SHARE OF x »\n"
                   "fonction PL/pgSQL f(), ligne 3 à affectation");
  REQUIRE(f.size() == 2);
  CHECK(f[0].kind == ContextFrame::Kind::kSqlStatement);
  CHECK(f[0].statement == "SELECT 1 FROM ONLY \"public\".\"t\" x FOR KEY SHARE OF x");
  CHECK(f[1].function == "f()");
  CHECK(f[1].statement == "affectation");  // a statement type other than SQL: as logged

  f = ParseContext("在SQL语句的第7行的PL/pgSQL函数g()\nSQL 函数 \"h\" 语句 2\nSQL文 \"SELECT 2\"");
  REQUIRE(f.size() == 3);
  CHECK(f[0].kind == ContextFrame::Kind::kFunction);
  CHECK(f[0].function == "g()");
  CHECK(f[0].line == 7);
  CHECK(f[0].statement == "SQL statement");
  CHECK(f[1].function == "h");
  CHECK(f[1].statement == "SQL function statement");
  CHECK(f[2].statement == "SELECT 2");

  // The same in English: a frame that quotes a name is one line (it used to
  // swallow the frames after it up to the next line ending in a quote).
  f = ParseContext("SQL function \"h\" statement 2\nSQL statement \"SELECT 2\"");
  REQUIRE(f.size() == 2);
  CHECK(f[0].function == "h");
  CHECK(f[1].statement == "SELECT 2");
}

TEST_CASE("cursor position, labels and wait endings in every language", "[i18n]") {
  std::optional<int64_t> pos;
  CHECK(StripCursorPosition("x (символ 8)", &pos) == "x");
  CHECK(pos == 8);
  CHECK(StripCursorPosition("x vid tecken 22", &pos) == "x");
  CHECK(pos == 22);
  CHECK(StripCursorPosition("x al carattere 3", &pos) == "x");
  CHECK(StripCursorPosition("x(5文字目)", &pos) == "x");
  CHECK(pos == 5);

  // No word of the catalogues means two different labels.
  std::map<std::string, std::string> meaning;
  for (PgText id : {PgText::kLabelLog, PgText::kLabelError, PgText::kLabelWarning,
                    PgText::kLabelFatal, PgText::kLabelPanic, PgText::kLabelNotice,
                    PgText::kLabelInfo, PgText::kLabelDebug, PgText::kLabelDetail,
                    PgText::kLabelHint, PgText::kLabelQuery, PgText::kLabelContext,
                    PgText::kLabelLocation, PgText::kLabelStatement, PgText::kLabelBacktrace}) {
    for (const PgTextVariant& v : PgTextVariants(id)) {
      std::string word(v.text);
      while (!word.empty() && (word.back() == ' ' || word.back() == ':')) word.pop_back();
      INFO(v.lang << " " << word);
      std::optional<LabelInfo> info = LookupLabel(word);
      REQUIRE(info);
      auto [it, fresh] = meaning.emplace(word, std::string(info->canonical));
      CHECK(it->second == info->canonical);
    }
  }
  CHECK(LookupLabel("ЗАПИСУВАННЯ")->canonical == "LOG");
  CHECK(LookupLabel("SUGGERIMENTO")->label == PartLabel::kHint);
  CHECK(CanonicalSeverity("ПОМИЛКА") == "ERROR");

  CHECK(CanonicalPgMessage("storniere Anfrage wegen Zeitüberschreitung einer Sperre") ==
        "canceling statement due to lock timeout");
  CHECK(CanonicalPgMessage("не удалось получить блокировку строки в таблице \"t\"") ==
        "could not obtain lock on row in relation \"t\"");
  CHECK(CanonicalPgMessage("checkpoint starting: time") == "checkpoint starting: time");
}

TEST_CASE("IsInteresting: translated lock messages yes, other messages no", "[i18n]") {
  for (const char* m : {"Verklemmung (Deadlock) entdeckt", "検出しました",
                        "Prozess 1 wartet immer noch auf ShareLock-Sperre auf Transaktion 7 nach "
                        "1,000 ms",
                        "进程1在1.000 ms仍然等待在事务 9上的ShareLock",
                        "12 PID 프로세스에서 여전히 ShareLock(트랜잭션 1) 작업을 기다리고 있음(1.000ms 후)",
                        "выполнение оператора отменено из-за тайм-аута блокировки"}) {
    INFO(m);
    if (std::string_view(m) == "検出しました") {
      CHECK_FALSE(PgEventBuilder::IsInteresting(m));
    } else {
      CHECK(PgEventBuilder::IsInteresting(m));
    }
  }
  for (const char* m : {"checkpoint starting: time", "connection authorized: user=postgres",
                        "duration: 1.0 ms", "database system is ready to accept connections",
                        "Datenbanksystem ist bereit, um Verbindungen anzunehmen",
                        "2 WAL file(s) added, 0 removed"}) {
    INFO(m);
    CHECK_FALSE(PgEventBuilder::IsInteresting(m));
  }
}

}  // namespace
}  // namespace lockgraph

namespace lockgraph {
namespace {

bool HasVariant(PgText id, std::string_view lang, std::string_view text) {
  for (const PgTextVariant& v : PgTextVariants(id))
    if (v.lang == lang && v.text == text) return true;
  return false;
}

// Reference §8 quotes these from src/backend/po/*.po at REL_17_STABLE; the
// catalogue has them from the 15 catalogues (or the .po rows): the texts
// lockgraph depends on did not change between 15 and 17.
TEST_CASE("catalogue: the REL_17_STABLE texts of reference §8 are the 15 ones", "[i18n]") {
  const std::pair<const char*, const char*> deadlock[] = {
      {"de", "Verklemmung (Deadlock) entdeckt"}, {"fr", "interblocage (deadlock) détecté"},
      {"ja", "デッドロックを検出しました"},     {"es", "se ha detectado un deadlock"},
      {"ru", "обнаружена взаимоблокировка"},   {"zh_CN", "检测到死锁"},
      {"pt_BR", "impasse detectado"},          {"it", "rilevato deadlock"}};
  for (const auto& [lang, text] : deadlock) CHECK(HasVariant(PgText::kDeadlockDetected, lang, text));
  const std::pair<const char*, const char*> edges[] = {
      {"de", "Prozess %d wartet auf %s-Sperre auf %s; blockiert von Prozess %d."},
      {"fr", "Le processus %d attend %s sur %s ; bloqué par le processus %d."},
      {"ja", "プロセス %d は %s を %s で待機していましたが、プロセス %d でブロックされました"},
      {"es", "El proceso %d espera %s en %s; bloqueado por proceso %d."},
      {"ru", "Процесс %d ожидает в режиме %s блокировку \"%s\"; заблокирован процессом %d."},
      {"zh_CN", "进程%1$d等待在%3$s上的%2$s; 由进程%4$d阻塞."},
      {"ko", "%d 프로세스가 %s 상태로 지연되고 있음(해당 작업: %s); %d 프로세스에 의해 블록킹되었음"}};
  for (const auto& [lang, text] : edges) CHECK(HasVariant(PgText::kDeadlockEdge, lang, text));
  const std::pair<const char*, const char*> queries[] = {
      {"de", "Prozess %d: %s"}, {"fr", "Processus %d : %s"}, {"ja", "プロセス %d: %s"},
      {"es", "Proceso %d: %s"}, {"ru", "Процесс %d: %s"},    {"zh_CN", "进程 %d: %s"}};
  for (const auto& [lang, text] : queries) CHECK(HasVariant(PgText::kDeadlockQuery, lang, text));
  const std::pair<const char*, const char*> still[] = {
      {"de", "Prozess %d wartet immer noch auf %s-Sperre auf %s nach %ld,%03d ms"},
      {"fr", "le processus %d est toujours en attente de %s sur %s après %ld.%03d ms"},
      {"ja", "プロセス%dは%sを%sで待機しています。%ld.%03dミリ秒後"},
      {"ru", "процесс %d продолжает ожидать в режиме %s блокировку \"%s\" в течение %ld.%03d мс"},
      {"zh_CN", "进程%1$d在%4$ld.%5$03d ms仍然等待在%3$s上的%2$s"}};
  for (const auto& [lang, text] : still) CHECK(HasVariant(PgText::kWaitStill, lang, text));
  CHECK(HasVariant(PgText::kTagTuple, "ja", "データベース%4$uのリレーション%3$uのタプル(%2$u,%1$u)"));
  CHECK(HasVariant(PgText::kTagRelation, "ja", "データベース%2$uのリレーション%1$u"));
}

}  // namespace
}  // namespace lockgraph
