// See decoder.h. Each codec is a thin adapter over its own library's
// streaming call; none allocates per call.
#include "io/decoder.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>

namespace lockgraph {
namespace {

class GzipDecoder final : public Decoder {
 public:
  bool Start() { return ready_ = inflateInit2(&zs_, 16 + MAX_WBITS) == Z_OK; }
  ~GzipDecoder() override {
    if (ready_) inflateEnd(&zs_);
  }
  const char* Name() const override { return "gzip"; }
  bool Decode(const unsigned char** in, size_t* in_len, unsigned char** out, size_t* out_len,
              bool, std::string* error) override {
    zs_.next_in = const_cast<unsigned char*>(*in);
    zs_.avail_in = unsigned(*in_len);
    zs_.next_out = *out;
    zs_.avail_out = unsigned(*out_len);
    if (*in_len) mid_member_ = true;
    int rc = inflate(&zs_, Z_NO_FLUSH);
    *in = zs_.next_in;
    *in_len = zs_.avail_in;
    *out = zs_.next_out;
    *out_len = zs_.avail_out;
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members (e.g. `cat a.gz b.gz`) continue.
      inflateReset(&zs_);
      mid_member_ = false;
      return true;
    }
    if (rc == Z_OK || rc == Z_BUF_ERROR) return true;
    *error = std::string("corrupt gzip data (") + (zs_.msg ? zs_.msg : "inflate error") + ")";
    return false;
  }
  bool Complete() const override { return !mid_member_; }

 private:
  z_stream zs_{};
  bool ready_ = false;
  bool mid_member_ = false;
};

class Bzip2Decoder final : public Decoder {
 public:
  bool Start() { return ready_ = BZ2_bzDecompressInit(&bs_, 0, 0) == BZ_OK; }
  ~Bzip2Decoder() override {
    if (ready_) BZ2_bzDecompressEnd(&bs_);
  }
  const char* Name() const override { return "bzip2"; }
  bool Decode(const unsigned char** in, size_t* in_len, unsigned char** out, size_t* out_len,
              bool, std::string* error) override {
    if (!ready_ && *in_len) {
      // The next stream of a concatenated file (pbzip2, `cat a.bz2 b.bz2`).
      if (!Start()) {
        *error = "cannot restart the bzip2 decoder";
        return false;
      }
    }
    if (!ready_) return true;
    bs_.next_in = const_cast<char*>(reinterpret_cast<const char*>(*in));
    bs_.avail_in = unsigned(*in_len);
    bs_.next_out = reinterpret_cast<char*>(*out);
    bs_.avail_out = unsigned(*out_len);
    if (*in_len) mid_stream_ = true;
    int rc = BZ2_bzDecompress(&bs_);
    *in = reinterpret_cast<const unsigned char*>(bs_.next_in);
    *in_len = bs_.avail_in;
    *out = reinterpret_cast<unsigned char*>(bs_.next_out);
    *out_len = bs_.avail_out;
    if (rc == BZ_STREAM_END) {
      BZ2_bzDecompressEnd(&bs_);
      bs_ = bz_stream{};
      ready_ = false;
      mid_stream_ = false;
      return true;
    }
    if (rc == BZ_OK) return true;
    *error = "corrupt bzip2 data (error " + std::to_string(rc) + ")";
    return false;
  }
  bool Complete() const override { return !mid_stream_; }

 private:
  bz_stream bs_{};
  bool ready_ = false;
  bool mid_stream_ = false;
};

class XzDecoder final : public Decoder {
 public:
  bool Start() {
    return ready_ = lzma_stream_decoder(&ls_, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
  }
  ~XzDecoder() override {
    if (ready_) lzma_end(&ls_);
  }
  const char* Name() const override { return "xz"; }
  bool Decode(const unsigned char** in, size_t* in_len, unsigned char** out, size_t* out_len,
              bool at_eof, std::string* error) override {
    if (ended_) return true;
    ls_.next_in = *in;
    ls_.avail_in = *in_len;
    ls_.next_out = *out;
    ls_.avail_out = *out_len;
    // LZMA_FINISH at the end: with LZMA_CONCATENATED the decoder only then
    // knows that no further stream follows.
    lzma_ret rc = lzma_code(&ls_, at_eof ? LZMA_FINISH : LZMA_RUN);
    *in = ls_.next_in;
    *in_len = ls_.avail_in;
    *out = ls_.next_out;
    *out_len = ls_.avail_out;
    if (rc == LZMA_STREAM_END) ended_ = true;
    // LZMA_BUF_ERROR at the end: the input stops inside a stream
    // (Complete() stays false and the caller says so).
    if (rc == LZMA_OK || rc == LZMA_STREAM_END || rc == LZMA_BUF_ERROR) return true;
    *error = "corrupt xz data (liblzma error " + std::to_string(int(rc)) + ")";
    return false;
  }
  bool Complete() const override { return ended_; }

 private:
  lzma_stream ls_ = LZMA_STREAM_INIT;
  bool ready_ = false;
  bool ended_ = false;
};

class ZstdDecoder final : public Decoder {
 public:
  bool Start() { return (ds_ = ZSTD_createDStream()) != nullptr && !ZSTD_isError(ZSTD_initDStream(ds_)); }
  ~ZstdDecoder() override { ZSTD_freeDStream(ds_); }
  const char* Name() const override { return "zstd"; }
  bool Decode(const unsigned char** in, size_t* in_len, unsigned char** out, size_t* out_len,
              bool, std::string* error) override {
    ZSTD_inBuffer ib{*in, *in_len, 0};
    ZSTD_outBuffer ob{*out, *out_len, 0};
    size_t rc = ZSTD_decompressStream(ds_, &ob, &ib);
    *in += ib.pos;
    *in_len -= ib.pos;
    *out += ob.pos;
    *out_len -= ob.pos;
    if (ZSTD_isError(rc)) {
      *error = std::string("corrupt zstd data (") + ZSTD_getErrorName(rc) + ")";
      return false;
    }
    // 0: a frame is decoded and flushed; the next one, if any, starts anew.
    if (ib.pos || ob.pos) frame_done_ = rc == 0;
    return true;
  }
  bool Complete() const override { return frame_done_; }

 private:
  ZSTD_DStream* ds_ = nullptr;
  bool frame_done_ = false;
};

template <typename T>
std::unique_ptr<Decoder> Started(std::string* error) {
  auto d = std::make_unique<T>();
  if (d->Start()) return d;
  *error = std::string("cannot start the ") + d->Name() + " decoder";
  return nullptr;
}

bool HasMagic(const unsigned char* head, size_t n, const char* magic, size_t len) {
  return n >= len && std::memcmp(head, magic, len) == 0;
}

}  // namespace

std::unique_ptr<Decoder> DecoderFor(const unsigned char* head, size_t n, std::string* error) {
  if (HasMagic(head, n, "\x1f\x8b", 2)) return Started<GzipDecoder>(error);
  // "BZh" then the block size digit '1'..'9'.
  if (HasMagic(head, n, "BZh", 3) && n >= 4 && head[3] >= '1' && head[3] <= '9')
    return Started<Bzip2Decoder>(error);
  if (HasMagic(head, n, "\xfd" "7zXZ\0", 6)) return Started<XzDecoder>(error);
  if (HasMagic(head, n, "\x28\xb5\x2f\xfd", 4)) return Started<ZstdDecoder>(error);
  return nullptr;
}

}  // namespace lockgraph
