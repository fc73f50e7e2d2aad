// See text_decoder.h.
#include "parsers/sqlserver/text_decoder.h"

namespace lockgraph {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(char(cp));
  } else if (cp < 0x800) {
    out->push_back(char(0xC0 | (cp >> 6)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(char(0xE0 | (cp >> 12)));
    out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(char(0xF0 | (cp >> 18)));
    out->push_back(char(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  }
}

constexpr uint32_t kReplacement = 0xFFFD;

}  // namespace

TextEncoding DetectTextEncoding(std::string_view s) {
  if (s.size() >= 2 && uint8_t(s[0]) == 0xFF && uint8_t(s[1]) == 0xFE) return TextEncoding::kUtf16Le;
  if (s.size() >= 2 && uint8_t(s[0]) == 0xFE && uint8_t(s[1]) == 0xFF) return TextEncoding::kUtf16Be;
  // No BOM: ASCII in UTF-16 has a zero in every other byte.
  size_t n = std::min<size_t>(s.size(), 64) & ~size_t(1);
  if (n < 4) return TextEncoding::kUtf8;
  size_t even_zero = 0, odd_zero = 0;
  for (size_t i = 0; i < n; ++i) (i % 2 ? odd_zero : even_zero) += s[i] == '\0';
  if (odd_zero * 4 >= n * 3 / 2 && even_zero == 0) return TextEncoding::kUtf16Le;
  if (even_zero * 4 >= n * 3 / 2 && odd_zero == 0) return TextEncoding::kUtf16Be;
  return TextEncoding::kUtf8;
}

std::vector<std::string> DecodeHead(const std::vector<std::string>& head) {
  std::vector<std::string> out;
  TextDecoder decoder([&](std::string_view line, uint64_t) { out.emplace_back(line); });
  for (size_t i = 0; i < head.size(); ++i) decoder.Feed(head[i], i + 1);
  decoder.Finish();
  return out;
}

void TextDecoder::Feed(std::string_view raw, uint64_t raw_line_no) {
  if (!started_) {
    started_ = true;
    encoding_ = DetectTextEncoding(raw);
    if (encoding_ == TextEncoding::kUtf8) {
      if (raw.substr(0, kUtf8Bom.size()) == kUtf8Bom) raw.remove_prefix(kUtf8Bom.size());
    } else if (raw.size() >= 2 && (uint8_t(raw[0]) == 0xFF || uint8_t(raw[0]) == 0xFE) &&
               (uint8_t(raw[1]) == 0xFE || uint8_t(raw[1]) == 0xFF)) {
      raw.remove_prefix(2);
    }
  } else if (encoding_ != TextEncoding::kUtf8) {
    raw_.push_back('\n');  // the byte the LineReader cut at
  }
  if (encoding_ == TextEncoding::kUtf8) {
    fn_(raw, raw_line_no);
    return;
  }
  raw_.append(raw);
  DecodeUnits();
}

void TextDecoder::DecodeUnits() {
  const bool le = encoding_ == TextEncoding::kUtf16Le;
  size_t i = 0;
  for (; i + 1 < raw_.size(); i += 2) {
    uint8_t a = uint8_t(raw_[i]), b = uint8_t(raw_[i + 1]);
    uint32_t unit = le ? (a | (b << 8)) : ((a << 8) | b);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      if (high_surrogate_) AppendUtf8(kReplacement, &line_);
      high_surrogate_ = unit;
      continue;
    }
    if (unit >= 0xDC00 && unit <= 0xDFFF) {
      if (high_surrogate_)
        AppendUtf8(0x10000 + ((high_surrogate_ - 0xD800) << 10) + (unit - 0xDC00), &line_);
      else
        AppendUtf8(kReplacement, &line_);
      high_surrogate_ = 0;
      continue;
    }
    if (high_surrogate_) AppendUtf8(kReplacement, &line_);
    high_surrogate_ = 0;
    if (unit == '\n') {
      EmitLine();
      continue;
    }
    AppendUtf8(unit, &line_);
  }
  raw_.erase(0, i);
}

void TextDecoder::EmitLine() {
  fn_(line_, ++line_no_);
  line_.clear();
}

void TextDecoder::Finish() {
  if (encoding_ == TextEncoding::kUtf8) return;
  if (high_surrogate_ || !raw_.empty()) AppendUtf8(kReplacement, &line_);
  high_surrogate_ = 0;
  raw_.clear();
  if (!line_.empty()) EmitLine();
}

DecodingLineParser::DecodingLineParser(std::unique_ptr<LineParser> inner)
    : inner_(std::move(inner)),
      decoder_([this](std::string_view line, uint64_t no) { inner_->ParseLine(line, no); }) {}

void DecodingLineParser::Finish() {
  decoder_.Finish();
  inner_->Finish();
}

}  // namespace lockgraph
