// SQL Server files come as UTF-8 (with or without a byte order mark) or as
// UTF-16 (.xdl files saved by SSMS, the ERRORLOG: little endian with a BOM,
// CRLF). The LineReader cuts raw bytes at every '\n' byte, which in UTF-16
// is half a character and may even be a byte of another character; the
// TextDecoder puts the raw bytes back together, decodes them and hands on
// UTF-8 lines cut at U+000A, numbered from 1. UTF-8 input passes through
// without a copy (only the BOM of the first line is dropped).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/input_format.h"

namespace lockgraph {

enum class TextEncoding { kUtf8, kUtf16Le, kUtf16Be };

/// The encoding of an input from its first raw line: a byte order mark, or
/// else the zero bytes that ASCII text has in UTF-16. Default UTF-8.
TextEncoding DetectTextEncoding(std::string_view first_raw_line);

/// Decodes raw head lines (LineReader::Head) to UTF-8 lines, for Sniff.
std::vector<std::string> DecodeHead(const std::vector<std::string>& head);

/// Feeds decoded lines to `fn`. Invalid UTF-16 (a lone surrogate, an odd
/// last byte) becomes U+FFFD; nothing throws.
class TextDecoder {
 public:
  using LineFn = std::function<void(std::string_view line, uint64_t line_no)>;
  explicit TextDecoder(LineFn fn) : fn_(std::move(fn)) {}

  /// One raw line as the LineReader gives it (no '\n'), 1-based.
  void Feed(std::string_view raw, uint64_t raw_line_no);
  /// End of input: hands on a last line without a line end.
  void Finish();
  TextEncoding encoding() const { return encoding_; }

 private:
  void DecodeUnits();
  void EmitLine();

  LineFn fn_;
  bool started_ = false;
  TextEncoding encoding_ = TextEncoding::kUtf8;
  std::string raw_;        // UTF-16: bytes not decoded yet (at most 3)
  std::string line_;       // UTF-16: the decoded line being built
  uint32_t high_surrogate_ = 0;
  uint64_t line_no_ = 0;   // UTF-16: lines handed on so far
};

/// A LineParser that decodes its input and feeds `inner` UTF-8 lines;
/// counts are the inner parser's (decoded lines).
class DecodingLineParser final : public LineParser {
 public:
  explicit DecodingLineParser(std::unique_ptr<LineParser> inner);
  void ParseLine(std::string_view line, uint64_t line_no) override { decoder_.Feed(line, line_no); }
  void Finish() override;
  const LineCounts& counts() const override { return inner_->counts(); }
  LineParser& inner() { return *inner_; }

 private:
  std::unique_ptr<LineParser> inner_;
  TextDecoder decoder_;
};

}  // namespace lockgraph
