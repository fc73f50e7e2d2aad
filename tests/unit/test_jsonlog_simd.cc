// The jsonlog reader's two JSON parsers agree: whatever line simdjson's path
// accepts, nlohmann's SAX parser reads into the same kind and the same
// record, field for field; on every line of the samples and corpus, and on
// hostile lines (bad UTF-8, every escape, control characters, numbers of
// every shape, truncations and byte flips of real records).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "parsers/postgresql/jsonlog_parsers.h"
#include "parsers/postgresql/jsonlog_reader.h"
#include "support.h"

namespace lockgraph {
namespace {

std::string Opt(const auto& v) { return v ? std::to_string(*v) : std::string("-"); }

// Every field a jsonlog line can set, with the kind.
std::string Describe(JsonLineKind kind, const LogRecord& r) {
  std::ostringstream o;
  o << int(kind) << "|time=" << r.time << "|pid=" << Opt(r.pid) << "|sev=" << r.severity
    << "|state=" << r.sqlstate << "|msg=" << r.message << "|detail=" << r.detail
    << "|hint=" << r.hint << "|ctx=" << r.context << "|stmt=" << r.statement
    << "|trunc=" << r.truncated << "|user=" << r.session.user << "|db=" << r.session.database
    << "|app=" << r.session.application << "|host=" << r.session.host
    << "|sid=" << r.session.session_id << "|bt=" << r.session.backend_type
    << "|tag=" << r.session.command_tag << "|vxid=" << r.session.vxid
    << "|xid=" << Opt(r.session.xid) << "|line=" << Opt(r.session.session_line)
    << "|qid=" << Opt(r.session.query_id);
  return o.str();
}

// Compares the two parsers on one line; returns whether simdjson took it.
bool Agree(std::string_view line) {
  LogRecord by_simd, by_nlohmann;
  const std::optional<JsonLineKind> simd = ParseJsonlogLineSimd(line, &by_simd);
  const JsonLineKind reference = ParseJsonlogLineNlohmann(line, &by_nlohmann);
  LogRecord combined;
  const JsonLineKind kind = ParseJsonlogLine(line, &combined);
  INFO("line: " << line);
  CHECK(Describe(kind, combined) == Describe(reference, by_nlohmann));
  if (!simd) return false;
  CHECK(Describe(*simd, by_simd) == Describe(reference, by_nlohmann));
  return true;
}

std::vector<std::string> LinesOf(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::filesystem::path> FilesUnder(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST_CASE("jsonlog simdjson: real server records are all read by simdjson, as nlohmann reads them",
          "[jsonlog][simdjson]") {
  for (const char* name : {"scenarios.json", "rules.json", "rules-precise.json"}) {
    const std::vector<std::string> lines =
        LinesOf(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/" + name);
    size_t taken = 0;
    for (const std::string& line : lines) taken += Agree(line);
    INFO(name);
    CHECK(lines.size() > 10);
    CHECK(taken == lines.size());
  }
}

TEST_CASE("jsonlog simdjson: every line of the samples and the corpus, same answer",
          "[jsonlog][simdjson]") {
  size_t lines = 0, taken = 0;
  for (const char* dir : {LOCKGRAPH_SAMPLES_DIR, LOCKGRAPH_TEST_DIR "/corpus"}) {
    for (const auto& file : FilesUnder(dir)) {
      for (const std::string& line : LinesOf(file)) {
        ++lines;
        taken += Agree(line);
      }
    }
  }
  CHECK(lines > 1000);
  CHECK(taken > 100);
}

// A real record (samples/postgresql/scenarios.json) with escapes in detail.
constexpr std::string_view kRecord =
    R"({"timestamp":"2026-12-02 10:08:52.251 UTC","user":"postgres","dbname":"lockgraph","pid":19089,"remote_host":"127.0.0.1","remote_port":57792,"session_id":"6b0fee33.4a91","line_num":2,"ps":"UPDATE","vxid":"4/4","txid":730,"error_severity":"ERROR","state_code":"40P01","message":"deadlock detected","detail":"Process 19089 waits for ShareLock on transaction 729; blocked by process 19073.\nProcess 19073: UPDATE \"accounts\"\tSET x = 'a\\b';","hint":"See server log for query details.","statement":"UPDATE accounts SET balance = balance + 20 WHERE id = 1;","application_name":"lg_two_way_B","backend_type":"client backend","query_id":-12}  )";

TEST_CASE("jsonlog simdjson: hostile lines get nlohmann's answer", "[jsonlog][simdjson]") {
  const std::vector<std::string> lines = {
      R"({"timestamp":"t","message":"m"})",
      R"( {"timestamp":"t","message":"m"} )" "\r",
      R"({"timestamp":"t","message":"m"} {"a":1})",
      R"({"timestamp":"t","message":"m"}})",
      R"({"timestamp":"t","message":"m",})",
      R"({"timestamp":"t","message":"m" "x":1})",
      R"({"timestamp":"t","message" "m"})",
      R"({"timestamp":"t","message":"m","a":[1,,2]})",
      R"({"timestamp":"t","message":"m","a":[1 2]})",
      R"({"timestamp":"t","message":"m","a":{"b":tru}})",
      R"({"timestamp":"t","message":"m","a":nul})",
      R"({"timestamp":"t","message":"m","a":nulll})",
      R"({"timestamp":"t","message":"m","a":[true,false,null,{}]})",
      R"({"timestamp":"t","message":"m","pid":01})",
      R"({"timestamp":"t","message":"m","pid":-0})",
      R"({"timestamp":"t","message":"m","pid":-})",
      R"({"timestamp":"t","message":"m","pid":1.5})",
      R"({"timestamp":"t","message":"m","pid":1.})",
      R"({"timestamp":"t","message":"m","pid":1e3})",
      R"({"timestamp":"t","message":"m","pid":1e999})",
      R"({"timestamp":"t","message":"m","pid":9223372036854775807})",
      R"({"timestamp":"t","message":"m","pid":9223372036854775808})",
      R"({"timestamp":"t","message":"m","pid":18446744073709551616})",
      R"({"timestamp":"t","message":"m","pid":-9223372036854775808})",
      R"({"timestamp":"t","message":"m","pid":-9223372036854775809})",
      R"({"timestamp":"t","message":"m","remote_port":5432,"remote_host":"h"})",
      R"({"timestamp":"t","message":"m","user":12,"dbname":true,"hint":null})",
      R"({"timestamp":"t","message":"a\u0041\u00e9\ud83d\ude00"})",
      R"({"timestamp":"t","message":"a\ud800"})",
      R"({"timestamp":"t","message":"a\udc00"})",
      R"({"timestamp":"t","message":"a\u0000b"})",
      R"({"timestamp":"t","message":"a\x"})",
      R"({"timestamp":"t","message":"a\/b\"c\\d\b\f\n\r\t"})",
      R"({"timestamp":"t","message":"unterminated)",
      R"({"timestamp":"t","message":"m")",
      R"({"timestamp":"t","mess\u0061ge":"m"})",
      R"({"timestamp":"t","message":"m","message":"n","timestamp":"u"})",
      R"({"record":{"log_time":"t","message":"m","process_id":"42","error_severity":"ERREUR"}})",
      R"({"record":{"log_time":"t","message":"m","record":{"message":"x"}},"message":"top"})",
      R"({"record":[{"log_time":"t","message":"m"}],"timestamp":"t","message":"m"})",
      R"({"a":{"message":"m","timestamp":"t"}})",
      R"({})",
      R"({"timestamp":"t"})",
      R"(["timestamp","message"])",
      R"("timestamp")",
      R"({"timestamp":"t","message":"m","a":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]})",
      "{\"timestamp\":\"t\",\"message\":\"tab\there\"}",
      "{\"timestamp\":\"t\",\"message\":\"nl\x01\"}",
      "{\"timestamp\":\"t\",\t\"message\":\"m\"}",
      "{\"timestamp\":\"t\",\"message\":\"caf\xe9\"}",
      "{\"timestamp\":\"t\",\"message\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}",
      "{\"timestamp\":\"t\",\"message\":\"\xed\xa0\x80\"}",
      "{\"timestamp\":\"t\",\"message\":\"\xc0\xaf\"}",
      "{\"timestamp\":\"t\",\"message\":\"m\"}\x00",
      std::string("{\"timestamp\":\"t\",\"message\":\"a\0b\"}", 34),
      std::string(kRecord),
  };
  size_t taken = 0;
  for (const std::string& line : lines) taken += Agree(line);
  CHECK(taken > 10);
}

TEST_CASE("jsonlog simdjson: truncations and byte flips of a real record", "[jsonlog][simdjson]") {
  const std::string record(kRecord);
  for (size_t n = 0; n <= record.size(); ++n) Agree(record.substr(0, n));
  std::mt19937 rng(20);
  const std::string specials = "\\\"{}[],:u0 \t\x01\x7f\x80\xc3\xa9\xff";
  for (int i = 0; i < 20000; ++i) {
    std::string line = record;
    const int flips = 1 + int(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      const size_t at = rng() % line.size();
      const char c = rng() % 2 ? specials[rng() % specials.size()] : char(rng() % 256);
      switch (rng() % 3) {
        case 0: line[at] = c; break;
        case 1: line.insert(line.begin() + long(at), c); break;
        default: line.erase(at, 1 + rng() % 4);
      }
      if (line.empty()) line = "{";
    }
    Agree(line);
  }
}

}  // namespace
}  // namespace lockgraph
