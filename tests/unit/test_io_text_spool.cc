// TextSpool (src/io/text_spool.h): every text comes back as it was added,
// from memory or from the temporary file, however additions and reads
// interleave; the budget bounds what stays in memory.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "io/text_spool.h"

namespace lockgraph {

TEST_CASE("text spool gives back every text, spilled or not, reads between additions", "[spool]") {
  TextSpool spool(100);
  std::vector<std::pair<TextSpool::Ref, std::string>> kept;
  std::string buffer;
  std::string_view text;
  for (int i = 0; i < 500; ++i) {
    // Texts of 0 to 60 bytes, some with NULs and newlines.
    std::string t(size_t(i % 61), char('a' + i % 26));
    if (i % 7 == 0 && !t.empty()) t[t.size() / 2] = '\0';
    if (i % 5 == 0) t += "\n";
    kept.emplace_back(spool.Add(t), t);
    // Now and then read an old one (from the file) and the newest (from memory).
    if (i % 13 == 0) {
      const auto& [old_ref, old_text] = kept[size_t(i / 2)];
      REQUIRE(spool.Read(old_ref, &buffer, &text));
      CHECK(text == old_text);
      REQUIRE(spool.Read(kept.back().first, &buffer, &text));
      CHECK(text == kept.back().second);
    }
  }
  CHECK(spool.spilled());
  for (const auto& [ref, t] : kept) {
    REQUIRE(spool.Read(ref, &buffer, &text));
    CHECK(text == t);
  }
}

TEST_CASE("text spool reads back in order, in reverse and at random, texts over its budget too",
          "[spool]") {
  TextSpool spool(256);
  std::vector<std::pair<TextSpool::Ref, std::string>> kept;
  std::string buffer;
  std::string_view text;
  uint32_t seed = 7;
  auto next = [&] { return seed = seed * 1103515245u + 12345u, (seed >> 8) % 1000u; };
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 300; ++i) {
      // 0 to 599 bytes: most fit the window, some are larger than it.
      std::string t(size_t(next() % 600), char('a' + (i + round) % 26));
      if (!t.empty()) t[0] = char('0' + round);
      kept.emplace_back(spool.Add(t), t);
    }
    // In order (the window serves the next texts), in reverse, at random;
    // then more are added after the window was read, and all read again.
    for (const auto& [ref, t] : kept) {
      REQUIRE(spool.Read(ref, &buffer, &text));
      REQUIRE(text == t);
    }
    for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
      REQUIRE(spool.Read(it->first, &buffer, &text));
      REQUIRE(text == it->second);
    }
    for (int k = 0; k < 500; ++k) {
      const auto& [ref, t] = kept[next() % kept.size()];
      REQUIRE(spool.Read(ref, &buffer, &text));
      REQUIRE(text == t);
    }
  }
  CHECK(spool.spilled());
}

TEST_CASE("text spool under its budget stays in memory", "[spool]") {
  TextSpool spool(1 << 20);
  TextSpool::Ref a = spool.Add("first");
  TextSpool::Ref b = spool.Add("");
  TextSpool::Ref c = spool.Add("third");
  CHECK_FALSE(spool.spilled());
  std::string buffer;
  std::string_view text;
  REQUIRE(spool.Read(c, &buffer, &text));
  CHECK(text == "third");
  REQUIRE(spool.Read(b, &buffer, &text));
  CHECK(text.empty());
  REQUIRE(spool.Read(a, &buffer, &text));
  CHECK(text == "first");
}

}  // namespace lockgraph
