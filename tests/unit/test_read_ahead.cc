// ReadAhead (src/io/read_ahead.h) when the owner gathers blocks larger than
// the helper's 1 MiB reads, as syslog's and stderr's parts do on several
// threads (8 and 16 MiB): every byte once and in order, and the owner's
// buffer no larger than what it asked for. It was grown by vector's
// doubling, and the 16 MiB buffers went round through the free list: peak
// RSS of a 1 GiB syslog file at --threads 9 was 76 MB, now 52 MB.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "io/read_ahead.h"

using namespace lockgraph;

TEST_CASE("ReadAhead: blocks larger than the helper's, every byte once, buffers their size",
          "[blocks]") {
  std::string input;
  for (size_t i = 0; input.size() < (size_t{21} << 20) + 12345; ++i)
    input += "line " + std::to_string(i) + " of the input\n";
  size_t at = 0;
  ReadAhead ahead(
      [&](char* dst, size_t want, std::string*) -> long {
        const size_t n = std::min(want, input.size() - at);
        input.copy(dst, n, at);
        at += n;
        return long(n);
      },
      [] {});
  ahead.Start();
  const size_t block = size_t{8} << 20;
  std::vector<char> buf;
  size_t begin = 0, end = 0;
  std::string got, error;
  // The owner's block, the room for a line's end and one helper's read; the
  // helper's blocks read ahead, one being read and one free.
  const size_t bound = block + (ReadAhead::kAhead + 3) * (ReadAhead::kRoom + ReadAhead::kBlock);
  for (bool more = true; more;) {
    while (end - begin < block) {
      // The helper reads ahead whenever it may, as the rules' thread does.
      while (ahead.Help()) {
      }
      const long n = ahead.Next(&buf, &begin, &end, block - (end - begin), &error);
      REQUIRE(n >= 0);
      if (n == 0) {
        more = false;
        break;
      }
      CHECK(buf.capacity() + ahead.held_bytes() <= bound);
    }
    // The owner takes all but a line's end of 100 bytes, which stays in front.
    const size_t keep = more ? std::min<size_t>(100, end - begin) : 0;
    got.append(buf.data() + begin, end - begin - keep);
    begin = end - keep;
    std::copy(buf.begin() + long(begin), buf.begin() + long(end), buf.begin());
    end -= begin;
    begin = 0;
  }
  ahead.Stop();
  CHECK(error.empty());
  REQUIRE(got.size() == input.size());
  CHECK(got == input);
}
