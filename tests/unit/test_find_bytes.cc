// FindEitherByte and FindByte (text/find_bytes.h) answer as a byte loop
// does, for every start in ranges of every size up to 70 bytes, with the
// bytes sought at every place, before the start too; each range is a heap
// block of its exact size, so that a read past it fails under
// AddressSanitizer.
#include <catch2/catch.hpp>

#include <memory>

#include "text/find_bytes.h"

namespace lockgraph {
namespace {

size_t ByteLoop(const char* s, size_t i, size_t n, char a, char b) {
  while (i < n && s[i] != a && s[i] != b) ++i;
  return i;
}

}  // namespace

TEST_CASE("FindEitherByte and FindByte find what a byte loop finds", "[find-bytes]") {
  for (size_t n = 0; n <= 70; ++n) {
    std::unique_ptr<char[]> s(new char[n == 0 ? 1 : n]);
    for (size_t at = 0; at <= n; ++at) {      // where ',' is (n: nowhere)
      for (size_t at2 = 0; at2 <= n; at2 += 3) {  // where '"' is
        for (size_t k = 0; k < n; ++k) s[k] = char('a' + k % 26);
        if (at < n) s[at] = ',';
        if (at2 < n) s[at2] = '"';
        for (size_t i = 0; i <= n; ++i) {
          INFO("size " << n << ", ',' at " << at << ", '\"' at " << at2 << ", from " << i);
          REQUIRE(FindEitherByte(s.get(), i, n, ',', '"') == ByteLoop(s.get(), i, n, ',', '"'));
          REQUIRE(FindByte(s.get(), i, n, '"') == ByteLoop(s.get(), i, n, '"', '"'));
        }
      }
    }
  }
}

TEST_CASE("FindEitherByte: bytes from 0x80 and NUL are bytes like any other", "[find-bytes]") {
  const std::string s = std::string("\xff\x80\0x\xc3\xa9", 6) + std::string(20, '\xfe') + "\x01";
  CHECK(FindByte(s.data(), 0, s.size(), '\x80') == 1);
  CHECK(FindByte(s.data(), 0, s.size(), '\0') == 2);
  CHECK(FindEitherByte(s.data(), 3, s.size(), '\x01', '\xa9') == 5);
  CHECK(FindByte(s.data(), 6, s.size(), '\x01') == s.size() - 1);
  CHECK(FindByte(s.data(), 6, s.size(), 'q') == s.size());
}

}  // namespace lockgraph
